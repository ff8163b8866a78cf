// Accuracy of cms estimates and of the heavy-hitter list against the math,
// on fixed-seed Zipf streams (rank r drawn with weight 1/r^s), so a run is
// reproducible bit for bit.
//
// The count-min promise: every estimate >= the truth, and
// P(estimate - truth > epsilon·N) <= delta for each key. Over 50,000 keys
// the fraction of keys beyond epsilon·N must therefore be <= delta (in
// practice far below it: Markov's inequality is loose).
//
// The candidate list keeps the k values with the largest estimates it saw;
// with skewed data the true top 10 must be on it, ranked first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "cms_test_util.h"

namespace sketch::cms {
namespace {

using test::Sketch;

struct OverestimateStats {
  double fraction_beyond;  // keys whose overestimate exceeds epsilon·N
  double mean;             // mean overestimate
  uint64_t max;
  uint64_t under;          // keys below their true count (must be 0)
};

OverestimateStats measure(const Sketch& s, uint64_t keys,
                          const std::unordered_map<uint64_t, uint64_t>& exact, double bound) {
  OverestimateStats st{0, 0, 0, 0};
  uint64_t beyond = 0;
  double sum = 0;
  for (uint64_t key = 1; key <= keys; key++) {
    const auto it = exact.find(key);
    const uint64_t truth = it == exact.end() ? 0 : it->second;
    const uint64_t est = s.estimate(key);
    if (est < truth) {
      st.under++;
      continue;
    }
    const uint64_t over = est - truth;
    if (double(over) > bound) beyond++;
    sum += double(over);
    st.max = std::max(st.max, over);
  }
  st.fraction_beyond = double(beyond) / double(keys);
  st.mean = sum / double(keys);
  return st;
}

double recall(const std::vector<std::pair<std::string, uint64_t>>& found,
              const std::vector<std::pair<uint64_t, uint64_t>>& truth) {
  std::set<std::string> got;
  for (const auto& f : found) got.insert(f.first);
  size_t hits = 0;
  for (const auto& t : truth) hits += got.count(test::key_text(t.first));
  return double(hits) / double(truth.size());
}

TEST(CmsAccuracy, OverestimatesBeyondEpsilonNAreRarerThanDelta) {
  constexpr uint64_t kKeys = 50000, kEvents = 200000;
  Params p;
  ASSERT_TRUE(params_for_accuracy(0.001, 0.01, false, kDefaultCandidates, &p).is_ok());
  std::printf("\n200,000 events over 50,000 keys, Zipf 1/r, epsilon 0.001, delta 0.01 "
              "(%u x %u)\n", p.width, p.depth);
  std::printf("%-6s %-13s %12s %16s %10s %8s %12s\n", "seed", "update", "eps*N", "beyond eps*N",
              "mean over", "max over", "top-10 exact");
  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<uint64_t> keys = test::Zipf(kKeys, 1.0, seed).take(kEvents);
    const auto exact = test::exact_counts(keys);
    const auto top10 = test::exact_top(exact, 10);
    for (bool conservative : {false, true}) {
      p.conservative = conservative;
      Sketch s(p);
      s.add_all(keys);
      const double bound = epsilon_of(p.width) * double(kEvents);
      const OverestimateStats st = measure(s, kKeys, exact, bound);
      const auto top = s.top(10);
      bool exact_top = top.size() == 10;
      for (size_t i = 0; exact_top && i < 10; i++)
        exact_top = std::count_if(top10.begin(), top10.end(), [&](const auto& t) {
                      return test::key_text(t.first) == top[i].first;
                    }) == 1;
      std::printf("%-6llu %-13s %12.1f %15.4f%% %10.2f %8llu %12s\n",
                  static_cast<unsigned long long>(seed), conservative ? "conservative" : "plain",
                  bound, 100 * st.fraction_beyond, st.mean,
                  static_cast<unsigned long long>(st.max), exact_top ? "yes" : "NO");
      EXPECT_EQ(st.under, 0u);
      EXPECT_LE(st.fraction_beyond, 0.01);
      EXPECT_TRUE(exact_top) << "top-10 set differs, seed " << seed;
      EXPECT_EQ(recall(top, top10), 1.0);
    }
  }
}

// The same check where the bound is tight enough to be measured: a small,
// shallow sketch (epsilon 0.01, delta 0.3: 272 x 2) still keeps the fraction
// beyond epsilon·N below delta.
TEST(CmsAccuracy, ASmallSketchStaysWithinItsDelta) {
  constexpr uint64_t kKeys = 50000, kEvents = 200000;
  Params p;
  ASSERT_TRUE(params_for_accuracy(0.01, 0.3, false, kDefaultCandidates, &p).is_ok());
  std::printf("\n200,000 events over 50,000 keys, Zipf 1/r, epsilon 0.01, delta 0.3 (%u x %u)\n",
              p.width, p.depth);
  for (bool conservative : {false, true}) {
    p.conservative = conservative;
    const std::vector<uint64_t> keys = test::Zipf(kKeys, 1.0, 7).take(kEvents);
    Sketch s(p);
    s.add_all(keys);
    const double bound = epsilon_of(p.width) * double(kEvents);
    const OverestimateStats st = measure(s, kKeys, test::exact_counts(keys), bound);
    std::printf("%-13s eps*N %.1f: %.2f%% of keys beyond it (delta %.0f%%), mean over %.1f\n",
                conservative ? "conservative" : "plain", bound, 100 * st.fraction_beyond,
                100 * delta_of(p.depth), st.mean);
    EXPECT_EQ(st.under, 0u);
    EXPECT_LE(st.fraction_beyond, delta_of(p.depth));
  }
}

TEST(CmsAccuracy, TopTenRecallOnAMillionKeys) {
  constexpr uint64_t kKeys = 1000000, kEvents = 1000000;
  std::printf("\n1,000,000 events over 1,000,000 keys, Zipf skew 1.0, default sketch "
              "(2719 x 5, k = 100)\n");
  std::printf("%-6s %-13s %14s %20s %24s\n", "seed", "update", "top-10 recall",
              "top-100 recall", "24 merged parts: top-10");
  for (uint64_t seed : {11, 12, 13}) {
    const std::vector<uint64_t> keys = test::Zipf(kKeys, 1.0, seed).take(kEvents);
    const auto exact = test::exact_counts(keys);
    const auto top10 = test::exact_top(exact, 10);
    const auto top100 = test::exact_top(exact, 100);
    for (bool conservative : {false, true}) {
      Params p = default_params();
      p.conservative = conservative;
      Sketch s(p);
      s.add_all(keys);
      // The same stream as 24 "hourly" sketches merged, as a rollup does.
      Sketch merged(p);
      const size_t part = kEvents / 24;
      for (size_t h = 0; h < 24; h++) {
        Sketch hour(p);
        const size_t end = h == 23 ? kEvents : (h + 1) * part;
        for (size_t i = h * part; i < end; i++) hour.add(keys[i]);
        merged.merge(hour);
      }
      if (!conservative) {
        EXPECT_EQ(merged.counters(), s.counters());
      }
      const double r10 = recall(s.top(10), top10);
      const double r100 = recall(s.top(100), top100);
      const double merged10 = recall(merged.top(10), top10);
      std::printf("%-6llu %-13s %14.2f %20.2f %24.2f\n", static_cast<unsigned long long>(seed),
                  conservative ? "conservative" : "plain", r10, r100, merged10);
      EXPECT_GE(r10, 0.9);
      EXPECT_GE(merged10, 0.9);
    }
  }
}

}  // namespace
}  // namespace sketch::cms
