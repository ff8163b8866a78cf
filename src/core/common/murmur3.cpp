#include "core/common/murmur3.h"

#include "core/common/bytes.h"

namespace sketch {

namespace {

constexpr uint64_t kC1 = 0x87c37b91114253d5ull;
constexpr uint64_t kC2 = 0x4cf5ad432745937full;

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// The finalizer: every input bit affects every output bit.
inline uint64_t fmix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

inline uint64_t mix_k1(uint64_t k1) { return rotl(k1 * kC1, 31) * kC2; }
inline uint64_t mix_k2(uint64_t k2) { return rotl(k2 * kC2, 33) * kC1; }

// The 1..15 bytes after the last full block, little-endian into two lanes.
uint64_t tail_lane(const uint8_t* tail, size_t n) {
  uint64_t k = 0;
  for (size_t i = n; i > 0; i--) k = (k << 8) | tail[i - 1];
  return k;
}

}  // namespace

Murmur3Hash murmur3_x64_128(const void* data, size_t len, uint32_t seed) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  uint64_t h1 = seed;
  uint64_t h2 = seed;
  const size_t blocks = len / 16;
  for (size_t i = 0; i < blocks; i++) {
    const uint64_t k1 = load_le64(bytes + 16 * i);
    const uint64_t k2 = load_le64(bytes + 16 * i + 8);
    h1 ^= mix_k1(k1);
    h1 = rotl(h1, 27) + h2;
    h1 = h1 * 5 + 0x52dce729;
    h2 ^= mix_k2(k2);
    h2 = rotl(h2, 31) + h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  const uint8_t* tail = bytes + 16 * blocks;
  const size_t rest = len & 15;
  if (rest > 8) h2 ^= mix_k2(tail_lane(tail + 8, rest - 8));
  if (rest > 0) h1 ^= mix_k1(tail_lane(tail, rest > 8 ? 8 : rest));
  h1 ^= static_cast<uint64_t>(len);
  h2 ^= static_cast<uint64_t>(len);
  h1 += h2;
  h2 += h1;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 += h2;
  h2 += h1;
  return Murmur3Hash{h1, h2};
}

}  // namespace sketch
