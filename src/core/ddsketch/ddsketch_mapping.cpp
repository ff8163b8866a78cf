// The mapping between values and buckets: scales, accuracy, the exact bucket
// of a value and a bucket's representative.
#include <cmath>

#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

using namespace detail;

double gamma_of(int scale) { return std::exp2(std::ldexp(1.0, -scale)); }

// alpha = (gamma - 1) / (gamma + 1) with gamma - 1 = expm1(ln 2 * 2^-s): at
// scale 12 gamma - 1 is 1.7e-4, and subtracting 1 from a rounded gamma would
// lose 12 of its bits.
double relative_accuracy(int scale) {
  const double gamma_minus_one = std::expm1(0.693147180559945309417 * std::ldexp(1.0, -scale));
  return gamma_minus_one / (gamma_minus_one + 2.0);
}

Status params_for(double accuracy, int64_t max_buckets, Params* out) {
  const double finest = relative_accuracy(kMaxScale);
  if (!(accuracy >= finest && accuracy < 1.0))
    return Status::error(StatusCode::kInvalidParameter,
                         "ddsketch relative accuracy must be at least %.17g (scale %d) and "
                         "below 1, got %g",
                         finest, kMaxScale, accuracy);
  if (max_buckets < kMinBuckets || max_buckets > kMaxBuckets)
    return Status::error(StatusCode::kInvalidParameter,
                         "ddsketch max_buckets must be between %u and %u, got %lld", kMinBuckets,
                         kMaxBuckets, static_cast<long long>(max_buckets));
  // alpha halves (roughly) with each scale; the coarsest that is accurate
  // enough keeps the fewest buckets.
  int scale = kMinScale;
  while (relative_accuracy(scale) > accuracy) scale++;
  *out = Params{scale, static_cast<uint32_t>(max_buckets)};
  return Status::ok();
}

Status check_value(double v) {
  if (std::isnan(v))
    return Status::error(StatusCode::kInvalidParameter,
                         "a ddsketch cannot hold NaN: it holds finite numbers only");
  if (std::isinf(v))
    return Status::error(StatusCode::kInvalidParameter,
                         "a ddsketch cannot hold %s: it holds finite numbers only",
                         v > 0 ? "Infinity" : "-Infinity");
  return Status::ok();
}

int32_t lowest_index(int scale) { return static_cast<int32_t>(lowest_index_of(scale)); }
int32_t highest_index(int scale) { return static_cast<int32_t>(highest_index_of(scale)); }

int32_t bucket_index(double magnitude, int scale) {
  if (!(magnitude > 0)) return lowest_index(scale);
  if (!(magnitude <= 1.7976931348623157e308)) return highest_index(scale);
  return index_of(magnitude, scale);
}

// Bucket i = e * 2^s + j (0 <= j < 2^s) is (2^(e + (j-1)/2^s), 2^(e + j/2^s)]
// and its representative 2 gamma^i / (gamma + 1) = 2^e * 2^(j/2^s) * 2 /
// (gamma + 1): the table's bound (rounded toward zero, one unit in the last
// place) times a factor in [2/3, 1), then scaled by 2^e (exact, or rounded
// once into a denormal). Splitting off 2^e keeps the top bucket, 1024 * 2^s,
// finite: 2^1024 * 2 / (gamma + 1) < 2^1024. Only IEEE operations: the same
// answer on every platform.
double bucket_value(int32_t index, int scale) {
  const int64_t n = int64_t{1} << scale;
  const int64_t i = index;
  const int64_t e = i >= 0 ? i / n : -((-i + n - 1) / n);  // floor(i / n)
  const int64_t j = i - e * n;
  const int step = kBoundaryBits - scale;
  const double gamma = kBoundary[1 << kBoundaryBits >> scale];
  const double within = kBoundary[j << step] * (2.0 / (gamma + 1.0));
  return std::ldexp(within, static_cast<int>(e));
}

}  // namespace sketch::ddsketch
