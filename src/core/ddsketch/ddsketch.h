// DDSketch: quantiles with a guaranteed relative error, mergeable exactly.
//
// A value v > 0 goes to the bucket i = ceil(log_gamma(v)), which covers
// (gamma^(i-1), gamma^i]. Answering a quantile with the bucket's
// representative 2 gamma^i / (gamma + 1) is then within a relative error of
//
//   alpha = (gamma - 1) / (gamma + 1)
//
// of every value in the bucket (Masson, Rim, Lee, "DDSketch", VLDB 2019).
// Negative values go to a second store by their magnitude, zeros (and -0.0)
// to an exact count.
//
// The mapping is OpenTelemetry's base-2 exponential one: gamma = 2^(2^-s)
// for an integer scale s, so i = ceil(log2(v) * 2^s). Bucket boundaries
// nest across scales: bucket i at scale s is exactly the union of buckets
// 2i-1 and 2i at scale s+1, so a sketch folds to any coarser scale without
// error (i -> ceil(i / 2^(s - s'))), and sketches of different scales merge
// at the coarser one. A requested accuracy gets the coarsest scale whose
// alpha does not exceed it (params_for): alpha(6) = 0.0054 for the default
// 0.01.
//
// The index is exact, and the same on every platform: v = f * 2^e with f in
// [1, 2) (exact), and the bucket within the octave is the smallest j with
// f <= 2^(j / 2^s), decided by comparing f with a table of those boundaries
// rounded toward zero to doubles (ddsketch_boundaries.cpp; since no boundary
// but 1 and 2 is a double, f <= 2^(j/2^s) exactly when f <= the rounded
// value), starting from the top bits of f. So every value lands in
// the bucket the math says, powers of two and denormals included, every
// quantile within alpha holds without a floating-point escape, and two
// servers build the same bytes from the same values. The finite doubles map
// to indices -1074 * 2^s (2^-1074, the smallest denormal) .. 1024 * 2^s (the
// largest double); parse refuses indices outside that range.
//
// Each store keeps at most max_buckets consecutive bucket indices (its
// span). When a value or a merge would widen the span beyond that, the
// lowest-magnitude buckets collapse into the lowest index kept,
// max_index - max_buckets + 1 (the store's collapse flag records it): the
// sketch never fails and never grows past its limit, and only quantiles
// that fall into a collapsed bucket lose the guarantee (unguaranteed_ranks).
// At one scale the rule depends only on the multiset of indices seen, so the
// result does not depend on input order, grouping or merging, nor on the
// max_buckets of the parts (a union collapses at min(m_a, m_b), and its
// collapse point is never below either part's: see ddsketch_merge.cpp).
// Across scales the same holds unless a store of the finer sketch has
// already collapsed: folding cannot tell where the values of its collapsed
// bucket came from, so they land in the fold of that bucket, where a sketch
// built at the coarser scale from the start might have kept some of them
// lower; and the folded bucket stays a floor (ExtentBuilder): smaller
// values of the other side join it rather than sit below it, so the
// collapsed bucket is always the lowest and unguaranteed_ranks() reports
// every rank it holds. The result is a valid sketch with the guarantee
// outside the collapsed bucket; its bytes can differ from the single-pass
// ones, and a union of three or more scales can depend on its grouping.
//
// count, zero_count, min and max are exact, and so is the sum: an exact
// fixed-point integer in units of 2^-1074 (the smallest double) over
// kSumWords 64-bit words, two's complement, so that sums are associative
// and a union over any partition of the rows has the same bytes as one
// aggregate over all of them. sum() rounds it to the nearest double.
//
// Stored format (version 1), all integers little-endian:
//
//   byte 0-7    common header (header.h): kind ddsketch, version 1, hash
//               identity (unused: values are not hashed), param[0] = scale
//               (kMinScale..kMaxScale), param[1] = encoding (1 = stored),
//               byte 7 = element kind, always 255 (kNone: a ddsketch
//               holds numbers, converted to double precision)
//   byte 8-11   max_buckets, uint32 (kMinBuckets..kMaxBuckets), per store
//   byte 12     flags: bit 0 positive store collapsed, bit 1 negative store
//               collapsed; other bits 0
//   byte 13-15  0
//   byte 16-23  count, uint64: every value, zeros included
//   byte 24-31  zero_count, uint64
//   byte 32-39  min, IEEE double (0 when count = 0; never -0.0: a zero
//               value counts as +0.0)
//   byte 40-47  max, IEEE double (likewise)
//   byte 48     sum: index of its lowest stored word (0..kSumWords-1)
//   byte 49     sum: number of stored words n (0..kSumWords); the words
//               below the lowest are 0, those above the highest are the
//               sign extension of the highest; n = 0 means a sum of 0 (and
//               byte 48 is then 0), and the stored words are trimmed:
//               neither the lowest is 0 nor the highest a pure sign
//               extension of the one below it
//   byte 50-    n sum words, uint64 each
//   then the positive store, then the negative store, each:
//               uint32 b, the number of non-empty buckets; then, if b > 0,
//               int32 the lowest index, and b entries of
//               (varint gap, varint count): the gap to the previous index
//               minus one (0 for the first entry), the count (>= 1).
//               Varints are unsigned LEB128 in their shortest form.
//
// A stored sketch is a function of the scale, max_buckets and the multiset
// of values added; `=` compares bytes.
//
// Aggregate states use the working encoding (param[1] = 2): the same bytes
// 8-47, the sum as all kSumWords words, then per store a dense window
// (int32 offset: the index of slot 0; uint32 capacity, slots; int32 min and
// max index, meaningful when b > 0; uint32 b; uint32 0) followed by capacity
// uint64 counts, so that adding a value is O(1) and never allocates until
// the window must grow. A window holds at most 2 * max_buckets slots; when
// a store's extremes move past it, it slides within its slots (in place)
// or, when its slots are fewer than twice the span, grows. The working
// encoding never leaves an aggregate: write_stored turns it into the stored
// form, and parse refuses it unless asked for aggregate states
// (Validation::kStructure).
//
// Every function here works on caller-owned byte buffers and never
// allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/bytes.h"
#include "core/common/header.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::ddsketch {

