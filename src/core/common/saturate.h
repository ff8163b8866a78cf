// Double -> bigint for every reader that answers a count from a double
// estimate (hll, bloom, counting_bloom, theta): one rounding convention and
// one saturation rule instead of a cast per reader.
//
// A cast of a double outside int64's range to int64 is undefined behaviour
// (on x86 it gives INT64_MIN, a negative count). Estimates leave that range
// only for crafted or extreme sketches (a theta whose θ is 1, a full bloom
// filter, an hll near 2^64 distinct values), and there the answer must
// still be sane: the nearest int64, never a wrapped one.
//
//   saturating_int64(x, r)  x rounded by r (nearest: half away from zero,
//                           as std::round; down: floor; up: ceil), then
//                           clamped to [INT64_MIN, INT64_MAX]; NaN -> 0.
//   count_bounds_int64(...) an interval [lower, upper] of a count as int64:
//                           lower rounded down, upper rounded up, both
//                           saturating, then lower kept within [floor,
//                           estimate] and upper within [estimate, cap], so
//                           floor <= lower <= estimate <= upper <= cap
//                           whatever the doubles were (NaN included).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace sketch {

enum class Rounding { kNearest, kDown, kUp };

inline int64_t saturating_int64(double x, Rounding rounding = Rounding::kNearest) {
  if (std::isnan(x)) return 0;
  const double r = rounding == Rounding::kDown ? std::floor(x)
                   : rounding == Rounding::kUp ? std::ceil(x)
                                               : std::round(x);
  // 2^63 is exact in a double; every double below it and at or above -2^63
  // converts exactly (an integer after rounding).
  constexpr double kTwo63 = 9223372036854775808.0;
  if (r >= kTwo63) return std::numeric_limits<int64_t>::max();
  if (r < -kTwo63) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(r);
}

struct Int64Bounds {
  int64_t lower;
  int64_t upper;
};

// floor <= estimate <= cap, checked by the caller's arithmetic (the
// estimate is itself a saturated reading of the same sketch).
inline Int64Bounds count_bounds_int64(double lower, double upper, int64_t estimate, int64_t floor = 0,
                                      int64_t cap = std::numeric_limits<int64_t>::max()) {
  int64_t lo = saturating_int64(lower, Rounding::kDown);
  int64_t hi = saturating_int64(upper, Rounding::kUp);
  if (estimate < floor) estimate = floor;
  if (estimate > cap) estimate = cap;
  if (lo < floor) lo = floor;
  if (lo > estimate) lo = estimate;
  if (hi < estimate) hi = estimate;
  if (hi > cap) hi = cap;
  return Int64Bounds{lo, hi};
}

}  // namespace sketch
