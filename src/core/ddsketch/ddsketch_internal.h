// Layout constants and helpers shared by the ddsketch_*.cpp files (not
// public): offsets of both encodings, varints, the working windows, index
// folding and the exact fixed-point sum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/common/bytes.h"
#include "core/common/varint.h"
#include "core/ddsketch/ddsketch.h"

namespace sketch::ddsketch::detail {

// --- offsets (ddsketch.h, "Stored format") ----------------------------------

constexpr size_t kMaxBucketsOffset = 8;
constexpr size_t kFlagsOffset = 12;
constexpr size_t kReservedOffset = 13;  // bytes 13-15
constexpr size_t kCountOffset = 16;
constexpr size_t kZeroCountOffset = 24;
constexpr size_t kMinOffset = 32;
constexpr size_t kMaxOffset = 40;
constexpr size_t kSumOffset = 48;

// Stored: byte 48 the lowest stored sum word, byte 49 how many, then the words.
constexpr size_t kSumLowOffset = 48;
constexpr size_t kSumLenOffset = 49;
constexpr size_t kSumWordsOffset = 50;

// Working: all kSumWords words at 48, then the two windows.
constexpr size_t kWorkingStoresOffset = kSumOffset + 8 * kSumWords;  // 320

// A working window's header, then `capacity` uint64 counts.
constexpr size_t kWinOffset = 0;     // int32: the index of slot 0
constexpr size_t kWinCapacity = 4;   // uint32
constexpr size_t kWinMin = 8;        // int32, meaningful when buckets > 0
constexpr size_t kWinMax = 12;       // int32
constexpr size_t kWinBuckets = 16;   // uint32
constexpr size_t kWinReserved = 20;  // uint32, 0
constexpr size_t kWinHeader = 24;

constexpr uint8_t kFlagPositiveCollapsed = 1;
constexpr uint8_t kFlagNegativeCollapsed = 2;
constexpr uint8_t kKnownFlags = kFlagPositiveCollapsed | kFlagNegativeCollapsed;

constexpr uint8_t kElementKindNone = 255;  // byte 7 of every ddsketch

// A window of an empty positive store starts with this many slots, so that
// an aggregate's first value needs no growth; a store never holds more than
// twice its max_buckets (see want_capacity).
constexpr uint32_t kMinSlots = 16;

// --- indices ------------------------------------------------------------------

// Every finite magnitude lies in [2^-1074, 2^1024), whose buckets at scale s
// are -1074 * 2^s (the smallest denormal, an exact power of two) up to
// 1024 * 2^s (the largest double's bucket ends at 2^1024): 4.4 million at
// most, far inside int32.
constexpr int kLowestExponent = -1074;
constexpr int kHighestExponent = 1024;

inline int64_t lowest_index_of(int scale) {
  return int64_t{kLowestExponent} * (int64_t{1} << scale);
}
inline int64_t highest_index_of(int scale) {
  return int64_t{kHighestExponent} * (int64_t{1} << scale);
}

// Bucket i at scale s is the union of buckets 2i-1 and 2i at scale s+1
// (gamma_s = gamma_{s+1}^2), so the bucket at scale s - d holding every value
// of bucket i is ceil(i / 2^d). `>>` on a negative int64 is an arithmetic
// shift (floor division) on every compiler we build with (and by definition
// since C++20), hence ceil(i / 2^d) = (i + 2^d - 1) >> d.
inline int64_t fold_index(int64_t index, int shift) {
  return (index + ((int64_t{1} << shift) - 1)) >> shift;
}

// The slots a window gets for a store spanning `span` indices (<= M): twice
// the span, so that a store whose extremes move (a growing maximum, say)
// slides its window once per span/2 new indices, not once per value; at
// least kMinSlots, at most 2M (the span never exceeds M).
inline uint32_t want_capacity(uint64_t span, uint32_t max_buckets) {
  uint64_t want = 2 * span;
  if (want < kMinSlots) want = kMinSlots;
  if (want > uint64_t{2} * max_buckets) want = uint64_t{2} * max_buckets;
  return static_cast<uint32_t>(want);
}

inline size_t working_bytes(uint32_t positive_capacity, uint32_t negative_capacity) {
  return kWorkingStoresOffset + 2 * kWinHeader +
         8 * (size_t{positive_capacity} + size_t{negative_capacity});
}

// Exact boundaries: kBoundary[j] is 2^(j / 4096) rounded toward zero to a
// double (j = 0..4096; ddsketch_boundaries.cpp). At scale s the upper bound
// of the bucket j within an octave is kBoundary[j << (kMaxScale - s)].
constexpr int kBoundaryBits = kMaxScale;
extern const double kBoundary[(1 << kBoundaryBits) + 1];

// Where the search for a mantissa whose top 12 bits are m starts: the
// smallest J with kBoundary[J] >= 1 + m / 4096 (ddsketch_boundaries.cpp).
extern const uint16_t kFirstBoundary[1 << kBoundaryBits];

// The bucket of a finite magnitude m > 0, exactly (ddsketch.h). Inline: it
// runs on every row.
//
// m = f * 2^e with f in [1, 2) is read off the bits (denormals shifted up
// first), so that e * 2^s is the octave's first index and only f is looked
// up: at the finest scale, J is the smallest index with f <= 2^(J/4096),
// found from the top 12 bits of f's mantissa in at most two comparisons
// with the exact table. Since the boundaries of scale s are every
// 2^(12-s)-th of those, the bucket at scale s is ceil(J / 2^(12-s)):
// f <= 2^(j/2^s) = 2^(j 2^(12-s) / 4096) exactly when J <= j 2^(12-s).
// Integer and comparison operations only: no log2, the same answer
// everywhere.
inline int32_t index_of(double magnitude, int scale) {
  uint64_t bits;
  std::memcpy(&bits, &magnitude, 8);
  uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  const int exponent_field = static_cast<int>(bits >> 52 & 0x7ff);
  int e;
  if (exponent_field == 0) {
    // A denormal: mantissa * 2^-1074. Shift its top bit up to bit 52.
    const int shift = __builtin_clzll(mantissa) - 11;
    mantissa = (mantissa << shift) & ((uint64_t{1} << 52) - 1);
    e = -1022 - shift;
  } else {
    e = exponent_field - 1023;
  }
  const uint64_t f_bits = uint64_t{1023} << 52 | mantissa;
  double f;
  std::memcpy(&f, &f_bits, 8);
  int finest = kFirstBoundary[mantissa >> (52 - kBoundaryBits)];
  while (f > kBoundary[finest]) finest++;  // at most twice; kBoundary[4096] = 2 > f
  const int step = kBoundaryBits - scale;
  return e * (1 << scale) + ((finest + (1 << step) - 1) >> step);
}

// --- header fields ------------------------------------------------------------

inline double load_double(const uint8_t* p) {
  const uint64_t bits = load_le64(p);
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

inline void store_double(uint8_t* p, double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  store_le64(p, bits);
}

inline int32_t load_i32(const uint8_t* p) { return static_cast<int32_t>(load_le32(p)); }
inline void store_i32(uint8_t* p, int64_t v) {
  store_le32(p, static_cast<uint32_t>(static_cast<int32_t>(v)));
}

void write_ddsketch_header(uint8_t* dst, int scale, Encoding encoding);

// --- varints: core/common/varint.h ------------------------------------------

using sketch::get_varint;
using sketch::put_varint;
using sketch::VarintRead;
using sketch::varint_size;

// --- reading counts ------------------------------------------------------------------
//
// The readers never trust the counts for memory access and saturate their
// sums, so that a corrupt state (whose counts need not add up) still gets a
// number and never a crash.

inline uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

// The values of a store (saturating).
uint64_t store_total(const Store& s);

// rank()'s rule after the buckets: `whole_buckets` values of the buckets
// whose representative is <= x (zeros included when x >= 0) become 0 below
// min, count from max on, and are kept within [1, count - 1] between, since
// min <= x < max are exact.
inline uint64_t clamp_at_most(const View& v, double x, uint64_t whole_buckets) {
  if (v.count == 0 || x < v.min) return 0;
  if (x >= v.max) return v.count;
  if (whole_buckets < 1) return 1;
  if (whole_buckets > v.count - 1) return v.count - 1;
  return whole_buckets;
}

// --- working windows -------------------------------------------------------------

inline uint8_t* positive_window(uint8_t* working) { return working + kWorkingStoresOffset; }
inline uint8_t* negative_window(uint8_t* working) {
  return working + kWorkingStoresOffset + kWinHeader +
         8 * size_t{load_le32(working + kWorkingStoresOffset + kWinCapacity)};
}

inline uint64_t slot_count(const uint8_t* window, int64_t index) {
  return load_le64(window + kWinHeader +
                   8 * static_cast<size_t>(index - load_i32(window + kWinOffset)));
}

// --- the exact sum --------------------------------------------------------------
//
// A two's complement integer of kSumWords little-endian 64-bit words in units
// of 2^-1074. Every finite double is an integer multiple of 2^-1074 below
// 2^1024 = 2^2098 units; 2^64 of them stay below 2^2162, and the top word
// leaves 13 more bits and the sign: no sum of at most 2^64 - 1 values can
// overflow, so the sum is exact and a union's sum is the same whatever the
// grouping.

using SumWords = uint64_t[kSumWords];

// words += v (any finite double; 0 and -0 add nothing).
void sum_add_double(SumWords words, double v);
// words += v * times (v finite, exact for any times: the 53-bit mantissa times
// a 64-bit factor is a 117-bit product, shifted).
void sum_add_scaled(SumWords words, double v, uint64_t times);
// a += b, mod 2^2176.
void sum_add(SumWords a, const SumWords b);
// -1, 0, 1 as a <, =, > b (signed).
int sum_compare(const SumWords a, const SumWords b);
// The nearest double (ties to even); +-Infinity beyond the double range.
double sum_to_double(const SumWords words);

// The same additions on kSumWords little-endian words in a byte buffer (a
// working state's sum, updated on every row; scaled: a weighted row).
void sum_add_double_le(uint8_t* words_le, double v);
void sum_add_scaled_le(uint8_t* words_le, double v, uint64_t times);

// The sum of a view, any encoding.
void load_sum(const View& v, SumWords out);
// The trimmed stored form: the lowest nonzero word and the number of words up
// to the highest that is not a sign extension of the one below; 0 words for 0.
struct SumTrim {
  uint32_t low;
  uint32_t len;
};
SumTrim trim_sum(const SumWords words);
// Writes bytes 48.. of the stored form: low, len, the words. Returns the end.
uint8_t* put_stored_sum(uint8_t* dst, const SumWords words);
void put_working_sum(uint8_t* dst_words_le, const SumWords words);

// --- building working stores -------------------------------------------------------
//
// A store's final extent after a union or an add: the buckets of up to two
// sources, each folded by its own shift to the target scale, and optionally
// one more index, collapsed at floor = highest - max_buckets + 1.
struct Extent {
  bool empty;
  int64_t low;    // lowest index kept (>= floor)
  int64_t high;   // highest index
  int64_t floor;  // indices below move here
  uint64_t span() const { return empty ? 0 : static_cast<uint64_t>(high - low + 1); }
};

// The floor of a store is the higher of two bounds. The span rule: at most
// max_buckets indices, so nothing below high - max_buckets + 1. And a
// collapsed store's lowest bucket, which holds everything at or below it
// whose true index is lost: no value may stay below it, or the collapsed
// bucket would no longer be the lowest and unguaranteed_ranks() (which
// counts the lowest bucket) would miss it. At one scale the second bound is
// never the higher (a collapsed store's lowest bucket is its span floor);
// it matters after a collapsed store was folded to a coarser scale, whose
// span rule alone would let smaller values pass below it.
struct ExtentBuilder {
  bool any = false;
  bool has_collapsed_floor = false;
  int64_t low = 0;
  int64_t high = 0;
  int64_t collapsed_floor = 0;
  void include(int64_t lo, int64_t hi) {
    if (!any || lo < low) low = lo;
    if (!any || hi > high) high = hi;
    any = true;
  }
  // A collapsed store's lowest bucket (at the extent's scale).
  void include_collapsed_floor(int64_t index) {
    if (!has_collapsed_floor || index > collapsed_floor) collapsed_floor = index;
    has_collapsed_floor = true;
  }
  void include_store(const Store& s, int shift) {
    if (s.buckets == 0) return;
    include(fold_index(s.min_index, shift), fold_index(s.max_index, shift));
    if (s.collapsed) include_collapsed_floor(fold_index(s.min_index, shift));
  }
  Extent finish(uint32_t max_buckets) const {
    if (!any) return Extent{true, 0, 0, 0};
    int64_t floor = high - int64_t{max_buckets} + 1;
    if (has_collapsed_floor && collapsed_floor > floor) floor = collapsed_floor;
    return Extent{false, low < floor ? floor : low, high, floor};
  }
};

// The slots a new buffer gives a store of this extent.
inline uint32_t capacity_for(const Extent& e, bool positive, uint32_t max_buckets) {
  if (e.empty) return positive ? kMinSlots : 0;
  return want_capacity(e.span(), max_buckets);
}

// Writes an empty window of `capacity` slots placed around the extent
// (centred, so that it can move either way), returns the byte after it.
uint8_t* put_window(uint8_t* window, const Extent& e, uint32_t capacity);

// Adds every bucket of `src` (folded by `shift`, raised to e.floor) into a
// window that contains the extent; true if a bucket moved up (collapsed).
bool add_store_into(uint8_t* window, const Store& src, int shift, const Extent& e);

// True if the window's slots cover [e.low, e.high] without moving.
inline bool window_contains(const uint8_t* window, const Extent& e) {
  if (e.empty) return true;
  const int64_t offset = load_i32(window + kWinOffset);
  const int64_t capacity = load_le32(window + kWinCapacity);
  return offset <= e.low && e.high < offset + capacity;
}

// Makes an existing window ready to take buckets of the extent in place:
// buckets below e.floor are summed into e.floor and the window moves (within
// its capacity, which must hold e.span()) to cover [e.low, e.high]. Returns
// true if a bucket moved up.
bool prepare_window(uint8_t* window, const Extent& e);

// Adds `count` at `index` (inside the window) and keeps min, max and the
// bucket count.
inline void window_add(uint8_t* window, int64_t index, uint64_t count) {
  const int64_t offset = load_i32(window + kWinOffset);
  uint8_t* slot = window + kWinHeader + 8 * static_cast<size_t>(index - offset);
  const uint64_t before = load_le64(slot);
  store_le64(slot, before + count);
  const uint32_t buckets = load_le32(window + kWinBuckets);
  if (buckets == 0) {
    store_i32(window + kWinMin, index);
    store_i32(window + kWinMax, index);
  } else {
    if (index < load_i32(window + kWinMin)) store_i32(window + kWinMin, index);
    if (index > load_i32(window + kWinMax)) store_i32(window + kWinMax, index);
  }
  if (before == 0) store_le32(window + kWinBuckets, buckets + 1);
}

// The extent of one store as it is, at its own max_buckets.
Extent extent_of(const Store& s, uint32_t max_buckets);

// A working copy of v with these extents and capacities (each holding its
// extent's span): header fields, sum, and both stores, collapsed at their
// extents' floors.
void write_working_with(const View& v, const Extent& pos, const Extent& neg,
                        uint32_t positive_capacity, uint32_t negative_capacity, uint8_t* dst);

// --- the working layout, checked in O(1) -------------------------------------------
//
// nullptr when the bytes after a valid working header (kind, version, hash,
// scale, encoding 2, kind byte 255) are a consistent working state: the
// fixed fields, both windows within the length (which they fill exactly),
// at most 2 * max_buckets slots each, and for a non-empty store min <= max
// inside its window and inside the scale's index range, and a span of at
// most max_buckets. That is everything the per-row add and the readers rely
// on to stay inside the buffer. Neither the counts nor the bucket count b
// are trusted for memory access (b only says whether the store is empty;
// the stored form counts the non-empty slots itself), so a corrupt state
// whose counts wrap around cannot make the next parse of our own output
// fail. Inline and without a Status: is_working runs it on every row;
// parse() reports its answer.
inline const char* working_layout_problem(const uint8_t* data, size_t len) {
  if (len < working_bytes(0, 0)) return "truncated working state";
  const uint32_t max_buckets = load_le32(data + kMaxBucketsOffset);
  if (max_buckets < kMinBuckets || max_buckets > kMaxBuckets)
    return "working state with max_buckets outside 16..65536";
  if ((load_le32(data + kFlagsOffset) & ~uint32_t{kKnownFlags}) != 0)
    return "working state with unknown flags or nonzero reserved bytes";
  const int scale = static_cast<int8_t>(data[5]);
  const uint32_t limit = 2 * max_buckets;
  const uint8_t* window = data + kWorkingStoresOffset;
  const uint32_t positive_capacity = load_le32(window + kWinCapacity);
  if (positive_capacity > limit) return "working window larger than 2 * max_buckets";
  const size_t negative_at = kWorkingStoresOffset + kWinHeader + 8 * size_t{positive_capacity};
  if (len < negative_at + kWinHeader) return "truncated working state";
  const uint32_t negative_capacity = load_le32(data + negative_at + kWinCapacity);
  if (negative_capacity > limit) return "working window larger than 2 * max_buckets";
  if (len != working_bytes(positive_capacity, negative_capacity))
    return "working state length does not match its windows";
  for (int k = 0; k < 2; k++) {
    const uint8_t* w = k == 0 ? window : data + negative_at;
    if (load_le32(w + kWinReserved) != 0) return "working window with a nonzero reserved field";
    const uint32_t buckets = load_le32(w + kWinBuckets);
    if (buckets == 0) continue;
    const int64_t low = load_i32(w + kWinMin), high = load_i32(w + kWinMax);
    const int64_t offset = load_i32(w + kWinOffset);
    const int64_t capacity = load_le32(w + kWinCapacity);
    if (low > high || low < offset || high >= offset + capacity || low < lowest_index_of(scale) ||
        high > highest_index_of(scale) || high - low + 1 > int64_t{max_buckets})
      return "working window with its buckets outside it";
  }
  return nullptr;
}

}  // namespace sketch::ddsketch::detail