constexpr uint8_t kFormatVersion = 1;

constexpr int kMinScale = 0;   // gamma 2, alpha 1/3
constexpr int kMaxScale = 12;  // alpha 8.5e-5
constexpr uint32_t kMinBuckets = 16;
constexpr uint32_t kMaxBuckets = 65536;
constexpr uint32_t kDefaultMaxBuckets = 2048;
constexpr double kDefaultRelativeAccuracy = 0.01;
constexpr int kSumWords = 34;  // 2176 bits: 2^1024 times 2^64 values, in units of 2^-1074

// The most values a sketch counts (count is a uint64): add() ignores values
// past it, and a union that would exceed it is refused (check_mergeable).
// Reachable only through crafted values: 2^64 rows is beyond any table.
constexpr uint64_t kMaxCount = UINT64_MAX;

enum class Encoding : uint8_t { kStored = 1, kWorking = 2 };

struct Params {
  int scale;
  uint32_t max_buckets;
};

// gamma = 2^(2^-scale) and alpha = (gamma - 1) / (gamma + 1).
double gamma_of(int scale);
double relative_accuracy(int scale);

// The coarsest scale whose alpha does not exceed `relative_accuracy`, with
// `max_buckets` per store. kInvalidParameter (naming the range) unless
// relative_accuracy(kMaxScale) <= relative_accuracy < 1 and kMinBuckets <=
// max_buckets <= kMaxBuckets. Wide argument types so that any SQL value can
// be checked before it is narrowed.
Status params_for(double relative_accuracy, int64_t max_buckets, Params* out);

// kInvalidParameter for NaN and for +-Infinity (which no bucket holds);
// every finite double, denormals included, is accepted.
Status check_value(double v);

// The bucket of a finite magnitude m > 0 at `scale`: ceil(log2(m) * 2^scale),
// exactly (see above).
int32_t bucket_index(double magnitude, int scale);

// The representative value of bucket i: 2 gamma^i / (gamma + 1) (within a
// few units in the last place; denormal results round like any denormal).
double bucket_value(int32_t index, int scale);

// The bucket indices of the finite doubles at `scale`: -1074 * 2^scale and
// 1024 * 2^scale.
int32_t lowest_index(int scale);
int32_t highest_index(int scale);

