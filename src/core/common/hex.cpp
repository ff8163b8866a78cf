#include "core/common/hex.h"

namespace sketch {

namespace {

constexpr char kDigits[] = "0123456789abcdef";

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void hex_encode(const uint8_t* data, size_t len, char* out) {
  *out++ = '\\';
  *out++ = 'x';
  for (size_t i = 0; i < len; i++) {
    *out++ = kDigits[data[i] >> 4];
    *out++ = kDigits[data[i] & 0xF];
  }
}

Status hex_decode(const char* text, size_t len, uint8_t* out) {
  if (len < 2 || text[0] != '\\' || text[1] != 'x')
    return Status::error(StatusCode::kInvalidText,
                         "sketch text must start with \\x followed by hex digits");
  if (len % 2 != 0)
    return Status::error(StatusCode::kInvalidText,
                         "sketch text has an odd number of hex digits (%zu)", len - 2);
  for (size_t i = 2; i < len; i += 2) {
    const int hi = nibble(text[i]);
    const int lo = nibble(text[i + 1]);
    if (hi < 0 || lo < 0) {
      const size_t bad = hi < 0 ? i : i + 1;
      return Status::error(StatusCode::kInvalidText,
                           "invalid hex digit \"%c\" at position %zu of sketch text",
                           text[bad], bad + 1);
    }
    *out++ = static_cast<uint8_t>(hi << 4 | lo);
  }
  return Status::ok();
}

}  // namespace sketch
