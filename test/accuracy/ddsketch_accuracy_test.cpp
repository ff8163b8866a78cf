// ddsketch quantiles against the math, over 10^6 values per distribution.
//
// For a sketch at scale s, alpha = (gamma - 1) / (gamma + 1), gamma =
// 2^(2^-s), and every value lands in its exact bucket (the boundary table:
// ddsketch_boundaries.cpp), so the representative of the bucket holding
// the k-th value x_k is within alpha |x_k| of it. The sketch answers rank k
// = max(1, ceil(q n)) (percentile_disc) with that representative, clamped to
// [min, max], which only moves it toward x_k. So, with no collapse (asserted:
// max_buckets is large enough here),
//
//   |estimate - x_k| <= alpha |x_k| + slack,   slack = 4 eps |x_k|,
//
// where the slack is the representative's own rounding: the table's bound
// (rounded toward zero, < 1 ulp), 2 / (gamma + 1) (< 1 ulp) and their
// product (1/2 ulp), then an exact scaling by 2^e; all values here are
// normal numbers. It is 8.9e-16 relative, against alpha >= 6.8e-4: no
// amount of it can hide an error of the method.
//
// Plus: the union of 64 random parts is byte for byte the single pass.
// Fixed seeds: a run is reproducible bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "ddsketch_test_util.h"

namespace sketch::ddsketch {
namespace {

using test::params;
using test::Random;
using test::Sketch;

constexpr size_t kValues = 1000000;
const double kQuantiles[] = {0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999};

struct Distribution {
  const char* name;
  std::function<double(Random&)> draw;
};

std::vector<Distribution> distributions() {
  return {
      {"log-normal(0, 2)", [](Random& r) { return std::exp(2 * r.normal()); }},
      {"pareto(1, 1.2)", [](Random& r) { return std::pow(r.uniform_open(), -1 / 1.2); }},
      {"bimodal",
       [](Random& r) {
         // Response times: a fast mode around 12 ms and a slow one around 900 ms.
         return r.uniform() < 0.7 ? std::exp(std::log(12.0) + 0.3 * r.normal())
                                  : std::exp(std::log(900.0) + 0.5 * r.normal());
       }},
      {"uniform(0, 1000)", [](Random& r) { return 1000 * r.uniform_open(); }},
      {"signed normal(5, 100)", [](Random& r) { return 5 + 100 * r.normal(); }},
  };
}

std::vector<double> draw(const Distribution& d, uint64_t seed) {
  Random r(seed);
  std::vector<double> values(kValues);
  for (double& v : values) v = d.draw(r);
  return values;
}

TEST(DdsketchAccuracy, EveryQuantileWithinAlpha) {
  std::printf("\n%-22s %6s %7s %10s %12s %12s %s\n", "distribution", "alpha", "scale", "buckets",
              "max_err/alpha", "worst_q", "(relative errors)");
  uint64_t seed = 20240615;
  for (const Distribution& d : distributions()) {
    const std::vector<double> values = draw(d, seed++);
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    for (double requested : {0.01, 0.001}) {
      Sketch s = Sketch::for_accuracy(requested, kMaxBuckets);
      s.add_all(values);
      const View v = s.stored_view();
      const double alpha = relative_accuracy(v.scale);
      SCOPED_TRACE(std::string(d.name) + " alpha " + std::to_string(requested));
      ASSERT_LE(alpha, requested);
      ASSERT_FALSE(v.positive.collapsed || v.negative.collapsed) << "raise max_buckets";
      ASSERT_EQ(v.count, kValues);
      double worst = 0, worst_q = 0;
      for (double q : kQuantiles) {
        const double truth = test::percentile_disc(sorted, q);
        const double estimate = quantile(v, q);
        const double error = std::fabs(estimate - truth);
        EXPECT_LE(error, alpha * std::fabs(truth) + 4 * DBL_EPSILON * std::fabs(truth))
            << "q " << q << ": " << estimate << " vs " << truth;
        const double relative = error / (alpha * std::fabs(truth));
        if (relative > worst) {
          worst = relative;
          worst_q = q;
        }
      }
      EXPECT_EQ(quantile(v, 0), sorted.front());
      EXPECT_EQ(quantile(v, 1), sorted.back());
      std::printf("%-22s %6g %7d %10u %12.4f %12g\n", d.name, requested, v.scale,
                  v.positive.buckets + v.negative.buckets, worst, worst_q);
    }
  }
  std::fflush(stdout);
}

// Partial aggregates: 64 parts (some kept as working states, some stored,
// as parallel workers and distributed nodes hand them over), merged in a
// random order, give the single pass's bytes; also with a max_buckets small
// enough to collapse.
TEST(DdsketchAccuracy, UnionOf64PartsIsTheSinglePass) {
  const std::vector<double> values = draw(distributions()[4], 77);
  for (uint32_t max_buckets : {kMaxBuckets, 200u}) {
    const Params p = params(7, max_buckets);
    const std::vector<uint8_t> expected = Sketch::of(p, values).stored();
    Random r(max_buckets);
    std::vector<Sketch> parts(64, Sketch(p));
    for (double v : values) parts[r.below(parts.size())].add(v);
    for (size_t i = 0; i < parts.size(); i++)
      if (i % 3 == 0) parts[i] = Sketch::from_bytes(parts[i].stored());
    for (size_t i = parts.size(); i > 1; i--) std::swap(parts[i - 1], parts[r.below(i)]);
    Sketch total = parts[0];
    for (size_t i = 1; i < parts.size(); i++) total.merge(parts[i]);
    EXPECT_EQ(total.stored(), expected) << max_buckets;
    // And as a balanced tree of unions.
    while (parts.size() > 1) {
      std::vector<Sketch> next;
      for (size_t i = 0; i + 1 < parts.size(); i += 2)
        next.push_back(parts[i].united(parts[i + 1]));
      parts = next;
    }
    EXPECT_EQ(parts[0].stored(), expected) << max_buckets;
  }
}

}  // namespace
}  // namespace sketch::ddsketch
