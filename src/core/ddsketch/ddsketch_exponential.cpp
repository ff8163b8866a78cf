// Exponential histograms into a ddsketch (ddsketch_exponential.h).
#include "core/ddsketch/ddsketch_exponential.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <initializer_list>

namespace sketch::ddsketch {

using namespace detail;

namespace {

// Any index a histogram can meaningfully give lies within the doubles'
// range at scale 20 (about 2^31); far beyond that fold_index could overflow.
constexpr int64_t kIndexLimit = int64_t{1} << 52;

// Calls f(folded index, count) for every non-empty folded bucket of a store,
// ascending: consecutive source buckets that fold together are summed (the
// plan has checked that no sum overflows).
template <class F>
void for_each_folded(const ExpStore& s, int shift, F&& f) {
  bool open = false;
  int64_t current = 0;
  uint64_t total = 0;
  for (size_t k = 0; k < s.n; k++) {
    if (s.buckets[k].count == 0) continue;
    const int64_t folded = fold_index(s.buckets[k].index, shift);
    if (open && folded == current) {
      total += s.buckets[k].count;
      continue;
    }
    if (open) f(current, total);
    open = true;
    current = folded;
    total = s.buckets[k].count;
  }
  if (open) f(current, total);
}

// A value of bucket i (at `scale`) to stand for an unknown min or max: its
// representative, moved inside the bucket if rounding put it on an edge.
double inside_value(int64_t index, int scale) {
  double v = bucket_value(static_cast<int32_t>(index), scale);
  if (!std::isfinite(v) || v > DBL_MAX) v = DBL_MAX;
  if (v <= 0) v = DBL_TRUE_MIN;
  for (int k = 0; k < 4 && bucket_index(v, scale) > index; k++) v = std::nextafter(v, 0.0);
  for (int k = 0; k < 4 && bucket_index(v, scale) < index; k++) v = std::nextafter(v, DBL_MAX);
  return v;
}

const char* store_name(int k) { return k == 0 ? "positive" : "negative"; }

}  // namespace

Status plan_from_exponential(const ExpHistogram& h, int max_scale, int64_t max_buckets,
                             ExpPlan* plan) {
  if (h.scale < kOtelMinScale || h.scale > kOtelMaxScale)
    return Status::error(StatusCode::kInvalidParameter,
                         "histogram scale %d is outside %d..%d (OpenTelemetry's scales)", h.scale,
                         kOtelMinScale, kOtelMaxScale);
  if (h.scale < kMinScale)
    return Status::error(StatusCode::kInvalidParameter,
                         "histogram scale %d is below 0: its buckets span %d octaves each, which "
                         "ddsketch's buckets (at most one octave) cannot hold exactly",
                         h.scale, 1 << -h.scale);
  if (max_scale < kMinScale || max_scale > kMaxScale)
    return Status::error(StatusCode::kInvalidParameter, "max_scale %d is outside %d..%d",
                         max_scale, kMinScale, kMaxScale);
  if (max_buckets < kMinBuckets || max_buckets > kMaxBuckets)
    return Status::error(StatusCode::kInvalidParameter, "max_buckets %lld is outside %u..%u",
                         static_cast<long long>(max_buckets), kMinBuckets, kMaxBuckets);
  if (!(h.zero_threshold >= 0) || !std::isfinite(h.zero_threshold))
    return Status::error(StatusCode::kInvalidParameter,
                         "zero_threshold %g is not a finite number >= 0", h.zero_threshold);

  ExpPlan p{};
  p.scale = h.scale < max_scale ? h.scale : max_scale;
  p.shift = h.scale - p.scale;
  p.max_buckets = static_cast<uint32_t>(max_buckets);
  const int64_t lowest = lowest_index_of(p.scale), highest = highest_index_of(p.scale);

  uint64_t total = h.zero_count;
  uint64_t totals[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    const ExpStore& s = k == 0 ? h.positive : h.negative;
    bool any = false;
    int64_t previous = 0;
    for (size_t b = 0; b < s.n; b++) {
      const int64_t index = s.buckets[b].index;
      if (index <= -kIndexLimit || index >= kIndexLimit)
        return Status::error(StatusCode::kOverflow, "%s bucket index %lld is out of range",
                             store_name(k), static_cast<long long>(index));
      if (b > 0 && index <= previous)
        return Status::error(StatusCode::kInvalidText,
                             "%s bucket indices are not strictly ascending (%lld after %lld)",
                             store_name(k), static_cast<long long>(index),
                             static_cast<long long>(previous));
      previous = index;
      const uint64_t count = s.buckets[b].count;
      if (count == 0) continue;
      const int64_t folded = fold_index(index, p.shift);
      if (folded < lowest || folded > highest)
        return Status::error(StatusCode::kOverflow,
                             "%s bucket %lld at scale %d holds no finite double precision value",
                             store_name(k), static_cast<long long>(index - 1), h.scale);
      if (count > UINT64_MAX - total)
        return Status::error(StatusCode::kOverflow, "the histogram counts more than 2^64 - 1 values");
      total += count;
      totals[k] += count;
      if (!any) p.low[k] = folded;
      if (!any || folded != p.high[k]) p.buckets[k]++;
      p.high[k] = folded;
      any = true;
    }
    if (any && p.high[k] - p.low[k] + 1 > int64_t{p.max_buckets})
      return Status::error(StatusCode::kInvalidParameter,
                           "the %s buckets span %lld indices at scale %d, more than max_buckets %u",
                           store_name(k), static_cast<long long>(p.high[k] - p.low[k] + 1),
                           p.scale, p.max_buckets);
  }
  if (h.has_count && h.count != total)
    return Status::error(StatusCode::kInvalidText,
                         "count %llu is not zero_count %llu + positive %llu + negative %llu",
                         static_cast<unsigned long long>(h.count),
                         static_cast<unsigned long long>(h.zero_count),
                         static_cast<unsigned long long>(totals[0]),
                         static_cast<unsigned long long>(totals[1]));
  p.count = total;
  const bool pos = p.buckets[0] > 0, neg = p.buckets[1] > 0, zeros = h.zero_count > 0;

  for (const bool is_max : {true, false}) {
    const bool has = is_max ? h.has_max : h.has_min;
    double given = is_max ? h.max : h.min;
    const char* name = is_max ? "max" : "min";
    if (has && !std::isfinite(given))
      return Status::error(StatusCode::kInvalidParameter, "%s %g is not a finite number", name,
                           given);
    if (given == 0) given = 0;  // -0.0
    // The store the extreme comes from, and whether it is that store's
    // highest magnitude (max of positives, min of negatives) or its lowest.
    const bool same = is_max ? pos : neg;
    const bool other = is_max ? neg : pos;
    double value;
    if (total == 0) {
      value = 0;  // an empty sketch: min and max 0, whatever was given
    } else if (same || (!zeros && other)) {
      const int k = same ? (is_max ? 0 : 1) : (is_max ? 1 : 0);
      const int64_t b = same ? p.high[k] : p.low[k];
      const double sign = k == 0 ? 1.0 : -1.0;
      if (has) {
        if (!(given * sign > 0) || bucket_index(given * sign, p.scale) != b)
          return Status::error(StatusCode::kInvalidParameter,
                               "%s %.17g is not in the %s bucket (%s store, OTel index %lld at "
                               "scale %d) that the buckets say holds it",
                               name, given, same ? "outermost" : "innermost", store_name(k),
                               static_cast<long long>(otel_index(b)), p.scale);
        value = given;
      } else {
        value = sign * inside_value(b, p.scale);
      }
    } else {
      // The extreme is in the zero bucket: stored as 0.
      if (has && !(std::fabs(given) <= h.zero_threshold))
        return Status::error(StatusCode::kInvalidParameter,
                             "%s %.17g is outside the zero bucket [-%g, %g] that holds it", name,
                             given, h.zero_threshold, h.zero_threshold);
      value = 0;
    }
    (is_max ? p.max : p.min) = value;
  }
  // A missing extreme is its bucket's representative value, which can lie on
  // the other side of the given one when both are in the same bucket (a
  // single bucket, min given, max not): it moves to the given one, so that
  // min <= max as every ddsketch reader requires. Both given the wrong way
  // round is the producer's error.
  if (p.min > p.max) {
    if (h.has_min && h.has_max)
      return Status::error(StatusCode::kInvalidParameter, "min %.17g exceeds max %.17g", p.min,
                           p.max);
    if (h.has_min) p.max = p.min;
    else p.min = p.max;
  }

  std::memset(p.sum, 0, sizeof p.sum);
  if (total > 0) {
    if (h.has_sum) {
      if (!std::isfinite(h.sum))
        return Status::error(StatusCode::kInvalidParameter, "sum %g is not a finite number", h.sum);
      sum_add_double(p.sum, h.sum);
    } else {
      for (int k = 0; k < 2; k++)
        for_each_folded(k == 0 ? h.positive : h.negative, p.shift, [&](int64_t index, uint64_t c) {
          sum_add_scaled(p.sum, (k == 0 ? 1.0 : -1.0) * inside_value(index, p.scale), c);
        });
    }
    SumWords lower = {}, upper = {};
    sum_add_scaled(lower, p.min, total - 1);
    sum_add_double(lower, p.max);
    sum_add_scaled(upper, p.max, total - 1);
    sum_add_double(upper, p.min);
    if (sum_compare(p.sum, lower) < 0) std::memcpy(p.sum, lower, sizeof p.sum);
    if (sum_compare(p.sum, upper) > 0) std::memcpy(p.sum, upper, sizeof p.sum);
  }

  size_t size = kSumWordsOffset + 8 * size_t{trim_sum(p.sum).len};
  for (int k = 0; k < 2; k++) {
    size += 4;
    if (p.buckets[k] == 0) continue;
    size += 4;
    int64_t previous = p.low[k] - 1;
    for_each_folded(k == 0 ? h.positive : h.negative, p.shift, [&](int64_t index, uint64_t c) {
      size += varint_size(static_cast<uint64_t>(index - previous - 1)) + varint_size(c);
      previous = index;
    });
  }
  p.size = size;
  *plan = p;
  return Status::ok();
}

void write_from_exponential(const ExpHistogram& h, const ExpPlan& p, uint8_t* dst) {
  write_ddsketch_header(dst, p.scale, Encoding::kStored);
  std::memset(dst + kHeaderSize, 0, kSumOffset - kHeaderSize);
  store_le32(dst + kMaxBucketsOffset, p.max_buckets);
  store_le64(dst + kCountOffset, p.count);
  store_le64(dst + kZeroCountOffset, h.zero_count);
  store_double(dst + kMinOffset, p.min);
  store_double(dst + kMaxOffset, p.max);
  uint8_t* out = put_stored_sum(dst + kSumOffset, p.sum);
  for (int k = 0; k < 2; k++) {
    store_le32(out, p.buckets[k]);
    out += 4;
    if (p.buckets[k] == 0) continue;
    store_i32(out, p.low[k]);
    out += 4;
    int64_t previous = p.low[k] - 1;
    for_each_folded(k == 0 ? h.positive : h.negative, p.shift, [&](int64_t index, uint64_t c) {
      out = put_varint(out, static_cast<uint64_t>(index - previous - 1));
      out = put_varint(out, c);
      previous = index;
    });
  }
}

}  // namespace sketch::ddsketch
