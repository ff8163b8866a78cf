// The dashboard readers (ranks, counts_at_most, cdf, pmf, trimmed_mean)
// against rank() and against exact answers from the sorted values, and the
// weighted add (add_times) against the same values added one by one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/ddsketch/ddsketch_internal.h"
#include "ddsketch_test_util.h"

namespace sketch::ddsketch {
namespace {

using test::params;
using test::Random;
using test::Sketch;

// Magnitudes over e^-8..e^8, a third negative, some zeros.
std::vector<double> dashboard_values(uint64_t seed, size_t n) {
  Random r(seed);
  std::vector<double> out;
  for (size_t i = 0; i < n; i++) {
    const double u = r.uniform();
    if (u < 0.04) out.push_back(0.0);
    else out.push_back((u < 0.35 ? -1 : 1) * std::exp(r.normal() * 3));
  }
  return out;
}

// The exact fraction of values <= x.
double exact_rank(const std::vector<double>& sorted, double x) {
  return static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), x) - sorted.begin()) /
         static_cast<double>(sorted.size());
}

// The exact trimmed mean by the definition of ddsketch.h (positions (k-1, k]
// averaged over [lo n, hi n]), of f(value).
template <class F>
double exact_trimmed(const std::vector<double>& sorted, double lo, double hi, F f) {
  const double n = static_cast<double>(sorted.size()), from = lo * n, to = hi * n;
  double sum = 0;
  for (size_t k = 1; k <= sorted.size(); k++) {
    const double a = std::max(static_cast<double>(k - 1), from);
    const double b = std::min(static_cast<double>(k), to);
    if (b > a) sum += f(sorted[k - 1]) * (b - a);
  }
  return sum / (to - from);
}

std::vector<double> ranks_of(const View& v, const std::vector<double>& xs) {
  std::vector<uint32_t> order(xs.size());
  std::vector<uint64_t> counts(xs.size());
  std::vector<double> out(xs.size());
  ranks(v, xs.data(), xs.size(), order.data(), counts.data(), out.data());
  return out;
}

TEST(DdsketchDashboard, RanksAreRankForEveryValueSortedOrNot) {
  const std::vector<double> values = dashboard_values(11, 5000);
  const Sketch s = Sketch::of(params(6), values);
  const View v = s.stored_view();
  Random r(12);
  std::vector<double> xs;
  for (int i = 0; i < 700; i++) xs.push_back(values[r.below(values.size())]);  // at values
  for (int i = 0; i < 300; i++) xs.push_back((r.uniform() - 0.4) * 200);       // between them
  xs.push_back(0.0);
  xs.push_back(-0.0);
  xs.push_back(1e300);
  xs.push_back(-1e300);
  xs.push_back(xs[3]);  // a repeat
  const std::vector<double> answers = ranks_of(v, xs);
  for (size_t k = 0; k < xs.size(); k++) EXPECT_EQ(answers[k], rank(v, xs[k])) << xs[k];
  // The working state answers the same.
  const std::vector<double> working = ranks_of(s.view(), xs);
  EXPECT_EQ(working, answers);
  EXPECT_TRUE(ranks_of(v, {}).empty());
}

TEST(DdsketchDashboard, RankWithinTheBucketOfX) {
  // A rank is the exact fraction at some x' in (x / (1 + a), x / (1 - a)]
  // (x > 0, mirrored below 0): between the exact fractions there (with a
  // margin of a few ulps for the rounding of the representatives). Enough
  // buckets that none collapses.
  for (int scale : {2, 6, 9}) {
    std::vector<double> values = dashboard_values(20 + scale, 4000);
    const Sketch s = Sketch::of(params(scale, kMaxBuckets), values);
    ASSERT_FALSE(s.view().positive.collapsed || s.view().negative.collapsed);
    std::sort(values.begin(), values.end());
    const double a = relative_accuracy(scale);
    Random r(30);
    for (int i = 0; i < 2000; i++) {
      const double x = i % 2 ? values[r.below(values.size())] : (r.uniform() - 0.4) * 100;
      double low = x >= 0 ? x / (1 + a) : x / (1 - a);
      double high = x >= 0 ? x / (1 - a) : x / (1 + a);
      low -= std::fabs(low) * 1e-12;
      high += std::fabs(high) * 1e-12;
      const double got = s.rank(x);
      EXPECT_LE(exact_rank(values, low), got) << "scale " << scale << " x " << x;
      EXPECT_GE(exact_rank(values, high), got) << "scale " << scale << " x " << x;
    }
    EXPECT_EQ(s.rank(values.front() - 1), 0.0);
    EXPECT_EQ(s.rank(values.back()), 1.0);
  }
}

