// Ranks of many values at once, and the CDF and PMF over split points that
// dashboards draw, all by rank()'s rule: a bucket counts as <= x exactly
// when its representative is <= x (the sketch cannot split a bucket: its
// values are all on the side of its representative), with the exact min
// and max at the ends (ddsketch.h, rank).
//
// One pass over the buckets for any number of values: each bucket adds its
// count to the first of the (ascending) values its representative is <= —
// found by binary search, so that each bucket is judged by the same
// comparison rank() makes and no order of the representatives is assumed
// (denormal ones can round to equal doubles) — and a running sum over the
// values then gives each its count.
#include <algorithm>
#include <cmath>

#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

using namespace detail;

namespace {

// counts[k] = how many values count as <= x_k, for m ascending x_k =
// x_at(k): first each bucket's count at the first k whose x_k its value is
// <=, then the running sums, then rank()'s rule at the ends.
template <class X>
void count_sorted(const View& v, size_t m, X x_at, uint64_t* counts) {
  for (size_t k = 0; k < m; k++) counts[k] = 0;
  if (m == 0) return;
  auto place = [&](double value, uint64_t count) {
    size_t low = 0, high = m;  // the first k with value <= x_k, or m
    while (low < high) {
      const size_t mid = low + (high - low) / 2;
      if (value <= x_at(mid)) high = mid;
      else low = mid + 1;
    }
    if (low < m) counts[low] = saturating_add(counts[low], count);
  };
  // -r <= x for a negative bucket of representative r when r >= -x.
  for_each_bucket(v.negative,
                  [&](int32_t i, uint64_t count) { place(-bucket_value(i, v.scale), count); });
  if (v.zero_count > 0) place(0.0, v.zero_count);
  for_each_bucket(v.positive,
                  [&](int32_t i, uint64_t count) { place(bucket_value(i, v.scale), count); });
  uint64_t running = 0;
  for (size_t k = 0; k < m; k++) {
    running = saturating_add(running, counts[k]);
    counts[k] = clamp_at_most(v, x_at(k), running);
  }
}

double fraction(uint64_t count, const View& v) {
  return static_cast<double>(count) / static_cast<double>(v.count);
}

}  // namespace

void counts_at_most(const View& v, const double* xs, size_t m, uint64_t* out) {
  count_sorted(v, m, [xs](size_t k) { return xs[k]; }, out);
}

void ranks(const View& v, const double* xs, size_t m, uint32_t* order, uint64_t* counts,
           double* out) {
  for (size_t k = 0; k < m; k++) order[k] = static_cast<uint32_t>(k);
  std::sort(order, order + m, [xs](uint32_t a, uint32_t b) { return xs[a] < xs[b]; });
  count_sorted(v, m, [xs, order](size_t k) { return xs[order[k]]; }, counts);
  for (size_t k = 0; k < m; k++)
    out[order[k]] = v.count == 0 ? 0.0 : fraction(counts[k], v);
}

double rank(const View& v, double x) {
  uint32_t order;
  uint64_t count;
  double out;
  ranks(v, &x, 1, &order, &count, &out);
  return out;
}

Status check_splits(const double* splits, size_t m) {
  for (size_t k = 0; k < m; k++) {
    if (!std::isfinite(splits[k]))
      return Status::error(StatusCode::kInvalidParameter, "split point %zu is %g, not a finite number",
                           k + 1, splits[k]);
    if (k > 0 && !(splits[k - 1] < splits[k]))
      return Status::error(StatusCode::kInvalidParameter,
                           "split points must be strictly increasing: point %zu is %.17g after %.17g",
                           k + 1, splits[k], splits[k - 1]);
  }
  return Status::ok();
}

void cdf(const View& v, const double* splits, size_t m, uint64_t* counts, double* out) {
  counts_at_most(v, splits, m, counts);
  for (size_t k = 0; k < m; k++) out[k] = fraction(counts[k], v);
  out[m] = 1.0;
}

void pmf(const View& v, const double* splits, size_t m, uint64_t* counts, double* out) {
  counts_at_most(v, splits, m, counts);
  uint64_t below = 0;  // counts never decrease (counts_at_most)
  for (size_t k = 0; k < m; k++) {
    out[k] = fraction(counts[k] - below, v);
    below = counts[k];
  }
  out[m] = fraction(v.count - below, v);
}

}  // namespace sketch::ddsketch
