// The trimmed mean: the average of the values whose rank lies in [lo, hi]
// (ddsketch.h). The values in ascending order fill positions (k - 1, k],
// k = 1..count: the negative store from its largest magnitude down, the
// zeros, the positive store up. Each bucket occupies the positions of its
// values, and the answer is the average over [lo count, hi count] of what
// each position holds: the bucket's representative (clamped to [min, max],
// as quantile() does), the exact min at the first position and the exact
// max at the last. A bucket partly inside counts by the part inside.
//
// The error bound. The k-th value in order lies in the bucket the sketch
// puts at position k, and a guaranteed bucket's representative is within
// alpha * |v| of each of its values v (clamping only moves it closer), so
// the answer is within alpha times the same average of |v| of the exact
// trimmed mean (plus the rounding of the sums), for ranks outside
// unguaranteed_ranks().
#include <cmath>
#include <limits>

#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

using namespace detail;

namespace {

// The average over positions [from, to] of [0, n], accumulated as value
// times the share of the range it covers, so that no partial sum exceeds
// the largest magnitude (values near the double range would overflow a sum
// of value times positions).
struct Trim {
  double from, to, n;
  double sum = 0, share = 0;

  void add(double value, double a, double b) {  // value over (a, b]
    const double low = a > from ? a : from, high = b < to ? b : to;
    if (!(high > low)) return;
    const double part = (high - low) / (to - from);
    sum += value * part;
    share += part;
  }

  // A bucket over (a, b], less the first and last positions, which hold
  // the exact min and max.
  void bucket(double value, double a, double b) {
    add(value, a < 1 ? 1 : a, b > n - 1 ? n - 1 : b);
  }
};

double clamp(double x, double low, double high) { return x < low ? low : x > high ? high : x; }

}  // namespace

Status check_trim(double lo, double hi) {
  if (!(lo >= 0 && lo < hi && hi <= 1))
    return Status::error(StatusCode::kInvalidParameter,
                         "trimmed mean ranks [%g, %g] must satisfy 0 <= lo < hi <= 1", lo, hi);
  return Status::ok();
}

double trimmed_mean(const View& v, double lo, double hi) {
  if (v.count == 0) return std::numeric_limits<double>::quiet_NaN();
  if (v.count == 1) return v.min;
  const double n = static_cast<double>(v.count);
  Trim t{lo * n, hi * n, n};
  t.add(v.min, 0, 1);
  t.add(v.max, n - 1, n);
  // Positions as doubles: exact below 2^53 values, and never out of bounds
  // of anything (a corrupt state's counts only move its answer).
  const double negatives = static_cast<double>(store_total(v.negative));
  double seen = 0;  // magnitudes walked upwards: positions from the top of the negatives down
  for_each_bucket(v.negative, [&](int32_t i, uint64_t count) {
    const double top = negatives - seen;
    seen += static_cast<double>(count);
    t.bucket(clamp(-bucket_value(i, v.scale), v.min, v.max), negatives - seen, top);
  });
  const double zeros = static_cast<double>(v.zero_count);
  t.bucket(0.0, negatives, negatives + zeros);
  double position = negatives + zeros;
  for_each_bucket(v.positive, [&](int32_t i, uint64_t count) {
    const double start = position;
    position += static_cast<double>(count);
    t.bucket(clamp(bucket_value(i, v.scale), v.min, v.max), start, position);
  });
  // share is 1 up to rounding (the counts add up to count); dividing by it
  // keeps a sketch whose counts do not (a corrupt state) within [min, max].
  if (!(t.share > 0)) return std::numeric_limits<double>::quiet_NaN();
  return clamp(t.sum / t.share, v.min, v.max);
}

}  // namespace sketch::ddsketch
