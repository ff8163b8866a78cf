// What every *_text fuzz target shares: the C string a type's input function
// (hll_in, cms_in, bloom_in) receives, decoded the way sketch_from_text
// decodes it, and the check that what was accepted prints back as the input.
#pragma once

#include <cctype>
#include <cstring>
#include <string>

#include "core/common/hex.h"
#include "fuzz_check.h"

namespace sketch::fuzz {

struct TextInput {
  std::string text;  // the input as the server sees it: cut at the first NUL
  Bytes decoded;     // the bytes of "\x<hex>", when decoding succeeded
};

// Cuts the input at the first NUL, as PostgreSQL's cstring is, and decodes
// it. False (after checking the error is well-formed) when the text is not
// "\x" + an even number of hex digits.
inline bool decode_text(const uint8_t* data, size_t size, TextInput* out) {
  out->text.assign(reinterpret_cast<const char*>(data),
                   strnlen(reinterpret_cast<const char*>(data), size));
  // An exact-size copy of the characters (no terminating NUL to lean on).
  const Bytes chars(out->text.begin(), out->text.end());
  out->decoded.assign(hex_decoded_size(chars.size()), 0);
  const Status st =
      hex_decode(reinterpret_cast<const char*>(chars.data()), chars.size(), out->decoded.data());
  if (!st.is_ok()) {
    FUZZ_CHECK(st.code() == StatusCode::kInvalidText);
    FUZZ_CHECK(st.message()[0] != '\0');
    return false;
  }
  FUZZ_CHECK(chars.size() >= 2 && chars.size() % 2 == 0);
  return true;
}

// The text form round-trips: what <type>_out prints for accepted bytes is
// the input, lowercased.
inline void check_prints_back(const TextInput& in) {
  std::string printed(hex_text_size(in.decoded.size()), '\0');
  hex_encode(in.decoded.data(), in.decoded.size(), printed.data());
  std::string lowered = in.text;
  for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  FUZZ_CHECK(printed == lowered);
}

}  // namespace sketch::fuzz
