// Apache DataSketches' hashing (hash identity 3, header.h
// kDatasketchesIdentity): MurmurHash3 x64 128 of a value's bytes with the
// libraries' default seed 9001, so that a sketch built here from a value and
// one the C++, Java or Go library built from the same value hold the same
// hash. Shared by every family that reads or writes DataSketches bytes (hll,
// theta, frequent items); how each family turns the 128 bits into its own
// registers or entries is that family's business.
//
// The value encodings follow the libraries' update() overloads:
//   update(long) / update(int64_t)   the 8 little-endian bytes of the integer
//                                    (narrower integers are widened first)
//   update(double)                   -0.0 as 0.0 and every NaN as the one
//                                    canonical NaN, then its 8 IEEE 754 bytes
//   update(byte[]), update(String)   the bytes; a string as UTF-8
// The libraries skip empty strings and empty byte arrays: callers do too.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/murmur3.h"

namespace sketch::datasketches {

// The libraries' DEFAULT_UPDATE_SEED. murmur3_x64_128 takes a 32-bit seed and
// zero-extends it into both lanes, which is what the libraries' 64-bit seed
// 9001 does.
constexpr uint64_t kDefaultSeed = 9001;

// seed_hash(kDefaultSeed): what serialized theta sketches store so that a
// reader refuses a sketch of another seed.
constexpr uint16_t kDefaultSeedHash = 0x93CC;

// The 16-bit digest of a seed that the formats store: the low 16 bits of h1 of
// MurmurHash3 x64 128 (seed 0) over the seed's 8 little-endian bytes.
uint16_t seed_hash(uint64_t seed);

// update(long): the integer's 8 little-endian bytes, seed 9001.
Murmur3Hash hash_long(int64_t v);

// update(double): canonicalized (-0.0 -> 0.0, NaN -> 0x7ff8000000000000),
// then its bits as in hash_long.
Murmur3Hash hash_double(double v);

// update(byte[]) and update(String) (the caller passes UTF-8), seed 9001.
Murmur3Hash hash_bytes(const void* p, size_t n);

}  // namespace sketch::datasketches
