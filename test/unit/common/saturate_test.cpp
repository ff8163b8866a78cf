// The one double -> int64 conversion of every count reader (core/common/
// saturate.h): rounding, saturation at both ends, NaN, and the interval
// clamps that keep bounds around the estimate.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/common/saturate.h"

namespace sketch {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

TEST(SaturatingInt64, RoundsNearestHalfAwayFromZero) {
  EXPECT_EQ(saturating_int64(0.0), 0);
  EXPECT_EQ(saturating_int64(2.4), 2);
  EXPECT_EQ(saturating_int64(2.5), 3);
  EXPECT_EQ(saturating_int64(3.5), 4);
  EXPECT_EQ(saturating_int64(-2.5), -3);
  EXPECT_EQ(saturating_int64(-0.4), 0);
  EXPECT_EQ(saturating_int64(1e15 + 0.5), 1000000000000001);
}

TEST(SaturatingInt64, RoundsDownAndUp) {
  EXPECT_EQ(saturating_int64(2.9, Rounding::kDown), 2);
  EXPECT_EQ(saturating_int64(2.1, Rounding::kUp), 3);
  EXPECT_EQ(saturating_int64(-2.1, Rounding::kDown), -3);
  EXPECT_EQ(saturating_int64(-2.9, Rounding::kUp), -2);
  EXPECT_EQ(saturating_int64(7.0, Rounding::kDown), 7);
  EXPECT_EQ(saturating_int64(7.0, Rounding::kUp), 7);
}

TEST(SaturatingInt64, NaNIsZero) {
  EXPECT_EQ(saturating_int64(kNaN), 0);
  EXPECT_EQ(saturating_int64(kNaN, Rounding::kDown), 0);
  EXPECT_EQ(saturating_int64(kNaN, Rounding::kUp), 0);
}

TEST(SaturatingInt64, InfinitiesSaturate) {
  for (Rounding r : {Rounding::kNearest, Rounding::kDown, Rounding::kUp}) {
    EXPECT_EQ(saturating_int64(kInf, r), kMax);
    EXPECT_EQ(saturating_int64(-kInf, r), kMin);
  }
}

TEST(SaturatingInt64, TwoTo63AndAboveSaturate) {
  const double two63 = std::ldexp(1.0, 63);
  EXPECT_EQ(saturating_int64(two63), kMax);
  EXPECT_EQ(saturating_int64(two63, Rounding::kDown), kMax);
  EXPECT_EQ(saturating_int64(std::ldexp(1.0, 64)), kMax);
  EXPECT_EQ(saturating_int64(1e300), kMax);
  // The largest double below 2^63 converts exactly.
  const double below = std::nextafter(two63, 0.0);
  EXPECT_EQ(saturating_int64(below), static_cast<int64_t>(9223372036854774784LL));
  // The crafted theta of theta_basics: z^2 q / p with p = 2^-63.
  EXPECT_EQ(saturating_int64(1.959963984540054 * 1.959963984540054 * two63, Rounding::kUp), kMax);
}

TEST(SaturatingInt64, NegativeEndSaturates) {
  const double minus63 = -std::ldexp(1.0, 63);
  EXPECT_EQ(saturating_int64(minus63), kMin);  // exactly INT64_MIN, representable
  EXPECT_EQ(saturating_int64(std::nextafter(minus63, -kInf)), kMin);
  EXPECT_EQ(saturating_int64(-1e300, Rounding::kUp), kMin);
  EXPECT_EQ(saturating_int64(-5.0), -5);
}

TEST(CountBoundsInt64, OrdinaryIntervalRoundsOutwards) {
  const Int64Bounds b = count_bounds_int64(97.2, 103.1, 100);
  EXPECT_EQ(b.lower, 97);
  EXPECT_EQ(b.upper, 104);
}

TEST(CountBoundsInt64, UpperAboveInt64SaturatesAtCap) {
  const Int64Bounds b = count_bounds_int64(0.0, 3.5e19, 0);
  EXPECT_EQ(b.lower, 0);
  EXPECT_EQ(b.upper, kMax);
  const Int64Bounds capped = count_bounds_int64(0.0, 3.5e19, 10, 0, 1000);
  EXPECT_EQ(capped.upper, 1000);
  const Int64Bounds inf = count_bounds_int64(5.0, kInf, 7);
  EXPECT_EQ(inf.upper, kMax);
}

TEST(CountBoundsInt64, NeverBelowTheFloorNorOnTheWrongSideOfTheEstimate) {
  // Negative and NaN doubles: the floor and the estimate.
  Int64Bounds b = count_bounds_int64(-5.0, kNaN, 3);
  EXPECT_EQ(b.lower, 0);
  EXPECT_EQ(b.upper, 3);
  b = count_bounds_int64(kNaN, -kInf, 3, 2);
  EXPECT_EQ(b.lower, 2);
  EXPECT_EQ(b.upper, 3);
  // A lower bound above the (rounded) estimate, an upper one below it.
  b = count_bounds_int64(10.5, 9.0, 10);
  EXPECT_EQ(b.lower, 10);
  EXPECT_EQ(b.upper, 10);
  // An estimate outside [floor, cap] is brought inside first.
  b = count_bounds_int64(1.0, 2.0, -4, 0, kMax);
  EXPECT_EQ(b.lower, 0);
  EXPECT_EQ(b.upper, 2);
}

TEST(CountBoundsInt64, HugeFloorAndEstimate) {
  const Int64Bounds b = count_bounds_int64(kInf, kInf, kMax, 5);
  EXPECT_EQ(b.lower, kMax);
  EXPECT_EQ(b.upper, kMax);
}

}  // namespace
}  // namespace sketch
