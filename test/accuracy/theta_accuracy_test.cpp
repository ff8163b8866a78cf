// theta (KMV) estimates against the math, over many independent,
// deterministic hash streams (test::stream_hash, fixed seeds: a run is
// reproducible bit for bit). k = 4096 (lg_k 12) throughout; T = 1000 trials
// per configuration.
//
// Counts and unions. For n > k distinct values the estimate is
// k / U(k+1) with U(k+1) ~ Beta(k+1, n-k) (core/theta/theta.h), unbiased,
// with relative standard error
//
//   RSE(n) = sqrt((n - k) / (n (k - 1)))
//
// which is 1/sqrt(k - 1) = 0.01563 times sqrt(1 - k/n): 0.01560 at n = 10^6
// but 0.01201 at n = 10^4, where the brief's 1/sqrt(k - 1) would be 30% too
// high. The bound used is the exact RSE(n): |RMS - RSE(n)| <= 10% RSE(n).
// Over T trials the RMS's own spread is about RSE/sqrt(2T) = 2.2% of it, so
// 10% is more than four spreads. The mean relative error (bias) has
// standard error RSE/sqrt(T): bound 4 RSE/sqrt(T). Each trial builds A (the
// first 60% of a stream of n) and B (the last 60%: 20% overlap), unites
// them, and checks that the union's bytes equal those of one sketch fed the
// whole stream (the union is the sketch of the union, exactly): the union's
// RMS is therefore the count's, measured on the union's own bytes. At
// n = 10^6 that is 1.8·10^9 adds; the full 1000 trials are run.
//
// Intersection and difference. |A ∪ B| = N = 10^5, |A| = |B| = (N + o)/2
// with o = |A ∩ B| = J·N for J = 0.5, 0.1, 0.01 (A = P1 ∪ P2, B = P2 ∪ P3
// for disjoint parts, each sketched and the parts united). The result R
// (A ∩ B, or A \ B) is estimated as X / p, X its hashes below θ = min(θa,
// θb), p = θ / 2^63. Derivation of the error: conditioned on θ, each value
// of R is below θ with probability p (exactly so for values θ does not
// depend on; for those of the set whose (k+1)-th smallest hash θ is, the
// k hashes below θ are a uniformly random k-subset of the set, so X is
// hypergeometric and, by the law of total variance, the variance is the
// same to first order in 1/k), so E[X/p | θ] = |R| and
//
//   Var[X/p] = E[Var[X/p | θ]] = |R| (E[1/p] - 1),
//   RSE = sqrt((E[1/p] - 1) / |R|)  with  E[1/p] = |A| / k
//
// (E[1/U(k+1)] = n/k for the set's own θ). θ is the smaller of two such
// thresholds, which raises E[1/p] by at most 0.56/sqrt(k) = 0.9% (the mean
// of the larger of two normals one RSE apart), the RSE by < 0.5%: ignored.
// Bound: |RMS - RSE| <= 15% RSE. (The brief's sqrt(|A ∪ B|/|R|)/sqrt(k)
// assumes a sample of k from A ∪ B, the Jaccard sample below; the
// intersection keeps every hash below min(θa, θb), p ≈ k/|A| > k/|A ∪ B|,
// and so is more accurate by about sqrt(|A|/|A ∪ B|): 0.87 at J = 0.5, 0.71
// at J = 0.01, outside 15% of that formula.) The 95% bounds (theta.h:
// the binomial model's interval, whose variance (1 - p)|R|/p is the one
// above to first order) must hold the true size in >= 93% of trials.
//
// Jaccard at J = 0.9, 0.5, 0.1 (same construction): the union sample U of
// m = k hashes is a uniformly random k-subset of A ∪ B, x ~
// Hypergeometric(N, J·N, m), and x/m has standard error
//
//   SE = sqrt(J (1 - J) / m · (N - m) / (N - 1)).
//
// Bounds: |RMS - SE| <= 10% SE (the RMS's spread is 2.2%), every error
// within 5 SE (probability 6·10^-7 per trial of failing by chance: 3 SE
// would fail ~3 of 1000 trials), and the Wilson 95% interval holding J in
// >= 93% of trials.
//
// Exact mode: at most k values are counted exactly, every time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "theta_test_util.h"