// One store (positive or negative values), as parsed.
struct Store {
  uint32_t buckets;    // non-empty buckets
  int32_t min_index;   // lowest non-empty index (when buckets > 0)
  int32_t max_index;   // highest non-empty index (when buckets > 0)
  bool collapsed;
  Encoding encoding;
  const uint8_t* data;  // stored: the first entry; working: the first count
  size_t size;          // bytes at data
  int32_t offset;       // working only: the index of slot 0
  uint32_t capacity;    // working only: slots
};

// A parsed, read-only look at a sketch.
struct View {
  int scale;
  uint32_t max_buckets;
  Encoding encoding;
  uint64_t count;
  uint64_t zero_count;
  double min;
  double max;
  Store positive;
  Store negative;
  const uint8_t* data;  // the whole sketch, header first
  size_t size;
};

// Validation (core/common/validation.h). kCanonical, for external input,
// checks every byte of the stored encoding in O(size), so that whatever it
// accepts is a sketch this code could have written: the header (byte 7 =
// 255), max_buckets, flags and reserved bytes, shortest varints, counts >= 1,
// indices increasing and within the scale's range, spans of at most
// max_buckets, bucket counts adding up to count (checked arithmetic), a
// trimmed sum with (count - 1) min + max <= sum <= min + (count - 1) max,
// finite min <= max (never -0.0; both 0 when empty), max > 0 exactly when
// there are positive values and in the bucket of the highest positive index
// (min and negative values alike), the lowest bucket of a store holding min
// (or max) when that is the store's smallest magnitude, a collapse flag only
// on a non-empty store. kStructure (our own values and aggregate states)
// also accepts the working encoding; it checks what keeps every reader
// inside the buffer and its index arithmetic in range: the header, the
// lengths, the windows (in O(1)) and the stored entries' bounds and indices
// (in O(size)).
Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

inline int scale_of(const uint8_t* sketch) { return static_cast<int8_t>(sketch[5]); }
inline Encoding encoding_of(const uint8_t* sketch) { return static_cast<Encoding>(sketch[6]); }
inline uint32_t max_buckets_of(const uint8_t* sketch) { return load_le32(sketch + 8); }
inline uint64_t count_of(const uint8_t* sketch) { return load_le64(sketch + 16); }

// --- building ---------------------------------------------------------------

size_t empty_size();
void write_empty(const Params& params, uint8_t* dst);  // stored, empty_size() bytes

size_t empty_working_size(const Params& params);
void write_empty_working(const Params& params, uint8_t* dst);

// The stored form of any sketch: stored_size(v) bytes.
size_t stored_size(const View& v);
void write_stored(const View& v, uint8_t* dst);

// A working copy of any sketch, with room for its span: working_size(v)
// bytes.
size_t working_size(const View& v);
void write_working(const View& v, uint8_t* dst);

// Adds one value (check_value passed) to a working sketch in place. False
// when the value's store must grow its window first: *size is then the
// bytes of the grown state (grown_size), which grow() writes. Nothing is
// changed when it returns false. A value check_value refuses, and any value
// once count is kMaxCount, is ignored (true).
bool add(uint8_t* working, double value, size_t* size);

// Adds `times` copies of one value (check_value passed) at once, in place:
// the bytes are those of `times` calls of add() (bucket and zero counts,
// count, min, max, the exact sum: value * times is added to it exactly),
// in one step. times = 0 changes nothing. False, changing nothing, when the
// value's window must grow first, as for add(). Refuses nothing: callers
// check fits_count() first (as add() does, it ignores a value whose copies
// would take count past kMaxCount).
bool add_times(uint8_t* working, double value, uint64_t times, size_t* size);

// Whether `more` values still fit the sketch's count (at most kMaxCount):
// the one limit of a weighted add. The exact sum cannot overflow within it
// (ddsketch_internal.h, "the exact sum").
inline bool fits_count(const uint8_t* sketch, uint64_t more) {
  return more <= kMaxCount - count_of(sketch);
}
size_t grown_size(const View& v, double value);
void grow(const View& v, double value, uint8_t* dst);

// --- union ------------------------------------------------------------------

// a ∪ b: scale min(s_a, s_b) (the finer folds exactly), max_buckets
// min(m_a, m_b), then collapsed by the usual rule. Any two sketches merge,
// unless together they hold more than kMaxCount values (check_mergeable:
// kInvalidParameter).
struct MergePlan {
  int scale;
  uint32_t max_buckets;
  bool in_place;  // a is a working state that can absorb b in its own buffer
  size_t size;    // bytes of the result (a working state) when not in place
};

