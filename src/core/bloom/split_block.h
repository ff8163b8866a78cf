// The split-block layout of bloom: Parquet's split-block Bloom filter
// (parquet-format BloomFilter.md; Putze, Sanders and Singler, "Cache-, hash-
// and space-efficient Bloom filters", 2007), bit for bit as the Parquet
// format specifies it, so that a filter built here is the filter a Parquet
// writer would store for the same column, and the other way round.
//
// The bitset is z blocks of 256 bits; a block is eight 32-bit words, each
// stored little-endian. A value's 64-bit hash h (XXH64, seed 0, of the
// value's Parquet PLAIN encoding: core/common/xxh64.h) picks one block,
//
//   block = ((h >> 32) * z) >> 32          (Lemire's multiply-shift on the high half)
//
// and, with x = the low 32 bits of h, one bit in each word i of that block,
//
//   bit_i = (x * salt[i] mod 2^32) >> 27   (the top 5 bits: 0..31)
//
// Insert sets the eight bits; check answers "maybe present" when all eight
// are set. A value touches one 32-byte block, so one cache line (two when
// the block straddles a line: the bitset's address is not 32-byte aligned
// inside a PostgreSQL value), where the classic layout touches k lines.
//
// False-positive rate (the formula Parquet documents, after Putze et al.).
// With b bits per distinct value, a filter of z blocks holds n = 256 z / b
// values; the values falling in one block are close to Poisson with mean
// lambda = n / z = 256 / b. Given a block that holds i values, each word has
// had i bits set, each uniform over its 32 positions, so a given bit of a
// word is set with probability 1 - (1 - 1/32)^i; a value never added passes
// only if its bit is set in all eight words (the salts make the eight
// positions independent), (1 - (1 - 1/32)^i)^8. Averaging over the block's
// load:
//
//   fpp(b) = sum_{i >= 0} Poisson(i; 256/b) * (1 - (1 - 1/32)^i)^8
//
// For the same bits per value this is worse than the classic layout's
// (1 - e^(-kn/m))^k at its best k: at 1% the split-block layout needs about
// 10.5 bits per value where classic needs 9.6 (docs/bloom.md has the
// table). That is the price of touching one line per value.
//
// Size. The Parquet format allows any number of blocks, but the writers
// (parquet-java, Arrow C++) make power-of-two sizes and Arrow's reader
// rounds a size that is not one up to the next power of two (reading past
// the bitset), so every filter made here has a power-of-two number of bytes
// from 32 (one block) to 128 MiB (Arrow's maximum): the smallest such size
// whose fpp at n values is at most p. Readers here accept any whole number
// of blocks (bloom_from_parquet), as the format allows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/bytes.h"
#include "core/common/status.h"

namespace sketch::bloom::split_block {

// The eight odd constants of the Parquet specification.
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

constexpr uint64_t kBlockBits = 256;
constexpr size_t kBlockBytes = 32;
constexpr int kWordsPerBlock = 8;  // recorded as the filter's "hashes"

// One block to 128 MiB of bits (2^30 bits), in bits.
constexpr uint64_t kMinBits = kBlockBits;
constexpr uint64_t kMaxBits = uint64_t{1} << 30;

inline uint64_t block_count(uint64_t bits) { return bits / kBlockBits; }

inline uint64_t block_index(uint64_t hash, uint64_t blocks) {
  return ((hash >> 32) * blocks) >> 32;
}

// The bit of word i that hash sets (0..31).
inline uint32_t bit_in_word(uint64_t hash, int i) {
  return (static_cast<uint32_t>(hash) * kSalt[i]) >> 27;
}

// The block of a hash within a bitset of `blocks` blocks.
inline uint8_t* block_of(uint8_t* bitset, uint64_t blocks, uint64_t hash) {
  return bitset + kBlockBytes * block_index(hash, blocks);
}
inline const uint8_t* block_of(const uint8_t* bitset, uint64_t blocks, uint64_t hash) {
  return bitset + kBlockBytes * block_index(hash, blocks);
}

inline void insert(uint8_t* bitset, uint64_t blocks, uint64_t hash) {
  uint8_t* block = block_of(bitset, blocks, hash);
  for (int i = 0; i < kWordsPerBlock; i++)
    store_le32(block + 4 * i, load_le32(block + 4 * i) | (1u << bit_in_word(hash, i)));
}

// All eight words are read without stopping early (independent loads of one
// block, no unpredictable branch), as for the classic layout.
inline bool check(const uint8_t* bitset, uint64_t blocks, uint64_t hash) {
  const uint8_t* block = block_of(bitset, blocks, hash);
  uint32_t all = 1;
  for (int i = 0; i < kWordsPerBlock; i++) all &= load_le32(block + 4 * i) >> bit_in_word(hash, i);
  return (all & 1) != 0;
}

// The formula above at bits_per_value = m / n (> 0).
double formula_fpp(double bits_per_value);

// What plan_size describes: power-of-two byte counts up to 2^59 bits.
constexpr uint64_t kMaxPlannedBits = uint64_t{1} << 62;

// The smallest power-of-two bitset (at least one block) whose formula fpp at
// n values is at most p, also beyond kMaxBits (sizing questions get an
// answer). kInvalidParameter for n < 1, p outside (0, 1), or a size beyond
// kMaxPlannedBits.
Status plan_bits(int64_t n, double p, uint64_t* bits);

// A whole number of blocks within kMinBits..kMaxBits (readable sizes; new
// filters are powers of two).
inline bool valid_bits(uint64_t bits) {
  return bits >= kMinBits && bits <= kMaxBits && bits % kBlockBits == 0;
}

// kInvalidParameter unless valid_bits.
Status check_bits(uint64_t bits);

// Estimates from a bitset of `blocks` blocks.
//
// fpp: exact for the filter as it is, the share of hashes that would pass:
// the mean over blocks of the product over the eight words of (bits set in
// the word / 32) (every block and every bit of a word equally likely).
double estimate_fpp(const uint8_t* bitset, uint64_t blocks);

// Distinct values added: each value set one bit in each word of its block,
// so a word with c of 32 bits set has seen about ln(1 - c/32) / ln(1 - 1/32)
// values (linear counting within the word); the estimate is the sum over
// blocks of the mean of that over the block's eight words. A full word
// (c = 32) counts as c = 31.5, the largest load it can express.
double estimate_cardinality(const uint8_t* bitset, uint64_t blocks);

}  // namespace sketch::bloom::split_block
