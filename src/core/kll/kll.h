// KLL: quantiles with a guaranteed *rank* error (Karnin, Lang, Liberty,
// "Optimal Quantile Approximation in Streams", FOCS 2016), in the compactor
// layout DataSketches uses.
//
// Items live in levels 0..L-1; an item at level h stands for 2^h input
// values. Level h holds at most capacity(k, L, h) = max(8, round(k (2/3)^d))
// items, d = L - 1 - h its depth below the top, so the top level holds about
// k and the sketch about 3k + 8L in all. When the sketch is full (its items
// reach the sum of the capacities) the lowest level at or over its capacity
// is compacted: sorted, an odd item left behind, and every second item of
// the rest (the even or the odd positions, a coin) promoted to the level
// above, merged into its sorted run. A full top level first gets an empty
// level above it.
//
// The coin is a hash of the sketch's own n and the level (compaction_coin),
// never a clock or a session seed: the same rows in the same order build the
// same bytes on every server. A merge concatenates the two sketches level by
// level and compacts from the bottom until the union fits; its coins are
// hashes of the union's n, so the result is a function of the two inputs,
// but a different merge order (or grouping) can give other bytes. The rank
// bound holds for every merge tree (the analysis only needs each coin to be
// fair and independent of the values it halves).
//
// Items are 8-byte order keys (order_key): an unsigned integer whose order is
// the order of the values, for int64 (bigint, timestamp, timestamptz, date:
// the sign bit flipped) or for double precision (IEEE bits, sign-magnitude
// turned to unsigned order; -0.0 is stored as +0.0, NaN refused). The element
// kind byte (element_kind.h) says which: kFloat for double precision, kNumber
// for bigint, kTimestamp, kTimestampTz, kDate, kNone while empty.
//
// n, min and max are exact; quantile(0) and quantile(1) are min and max, and
// no answer leaves [min, max].
//
// Format (version 1), little-endian:
//
//   byte 0-7    common header (header.h): kind kll, version 1, hash identity,
//               param[0] = 0, param[1] = encoding (1 stored, 2 working),
//               byte 7 = element kind (above)
//   byte 8-9    k, uint16 (kMinK..kMaxK)
//   byte 10     L, the number of levels (1..kMaxLevels)
//   byte 11     level_slots, entries of the level array (L+1 stored;
//               kMaxLevels + 1 working)
//   byte 12-15  capacity, uint32: item slots
//   byte 16-23  n, uint64
//   byte 24-31  min key (0 when n = 0)
//   byte 32-39  max key (0 when n = 0)
//   byte 40-43  full_at, uint32: total_capacity(k, L), the items at which
//               the next add compacts first (kept so an add is O(1))
//   byte 44-47  0
//   byte 48-    level_slots uint32 offsets into the item slots, then padding
//               to a multiple of 8: level h is [off[h], off[h+1]),
//               off[0] <= ... <= off[L] = capacity, the slots before off[0]
//               free; entries past L equal capacity
//   then        capacity item keys, uint64 each
//
// Stored: no free slot (off[0] = 0, capacity = the items kept), level_slots
// = L + 1, every level sorted, the free bytes of a working state dropped.
// Working (aggregate states only): free slots before level 0, the level
// array at its largest so a new level needs no move; level 0 unsorted.
// parse refuses a stored sketch unless every level is sorted, every key lies
// in [min, max] (and is no NaN for kFloat), the items' weights sum to n, and
// the items kept fit the capacities of L levels.
//
// Every function works on caller-owned buffers and never allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/element_kind.h"
#include "core/common/header.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::kll {

constexpr uint8_t kFormatVersion = 1;
constexpr uint32_t kMinK = 8;
constexpr uint32_t kMaxK = 65535;
constexpr uint32_t kDefaultK = 200;
// An item at level h weighs 2^h <= n < 2^64.
constexpr uint32_t kMaxLevels = 64;
// The smallest capacity of a level (DataSketches' m).
constexpr uint32_t kMinLevelCapacity = 8;

enum class Encoding : uint8_t { kStored = 1, kWorking = 2 };

constexpr size_t kFixedSize = 48;

struct View {
  const uint8_t* data = nullptr;
  size_t size = 0;
  Encoding encoding = Encoding::kStored;
  ElementKind kind = ElementKind::kNone;
  uint32_t k = 0;
  uint32_t levels = 0;       // L
  uint32_t level_slots = 0;
  uint32_t capacity = 0;
  uint32_t full_at = 0;
  uint64_t n = 0;
  uint64_t min_key = 0;
  uint64_t max_key = 0;
  const uint8_t* offsets = nullptr;  // level_slots uint32
  const uint8_t* items = nullptr;    // capacity uint64

