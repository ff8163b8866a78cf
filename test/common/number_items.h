// What the test helpers of topk and theta share: a fixed random stream and
// the hash the SQL layer gives a number.
#pragma once

#include <cstdint>

#include "core/common/bytes.h"
#include "core/common/hash.h"

namespace sketch::test {

// splitmix64: a fixed, platform-independent stream (std::*_distribution
// are not specified bit for bit).
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1), 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  uint64_t below(uint64_t n) { return next() % n; }

 private:
  uint64_t state_;
};

// The hash the SQL layer gives a number: XXH3 of its 8-byte little-endian
// int64 (the canonical encoding of smallint, integer and bigint).
inline uint64_t item_hash(int64_t item) {
  uint8_t bytes[8];
  store_le64(bytes, static_cast<uint64_t>(item));
  return hash64(bytes, sizeof bytes);
}

}  // namespace sketch::test
