#include "core/common/datasketches_hash.h"

#include <cstring>

#include "core/common/bytes.h"

namespace sketch::datasketches {

namespace {

constexpr uint64_t kCanonicalNanBits = 0x7ff8000000000000ULL;

Murmur3Hash hash_u64(uint64_t v, uint32_t seed) {
  uint8_t le[8];
  store_le64(le, v);
  return murmur3_x64_128(le, sizeof le, seed);
}

}  // namespace

uint16_t seed_hash(uint64_t seed) {
  return static_cast<uint16_t>(hash_u64(seed, 0).h1 & 0xFFFF);
}

Murmur3Hash hash_long(int64_t v) {
  return hash_u64(static_cast<uint64_t>(v), static_cast<uint32_t>(kDefaultSeed));
}

Murmur3Hash hash_double(double v) {
  uint64_t bits;
  if (v != v) {
    bits = kCanonicalNanBits;
  } else {
    if (v == 0.0) v = 0.0;  // -0.0 compares equal to 0.0: both hash as +0.0
    std::memcpy(&bits, &v, sizeof bits);
  }
  return hash_u64(bits, static_cast<uint32_t>(kDefaultSeed));
}

Murmur3Hash hash_bytes(const void* p, size_t n) {
  return murmur3_x64_128(p, n, static_cast<uint32_t>(kDefaultSeed));
}

}  // namespace sketch::datasketches
