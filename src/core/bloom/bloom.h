// Bloom filter: set membership with no false negatives, mergeable by bit OR.
//
// A filter of m bits and k hash functions adds a value by setting the k bits
// at its positions and answers "maybe present" when all k are set. After n
// distinct values the chance that a value never added finds its k bits set
// (the false-positive probability) is about (1 - e^(-kn/m))^k, which for a
// target p is smallest at m = -n ln p / (ln 2)^2 and k = (m/n) ln 2.
//
// Positions come from one 128-bit hash by double hashing (Kirsch and
// Mitzenmacher 2006): h1 = low 64 bits, h2 = high 64 bits | 1, and
//
//   g_i = h1 + i * h2 (mod 2^64),   position_i = floor(g_i * m / 2^64)
//
// for i = 0..k-1. Keeping h2 odd makes the k values g_i distinct. The
// reduction to [0, m) is Lemire's multiply-shift ("fastrange"): one 64x64 ->
// 128-bit multiply instead of a division. It maps the 2^64 values of g onto m
// positions in runs of floor(2^64/m) or ceil(2^64/m) values, so every
// position's probability is 1/m within a relative m/2^64 (< 5e-10 even at the
// largest m): far below anything measurable, and unlike `g mod m` it needs no
// 64-bit division in the hot loop. It reads the high bits of g, which depend
// on every bit of h1 and h2 through the carries.
//
// Stored format (version 1), all integers little-endian:
//
//   byte 0-7    common header (header.h): kind bloom, version 1, hash
//               identity; param[0] = k (1..kMaxHashes), param[1] = layout
//               and encoding (below), byte 7 = the element kind
//               (element_kind.h)
//   byte 8-15   m, the number of bits, uint64 (kMinBits..kMaxBits)
//   byte 16-    the bit array: ceil(m/64) 64-bit words; bit j is bit j%64 of
//               word j/64, that is bit j%8 of byte j/8. The padding bits past
//               m in the last word are always zero.
//
// Every bit pattern of the array is a valid filter, and equal parameters plus
// equal sets of added hashes give equal bytes.
//
// param[1] holds two bits: bit 0 the encoding (0 stored, 1 working, below)
// and bit 1 the layout: 0 classic (everything above; every value before the
// split-block layout existed has 0 or 1 there, so old values keep their
// meaning byte for byte), 1 split-block (split_block.h: Parquet's filter,
// k = 8, m a whole number of 256-bit blocks, hashed with XXH64 of the Parquet
// PLAIN encoding; byte 7 is then one of the Parquet physical-type kinds of
// element_kind.h, or none). Builds before the split-block layout refuse
// param[1] = 2 or 3 as an unknown encoding instead of misreading it. The
// split-block bit array is the Parquet bitset byte for byte.
//
// Aggregate states use a second encoding (param[1] = 1, "working"): the
// stored layout followed by a queue of up to kPendingSlots hashes whose bits
// are not set yet (core/common/prefetch_queue.h). Adding a value prefetches
// its k cache lines and queues it; its bits are set kPendingSlots values
// later, when the lines have arrived.
// In a filter much larger than the CPU caches this overlaps the cache misses
// of successive values instead of waiting for each in turn. The working
// encoding never leaves an aggregate: write_stored turns it into the stored
// form, and parse refuses it unless asked for aggregate states.
//
// Every function here works on caller-owned byte buffers and never allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/bloom/split_block.h"
#include "core/common/bytes.h"
#include "core/common/cell_array.h"
#include "core/common/hash.h"
#include "core/common/header.h"
#include "core/common/prefetch_queue.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::bloom {

constexpr uint8_t kFormatVersion = 1;

// The bit array is a cell array of 1-bit cells (core/common/cell_array.h).
using Cells = cell_array::Geometry<1>;
constexpr size_t kBitCountOffset = cell_array::kCellCountOffset;
constexpr size_t kBitsOffset = cell_array::kCellsOffset;

// At least one byte of bits. At most what makes a filter of
// kMaxDumpableBytes (about 4.29e9 bits, 512 MiB), so that every filter can
// be dumped and restored as text. Version 0.1.0 created filters of up to
// 8e9 bits; they still read (kMaxReadableBits), but no new one is made.
constexpr uint64_t kMinBits = 8;
constexpr uint64_t kMaxBits = (kMaxDumpableBytes - kBitsOffset) * 8;
constexpr uint64_t kMaxReadableBits = 8000000000;
constexpr int kMaxHashes = 64;
constexpr uint32_t kPendingSlots = prefetch_queue::kSlots;

