// Measured fill limits, false-positive rates and sizes of the cuckoo core
// against the math, with fixed seeds (a run is reproducible bit for bit).
//
// The false-positive rate is measured over 10^6 keys never added (another key
// space). At a true rate r the measured rate has a relative standard
// deviation of sqrt((1 - r) / (N r)): 1% at r = 0.01 and 3.2% at r = 0.001,
// so the 15% tolerance is > 4 standard deviations wide while still catching
// a biased bucket or fingerprint function or sizing that misses its target.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "core/bloom/bloom.h"
#include "cuckoo_test_util.h"

namespace sketch::cuckoo {
namespace {

using test::Filter;
using test::key_hash;

constexpr uint64_t kInsertSeed = 0xc0c0'0001;
constexpr uint64_t kProbeSeed = 0xc0c0'0002;  // never inserted

// The load at which a single sub-filter first refuses a value (kicks
// exhausted), for bucket size b: the design load must stay below the worst
// of several runs.
TEST(CuckooAccuracy, DesignLoadIsReachedAt500Kicks) {
  for (int b : {2, 4, 8}) {
    double worst = 1.0, sum = 0.0;
    const int runs = 6;
    for (int run = 0; run < runs; run++) {
      const uint64_t buckets = 100003 / b + 1000 * run;  // not powers of two
      Params params{buckets, 16, b};
      std::vector<uint8_t> bytes = test::empty_bytes(params);
      uint64_t added = 0;
      for (uint64_t i = 0;; i++) {
        if (add_hash(bytes.data(), key_hash(kInsertSeed + 100 * b + run, i)) == AddResult::kFull)
          break;
        added++;
      }
      const double load = double(added) / double(buckets * b);
      worst = std::min(worst, load);
      sum += load;
    }
    std::printf("bucket size %d: first refusal at load %.4f (worst of %d), mean %.4f; design "
                "load %.2f\n", b, worst, runs, sum / runs, design_load(b));
    EXPECT_GT(worst, design_load(b) + 0.01) << b;
  }
}

struct Result {
  double measured;
  double formula;
};

// n members (30% of all added keys deleted again, interleaved), then 10^6
// probes of keys never added.
Result fpp_with_deletes(int64_t n, double p, Filter* out) {
  Filter f(n, p);
  const uint64_t total = static_cast<uint64_t>(std::ceil(n / 0.7));
  const uint64_t lag = 1000;
  auto deleted = [](uint64_t i) { return i % 10 < 3; };
  for (uint64_t i = 0; i < total + lag; i++) {
    if (i < total) f.add(key_hash(kInsertSeed, i));
    if (i >= lag && deleted(i - lag)) EXPECT_TRUE(f.remove(key_hash(kInsertSeed, i - lag)));
  }
  const Filter s = f.stored();
  const View v = s.view();
  EXPECT_EQ(v.subfilters, 1);
  uint64_t false_negatives = 0;
  for (uint64_t i = 0; i < total; i++) {
    if (!deleted(i)) false_negatives += !contains_hash(v, key_hash(kInsertSeed, i));
  }
  EXPECT_EQ(false_negatives, 0u);
  uint64_t fp = 0;
  const uint64_t probes = 1000000;
  for (uint64_t i = 0; i < probes; i++) fp += contains_hash(v, key_hash(kProbeSeed, i));
  *out = s;
  return Result{double(fp) / probes, estimate_fpp(v)};
}

TEST(CuckooAccuracy, FalsePositivesAndSizeAtTheSizedLoad) {
  for (double p : {0.01, 0.001}) {
    const int64_t n = 1000000;
    Filter f(1, 0.5);
    const Result r = fpp_with_deletes(n, p, &f);
    const View v = f.view();
    const double load = double(held(v)) / double(capacity(v));
    std::printf("p = %g: f = %d, B = %llu, load %.4f, fpp measured %.6f, formula %.6f (%+.1f%%)\n",
                p, v.fingerprint_bits, static_cast<unsigned long long>(v.buckets[0]), load,
                r.measured, r.formula, 100 * (r.measured / r.formula - 1));
    EXPECT_NEAR(r.measured, r.formula, 0.15 * r.formula);
    EXPECT_LT(r.formula, p);
    // Bytes per member at the sized load (n members in the filter sized for n).
    const double alpha = design_load(4);
    const double bits_per_member = 8.0 * double(v.size) / double(n);
    const double target = (std::log2(1 / p) + 3) / alpha;
    bloom::Params bp;
    ASSERT_TRUE(bloom::size_for(n, p, &bp).is_ok());
    const double bloom_bits = 8.0 * double(bloom::filter_size(bp.bits)) / double(n);
    std::printf("p = %g: cuckoo %.2f bits (%.3f bytes) per member, target (log2(1/p)+3)/alpha "
                "= %.2f bits (%+.1f%%); bloom %.2f bits (%.3f bytes) per member\n",
                p, bits_per_member, bits_per_member / 8, target,
                100 * (bits_per_member / target - 1), bloom_bits, bloom_bits / 8);
    EXPECT_NEAR(bits_per_member, target, 0.10 * target);
  }
}

TEST(CuckooAccuracy, FourTimesCapacityGrows) {
  const int64_t n = 100000;
  Filter f(n, 0.01);
  for (uint64_t i = 0; i < 4 * uint64_t(n); i++) f.add(key_hash(kInsertSeed + 7, i));
  const Filter s = f.stored();
  const View v = s.view();
  EXPECT_GE(v.subfilters, 3);
  for (uint64_t i = 0; i < 4 * uint64_t(n); i++)
    ASSERT_TRUE(contains_hash(v, key_hash(kInsertSeed + 7, i))) << i;
  uint64_t fp = 0;
  const uint64_t probes = 1000000;
  for (uint64_t i = 0; i < probes; i++) fp += contains_hash(v, key_hash(kProbeSeed + 7, i));
  const double measured = double(fp) / probes;
  const double formula = estimate_fpp(v);
  std::printf("4x capacity: %d sub-filters, %llu held, fpp measured %.6f, formula %.6f (%+.1f%%)\n",
              v.subfilters, static_cast<unsigned long long>(held(v)), measured, formula,
              100 * (measured / formula - 1));
  EXPECT_NEAR(measured, formula, 0.15 * formula);
}

}  // namespace
}  // namespace sketch::cuckoo
