// The peer's bit packing (pghll.h): words written from the high bit of the
// first byte down, a word's high bits first. Widths here are at most 25 bits
// (log2m 17 + regwidth 8), so a word spans at most 4 bytes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sketch::hll::pghll::detail {

// The `width`-bit word starting `bit` bits into data (which holds it whole):
// the (at most 4) bytes it touches, big-endian, shifted down. A FULL value
// at log2m 14 is 16,384 such words, read on every import and estimate.
inline uint32_t get_bits(const uint8_t* data, size_t bit, int width) {
  const uint8_t* p = data + (bit >> 3);
  const int skip = static_cast<int>(bit & 7);
  const int bytes = (skip + width + 7) >> 3;
  uint32_t word = 0;
  for (int i = 0; i < bytes; i++) word = word << 8 | p[i];
  return (word >> (8 * bytes - skip - width)) & ((uint32_t{1} << width) - 1);
}

// ORs the word (below 2^width) into data, which the caller zeroed.
inline void put_bits(uint8_t* data, size_t bit, int width, uint32_t word) {
  uint8_t* p = data + (bit >> 3);
  const int skip = static_cast<int>(bit & 7);
  const int bytes = (skip + width + 7) >> 3;
  const uint32_t placed = word << (8 * bytes - skip - width);
  for (int i = 0; i < bytes; i++) p[i] |= static_cast<uint8_t>(placed >> (8 * (bytes - 1 - i)));
}

inline size_t bytes_for_bits(size_t bits) { return (bits + 7) / 8; }

// EXPLICIT holds hashes big-endian, ordered as signed int64.
inline uint64_t load_be64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | p[i];
  return v;
}
inline void store_be64(uint8_t* p, uint64_t v) {
  for (int i = 7; i >= 0; i--) {
    p[i] = static_cast<uint8_t>(v);
    v >>= 8;
  }
}
inline bool signed_less(uint64_t a, uint64_t b) {
  return static_cast<int64_t>(a) < static_cast<int64_t>(b);
}

}  // namespace sketch::hll::pghll::detail
