// MurmurHash3 x64 128 (Austin Appleby's public-domain algorithm), written
// here from its description: the hash postgresql-hll's hll_hash_* functions
// apply to a value's bytes, so that sketches of hash identity 2
// (header.h, kPostgresqlHllIdentity) hash a value exactly as the peer does.
// Not used for identity 1, which is XXH3 (hash.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sketch {

struct Murmur3Hash {
  uint64_t h1;  // the first half: what postgresql-hll keeps as its hash
  uint64_t h2;
};

// The 32-bit seed starts both 64-bit lanes, zero-extended (a negative int32
// seed as postgresql-hll takes it is its two's-complement uint32).
Murmur3Hash murmur3_x64_128(const void* data, size_t len, uint32_t seed);

}  // namespace sketch
