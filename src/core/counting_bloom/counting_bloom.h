// Counting Bloom filter: set membership with deletes (Fan, Cao, Almeida and
// Broder, "Summary Cache", 2000).
//
// A Bloom filter cannot forget: a bit may be shared by several members, so
// clearing it could lose one that is still there. A counting Bloom filter
// keeps a 4-bit counter per cell instead of a bit. Adding a value increments
// the counters at its k positions, deleting it decrements them, and a value
// is "maybe present" while all k counters are non-zero. The positions are
// exactly bloom's (core/bloom/bloom.h: double hashing of the 128-bit element
// hash, Lemire's multiply-shift reduction, bloom::Positions), so the cells
// that are non-zero are the bits of the bloom filter of the same m and k
// built from the values present: counting_bloom_to_bloom gives that filter,
// and bloom_contains answers on it as counting_bloom_contains does here.
// Sizing, the false-positive formula (1 - e^(-kn/m))^k and the estimators
// are bloom's too, for the live count n of values added and not deleted.
//
// Counters and their limits:
//   - a counter saturates at 15 and a saturated counter is never
//     decremented again: it may be shared by more members than 15 remember,
//     and decrementing it could give them false negatives. With the sized
//     load (kn/m = ln 2 per cell) a counter reaches 15 with probability about
//     1e-15 per cell;
//   - deleting a value any of whose k counters is 0 changes nothing: it was
//     certainly never added (or already deleted);
//   - a value whose k positions repeat a cell (two g_i that reduce to the
//     same cell) counts twice in it on add and on delete, consistently;
//   - THE TRAP: deleting a value that was never added but whose k counters
//     are all non-zero (a false positive, probability about p) decrements
//     counters that belong to other members, and can make a member absent:
//     a false negative, which a plain Bloom filter never has. Delete only
//     values you know were added. A counter that would go below 0 (possible
//     only after such a delete) stays at 0.
//
// A filter's bytes are a function of m, k and the multiset of values added
// minus those deleted (while no counter saturates), whatever the order, the
// grouping or the merging, so equal filters compare equal.
//
// Stored format (version 1), all integers little-endian:
//
//   byte 0-7    common header (header.h): kind counting_bloom (7), version 1,
//               hash identity; param[0] = k (1..kMaxHashes), param[1] =
//               encoding (0 = stored), byte 7 = element kind (byte 7,
//               element_kind.h, kept by the shared state mechanism)
//   byte 8-15   m, the number of cells, uint64 (kMinCells..kMaxCells)
//   byte 16-    the counters: ceil(m/16) 64-bit words; cell j is nibble j%2
//               (low nibble first) of byte j/2, that is bits 4(j%16)..+3 of
//               word j/16. The padding nibbles past m in the last word are
//               always zero.
//
// Aggregate states use a second encoding (param[1] = 1, "working"), as
// bloom's: the stored layout followed by a queue of up to kPendingSlots
// hashes whose counters are not incremented yet
// (core/common/prefetch_queue.h). Adding a value prefetches its k cache
// lines and queues it; its counters are incremented kPendingSlots
// values later, when the lines have arrived, which overlaps the cache misses
// of successive values in a filter much larger than the CPU caches. The
// working encoding never leaves an aggregate: write_stored turns it into the
// stored form, and parse refuses it unless asked for aggregate states.
//
// Every function here works on caller-owned byte buffers and never allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/bloom/bloom.h"
#include "core/common/bytes.h"
#include "core/common/cell_array.h"
#include "core/common/hash.h"
#include "core/common/header.h"
#include "core/common/prefetch_queue.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::counting_bloom {

constexpr uint8_t kFormatVersion = 1;

// The counters are a cell array of 4-bit cells (core/common/cell_array.h).
using Cells = cell_array::Geometry<4>;
using cell_array::kCellCountOffset;
using cell_array::kCellsOffset;

// At least 8 cells; at most what keeps a filter within kMaxDumpableBytes
// (header.h), so that every filter can be dumped and restored as text:
// 1,073,610,720 cells (4 bits each, 512 MiB less 64 KiB).
constexpr uint64_t kMinCells = 8;
constexpr uint64_t kMaxCells = (kMaxDumpableBytes - kCellsOffset) / 8 * 16;
constexpr int kMaxHashes = bloom::kMaxHashes;
constexpr unsigned kMaxCount = 15;
constexpr uint32_t kPendingSlots = bloom::kPendingSlots;

// Every counting filter converts to a valid bloom filter of m bits.
static_assert(kMaxCells <= bloom::kMaxBits, "to_bloom must give a valid bloom filter");

enum class Encoding : uint8_t { kStored = 0, kQueued = 1 };

inline uint64_t word_count(uint64_t cells) { return Cells::word_count(cells); }

// Bytes of a stored filter of `cells` cells, header included.
inline size_t filter_size(uint64_t cells) { return Cells::filter_size(cells); }

// Bytes of a working state: the stored layout plus the queue.
inline size_t working_size(uint64_t cells) { return Cells::working_size(cells); }

// Deferring pays off only when most counter updates miss the CPU caches
// (bloom's threshold, about a core's L2 cache).
inline bool defer_adds(uint64_t cells) {
  return filter_size(cells) >= bloom::kDeferredMinBytes;
}

struct Params {
  uint64_t cells;  // m
  int hashes;      // k
};

// kInvalidParameter unless kMinCells <= cells <= kMaxCells and
// 1 <= hashes <= kMaxHashes.
Status check_params(int64_t cells, int64_t hashes);