enum class Encoding : uint8_t { kStored = 0, kQueued = 1 };
enum class Layout : uint8_t { kClassic = 0, kSplitBlock = 1 };

// param[1]: the encoding in bit 0, the layout in bit 1.
inline uint8_t layout_encoding_byte(Layout layout, Encoding encoding) {
  return static_cast<uint8_t>(static_cast<uint8_t>(layout) << 1 | static_cast<uint8_t>(encoding));
}

inline uint64_t word_count(uint64_t bits) { return Cells::word_count(bits); }

// Bytes of a stored filter of `bits` bits, header included (bits <= kMaxBits).
inline size_t filter_size(uint64_t bits) { return Cells::filter_size(bits); }

// Bytes of a working state: the stored layout plus the queue.
inline size_t working_size(uint64_t bits) { return Cells::working_size(bits); }

// Deferring pays off only when most bit sets miss the CPU caches; below this
// size (about a core's L2 cache) a state sets its bits at once and stays in
// the stored encoding.
constexpr size_t kDeferredMinBytes = size_t{1} << 20;
inline bool defer_adds(uint64_t bits) { return filter_size(bits) >= kDeferredMinBytes; }

struct Params {
  uint64_t bits;  // m
  int hashes;     // k
  Layout layout = Layout::kClassic;
};

// The split-block filter for n values at p (split_block.h): a power-of-two
// number of bytes, k = 8. kInvalidParameter as plan_size, or when the
// filter would exceed split_block::kMaxBits (128 MiB).
Status size_split_block(int64_t n, double p, Params* out);

// kInvalidParameter unless kMinBits <= bits <= kMaxBits and
// 1 <= hashes <= kMaxHashes. Wide argument types so that any SQL value can
// be checked before it is narrowed.
Status check_params(int64_t bits, int64_t hashes);

// What plan_size can describe: 2^62 bits, far past any filter that can be
// built, so that sizing questions always get an answer.
constexpr uint64_t kMaxPlannedBits = uint64_t{1} << 62;

// The m and k of a filter for n distinct values at false-positive
// probability p (the formulas of size_for), also when such a filter is too
// large to build: bloom_sizing answers how large, and whether it fits
// (bits <= kMaxBits). kInvalidParameter for n < 1, p outside (0, 1), more
// than kMaxHashes hashes or kMaxPlannedBits bits.
Status plan_size(int64_t n, double p, Params* out);

// The filter for n expected distinct values at false-positive probability p:
// m = ceil(-n ln p / (ln 2)^2), raised to kMinBits if smaller, and
// k = round((m/n) ln 2), at least 1. kInvalidParameter unless n >= 1,
// 0 < p < 1 and the result is within check_params' limits.
Status size_for(int64_t n, double p, Params* out);

// The false-positive probability of m bits and k hashes after n distinct
// values: (1 - e^(-kn/m))^k.
double expected_fpp(double n, uint64_t bits, int hashes);

// A parsed, read-only look at a filter.
struct View {
  uint64_t bits;
  int hashes;
  uint8_t hash_identity;
  Encoding encoding;
  Layout layout;
  uint32_t pending;      // queued hashes whose bits are not set yet (working)
  const uint8_t* data;   // the whole filter, header first
  const uint8_t* words;  // the bit array, data + kBitsOffset
  size_t size;           // bytes at data
};

// Validation (core/common/validation.h): both modes check everything in
// O(1); kStructure also accepts the working encoding.
using sketch::Validation;

// Checks everything -- header, k, m, the length against m, the padding bits,
// the queue -- in constant time (the bits themselves need no check).
Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

// Writes an empty filter, filter_size(params.bits) bytes, or an empty
// working state (Encoding::kQueued), working_size(params.bits) bytes.
void write_empty(uint8_t* dst, const Params& params, Encoding encoding = Encoding::kStored);

// Writes the stored form of any filter: filter_size(v.bits) bytes, with the
// queued hashes of a working state added.
void write_stored(const View& v, uint8_t* dst);

// --- positions --------------------------------------------------------------

// The k positions of a hash, one at a time.
class Positions {
 public:
  Positions(Hash128 hash, uint64_t bits) : g_(hash.low), step_(hash.high | 1), bits_(bits) {}

  uint64_t next() {
    const uint64_t position =
        static_cast<uint64_t>((static_cast<unsigned __int128>(g_) * bits_) >> 64);
    g_ += step_;
    return position;
  }

