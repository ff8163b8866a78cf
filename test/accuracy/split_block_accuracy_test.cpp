// Measured false-positive rates of the split-block layout against its
// formula (core/bloom/split_block.h: sum over i of Poisson(i; 256/b) (1 -
// (31/32)^i)^8 at b bits per value), with fixed seeds.
//
// 1,000,000 never-added probes per row. The measured rate's relative
// standard deviation is sqrt((1 - f) / (N f)): 3.2% or less where the
// formula expects at least 1,000 false positives (f >= 0.1%), so there the
// bound is 15% (over 4.7 standard deviations), which still catches a
// systematic excess (a block index or bit rule off the spec makes blocks or
// bits collide and shows as tens of percent). Rows expecting fewer get 4.7
// standard deviations of their own (a few hundred false positives: 22-37%).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bloom_test_util.h"

namespace sketch::bloom {
namespace {

using test::Filter;

constexpr uint64_t kSplitBlockInsertSeed = 0x5b10'0001;
constexpr uint64_t kSplitBlockProbeSeed = 0x5b10'0002;  // a disjoint key space: never added
constexpr uint64_t kProbes = 1000000;

void check(Params params, uint64_t n, uint64_t seed_offset) {
  Filter f(params);
  f.add_keys(kSplitBlockInsertSeed + seed_offset, 0, n);
  EXPECT_EQ(f.count_present(kSplitBlockInsertSeed + seed_offset, 0, n), n) << "a false negative";
  const uint64_t fp = f.count_present(kSplitBlockProbeSeed + seed_offset, 0, kProbes);
  const double measured = double(fp) / double(kProbes);
  const double bits_per_value = double(params.bits) / double(n);
  const double expected = split_block::formula_fpp(bits_per_value);
  std::printf("%10llu values %12llu bits (%5.2f per value): %7llu false+ of %llu, %.6f, "
              "formula %.6f (%+.2f%%), estimate %.6f\n",
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(params.bits),
              bits_per_value, static_cast<unsigned long long>(fp),
              static_cast<unsigned long long>(kProbes), measured, expected,
              100.0 * (measured / expected - 1), f.fpp());
  const double sigma = std::sqrt(expected * (1 - expected) / double(kProbes));
  const double tolerance = std::max(0.15 * expected, 4.7 * sigma);
  EXPECT_NEAR(measured, expected, tolerance) << bits_per_value << " bits per value";
  // The fill's estimate reads the filter as it is (no sampling): close to
  // the formula.
  EXPECT_NEAR(f.fpp(), expected, 0.15 * expected);
}

// Filters sized by bloom_sizing(n, p, 'split_block') (power-of-two sizes,
// so between 1x and 2x the bits p needs).
TEST(SplitBlockAccuracy, SizedFiltersFollowTheFormula) {
  uint64_t offset = 0;
  for (int64_t n : {int64_t{10000}, int64_t{100000}, int64_t{1000000}})
    for (double p : {0.01, 0.003}) check(test::split_params_for(n, p), uint64_t(n), ++offset);
}

// Fixed sizes across the range of bits per value, 6 to 24.
TEST(SplitBlockAccuracy, FormulaAcrossBitsPerValue) {
  const uint64_t bits = uint64_t{1} << 21;
  uint64_t offset = 100;
  for (double per_value : {6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0})
    check(Params{bits, 8, Layout::kSplitBlock}, uint64_t(double(bits) / per_value), ++offset);
}

}  // namespace
}  // namespace sketch::bloom