// m and k for n distinct live values at false-positive probability p, by
// bloom's formulas (bloom::plan_size): m = ceil(-n ln p / (ln 2)^2), at
// least 8, k = round((m/n) ln 2), at least 1; also when the filter is too
// large to build (counting_bloom_sizing answers how large). kInvalidParameter
// for n < 1, p outside (0, 1), more than kMaxHashes hashes.
Status plan_size(int64_t n, double p, Params* out);

// plan_size, refusing filters of more than kMaxCells cells.
Status size_for(int64_t n, double p, Params* out);

// (1 - e^(-kn/m))^k, bloom's formula.
inline double expected_fpp(double n, uint64_t cells, int hashes) {
  return bloom::expected_fpp(n, cells, hashes);
}

// A parsed, read-only look at a filter.
struct View {
  uint64_t cells;
  int hashes;
  uint8_t hash_identity;
  Encoding encoding;
  uint32_t pending;       // queued hashes not counted yet (working)
  const uint8_t* data;    // the whole filter, header first
  const uint8_t* words;   // the counters, data + kCellsOffset
  size_t size;            // bytes at data
};

using sketch::Validation;

// Checks everything -- header, k, m, the length against m, the padding
// nibbles, the queue -- in constant time (every counter value is valid).
// kCanonical refuses the working encoding.
Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

// Writes an empty filter, filter_size(params.cells) bytes, or an empty
// working state (Encoding::kQueued), working_size(params.cells) bytes.
void write_empty(uint8_t* dst, const Params& params, Encoding encoding = Encoding::kStored);

// Writes the stored form of any filter: filter_size(v.cells) bytes, with the
// queued hashes of a working state counted.
void write_stored(const View& v, uint8_t* dst);

inline uint64_t cells_of(const uint8_t* filter) { return load_le64(filter + kCellCountOffset); }
inline int hashes_of(const uint8_t* filter) { return filter[5]; }
inline Encoding encoding_of(const uint8_t* filter) { return static_cast<Encoding>(filter[6]); }

// The counter of cell j.
inline unsigned counter(const uint8_t* counters, uint64_t j) {
  return (counters[j >> 1] >> ((j & 1) * 4)) & 15u;
}

// --- adding, deleting, probing ------------------------------------------------

// Increments the k counters of a hash (saturating at 15) in an array of m
// cells.
inline void increment(uint8_t* counters, uint64_t m, int k, Hash128 hash) {
  bloom::Positions positions(hash, m);
  for (int i = 0; i < k; i++) {
    const uint64_t p = positions.next();
    const unsigned shift = (p & 1) * 4;
    uint8_t& byte = counters[p >> 1];
    if (((byte >> shift) & 15u) != kMaxCount) byte = static_cast<uint8_t>(byte + (1u << shift));
  }
}

// Adds a hash to a filter of either encoding that parse() accepted,
// counting it now.
inline void add_hash(uint8_t* filter, Hash128 hash) {
  increment(filter + kCellsOffset, cells_of(filter), hashes_of(filter), hash);
}

// Adds a hash to a working state: prefetches its k lines and queues it; when
// the queue is full, the oldest queued hash is counted first.
// Forced inline: it runs once per row of a large aggregate.
[[gnu::always_inline]] inline void add_hash_deferred(uint8_t* working, Hash128 hash) {
  const uint64_t m = cells_of(working);
  const int k = hashes_of(working);
  uint8_t* counters = working + kCellsOffset;
  bloom::Positions ahead(hash, m);
  for (int i = 0; i < k; i++) __builtin_prefetch(counters + (ahead.next() >> 1), 1);
  prefetch_queue::push(Cells::queue_of(working, m), hash, [&](Hash128 oldest) {
    increment(counters, m, k, oldest);
    return true;
  });
}

// True if all k counters of the hash are non-zero ("maybe present"); false
// means the value is certainly not a member (never added, or deleted as
// often as added). `v` is a stored filter. All k counters are read, as in
// bloom::contains_hash, so that their cache misses overlap.
inline bool contains_hash(const View& v, Hash128 hash) {
  bloom::Positions positions(hash, v.cells);
  bool all = true;
  for (int i = 0; i < v.hashes; i++) all &= counter(v.words, positions.next()) != 0;
  return all;
}

// Deletes a hash from a stored filter (its whole buffer, header first) that
// parse() accepted: when all k counters are non-zero, decrements each that
// is below 15 (and above 0); otherwise changes nothing. Returns whether the
// counters were decremented. See the trap at the top: the caller must know
// the value was added.
bool delete_hash(uint8_t* filter, Hash128 hash);

// --- combining ------------------------------------------------------------------

// kMismatch, naming both parameter sets, unless a and b have the same m, k
// and hash identity.
Status check_compatible(const View& a, const View& b);

// a += b counter by counter, saturating at 15, in a's buffer (either
// encoding), for compatible filters; b's queued hashes are counted too.
void merge(uint8_t* a_filter, const View& b);

// --- reading (stored filters) -----------------------------------------------------

struct Counts {
  uint64_t cells_set;   // counters above 0: the bits of the bloom filter
  uint64_t saturated;   // counters at 15
  uint64_t sum;         // the sum of all counters
};
Counts count_cells(const View& v);

// The bloom filter of the same m and k whose bits are the non-zero cells:
// bloom::filter_size(v.cells) bytes at dst, element kind carried over.
void to_bloom(const View& v, uint8_t* dst);

// The size of to_bloom's output.
inline size_t bloom_size(const View& v) { return bloom::filter_size(v.cells); }

// bloom's estimators on the non-zero cells (bloom::estimate_cardinality,
// bloom::estimate_fpp of to_bloom's filter), with `scratch` of bloom_size(v)
// bytes to build it in.
double estimate_cardinality(const View& v, uint8_t* scratch);
double estimate_fpp(const View& v, uint8_t* scratch);

}  // namespace sketch::counting_bloom
