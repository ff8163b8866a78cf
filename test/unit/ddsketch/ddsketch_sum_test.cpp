// The exact sum: cancellation across magnitudes, correct rounding (ties to
// even, sticky bits), overflow of the double range, denormals, mixed signs
// against an exact integer reference, and associativity of unions.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <vector>

#include "core/ddsketch/ddsketch_internal.h"
#include "ddsketch_test_util.h"

namespace sketch::ddsketch {
namespace {

using test::params;
using test::Random;
using test::Sketch;

double sum_of(const std::vector<double>& values) { return Sketch::of(params(6), values).sum(); }

TEST(DdsketchSum, CancellationAcrossMagnitudesIsExact) {
  EXPECT_EQ(sum_of({1e308, 1, -1e308}), 1.0);
  EXPECT_EQ(sum_of({1e308, -1e308, 1}), 1.0);
  EXPECT_EQ(sum_of({1, 1e308, -1e308}), 1.0);
  EXPECT_EQ(sum_of({DBL_MAX, DBL_TRUE_MIN, -DBL_MAX}), DBL_TRUE_MIN);
  EXPECT_EQ(sum_of({1e16, 1, -1e16}), 1.0);  // a double sum gives 0 here
  // The doubles 0.1 + 0.2 are exactly 3 * 0x1.999999999999ap-4 =
  // 0x1.33333333333338p-2; minus 0.3 = 0x1.3333333333333p-2 leaves 2^-55
  // (a double sum says 5.55e-17, twice that).
  EXPECT_EQ(sum_of({0.1, 0.2, -0.3}), 0x1p-55);
  EXPECT_EQ(sum_of({-0.3, 0.2, 0.1}), 0x1p-55);
  EXPECT_EQ(sum_of({}), 0.0);
  EXPECT_EQ(sum_of({5, -5}), 0.0);
  EXPECT_FALSE(std::signbit(sum_of({5, -5})));
}

TEST(DdsketchSum, RoundsToNearestTiesToEven) {
  const double two53 = 0x1p53;
  EXPECT_EQ(sum_of({two53, 1}), two53);               // tie: to even (2^53)
  EXPECT_EQ(sum_of({two53, 3}), two53 + 4);           // tie: to even (2^53 + 4)
  EXPECT_EQ(sum_of({two53, 1, 0x1p-30}), two53 + 2);  // above the tie: sticky bit rounds up
  EXPECT_EQ(sum_of({two53, 1, -0x1p-30}), two53);     // below the tie
  EXPECT_EQ(sum_of({-two53, -1}), -two53);
  EXPECT_EQ(sum_of({-two53, -3}), -two53 - 4);
  EXPECT_EQ(sum_of({-two53, -1, -0x1p-1000}), -two53 - 2);
  // Rounding up can carry into a new binade.
  EXPECT_EQ(sum_of({0x1.fffffffffffffp0, 0x1p-53}), 2.0);
  EXPECT_EQ(sum_of({0x1.fffffffffffffp0, 0x1p-54}), 0x1.fffffffffffffp0);
}

TEST(DdsketchSum, BeyondTheDoubleRangeIsInfinite) {
  EXPECT_EQ(sum_of({DBL_MAX, DBL_MAX}), INFINITY);
  EXPECT_EQ(sum_of({-DBL_MAX, -DBL_MAX}), -INFINITY);
  EXPECT_EQ(sum_of({DBL_MAX, DBL_MAX, -DBL_MAX}), DBL_MAX);
  // DBL_MAX + half an ulp of it rounds to 2^1024: infinity.
  EXPECT_EQ(sum_of({DBL_MAX, 0x1p970}), INFINITY);
  EXPECT_EQ(sum_of({DBL_MAX, 0x1p969}), DBL_MAX);
  // Many huge values, exactly: 1000 DBL_MAX minus 999 DBL_MAX.
  std::vector<double> values(1000, DBL_MAX);
  values.insert(values.end(), 999, -DBL_MAX);
  EXPECT_EQ(sum_of(values), DBL_MAX);
}

TEST(DdsketchSum, DenormalsAddExactly) {
  EXPECT_EQ(sum_of({DBL_TRUE_MIN, DBL_TRUE_MIN, DBL_TRUE_MIN}), 3 * DBL_TRUE_MIN);
  EXPECT_EQ(sum_of({DBL_MIN, -DBL_TRUE_MIN}), std::nextafter(DBL_MIN, 0.0));
  EXPECT_EQ(sum_of({1e-310, 2e-310}), 1e-310 + 2e-310);
}

// Integer-valued doubles below 2^53 with random signs: the exact sum is a
// 128-bit integer, and its conversion to double is correctly rounded.
TEST(DdsketchSum, RandomIntegersMatchAnExact128BitReference) {
  Random r(61);
  for (int trial = 0; trial < 200; trial++) {
    Sketch s(params(4));
    __int128 exact = 0;
    const int n = 1 + static_cast<int>(r.below(2000));
    for (int i = 0; i < n; i++) {
      const int bits = 1 + static_cast<int>(r.below(53));
      int64_t v = static_cast<int64_t>(r.next() >> (64 - bits));
      if (r.below(2) == 0) v = -v;
      s.add(static_cast<double>(v));
      exact += v;
    }
    ASSERT_EQ(s.sum(), static_cast<double>(exact)) << trial;
  }
}

// Doubles of every magnitude: the sum must be the exact sum rounded to
// nearest. Checked without trusting sum(): the exact residual S - s (in the
// fixed point) must be at most half an ulp of s, and exactly half only when
// s is even.
TEST(DdsketchSum, WideRangeSumsAreCorrectlyRounded) {
  Random r(62);
  for (int trial = 0; trial < 300; trial++) {
    std::vector<double> values;
    const int n = 1 + static_cast<int>(r.below(50));
    const int center = static_cast<int>(r.below(2000)) - 1000;
    for (int i = 0; i < n; i++) {
      const double m = 1 + r.uniform();
      double v = std::ldexp(m, center + static_cast<int>(r.below(120)) - 60);
      if (r.below(2) == 0) v = -v;
      values.push_back(v);
    }
    const Sketch sk = Sketch::of(params(3, kMaxBuckets), values);
    const double s = sk.sum();
    ASSERT_TRUE(std::isfinite(s));
    detail::SumWords exact = {};
    for (double v : values) detail::sum_add_double(exact, v);
    detail::SumWords residual = {};
    detail::sum_add(residual, exact);
    detail::sum_add_double(residual, -s);
    // |residual| <= ulp(s) / 2
    const double half_ulp =
        s == 0 ? 0.0 : (std::nextafter(std::fabs(s), INFINITY) - std::fabs(s)) / 2;
    detail::SumWords upper = {}, lower = {};
    detail::sum_add_double(upper, half_ulp);
    detail::sum_add_double(lower, -half_ulp);
    if (s == 0) {
      const detail::SumWords zero = {};
      ASSERT_EQ(detail::sum_compare(residual, zero), 0) << trial;
      continue;
    }
    ASSERT_LE(detail::sum_compare(residual, upper), 0) << trial;
    ASSERT_GE(detail::sum_compare(residual, lower), 0) << trial;
  }
}

TEST(DdsketchSum, UnionsAreAssociative) {
  Random r(63);
  std::vector<double> values;
  for (int i = 0; i < 3000; i++) {
    double v = std::ldexp(1 + r.uniform(), static_cast<int>(r.below(2000)) - 1000);
    values.push_back(r.below(2) ? v : -v);
  }
  const double expected = Sketch::of(params(5, kMaxBuckets), values).sum();
  for (int trial = 0; trial < 10; trial++) {
    std::vector<Sketch> parts(1 + r.below(10), Sketch(params(5, kMaxBuckets)));
    for (double v : values) parts[r.below(parts.size())].add(v);
    Sketch total = parts[0];
    for (size_t i = 1; i < parts.size(); i++) total.merge(parts[i]);
    ASSERT_EQ(total.sum(), expected);
  }
}

TEST(DdsketchSum, TrimmedStorage) {
  detail::SumWords w = {};
  EXPECT_EQ(detail::trim_sum(w).len, 0u);
  detail::sum_add_double(w, 1.0);  // 2^1074: word 16, bit 50
  detail::SumTrim t = detail::trim_sum(w);
  EXPECT_EQ(t.low, 16u);
  EXPECT_EQ(t.len, 1u);
  detail::sum_add_double(w, -2.0);  // -1: two's complement
  t = detail::trim_sum(w);
  EXPECT_EQ(t.low, 16u);
  EXPECT_EQ(t.len, 1u);
  EXPECT_EQ(w[16], 0xfffc000000000000ull);
  EXPECT_EQ(w[33], UINT64_MAX);
  EXPECT_EQ(detail::sum_to_double(w), -1.0);
  detail::SumWords tiny = {};
  detail::sum_add_double(tiny, -DBL_TRUE_MIN);  // -1 unit: all ones
  t = detail::trim_sum(tiny);
  EXPECT_EQ(t.low, 0u);
  EXPECT_EQ(t.len, 1u);
  EXPECT_EQ(detail::sum_to_double(tiny), -DBL_TRUE_MIN);
}

TEST(DdsketchSum, ScaledAdditionIsExact) {
  detail::SumWords a = {}, b = {};
  detail::sum_add_scaled(a, 0.1, 1000003);
  for (int i = 0; i < 1000003; i++) detail::sum_add_double(b, 0.1);
  EXPECT_EQ(detail::sum_compare(a, b), 0);
  detail::SumWords c = {}, d = {};
  detail::sum_add_scaled(c, -DBL_MAX, UINT64_MAX);
  detail::sum_add_scaled(d, DBL_MAX, UINT64_MAX);
  detail::sum_add(c, d);
  const detail::SumWords zero = {};
  EXPECT_EQ(detail::sum_compare(c, zero), 0);
  EXPECT_EQ(detail::sum_to_double(d), INFINITY);
}

}  // namespace
}  // namespace sketch::ddsketch
