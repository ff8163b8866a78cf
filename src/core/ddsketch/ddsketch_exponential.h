// Exponential histograms (OpenTelemetry's ExponentialHistogram data point,
// Prometheus' native histogram) into a ddsketch, exactly, and the buckets of
// a ddsketch in their terms (docs/ddsketch_otel.md).
//
// Index mapping. ddsketch's bucket i at scale s covers (gamma^(i-1),
// gamma^i], gamma = 2^(2^-s); OpenTelemetry's bucket j at scale s covers
// (base^j, base^(j+1)] with the same base, upper bounds inclusive in both
// (an exact power of two 2^k lies in ddsketch bucket k 2^s, OTel bucket
// k 2^s - 1). So OTel index j is ddsketch index j + 1 at the same scale, and
// Prometheus' bucket index (OTel's + 1, schema = scale) is ddsketch's index
// as it is. Every count here is given by its ddsketch index at the
// histogram's own scale S.
//
// Folding. A histogram finer than the target scale s (S > s, OTel scales go
// up to 20, ddsketch's to 12) folds exactly: bucket i at S lies inside
// bucket ceil(i / 2^(S - s)) at s (fold_index), which in OTel's terms is
// floor(j / 2^(S - s)) + 1, OTel's own downscaling (j >> d) plus one.
// A coarser histogram (S < 0: a bucket spans several octaves) cannot be
// represented: its counts would have to be split between ddsketch buckets.
// It is refused (kInvalidParameter).
//
// Zero bucket: zero_count values of magnitude at most zero_threshold become
// ddsketch zeros (exact only when the threshold is 0; otherwise their
// quantiles are 0, within zero_threshold absolutely).
//
// min, max: kept when given, and checked to lie in the bucket the sketch
// needs them in (the highest positive bucket for max, and so on); when
// absent, the representative of that bucket. sum: kept when given (rounded
// to the double it is), otherwise the sum of bucket representatives; either
// way clamped into the exact bounds every sketch satisfies,
// [max + (count-1) min, min + (count-1) max], which a sum accumulated in
// floating point by the producer can miss by a few ulps.
//
// Pure functions over caller-owned memory; nothing allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/status.h"
#include "core/ddsketch/ddsketch.h"
#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

constexpr int kOtelMinScale = -10;
constexpr int kOtelMaxScale = 20;

// One bucket: its ddsketch index at the histogram's scale (OTel index + 1,
// Prometheus index as is) and its count (0 is allowed and skipped).
struct ExpBucket {
  int64_t index;
  uint64_t count;
};

// Buckets in strictly ascending index order.
struct ExpStore {
  const ExpBucket* buckets;
  size_t n;
};

struct ExpHistogram {
  int scale = 0;
  uint64_t zero_count = 0;
  double zero_threshold = 0;
  ExpStore positive{nullptr, 0};
  ExpStore negative{nullptr, 0};
  bool has_count = false;
  uint64_t count = 0;
  bool has_sum = false;
  double sum = 0;
  bool has_min = false;
  double min = 0;
  bool has_max = false;
  double max = 0;
};

struct ExpPlan {
  int scale;
  int shift;  // histogram scale - sketch scale
  uint32_t max_buckets;
  uint64_t count;
  double min;
  double max;
  detail::SumWords sum;
  uint32_t buckets[2];  // non-empty folded buckets: positive, negative
  int64_t low[2];       // lowest and highest folded index per store
  int64_t high[2];
  size_t size;  // bytes of the stored sketch
};

// Checks the histogram and plans its sketch at scale min(h.scale,
// max_scale) with `max_buckets` per store. kInvalidParameter for a scale
// outside -10..20, a negative scale, max_scale outside 0..12, max_buckets
// outside 16..65536, a folded store wider than max_buckets, a
// zero_threshold that is negative or not finite, a sum, min or max that is
// not finite or not where the buckets put it; kInvalidText for buckets out
// of order or counts that do not add up to count; kOverflow for buckets
// beyond the doubles' range or more than 2^64 - 1 values.
Status plan_from_exponential(const ExpHistogram& h, int max_scale, int64_t max_buckets,
                             ExpPlan* plan);

// Writes the stored sketch (plan.size bytes). parse(kCanonical) accepts it.
void write_from_exponential(const ExpHistogram& h, const ExpPlan& plan, uint8_t* dst);

// The OTel index of ddsketch bucket i (i - 1); Prometheus' is i.
inline int64_t otel_index(int64_t ddsketch_index) { return ddsketch_index - 1; }

}  // namespace sketch::ddsketch
