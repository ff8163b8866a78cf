// The text form shared by every sketch type: "\x" followed by lowercase hex
// of the binary format, like bytea's hex output. It round-trips exactly,
// which distributed engines rely on when they ship partial aggregate states
// as text.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/status.h"

namespace sketch {

// Characters written by hex_encode for len bytes (no terminating NUL).
inline size_t hex_text_size(size_t len) { return 2 + 2 * len; }

void hex_encode(const uint8_t* data, size_t len, char* out);

// Bytes hex_decode will produce for text of this length, or 0 if the
// length alone is impossible; the decoder still validates every character.
inline size_t hex_decoded_size(size_t text_len) {
  return text_len >= 2 && text_len % 2 == 0 ? (text_len - 2) / 2 : 0;
}

// Decodes "\x..." into out (hex_decoded_size(len) bytes).
Status hex_decode(const char* text, size_t len, uint8_t* out);

}  // namespace sketch
