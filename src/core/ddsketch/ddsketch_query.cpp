// Answers: quantiles (percentile_disc), the sum, and which ranks lost the
// guarantee (ranks: ddsketch_ranks.cpp).
//
// The values in ascending order are: the negative store from its highest
// index down (largest magnitude first), the zeros, the positive store from
// its lowest index up. Both stores are only ever walked upwards
// (for_each_bucket), so the k-th value among the negatives is found as the
// (negatives - k + 1)-th from the smallest magnitude.
//
// The readers never trust the counts for memory access (ddsketch_internal.h,
// "reading counts").
#include <cmath>
#include <limits>

#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

using namespace detail;

uint64_t detail::store_total(const Store& s) {
  uint64_t total = 0;
  for_each_bucket(s, [&](int32_t, uint64_t count) { total = saturating_add(total, count); });
  return total;
}

namespace {

// The index of the bucket holding the k-th value (1-based) of a store in
// ascending index order; false past its last value.
bool bucket_of_rank(const Store& s, uint64_t k, int32_t* index) {
  uint64_t seen = 0;
  bool found = false;
  for_each_bucket(s, [&](int32_t i, uint64_t count) {
    if (found) return;
    seen = saturating_add(seen, count);
    if (seen >= k) {
      *index = i;
      found = true;
    }
  });
  return found;
}

double clamp(double x, double low, double high) {
  if (x < low) return low;
  if (x > high) return high;
  return x;
}

}  // namespace

double sum(const View& v) {
  SumWords words;
  load_sum(v, words);
  return sum_to_double(words);
}

// percentile_disc's rank, k = max(1, ceil(q * count)). Rank 1 is min and
// rank count is max, both exact; any other rank is answered by its bucket's
// representative (within alpha of every value in the bucket), clamped to
// [min, max], which only ever moves it closer to the true value.
double quantile(const View& v, double q) {
  if (v.count == 0) return std::numeric_limits<double>::quiet_NaN();
  if (!(q > 0)) q = 0;
  if (q > 1) q = 1;
  const double target = std::ceil(q * static_cast<double>(v.count));
  uint64_t k = target >= static_cast<double>(v.count) ? v.count : static_cast<uint64_t>(target);
  if (k < 1) k = 1;
  if (k == 1) return v.min;
  if (k == v.count) return v.max;
  const uint64_t negatives = store_total(v.negative);
  double estimate = v.max;  // where counts that do not add up (corrupt) end
  int32_t index;
  if (k <= negatives) {
    if (bucket_of_rank(v.negative, negatives - k + 1, &index))
      estimate = -bucket_value(index, v.scale);
  } else if (k - negatives <= v.zero_count) {
    estimate = 0.0;
  } else if (bucket_of_rank(v.positive, k - negatives - v.zero_count, &index)) {
    estimate = bucket_value(index, v.scale);
  }
  return clamp(estimate, v.min, v.max);
}

// A collapsed store's lowest bucket may hold values from any lower bucket:
// for the positive store those are the first positive ranks, for the
// negative store (walked from its top down) the last negative ones.
Guarantee unguaranteed_ranks(const View& v) {
  Guarantee g{1, 0};
  const uint64_t negatives = store_total(v.negative);
  auto lowest_count = [](const Store& s) {
    uint64_t c = 0;
    bool first = true;
    for_each_bucket(s, [&](int32_t, uint64_t count) {
      if (first) c = count;
      first = false;
    });
    return c;
  };
  if (v.negative.collapsed && v.negative.buckets > 0) {
    const uint64_t c = lowest_count(v.negative);
    if (c > 0) g = Guarantee{negatives - c + 1, negatives};
  }
  if (v.positive.collapsed && v.positive.buckets > 0) {
    const uint64_t c = lowest_count(v.positive);
    if (c > 0) {
      const uint64_t from = saturating_add(saturating_add(negatives, v.zero_count), 1);
      const uint64_t to = saturating_add(from, c - 1);
      if (g.from > g.to) g.from = from;
      g.to = to;
    }
  }
  return g;
}

}  // namespace sketch::ddsketch