  uint32_t offset(uint32_t h) const;
  uint64_t item(uint32_t i) const;
  uint32_t retained() const { return capacity - offset(0); }
  bool empty() const { return n == 0; }
};

// The element kinds a kll holds, and whether its keys are doubles.
bool valid_kind(ElementKind kind);
inline bool is_float_kind(ElementKind kind) { return kind == ElementKind::kFloat; }

// The order key of a value, and back.
uint64_t key_of_int64(int64_t v);
int64_t int64_of_key(uint64_t key);
// -0.0 becomes +0.0; the caller refuses NaN first (is_nan_key for keys).
uint64_t key_of_double(double v);
double double_of_key(uint64_t key);
bool is_nan_key(uint64_t key);
// The key -0.0 would have: never stored.
constexpr uint64_t kNegativeZeroKey = 0x7fffffffffffffffULL;

// capacity(k, L, h) and the sum over the L levels.
uint32_t level_capacity(uint32_t k, uint32_t levels, uint32_t h);
uint32_t total_capacity(uint32_t k, uint32_t levels);

Status check_k(int64_t k);
// k of a sketch's bytes (any encoding, at least kFixedSize bytes).
inline uint32_t k_of(const uint8_t* sketch) { return sketch[8] | uint32_t{sketch[9]} << 8; }

// An empty sketch: stored, or a working state with room for the first
// level's items.
size_t empty_size(Encoding encoding, uint32_t k);
void write_empty(uint8_t* dst, uint32_t k, Encoding encoding);

Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

size_t stored_size(const View& v);
void write_stored(const View& v, uint8_t* dst);
size_t working_size(const View& v);
void write_working(const View& v, uint8_t* dst);
// The working state of v with room for `levels` levels (a grown copy).
size_t working_size_for(uint32_t k, uint32_t levels);
void write_working_levels(const View& v, uint32_t levels, uint8_t* dst);

// O(1) in the items (O(L) in the levels): the shape a working state's
// writers rely on.
bool is_working(const uint8_t* data, size_t len);

// Adds one key `times` (>= 1) times to a working state. False when the state
// needs a larger buffer first: *needed_levels is then the level count it
// must have room for (write_working_levels), and the add made no change
// that a retry would repeat (a weighted add clears the weight bits it has
// already placed from *times).
bool add(uint8_t* state, uint64_t key, uint64_t* times, uint32_t* needed_levels);
// n + times stays within 2^64 - 1.
bool fits_count(const uint8_t* state, uint64_t times);

// Union: refuses different element kinds and a total past 2^64 - 1.
Status check_mergeable(const View& a, const View& b);
// The working size of a ∪ b.
size_t merged_working_size(const View& a, const View& b);
void write_merged_working(const View& a, const View& b, uint8_t* dst);

// Queries over a parsed sketch. `scratch` holds 16 bytes per retained item
// (query_scratch_size): the items sorted, with their cumulative weights.
size_t query_scratch_size(const View& v);
struct Sorted {
  const uint8_t* entries = nullptr;  // (key, cumulative weight) pairs
  uint32_t count = 0;
  uint64_t n = 0;
  uint64_t key(uint32_t i) const;
  uint64_t cumulative(uint32_t i) const;
};
Sorted sort_items(const View& v, uint8_t* scratch);
// The key of the smallest item whose cumulative weight reaches q n (q in
// [0, 1]); min at q = 0, max at q = 1. n > 0.
uint64_t quantile_key(const View& v, const Sorted& s, double q);
// The share of the weight at keys <= key (0 when empty).
double rank_of_key(const View& v, const Sorted& s, uint64_t key);

// The normalized rank error the sketch guarantees at 99% confidence:
// 0 while it is exact (nothing compacted), else DataSketches' fit for k
// (single-sided: ranks and quantiles; double-sided: pmf intervals).
double rank_error(const View& v, bool double_sided);
// The same at another confidence in (0, 1): scaled as a sub-Gaussian tail,
// sqrt(ln(2 / (1 - c)) / ln(200)).
double rank_error_at(const View& v, bool double_sided, double confidence);
// True when every retained item has weight 1 (n = items kept).
bool is_exact(const View& v);

}  // namespace sketch::kll