TEST(DdsketchDashboard, CdfIsRanksThenOne) {
  const Sketch s = Sketch::of(params(6), dashboard_values(40, 3000));
  const View v = s.stored_view();
  const std::vector<double> splits = {-50, -1, -0.01, 0, 0.5, 3, 100};
  ASSERT_TRUE(check_splits(splits.data(), splits.size()).is_ok());
  std::vector<uint64_t> counts(splits.size());
  std::vector<double> c(splits.size() + 1), p(splits.size() + 1);
  cdf(v, splits.data(), splits.size(), counts.data(), c.data());
  for (size_t k = 0; k < splits.size(); k++) EXPECT_EQ(c[k], rank(v, splits[k]));
  EXPECT_EQ(c.back(), 1.0);
  pmf(v, splits.data(), splits.size(), counts.data(), p.data());
  double total = 0;
  for (size_t k = 0; k < p.size(); k++) {
    EXPECT_GE(p[k], 0.0);
    EXPECT_NEAR(p[k], c[k] - (k == 0 ? 0.0 : c[k - 1]), 1e-15);
    total += p[k];
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  // No splits: the whole sketch.
  double one;
  cdf(v, nullptr, 0, nullptr, &one);
  EXPECT_EQ(one, 1.0);
  pmf(v, nullptr, 0, nullptr, &one);
  EXPECT_EQ(one, 1.0);
}

TEST(DdsketchDashboard, CountsAtMostNeverDecrease) {
  const Sketch s = Sketch::of(params(3, 16), dashboard_values(41, 2000));  // collapsed
  const View v = s.stored_view();
  ASSERT_TRUE(v.positive.collapsed || v.negative.collapsed);
  std::vector<double> xs;
  for (int i = -400; i <= 400; i++) xs.push_back(i * 0.25);
  std::vector<uint64_t> counts(xs.size());
  counts_at_most(v, xs.data(), xs.size(), counts.data());
  for (size_t k = 1; k < xs.size(); k++) EXPECT_LE(counts[k - 1], counts[k]);
  for (size_t k = 0; k < xs.size(); k++)
    EXPECT_EQ(static_cast<double>(counts[k]) / static_cast<double>(v.count), rank(v, xs[k]));
}

TEST(DdsketchDashboard, SplitsMustBeFiniteAndStrictlyIncreasing) {
  const double ok[] = {-1, 0, 2.5};
  EXPECT_TRUE(check_splits(ok, 3).is_ok());
  EXPECT_TRUE(check_splits(nullptr, 0).is_ok());
  const double equal[] = {1, 1};
  const double down[] = {2, 1};
  const double nan[] = {1, NAN};
  const double inf[] = {-INFINITY};
  for (const auto& [splits, m] : {std::pair{equal, 2}, {down, 2}, {nan, 2}, {inf, 1}}) {
    const Status st = check_splits(splits, m);
    EXPECT_EQ(st.code(), StatusCode::kInvalidParameter) << st.message();
  }
}

TEST(DdsketchDashboard, TrimmedMeanWithinAlphaOfTheExactOne) {
  for (int scale : {2, 6, 9}) {
    std::vector<double> values = dashboard_values(50 + scale, 3001);
    const Sketch s = Sketch::of(params(scale, kMaxBuckets), values);
    ASSERT_FALSE(s.view().positive.collapsed || s.view().negative.collapsed);
    const View v = s.stored_view();
    std::sort(values.begin(), values.end());
    const double a = relative_accuracy(scale);
    for (auto [lo, hi] : {std::pair{0.0, 1.0}, {0.1, 0.9}, {0.25, 0.75}, {0.5, 1.0}, {0.0, 0.01},
                          {0.3333, 0.3334}, {0.99, 1.0}, {0.02, 0.4}}) {
      ASSERT_TRUE(check_trim(lo, hi).is_ok());
      const double exact = exact_trimmed(values, lo, hi, [](double x) { return x; });
      const double magnitude = exact_trimmed(values, lo, hi, [](double x) { return std::fabs(x); });
      EXPECT_NEAR(trimmed_mean(v, lo, hi), exact, a * magnitude * (1 + 1e-9) + 1e-12)
          << "scale " << scale << " [" << lo << ", " << hi << "]";
    }
    // The first and last positions hold the exact min and max.
    EXPECT_EQ(trimmed_mean(v, 0, 1.0 / 3001), values.front());
    EXPECT_EQ(trimmed_mean(v, 3000.0 / 3001, 1), values.back());
    EXPECT_EQ(trimmed_mean(s.view(), 0.1, 0.9), trimmed_mean(v, 0.1, 0.9));  // working state
  }
  EXPECT_EQ(Sketch::of(params(6), {42.5}).stored_view().min, 42.5);
  EXPECT_EQ(trimmed_mean(Sketch::of(params(6), {42.5}).stored_view(), 0.2, 0.3), 42.5);
  EXPECT_TRUE(std::isnan(trimmed_mean(Sketch(params(6)).stored_view(), 0, 1)));
}

TEST(DdsketchDashboard, TrimBoundsAreChecked) {
  for (auto [lo, hi] : {std::pair{0.5, 0.5}, {0.6, 0.5}, {-0.1, 0.5}, {0.1, 1.5}, {NAN, 1.0},
                        {0.0, NAN}}) {
    EXPECT_EQ(check_trim(lo, hi).code(), StatusCode::kInvalidParameter) << lo << " " << hi;
  }
}

// --- the weighted add ------------------------------------------------------------------

TEST(DdsketchDashboard, AddTimesIsTheSameBytesAsRepeatedAdds) {
  Random r(60);
  for (auto [scale, max_buckets] : {std::pair{6, 2048u}, {2, 16u}, {9, 64u}, {12, 65536u}}) {
    Sketch weighted(params(scale, max_buckets)), repeated(params(scale, max_buckets));
    for (int i = 0; i < 400; i++) {
      const double u = r.uniform();
      const double value = u < 0.05   ? 0.0
                           : u < 0.1  ? -0.0
                           : u < 0.12 ? 4.9e-324 * (i + 1)
                           : u < 0.14 ? 1e300 * (u - 0.13)
                                      : (u < 0.5 ? -1 : 1) * std::exp(r.normal() * 8);
      const uint64_t times = r.below(6);  // 0 adds nothing
      weighted.add_times(value, times);
      for (uint64_t k = 0; k < times; k++) repeated.add(value);
    }
    EXPECT_EQ(weighted.stored(), repeated.stored()) << "scale " << scale;
    EXPECT_EQ(weighted.count(), repeated.count());
  }
}

TEST(DdsketchDashboard, AddTimesKeepsTheSumExact) {
  Sketch s(params(6));
  s.add_times(1e300, uint64_t{1} << 62);
  s.add_times(-1e300, uint64_t{1} << 62);
  s.add_times(0.1, 3);
  Sketch plain(params(6));
  for (int k = 0; k < 3; k++) plain.add(0.1);
  EXPECT_EQ(s.sum(), plain.sum());
  EXPECT_EQ(s.count(), (uint64_t{1} << 63) + 3);
  Sketch big(params(6));
  big.add_times(1e300, uint64_t{1} << 62);
  EXPECT_EQ(big.sum(), INFINITY);  // beyond double precision, exact inside
  big.add_times(-1e300, (uint64_t{1} << 62) - 1);
  EXPECT_EQ(big.sum(), 1e300);
}

TEST(DdsketchDashboard, FitsCountIsTheLimit) {
  Sketch s(params(6));
  s.add_times(2.0, kMaxCount - 1);
  EXPECT_TRUE(fits_count(s.bytes().data(), 1));
  EXPECT_FALSE(fits_count(s.bytes().data(), 2));
  s.add_times(3.0, 2);  // ignored, as add() ignores values past the limit
  EXPECT_EQ(s.count(), kMaxCount - 1);
  s.add_times(3.0, 1);
  EXPECT_EQ(s.count(), kMaxCount);
  EXPECT_EQ(s.view().max, 3.0);
}

}  // namespace
}  // namespace sketch::ddsketch
