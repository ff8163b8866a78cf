// XXH64 (Yann Collet's 64-bit xxHash), written from its specification
// (xxhash.com, doc/xxhash_spec.md), for Parquet's split-block Bloom filters:
// the Parquet format fixes XXH64 with seed 0 over a value's PLAIN encoding,
// so these filters must hash exactly as every Parquet writer does. (The
// other sketches use XXH3 from the system's libxxhash, core/common/hash.h;
// that library's XXH64 would do too, but an implementation of our own,
// checked against the published reference values in
// test/unit/common/xxh64_test.cpp, keeps the Parquet bytes independent of
// which libxxhash version a server has.)
//
// Inline and branch-light: bloom_agg hashes every row with it, and most
// Parquet values are 4 or 8 bytes long.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/common/bytes.h"

namespace sketch {

namespace xxh64_detail {

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// Little-endian loads whatever the host order (the spec reads input lanes
// as little-endian integers): one unaligned load each (bytes.h), not a
// byte-by-byte loop, which made short inputs much slower (docs/benchmarks.md).
inline uint64_t read64(const uint8_t* p) { return load_le64(p); }
inline uint32_t read32(const uint8_t* p) { return load_le32(p); }

inline uint64_t round(uint64_t acc, uint64_t lane) {
  acc += lane * kPrime2;
  acc = rotl(acc, 31);
  return acc * kPrime1;
}

inline uint64_t merge_round(uint64_t acc, uint64_t val) {
  acc ^= round(0, val);
  return acc * kPrime1 + kPrime4;
}

inline uint64_t avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  h ^= h >> 32;
  return h;
}

}  // namespace xxh64_detail

inline uint64_t xxh64(const void* data, size_t len, uint64_t seed) {
  using namespace xxh64_detail;
  const uint8_t* p = static_cast<const uint8_t*>(data);
  const uint8_t* const end = p + len;
  uint64_t h;
  if (len >= 32) {
    // Four accumulators over 32-byte stripes.
    uint64_t v1 = seed + kPrime1 + kPrime2;
    uint64_t v2 = seed + kPrime2;
    uint64_t v3 = seed;
    uint64_t v4 = seed - kPrime1;
    const uint8_t* const limit = end - 32;
    do {
      v1 = round(v1, read64(p));
      v2 = round(v2, read64(p + 8));
      v3 = round(v3, read64(p + 16));
      v4 = round(v4, read64(p + 24));
      p += 32;
    } while (p <= limit);
    h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
    h = merge_round(h, v1);
    h = merge_round(h, v2);
    h = merge_round(h, v3);
    h = merge_round(h, v4);
  } else {
    h = seed + kPrime5;
  }
  h += static_cast<uint64_t>(len);
  // The remaining 0..31 bytes: 8, then 4, then 1 at a time.
  while (end - p >= 8) {
    h ^= round(0, read64(p));
    h = rotl(h, 27) * kPrime1 + kPrime4;
    p += 8;
  }
  if (end - p >= 4) {
    h ^= static_cast<uint64_t>(read32(p)) * kPrime1;
    h = rotl(h, 23) * kPrime2 + kPrime3;
    p += 4;
  }
  while (p < end) {
    h ^= static_cast<uint64_t>(*p) * kPrime5;
    h = rotl(h, 11) * kPrime1;
    p++;
  }
  return avalanche(h);
}

}  // namespace sketch
