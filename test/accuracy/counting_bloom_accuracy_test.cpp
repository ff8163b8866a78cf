// Measured behaviour of the counting_bloom core against the math, with fixed
// seeds (a run is reproducible bit for bit): 10^6 members, 30% of them
// deleted while the others are still being added.
//
//   - no member that was added and not deleted is ever reported absent;
//   - the filter after the deletes is byte for byte the filter of the
//     remaining members (deletes undo adds exactly while nothing saturates;
//     at the sized load, kn/m = ln 2 per cell, a counter reaches 15 with
//     probability ~1e-15, so over ~10^7 cells none does);
//   - the false-positive rate over never-inserted keys is within 15% of
//     (1 - e^(-kn/m))^k, at the sized load n = 10^6 and after the deletes at
//     the live count n = 700,000.
//
// With N probes and true rate f the measured rate has a relative standard
// deviation of sqrt((1 - f) / (N f)). Each case probes at least 10^6 keys and
// enough for N f >= 1000 expected false positives (3.2%), so 15% is more than
// 4.5 standard deviations while any systematic excess (positions that differ
// from bloom's, a delete that leaves residue) is caught.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "counting_bloom_test_util.h"

namespace sketch::counting_bloom {
namespace {

using test::Filter;
using test::key_hash;

constexpr uint64_t kInsertSeed = 0xcb00'0001;
constexpr uint64_t kProbeSeed = 0xcb00'0002;  // a disjoint key space: never inserted
constexpr uint64_t kMembers = 1000000;

// Member i is deleted when i % 10 < 3: 300,000 of them.
bool deleted(uint64_t i) { return i % 10 < 3; }

struct Rate {
  uint64_t probes;
  uint64_t false_positives;
  double expected;
  double measured() const { return double(false_positives) / double(probes); }
};

Rate measure(const Filter& f, double live) {
  const Params params{f.cells(), f.hashes()};
  const double expected = expected_fpp(live, params.cells, params.hashes);
  const uint64_t probes = std::max<uint64_t>(1000000, uint64_t(std::ceil(1000 / expected)));
  return {probes, f.count_present(kProbeSeed, 0, probes), expected};
}

void print(double p, const Params& params, const char* when, double live, const Rate& r) {
  std::printf("p=%-6g m=%-9llu k=%-2d %-14s n=%-8.0f probes=%-9llu false+=%-7llu "
              "measured=%.6f expected=%.6f rel.diff=%+.2f%%\n",
              p, static_cast<unsigned long long>(params.cells), params.hashes, when, live,
              static_cast<unsigned long long>(r.probes),
              static_cast<unsigned long long>(r.false_positives), r.measured(), r.expected,
              100.0 * (r.measured() / r.expected - 1));
}

void run(double p) {
  const Params params = test::params_for(kMembers, p);

  // At the sized load: every member present, the rate at n = 10^6.
  Filter full(params);
  full.add_keys(kInsertSeed, 0, kMembers);
  EXPECT_EQ(full.count_present(kInsertSeed, 0, kMembers), kMembers);
  const Rate at_capacity = measure(full, kMembers);
  print(p, params, "sized load", kMembers, at_capacity);
  EXPECT_NEAR(at_capacity.measured() / at_capacity.expected, 1.0, 0.15);
  EXPECT_EQ(full.counts().saturated, 0u);

  // Interleaved: after each block of ten members, the block's first three
  // are deleted.
  Filter f(params);
  for (uint64_t i = 0; i < kMembers; i++) {
    f.add(key_hash(kInsertSeed, i));
    if (i % 10 == 9) {
      for (uint64_t j = i - 9; j < i - 6; j++) ASSERT_TRUE(f.remove(key_hash(kInsertSeed, j)));
    }
  }
  Filter rest(params);
  uint64_t live = 0;
  for (uint64_t i = 0; i < kMembers; i++) {
    if (deleted(i)) continue;
    rest.add(key_hash(kInsertSeed, i));
    live++;
  }
  EXPECT_EQ(live, 700000u);
  EXPECT_TRUE(f.bytes() == rest.bytes()) << "the filter after deletes differs from the filter "
                                            "of the remaining members";
  const Filter s = f.stored();
  const View v = s.view();
  uint64_t false_negatives = 0;
  for (uint64_t i = 0; i < kMembers; i++)
    if (!deleted(i)) false_negatives += !contains_hash(v, key_hash(kInsertSeed, i));
  EXPECT_EQ(false_negatives, 0u);
  const Rate after = measure(f, double(live));
  print(p, params, "after deletes", double(live), after);
  EXPECT_NEAR(after.measured() / after.expected, 1.0, 0.15);
  // The cardinality estimate follows the live count (bloom's estimator on
  // the non-zero cells).
  EXPECT_NEAR(f.cardinality() / double(live), 1.0, 0.01);
}

TEST(CountingBloomAccuracy, MillionMembersWithDeletesAtOnePercent) { run(0.01); }
TEST(CountingBloomAccuracy, MillionMembersWithDeletesAtOnePerMille) { run(0.001); }

}  // namespace
}  // namespace sketch::counting_bloom
