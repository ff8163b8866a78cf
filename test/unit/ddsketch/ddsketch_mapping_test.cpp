// The mapping between values and buckets: the boundary table, alpha per
// scale, params_for, check_value, bucket_index (exact at powers of two,
// denormals, the extremes of double, nesting across scales) and the
// representatives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "core/ddsketch/ddsketch_internal.h"
#include "ddsketch_test_util.h"

namespace sketch::ddsketch {
namespace {

using test::Random;

double two_to(int k) { return std::ldexp(1.0, k); }

#ifdef __SIZEOF_FLOAT128__
// x^(2^squarings) in 113-bit binary floating point: relative error below
// 2^squarings * 2^-112, at most 2^-100 for 12 squarings.
__float128 power_of_two_power(double x, int squarings) {
  __float128 p = x;
  for (int i = 0; i < squarings; i++) p *= p;
  return p;
}

__float128 exact_power_of_two(int k) {
  __float128 p = 1;
  for (int i = 0; i < k; i++) p *= 2;
  return p;
}

__float128 relative_gap(__float128 a, __float128 b) {
  const __float128 d = a > b ? a - b : b - a;
  return d / b;
}

// Every table entry b_j is 2^(j/4096) rounded toward zero: b_j^4096 <= 2^j <
// next(b_j)^4096, checked with arithmetic independent of the generator (which
// used decimal exp/ln). Each comparison must be decided with a margin far
// above the 2^-100 error of the powers.
TEST(DdsketchMapping, BoundaryTableIsTwoToTheJOver4096RoundedDown) {
  const __float128 trust = static_cast<__float128>(1e-25);  // >> 2^-100 = 7.9e-31
  for (int j = 0; j <= 4096; j++) {
    const double b = detail::kBoundary[j];
    const __float128 target = exact_power_of_two(j);
    const __float128 low = power_of_two_power(b, 12);
    const __float128 high = power_of_two_power(std::nextafter(b, 4.0), 12);
    SCOPED_TRACE("j = " + std::to_string(j));
    if (j == 0 || j == 4096) {
      EXPECT_TRUE(low == target);
      continue;
    }
    ASSERT_TRUE(low < target);
    ASSERT_TRUE(high > target);
    ASSERT_TRUE(relative_gap(low, target) > trust);
    ASSERT_TRUE(relative_gap(high, target) > trust);
  }
}
#endif

TEST(DdsketchMapping, BoundaryTableIsIncreasingFromOneToTwo) {
  EXPECT_EQ(detail::kBoundary[0], 1.0);
  EXPECT_EQ(detail::kBoundary[4096], 2.0);
  // sqrt(2.0) is correctly rounded, and rounds up (1.41421356237309515 >
  // 1.41421356237309505): the entry is the double below it.
  EXPECT_EQ(detail::kBoundary[2048], std::nextafter(std::sqrt(2.0), 0.0));
  for (int j = 1; j <= 4096; j++) ASSERT_LT(detail::kBoundary[j - 1], detail::kBoundary[j]);
  // Each entry is within one unit in the last place of 2^(j/4096).
  for (int j = 0; j <= 4096; j++) {
    const double reference = std::exp2(j / 4096.0);
    ASSERT_LE(std::fabs(reference - detail::kBoundary[j]), 2 * DBL_EPSILON) << j;
  }
}

// The search start for each 12-bit mantissa prefix: the smallest J with
// kBoundary[J] >= 1 + m / 4096, at most two boundaries below the next one.
TEST(DdsketchMapping, FirstBoundaryTableStartsEachSearch) {
  for (int m = 0; m < 4096; m++) {
    const double low = 1 + m / 4096.0;
    const int first = detail::kFirstBoundary[m];
    ASSERT_GE(detail::kBoundary[first], low) << m;
    if (first > 0) {
      ASSERT_LT(detail::kBoundary[first - 1], low) << m;
    }
    const int next = m + 1 < 4096 ? detail::kFirstBoundary[m + 1] : 4096;
    ASSERT_LE(next - first, 2) << m;
  }
}

// index_of against a plain binary search of the table, for random
// mantissas at every scale and the mantissas next to every boundary.
TEST(DdsketchMapping, IndexMatchesABinarySearchOfTheTable) {
  auto reference = [](double f, int s) {
    // smallest j in [0, 2^s] with f <= kBoundary[j << (12 - s)]
    int lo = 0, hi = 1 << s;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (f <= detail::kBoundary[mid << (12 - s)]) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  };
  Random r(8);
  std::vector<double> fs;
  for (int i = 0; i < 100000; i++) fs.push_back(1 + r.uniform());
  for (int j = 0; j < 4096; j++) {
    const double b = detail::kBoundary[j];
    fs.push_back(b);
    if (b > 1) fs.push_back(std::nextafter(b, 0.0));
    if (std::nextafter(b, 2.0) < 2) fs.push_back(std::nextafter(b, 2.0));
  }
  for (double f : fs)
    for (int s = kMinScale; s <= kMaxScale; s++)
      ASSERT_EQ(bucket_index(f, s), reference(f, s)) << f << " scale " << s;
}

// --- alpha and params_for -------------------------------------------------------

TEST(DdsketchMapping, RelativeAccuracyPerScale) {
  EXPECT_DOUBLE_EQ(relative_accuracy(0), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(gamma_of(0), 2.0);
  for (int s = kMinScale; s <= kMaxScale; s++) {
    const long double gamma = std::exp2l(std::ldexp(1.0L, -s));
    const long double alpha = (gamma - 1) / (gamma + 1);
    EXPECT_NEAR(relative_accuracy(s), static_cast<double>(alpha),
                1e-15 * static_cast<double>(alpha))
        << s;
    EXPECT_NEAR(gamma_of(s), static_cast<double>(gamma), 4e-16) << s;
    // alpha = tanh(ln 2 / 2^(s+1)) ~ ln 2 / 2^(s+1): it halves per scale.
    if (s > 0) {
      EXPECT_NEAR(relative_accuracy(s - 1) / relative_accuracy(s), 2.0, 0.2);
    }
  }
  EXPECT_NEAR(relative_accuracy(6), 0.00541516, 1e-8);
  EXPECT_NEAR(relative_accuracy(12), 8.46127e-5, 1e-10);
}

TEST(DdsketchMapping, ParamsForPicksTheCoarsestAccurateScale) {
  Params p;
  ASSERT_TRUE(params_for(0.01, 2048, &p).is_ok());
  EXPECT_EQ(p.scale, 6);
  EXPECT_EQ(p.max_buckets, 2048u);
  ASSERT_TRUE(params_for(0.001, 100, &p).is_ok());
  EXPECT_EQ(p.scale, 9);
  EXPECT_EQ(p.max_buckets, 100u);
  ASSERT_TRUE(params_for(0.5, 16, &p).is_ok());
  EXPECT_EQ(p.scale, 0);
  ASSERT_TRUE(params_for(kDefaultRelativeAccuracy, kDefaultMaxBuckets, &p).is_ok());
  EXPECT_EQ(p.scale, 6);
  for (int s = kMinScale; s <= kMaxScale; s++) {
    // Exactly alpha(s) is s; anything between alpha(s) and alpha(s - 1) too.
    ASSERT_TRUE(params_for(relative_accuracy(s), 16, &p).is_ok());
    EXPECT_EQ(p.scale, s);
    if (s > 0) {
      const double between = (relative_accuracy(s) + relative_accuracy(s - 1)) / 2;
      ASSERT_TRUE(params_for(between, 16, &p).is_ok());
      EXPECT_EQ(p.scale, s);
      ASSERT_TRUE(params_for(std::nextafter(relative_accuracy(s - 1), 0.0), 16, &p).is_ok());
      EXPECT_EQ(p.scale, s);
    }
  }
  ASSERT_TRUE(params_for(0.01, kMinBuckets, &p).is_ok());
  ASSERT_TRUE(params_for(0.01, kMaxBuckets, &p).is_ok());
}

TEST(DdsketchMapping, ParamsForRefusesOutOfRange) {
  Params p;
  const double bads[] = {
      0.0,          -0.1,     1.0,      2.0, std::nextafter(relative_accuracy(kMaxScale), 0.0),
      std::nan(""), HUGE_VAL, -HUGE_VAL};
  for (double bad : bads) {
    const Status st = params_for(bad, 2048, &p);
    EXPECT_EQ(st.code(), StatusCode::kInvalidParameter) << bad;
    EXPECT_NE(std::string(st.message()).find("relative accuracy must be at least"),
              std::string::npos)
        << st.message();
  }
  for (int64_t bad : {int64_t{15}, int64_t{0}, int64_t{-1}, int64_t{65537}, int64_t{1} << 40}) {
    const Status st = params_for(0.01, bad, &p);
    EXPECT_EQ(st.code(), StatusCode::kInvalidParameter);
    EXPECT_NE(std::string(st.message()).find("max_buckets must be between 16 and 65536"),
              std::string::npos)
        << st.message();
  }
}

TEST(DdsketchMapping, CheckValueRefusesNanAndInfinities) {
  for (double ok : {0.0, -0.0, 1.0, -1.0, DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN})
    EXPECT_TRUE(check_value(ok).is_ok()) << ok;
  const Status nan = check_value(std::nan(""));
  EXPECT_EQ(nan.code(), StatusCode::kInvalidParameter);
  EXPECT_STREQ(nan.message(), "a ddsketch cannot hold NaN: it holds finite numbers only");
  EXPECT_STREQ(check_value(INFINITY).message(),
               "a ddsketch cannot hold Infinity: it holds finite numbers only");
  EXPECT_STREQ(check_value(-INFINITY).message(),
               "a ddsketch cannot hold -Infinity: it holds finite numbers only");
}

// --- bucket_index ----------------------------------------------------------------

TEST(DdsketchMapping, PowersOfTwoMapExactly) {
  for (int s = kMinScale; s <= kMaxScale; s++) {
    const int64_t n = int64_t{1} << s;
    for (int k = -1074; k <= 1023; k++) {
      const double v = two_to(k);
      ASSERT_EQ(bucket_index(v, s), k * n) << "2^" << k << " scale " << s;
      // The next double up is in the next bucket, the one below in this one
      // (for normal numbers: a denormal's neighbour can be further than a
      // bucket away).
      if (k >= -1022) {
        ASSERT_EQ(bucket_index(std::nextafter(v, INFINITY), s), k * n + 1) << k << " " << s;
        ASSERT_EQ(bucket_index(std::nextafter(v, 0.0), s), k * n) << k << " " << s;
      }
    }
  }
}

TEST(DdsketchMapping, ExtremesOfDouble) {
  for (int s = kMinScale; s <= kMaxScale; s++) {
    const int32_t n = 1 << s;
    EXPECT_EQ(lowest_index(s), -1074 * n);
    EXPECT_EQ(highest_index(s), 1024 * n);
    EXPECT_EQ(bucket_index(DBL_TRUE_MIN, s), -1074 * n);
    EXPECT_EQ(bucket_index(DBL_MIN, s), -1022 * n);
    EXPECT_EQ(bucket_index(DBL_MAX, s), 1024 * n);
    EXPECT_EQ(bucket_index(std::nextafter(DBL_MIN, 0.0), s), -1022 * n);  // largest denormal
    // Every representative is finite, even the top bucket's (2^1024 * 2 /
    // (gamma + 1) < 2^1024), and the bottom one rounds to the smallest
    // denormal.
    EXPECT_TRUE(std::isfinite(bucket_value(highest_index(s), s)));
    EXPECT_LE(bucket_value(highest_index(s), s), DBL_MAX);
    EXPECT_GE(bucket_value(highest_index(s), s), DBL_MAX / (1 + 2 * relative_accuracy(s)));
    EXPECT_EQ(bucket_value(lowest_index(s), s), DBL_TRUE_MIN);
  }
}

TEST(DdsketchMapping, DenormalsMapLikeTheirValue) {
  // k * 2^-1074 for small k: the bucket of k, shifted by -1074 octaves.
  for (int s = kMinScale; s <= kMaxScale; s++) {
    const int32_t n = 1 << s;
    for (uint64_t k = 1; k < 5000; k++) {
      const double denormal = std::ldexp(static_cast<double>(k), -1074);
      ASSERT_EQ(bucket_index(denormal, s), bucket_index(static_cast<double>(k), s) - 1074 * n)
          << k << " scale " << s;
    }
  }
}

// A value's bucket is the i with 2^((i-1)/2^s) < v <= 2^(i/2^s). Checked
// from the definition for random values of every magnitude: the mantissa f
// (v = f 2^e) to the power 2^s against 2^j, in 113-bit arithmetic, with a
// margin; the naive ceil(log2(v) * 2^s) is only counted, not trusted.
TEST(DdsketchMapping, RandomValuesLandInTheirDefiningBucket) {
  Random r(20240611);
  int naive_differs = 0;
  for (int i = 0; i < 60000; i++) {
    uint64_t bits = r.next() & ~(uint64_t{1} << 63);
    if ((bits >> 52) == 0x7ff) bits ^= uint64_t{1} << 62;  // no inf/NaN
    double v;
    std::memcpy(&v, &bits, 8);
    if (v == 0) continue;
    const int s = static_cast<int>(r.below(kMaxScale + 1));
    const int32_t index = bucket_index(v, s);
    int e;
    const double f = 2 * std::frexp(v, &e);  // v = f 2^(e-1), f in [1, 2)
    const int64_t n = int64_t{1} << s;
    const int64_t j = int64_t{index} - int64_t{e - 1} * n;
    ASSERT_GE(j, 0);
    ASSERT_LE(j, n);
#ifdef __SIZEOF_FLOAT128__
    const __float128 power = power_of_two_power(f, s);
    ASSERT_TRUE(power <= exact_power_of_two(static_cast<int>(j))) << v << " scale " << s;
    if (j > 0) {
      ASSERT_TRUE(power > exact_power_of_two(static_cast<int>(j - 1))) << v;
    }
#endif
    if (static_cast<int64_t>(std::ceil(std::log2(v) * static_cast<double>(n))) != index)
      naive_differs++;
  }
  std::printf("naive ceil(log2(v) * 2^s) disagreed on %d of 60000 values\n", naive_differs);
}

TEST(DdsketchMapping, IndicesAreMonotoneAndNestAcrossScales) {
  Random r(5);
  std::vector<double> values;
  for (int i = 0; i < 20000; i++) values.push_back(std::exp(r.normal() * 30));
  for (int k = -30; k <= 30; k++) values.push_back(two_to(k));
  std::sort(values.begin(), values.end());
  for (int s = kMinScale; s <= kMaxScale; s++) {
    int32_t previous = lowest_index(s);
    for (double v : values) {
      const int32_t i = bucket_index(v, s);
      ASSERT_GE(i, previous);
      previous = i;
      // Bucket i at scale s is the union of 2i - 1 and 2i at s + 1, so the
      // bucket at any coarser scale is the fold ceil(i / 2^d).
      for (int coarser = kMinScale; coarser < s; coarser++)
        ASSERT_EQ(bucket_index(v, coarser), detail::fold_index(i, s - coarser)) << v;
    }
  }
}

TEST(DdsketchMapping, RepresentativesAreWithinAlphaOfTheirBucket) {
  Random r(99);
  for (int s = kMinScale; s <= kMaxScale; s++) {
    const double alpha = relative_accuracy(s);
    for (int i = 0; i < 20000; i++) {
      const double v = std::exp(r.normal() * 100);
      const int32_t index = bucket_index(v, s);
      const double rep = bucket_value(index, s);
      // The representative is inside its bucket...
      ASSERT_EQ(bucket_index(rep, s), index);
      // ...and within alpha of every value there, up to its rounding (the
      // table entry, 2 / (gamma + 1) and the product: a few ulps).
      ASSERT_LE(std::fabs(rep - v), alpha * v + 4 * DBL_EPSILON * v) << v << " scale " << s;
    }
    // The bucket's own ends: both within alpha (up to rounding), equally.
    for (int32_t index : {-1000, -1, 0, 1, 5, 1000}) {
      const double upper = std::exp2(static_cast<double>(index) / (1 << s));
      const double lower = std::exp2(static_cast<double>(index - 1) / (1 << s));
      const double rep = bucket_value(index, s);
      EXPECT_NEAR((upper - rep) / upper, alpha, 1e-12);
      EXPECT_NEAR((rep - lower) / lower, alpha, 1e-12);
    }
  }
}

}  // namespace
}  // namespace sketch::ddsketch
