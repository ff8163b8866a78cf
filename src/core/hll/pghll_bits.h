// The peer's bit packing (pghll.h): words written from the high bit of the
// first byte down, a word's high bits first. Widths here are at most 25 bits
// (log2m 17 + regwidth 8), so a word spans at most 4 bytes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sketch::hll::pghll::detail {

// The `width`-bit word starting `bit` bits into data (which holds it whole).
inline uint32_t get_bits(const uint8_t* data, size_t bit, int width) {
  uint32_t word = 0;
  for (int i = 0; i < width; i++) {
    const size_t b = bit + static_cast<size_t>(i);
    word = word << 1 | ((data[b >> 3] >> (7 - (b & 7))) & 1u);
  }
  return word;
}

// ORs the word into data, which the caller zeroed.
inline void put_bits(uint8_t* data, size_t bit, int width, uint32_t word) {
  for (int i = 0; i < width; i++) {
    const size_t b = bit + static_cast<size_t>(i);
    if ((word >> (width - 1 - i)) & 1u) data[b >> 3] |= static_cast<uint8_t>(0x80u >> (b & 7));
  }
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
