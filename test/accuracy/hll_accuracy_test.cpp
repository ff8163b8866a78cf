// Statistical accuracy of hll estimates against the math, over many
// independent, deterministic hash streams.
//
// For m = 2^p registers the relative standard error is σ = 1.04/√m. Over k
// independent seeds (200 up to n = 1.6e5, 20 at 1e6, 5 at 1e7):
//   - the mean relative error (bias) has standard error ≈ σ/√k, so a bound
//     of 4σ/√k fails by chance with probability ~6e-5, yet catches a
//     systematic bias of a fraction of σ (0.28σ at k = 200);
//   - the RMS relative error should be ≈ σ; with k >= 100 its sampling
//     spread is ≈ σ/√(2k), at most 7% of σ, so 1.25σ leaves > 3.5 spreads.
// While a sketch is still sparse (n ≤ max_sparse_entries(p)) it is nearly
// exact, so every single estimate must be within 0.2% of n.
// The seeds are fixed, so a run is reproducible bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "hll_test_util.h"

namespace sketch::hll {
namespace {

struct ErrorStats {
  double bias;     // mean of (estimate - n) / n
  double rms;      // sqrt(mean of ((estimate - n) / n)^2)
  double max_abs;  // largest |estimate - n| / n
};

// The seed of stream s for (p, n): distinct for every combination, so no two
// measurements share hash values.
uint64_t stream_seed(int p, uint64_t n, int s) {
  return test::stream_hash(uint64_t(p) << 56 ^ n, uint64_t(s));
}

// Builds `seeds` sketches of n distinct hashes each, inserting the hashes
// directly (no element encoding) into one sketch that is reset per seed: a
// large n costs one add_hash per element, and memory is allocated only when
// the set grows or turns dense.
ErrorStats measure(int p, uint64_t n, int seeds) {
  test::Sketch sketch(p);
  double sum = 0, sum_sq = 0, max_abs = 0;
  for (int s = 0; s < seeds; s++) {
    sketch.reset(p);
    const uint64_t seed = stream_seed(p, n, s);
    for (uint64_t i = 0; i < n; i++) sketch.add(test::stream_hash(seed, i));
    const double rel = (sketch.estimate() - double(n)) / double(n);
    sum += rel;
    sum_sq += rel * rel;
    max_abs = std::max(max_abs, std::fabs(rel));
  }
  return {sum / seeds, std::sqrt(sum_sq / seeds), max_abs};
}

int seeds_for(uint64_t n) {
  if (n >= 10000000) return 5;
  if (n >= 1000000) return 20;
  return 200;
}

const std::vector<uint64_t> kCardinalities = {10,    100,    1000,    10000,   20000,
                                              40000, 80000, 160000, 1000000, 10000000};

class HllAccuracy : public ::testing::TestWithParam<int> {};

TEST_P(HllAccuracy, BiasAndRmsWithinTheTheoreticalBounds) {
  const int p = GetParam();
  const double sigma = 1.04 / std::sqrt(double(register_count(p)));
  std::printf("\n%3s %9s %6s %10s %10s %10s %10s %10s %s\n", "p", "n", "seeds", "bias", "bias_max",
              "rms", "rms_max", "max_err", "(all relative)");
  for (uint64_t n : kCardinalities) {
    const int seeds = seeds_for(n);
    const ErrorStats e = measure(p, n, seeds);
    const double bias_bound = 4 * sigma / std::sqrt(double(seeds));
    const double rms_bound = 1.25 * sigma;
    const bool sparse = n <= max_sparse_entries(p);
    char rms_bound_text[16] = "-";  // the RMS bound applies only with >= 100 seeds
    if (seeds >= 100) std::snprintf(rms_bound_text, sizeof rms_bound_text, "%.5f", rms_bound);
    std::printf("%3d %9llu %6d %+10.5f %10.5f %10.5f %10s %10.5f%s\n", p,
                static_cast<unsigned long long>(n), seeds, e.bias, bias_bound, e.rms,
                rms_bound_text, e.max_abs, sparse ? "  sparse: max_err <= 0.002" : "");
    SCOPED_TRACE("p=" + std::to_string(p) + " n=" + std::to_string(n));
    EXPECT_LE(std::fabs(e.bias), bias_bound);
    if (seeds >= 100) {
      EXPECT_LE(e.rms, rms_bound);
    }
    if (sparse) {
      EXPECT_LE(e.max_abs, 0.002);
    }
  }
  std::fflush(stdout);
}

INSTANTIATE_TEST_SUITE_P(Precisions, HllAccuracy, ::testing::Values(10, 14, 18),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "p" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace sketch::hll