namespace sketch::theta {
namespace {

using test::must_parse;
using test::Sketch;
using test::stream_hash;

constexpr int kLgK = 12;
constexpr double kK = 4096;
constexpr int kTrials = 1000;
constexpr double kConfidence = 0.95;
constexpr double kMinCoverage = 0.93;

struct Stats {
  double sum = 0, sum_sq = 0, max_abs = 0;
  int n = 0, covered = 0;
  void add(double err, bool in_bounds) {
    sum += err;
    sum_sq += err * err;
    max_abs = std::max(max_abs, std::fabs(err));
    n++;
    covered += in_bounds;
  }
  double bias() const { return sum / n; }
  double rms() const { return std::sqrt(sum_sq / n); }
  double coverage() const { return double(covered) / n; }
};

// The seed of trial t of a configuration: distinct for every combination.
uint64_t trial_seed(uint64_t config, int t) { return stream_hash(config, uint64_t(t)); }

void add_range(Sketch& s, uint64_t seed, uint64_t begin, uint64_t end) {
  for (uint64_t i = begin; i < end; i++) s.add_hash(stream_hash(seed, i));
}

double kmv_rse(double n) { return std::sqrt((n - kK) / (n * (kK - 1))); }

bool holds(const Bounds& b, double truth) { return b.lower <= truth && truth <= b.upper; }

TEST(ThetaAccuracy, ExactBelowK) {
  for (int lg_k : {4, 8, 12}) {
    const uint64_t k = uint64_t{1} << lg_k;
    for (uint64_t n : {uint64_t{1}, k / 2, k - 1, k}) {
      for (int t = 0; t < 20; t++) {
        Sketch s(lg_k);
        add_range(s, trial_seed(n << 8 | lg_k, t), 0, n);
        add_range(s, trial_seed(n << 8 | lg_k, t), 0, n / 3);  // repeats
        const std::vector<uint8_t> stored = s.stored();
        const View v = must_parse(stored, Validation::kCanonical);
        ASSERT_EQ(v.theta, kThetaExact);
        ASSERT_EQ(estimate(v), double(n));
        const Bounds b = bounds(v, kConfidence);
        ASSERT_EQ(b.lower, double(n));
        ASSERT_EQ(b.upper, double(n));
      }
    }
  }
}

TEST(ThetaAccuracy, CountAndUnionRmsMatchTheKmvError) {
  std::printf("\n%9s %7s %10s %10s %10s %10s %10s %10s %9s\n", "n", "what", "bias", "bias_max",
              "rms", "rse(n)", "1/sqrt(k-1)", "max_err", "coverage");
  for (uint64_t n : {uint64_t{10000}, uint64_t{1000000}}) {
    Stats count, uni;
    const uint64_t a_end = n * 6 / 10, b_begin = n * 4 / 10;
    for (int t = 0; t < kTrials; t++) {
      const uint64_t seed = trial_seed(n, t);
      Sketch a(kLgK);
      add_range(a, seed, 0, a_end);
      Sketch single = a;  // then the rest of the stream: one sketch of it all
      add_range(single, seed, a_end, n);
      Sketch b(kLgK);
      add_range(b, seed, b_begin, n);
      Sketch u = a;
      ASSERT_TRUE(u.merge(b).is_ok());
      const std::vector<uint8_t> one = single.stored(), both = u.stored();
      ASSERT_EQ(both, one) << "trial " << t;
      for (auto [stats, bytes] : {std::pair{&count, &one}, std::pair{&uni, &both}}) {
        const View v = must_parse(*bytes, Validation::kCanonical);
        stats->add(estimate(v) / double(n) - 1, holds(bounds(v, kConfidence), double(n)));
      }
    }
    const double rse = kmv_rse(double(n));
    const double bias_bound = 4 * rse / std::sqrt(double(kTrials));
    for (auto [what, s] : {std::pair{"count", &count}, std::pair{"union", &uni}}) {
      std::printf("%9llu %7s %+10.5f %10.5f %10.5f %10.5f %10.5f %10.5f %8.1f%%\n",
                  static_cast<unsigned long long>(n), what, s->bias(), bias_bound, s->rms(), rse,
                  1 / std::sqrt(kK - 1), s->max_abs, 100 * s->coverage());
      SCOPED_TRACE(std::string(what) + " n=" + std::to_string(n));
      EXPECT_LE(std::fabs(s->bias()), bias_bound);
      EXPECT_NEAR(s->rms(), rse, 0.10 * rse);
      EXPECT_GE(s->coverage(), kMinCoverage);
    }
  }
  std::fflush(stdout);
}

// A = P1 ∪ P2 and B = P2 ∪ P3 over a stream of N, |P2| = J·N, |A| = |B|.
struct Overlap {
  double j;
  uint64_t n;  // |A ∪ B|
  uint64_t shared() const { return static_cast<uint64_t>(std::llround(j * double(n))); }
  uint64_t each() const { return (n + shared()) / 2; }  // |A| = |B|
  uint64_t only() const { return each() - shared(); }   // |A \ B|
};

struct Pair {
  std::vector<uint8_t> a, b;
};

// The sketches of A and B: the three parts sketched and united (the union
// is exact, see the count test), so N adds per trial instead of 2|A|.
Pair build_pair(const Overlap& o, uint64_t seed) {
  Sketch p1(kLgK), p2(kLgK), p3(kLgK);
  add_range(p1, seed, 0, o.only());
  add_range(p2, seed, o.only(), o.only() + o.shared());
  add_range(p3, seed, o.only() + o.shared(), o.n);
  Sketch a = p1, b = p3;
  // The working states themselves, as a combine function merges them.
  if (!a.merge_bytes(p2.bytes()).is_ok() || !b.merge_bytes(p2.bytes()).is_ok())
    throw std::runtime_error("merge refused");
  return Pair{a.stored(), b.stored()};
}

TEST(ThetaAccuracy, IntersectionAndDifferenceRmsAndCoverage) {
  std::printf("\n%5s %5s %6s %9s %10s %10s %11s %9s\n", "J", "op", "|R|", "bias", "rms",
              "theory", "(brief's)", "coverage");
  for (double j : {0.5, 0.1, 0.01}) {
    const Overlap o{j, 100000};
    Stats inter, diff;
    for (int t = 0; t < kTrials; t++) {
      const Pair p = build_pair(o, trial_seed(uint64_t(j * 1e6) << 20 | 1, t));
      if (t == 0) {  // the parts' union is the sketch of A itself
        Sketch direct(kLgK);
        add_range(direct, trial_seed(uint64_t(j * 1e6) << 20 | 1, t), 0, o.each());
        ASSERT_EQ(direct.stored(), p.a);
      }
      const std::vector<uint8_t> i = test::intersection(p.a, p.b);
      const std::vector<uint8_t> d = test::difference(p.a, p.b);
      for (auto [stats, bytes, truth] :
           {std::tuple{&inter, &i, double(o.shared())}, std::tuple{&diff, &d, double(o.only())}}) {
        const View v = must_parse(*bytes, Validation::kCanonical);
        stats->add(estimate(v) / truth - 1, holds(bounds(v, kConfidence), truth));
      }
    }
    for (auto [what, s, r] : {std::tuple{"a&b", &inter, double(o.shared())},
                              std::tuple{"a-b", &diff, double(o.only())}}) {
      const double theory = std::sqrt((double(o.each()) / kK - 1) / r);
      const double brief = std::sqrt(double(o.n) / r) / std::sqrt(kK);
      std::printf("%5.2f %5s %6.0f %+9.5f %10.5f %10.5f %11.5f %8.1f%%\n", j, what, r, s->bias(),
                  s->rms(), theory, brief, 100 * s->coverage());
      SCOPED_TRACE(std::string(what) + " J=" + std::to_string(j));
      EXPECT_NEAR(s->rms(), theory, 0.15 * theory);
      EXPECT_LE(std::fabs(s->bias()), 4 * theory / std::sqrt(double(kTrials)));
      EXPECT_GE(s->coverage(), kMinCoverage);
    }
  }
  std::fflush(stdout);
}

TEST(ThetaAccuracy, JaccardRmsAndCoverage) {
  std::printf("\n%5s %9s %10s %10s %10s %10s %9s\n", "J", "bias", "rms", "SE", "max_err",
              "5 SE", "coverage");
  for (double j : {0.9, 0.5, 0.1}) {
    const Overlap o{j, 100000};
    Stats err;
    double expected_var = 0;
    for (int t = 0; t < kTrials; t++) {
      const Pair p = build_pair(o, trial_seed(uint64_t(j * 1e6) << 20 | 2, t));
      const Similarity s = jaccard(must_parse(p.a), must_parse(p.b), kConfidence);
      ASSERT_TRUE(s.defined);
      ASSERT_FALSE(s.exact);
      const double truth = double(o.shared()) / double(o.n), m = s.sample, n = double(o.n);
      expected_var += truth * (1 - truth) / m * (n - m) / (n - 1);
      err.add(s.estimate - truth, s.lower <= truth && truth <= s.upper);
    }
    const double se = std::sqrt(expected_var / kTrials);
    std::printf("%5.2f %+9.5f %10.5f %10.5f %10.5f %10.5f %8.1f%%\n", j, err.bias(), err.rms(), se,
                err.max_abs, 5 * se, 100 * err.coverage());
    SCOPED_TRACE("J=" + std::to_string(j));
    EXPECT_NEAR(err.rms(), se, 0.10 * se);
    EXPECT_LE(err.max_abs, 5 * se);
    EXPECT_LE(std::fabs(err.bias()), 4 * se / std::sqrt(double(kTrials)));
    EXPECT_GE(err.coverage(), kMinCoverage);
  }
  std::fflush(stdout);
}

}  // namespace
}  // namespace sketch::theta