Status check_mergeable(const View& a, const View& b);
MergePlan plan_merge(const View& a, const View& b);

// If plan.in_place, a_buffer (a's bytes) is updated and dst ignored;
// otherwise the result, a working state, is written into dst.
void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan, uint8_t* dst);

// --- answers ----------------------------------------------------------------

// The sum of every value added, rounded to the nearest double (exact
// inside); +-Infinity when it is beyond the double range (1e308 + 1e308).
double sum(const View& v);

// The q-quantile (0 <= q <= 1) of a sketch with count > 0, as
// percentile_disc defines it: the value of rank k = max(1, ceil(q * count))
// among the values in ascending order, estimated by its bucket's
// representative and clamped to [min, max]. Ranks 1 and count are min and
// max exactly, so q = 0 gives min and q = 1 max. NaN for an empty sketch.
double quantile(const View& v, double q);

// The fraction of values <= x: exact below min and from max on, otherwise
// counted by whole buckets (a bucket counts when its representative is <= x)
// and kept within [1/count, (count-1)/count], since min <= x < max. A
// bucket cannot be split, so only the values of x's own bucket can be
// counted on the wrong side: the answer is off by at most that bucket's
// count / count, and it is the exact fraction of values <= some x' with
// x / (1 + alpha) < x' <= x / (1 - alpha) (x > 0; mirrored for x < 0).
double rank(const View& v, double x);

// rank() for many values at once, in one pass over the buckets (sorted or
// not): out[k] = rank(v, xs[k]) for m values, none NaN. `order` (m slots)
// and `counts` (m slots) are the caller's scratch. rank() itself is the
// case m = 1 (ddsketch_ranks.cpp).
void ranks(const View& v, const double* xs, size_t m, uint32_t* order, uint64_t* counts,
           double* out);

// How many values count as <= x by rank()'s rule (rank() = that / count),
// for m ascending values xs (none NaN), in one pass over the buckets:
// out[k] for xs[k], never decreasing.
void counts_at_most(const View& v, const double* xs, size_t m, uint64_t* out);

// Split points of a CDF or PMF: m finite values in strictly increasing
// order, else kInvalidParameter naming the first that is not.
Status check_splits(const double* splits, size_t m);

// DataSketches' (KLL's) CDF over m checked splits: out[k] = rank(v,
// splits[k]) for k < m and out[m] = 1, m + 1 values, from integer counts c_k
// as c_k / count. counts: m slots of scratch. For a sketch with count > 0.
void cdf(const View& v, const double* splits, size_t m, uint64_t* counts, double* out);

// The histogram over the same splits: out[0] = c_0 / count, out[k] = (c_k -
// c_(k-1)) / count, out[m] = (count - c_(m-1)) / count; m + 1 masses of
// integer counts, which add up to 1 (up to the rounding of each quotient).
void pmf(const View& v, const double* splits, size_t m, uint64_t* counts, double* out);

// The mean of the values whose rank lies in [lo, hi] (0 <= lo < hi <= 1,
// check_trim): the values in ascending order fill positions (k - 1, k], k =
// 1..count, and the answer is their average over positions [lo count, hi
// count], a value partly inside weighted by the part. Each bucket's values
// are taken at its representative (clamped to [min, max]), the first
// position at the exact min and the last at the exact max. Since the k-th
// value lies in the bucket the sketch puts at position k, the answer is
// within alpha * (the same average of |value|) of the exact one, for ranks
// outside unguaranteed_ranks. NaN for an empty sketch.
Status check_trim(double lo, double hi);
double trimmed_mean(const View& v, double lo, double hi);

// Ranks (1-based, inclusive) whose quantile may be off by more than alpha
// because a collapsed bucket holds them; from > to when there are none
// (then every quantile holds the guarantee). When both stores collapsed, the
// one range from the negative store's collapsed bucket to the positive's
// (it includes the zeros between them, which are exact).
struct Guarantee {
  uint64_t from;
  uint64_t to;
};
Guarantee unguaranteed_ranks(const View& v);

// Calls f(index, count) for every non-empty bucket of a store, in ascending
// index (that is ascending magnitude) order.
template <class F>
void for_each_bucket(const Store& store, F&& f);

}  // namespace sketch::ddsketch

#include "core/ddsketch/ddsketch_buckets.h"  // for_each_bucket, over both encodings
