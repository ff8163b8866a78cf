// Unsigned LEB128 varints, the integers of ddsketch's stored buckets and of
// the protobuf wire format (core/common/protobuf_wire.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sketch {

inline size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

inline uint8_t* put_varint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

enum class VarintRead { kOk, kTruncated, kTooLong, kOverlong };

// Reads one varint from [*p, end). kTooLong: more than 10 bytes or above
// 2^64 - 1; kOverlong: a final zero byte after the first (not the shortest
// form). *p moves past what was read only on kOk and kOverlong.
inline VarintRead get_varint(const uint8_t** p, const uint8_t* end, uint64_t* out) {
  const uint8_t* q = *p;
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (q == end) return VarintRead::kTruncated;
    const uint8_t byte = *q++;
    if (shift == 63 && byte > 1) return VarintRead::kTooLong;
    v |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      *out = v;
      *p = q;
      return byte == 0 && shift > 0 ? VarintRead::kOverlong : VarintRead::kOk;
    }
  }
  return VarintRead::kTooLong;
}

}  // namespace sketch
