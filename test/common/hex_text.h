// The "\x<hex>" text of a byte buffer, as the SQL types print it; shared by
// the per-type test helpers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/hex.h"

namespace sketch::test {

inline std::string hex_text(const std::vector<uint8_t>& bytes) {
  std::string text(hex_text_size(bytes.size()), '\0');
  hex_encode(bytes.data(), bytes.size(), text.data());
  return text;
}

}  // namespace sketch::test