 private:
  uint64_t g_;
  uint64_t step_;
  uint64_t bits_;
};

inline uint64_t bits_of(const uint8_t* filter) { return load_le64(filter + kBitCountOffset); }
inline int hashes_of(const uint8_t* filter) { return filter[5]; }
inline Encoding encoding_of(const uint8_t* filter) { return static_cast<Encoding>(filter[6] & 1); }
inline Layout layout_of(const uint8_t* filter) { return static_cast<Layout>(filter[6] >> 1); }

// Sets the k bits of a hash in a bit array of m bits.
inline void set_bits(uint8_t* bits, uint64_t m, int k, Hash128 hash) {
  Positions positions(hash, m);
  for (int i = 0; i < k; i++) {
    const uint64_t p = positions.next();
    bits[p >> 3] |= static_cast<uint8_t>(1u << (p & 7));
  }
}

// Adds a hash to a filter of either encoding (its whole buffer, header
// first) that parse() accepted, setting its bits now. A split-block filter
// takes the 64-bit XXH64 in hash.low (hash.high is 0).
inline void add_hash(uint8_t* filter, Hash128 hash) {
  if (layout_of(filter) == Layout::kSplitBlock) {
    split_block::insert(filter + kBitsOffset, split_block::block_count(bits_of(filter)), hash.low);
    return;
  }
  set_bits(filter + kBitsOffset, bits_of(filter), hashes_of(filter), hash);
}

// Adds a hash to a working state: prefetches its k lines and queues it; when
// the queue is full, the oldest queued hash has its bits set first.
// Forced inline: it runs once per row of a large aggregate.
[[gnu::always_inline]] inline void add_hash_deferred(uint8_t* working, Hash128 hash) {
  const uint64_t m = bits_of(working);
  uint8_t* bits = working + kBitsOffset;
  if (layout_of(working) == Layout::kSplitBlock) {
    // One block: its first and last byte, the same line unless the block
    // straddles two.
    const uint8_t* block = split_block::block_of(bits, split_block::block_count(m), hash.low);
    __builtin_prefetch(block, 1);
    __builtin_prefetch(block + split_block::kBlockBytes - 1, 1);
  } else {
    const int k = hashes_of(working);
    Positions ahead(hash, m);
    for (int i = 0; i < k; i++) __builtin_prefetch(bits + (ahead.next() >> 3), 1);
  }
  prefetch_queue::push(Cells::queue_of(working, m), hash, [&](Hash128 oldest) {
    add_hash(working, oldest);
    return true;
  });
}

// True if all k bits of the hash are set ("maybe present"); false means the
// value was certainly never added. `v` is a stored filter.
//
// All k bits are read without stopping at the first clear one: the loads are
// independent, so the CPU overlaps their cache misses, and there is no branch
// whose outcome is a coin flip for values that were never added.
inline bool contains_hash(const View& v, Hash128 hash) {
  if (v.layout == Layout::kSplitBlock)
    return split_block::check(v.words, split_block::block_count(v.bits), hash.low);
  Positions positions(hash, v.bits);
  unsigned all_set = 1;
  for (int i = 0; i < v.hashes; i++) {
    const uint64_t p = positions.next();
    all_set &= v.words[p >> 3] >> (p & 7);
  }
  return (all_set & 1) != 0;
}

// --- combining --------------------------------------------------------------

// kMismatch, naming both parameter sets, unless a and b have the same
// layout, m, k and hash identity.
Status check_compatible(const View& a, const View& b);

// a |= b: in a's buffer (either encoding), for compatible filters; b's queued
// hashes are added too. Exactly the filter of the union of the two sets.
void merge(uint8_t* a_filter, const View& b);

// a &= b: in a's buffer, for compatible stored filters. Every value of both
// sets stays present; the result has at least the bits of the filter of the
// intersection, and usually more (see docs/bloom.md).
void intersect_into(uint8_t* a_filter, const View& b);

// --- estimates (stored filters) ------------------------------------------------

// X, the number of bits set.
uint64_t bits_set(const View& v);

// Distinct values added, from the fill: n = -(m/k) ln(1 - X/m). A full filter
// (X = m) has no finite estimate; it answers the largest one it can express,
// the estimate for X = m - 1.
double estimate_cardinality(const View& v);

// The chance that a value never added is reported present: (X/m)^k.
double estimate_fpp(const View& v);

}  // namespace sketch::bloom
