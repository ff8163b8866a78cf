// ddsketch behaviour: adding through the aggregate-state mechanism (growth
// included), the stores against an independent model, collapse, the
// determinism the format promises (order, partitions, merges of stored and
// working states, different max_buckets, folding across scales, and the one
// documented exception), quantiles, ranks and their guarantee.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/ddsketch/ddsketch_internal.h"
#include "ddsketch_test_util.h"

namespace sketch::ddsketch {
namespace {

using test::Model;
using test::params;
using test::Random;
using test::Sketch;
using Bytes = std::vector<uint8_t>;

std::vector<double> mixed_values(uint64_t seed, size_t n, double spread = 6) {
  Random r(seed);
  std::vector<double> out;
  for (size_t i = 0; i < n; i++) {
    const double u = r.uniform();
    if (u < 0.05) {
      out.push_back(u < 0.025 ? 0.0 : -0.0);
    } else {
      const double magnitude = std::exp(r.normal() * spread);
      out.push_back(u < 0.35 ? -magnitude : magnitude);
    }
  }
  return out;
}

template <class T>
void shuffle(std::vector<T>* v, Random* r) {
  for (size_t i = v->size(); i > 1; i--) std::swap((*v)[i - 1], (*v)[r->below(i)]);
}

void expect_matches_model(const View& v, const std::vector<double>& values, const Params& p) {
  const Model m = test::model_of(values, p);
  EXPECT_EQ(test::buckets_of(v.positive), m.positive.buckets);
  EXPECT_EQ(test::buckets_of(v.negative), m.negative.buckets);
  EXPECT_EQ(v.positive.collapsed, m.positive.collapsed);
  EXPECT_EQ(v.negative.collapsed, m.negative.collapsed);
  EXPECT_EQ(v.zero_count, m.zeros);
  EXPECT_EQ(v.count, values.size());
}

// --- adding -------------------------------------------------------------------------

TEST(Ddsketch, AddsCountZerosMinMax) {
  Sketch s(params(6));
  EXPECT_EQ(s.count(), 0u);
  s.add(-0.0);
  View v = s.view();
  EXPECT_EQ(v.count, 1u);
  EXPECT_EQ(v.zero_count, 1u);
  // -0.0 counts as +0.0, also in min and max: the bytes stay canonical.
  EXPECT_FALSE(std::signbit(v.min));
  EXPECT_FALSE(std::signbit(v.max));
  s.add(5);
  s.add(-3);
  s.add(0.0);
  v = s.view();
  EXPECT_EQ(v.count, 4u);
  EXPECT_EQ(v.zero_count, 2u);
  EXPECT_EQ(v.min, -3.0);
  EXPECT_EQ(v.max, 5.0);
  EXPECT_EQ(v.positive.buckets, 1u);
  EXPECT_EQ(v.negative.buckets, 1u);
  EXPECT_EQ(s.sum(), 2.0);
  EXPECT_EQ(Sketch::of(params(6), {-0.0}).stored(), Sketch::of(params(6), {0.0}).stored());
}

TEST(Ddsketch, ExtremesAndDenormals) {
  const std::vector<double> values = {
      DBL_MAX, -DBL_MAX, DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_MIN, 1e-310, -1e-320, 1, -1};
  for (int scale : {0, 6, 12}) {
    const Params p = params(scale, kMaxBuckets);
    const Sketch s = Sketch::of(p, values);
    const View v = s.stored_view();
    expect_matches_model(v, values, p);
    EXPECT_EQ(v.min, -DBL_MAX);
    EXPECT_EQ(v.max, DBL_MAX);
    EXPECT_EQ(quantile(v, 0), -DBL_MAX);
    EXPECT_EQ(quantile(v, 1), DBL_MAX);
    // DBL_MAX - DBL_MAX + ... = 1e-310 - 1e-320 + DBL_MIN (exactly, then rounded)
    EXPECT_EQ(s.sum(), 1e-310 - 1e-320 + DBL_MIN);
  }
}

TEST(Ddsketch, NonFiniteValuesAreIgnoredByTheCore) {
  // The wrapper refuses them (check_value); the core must not be hurt.
  Sketch s(params(6));
  s.add(NAN);
  s.add(INFINITY);
  s.add(-INFINITY);
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.stored(), test::empty_stored(params(6)));
}

TEST(Ddsketch, StoresMatchTheModel) {
  for (int scale : {0, 2, 6, 9, 12}) {
    for (uint32_t m : {16u, 64u, 2048u}) {
      const std::vector<double> values = mixed_values(scale * 100 + m, 5000);
      const Params p = params(scale, m);
      SCOPED_TRACE("scale " + std::to_string(scale) + " max_buckets " + std::to_string(m));
      const Sketch s = Sketch::of(p, values);
      expect_matches_model(s.stored_view(), values, p);
    }
  }
}

// --- growth through the state mechanism ---------------------------------------------------

TEST(Ddsketch, FirstValueNeedsNoGrowthAndWindowsGrowLogarithmically) {
  Sketch s(params(6, 2048));
  EXPECT_EQ(s.add(1.0), 0u);   // the empty positive window takes it
  EXPECT_EQ(s.add(1.01), 0u);  // within 16 slots
  EXPECT_EQ(s.add(-1.0), 1u);  // the negative window starts at 0 slots
  size_t growths = 0;
  for (int k = 1; k <= 30; k++) growths += s.add(std::ldexp(1.0, k));  // 64 buckets per octave
  EXPECT_LE(growths, 8u);
  const View v = s.view();
  EXPECT_LE(v.positive.capacity, 2u * 2048u);
  EXPECT_GE(v.positive.capacity, uint32_t(v.positive.max_index - v.positive.min_index + 1));
}

// A store whose maximum keeps rising slides its window in place: no new
// buffer per value even when the span is at its limit.
TEST(Ddsketch, RisingAndFallingStreamsSlideInPlace) {
  for (const bool rising : {true, false}) {
    Sketch s(params(8, 64));
    size_t growths = 0;
    std::vector<double> values;
    for (int i = 0; i < 20000; i++) {
      const double v = std::exp((rising ? i : 20000 - i) * 0.001);
      values.push_back(v);
      growths += s.add(v);
    }
    EXPECT_LE(growths, 4u) << rising;
    const View v = s.view();
    EXPECT_LE(v.positive.capacity, 128u);
    expect_matches_model(s.stored_view(), values, params(8, 64));
  }
}

// --- collapse -------------------------------------------------------------------------------

TEST(Ddsketch, CollapseKeepsTheTopMaxBucketsAndFlagsIt) {
  Sketch s(params(0, 16));
  std::vector<double> values;
  for (int k = -40; k <= 40; k++) values.push_back(std::ldexp(1.0, k));
  s.add_all(values);
  const View v = s.stored_view();
  EXPECT_TRUE(v.positive.collapsed);
  EXPECT_FALSE(v.negative.collapsed);
  EXPECT_EQ(v.positive.max_index, 40);
  EXPECT_EQ(v.positive.min_index, 40 - 16 + 1);
  EXPECT_EQ(v.positive.buckets, 16u);
  EXPECT_EQ(test::buckets_of(v.positive).begin()->second, 81u - 15u);
  // The lowest 66 ranks sit in the collapsed bucket; min is still exact.
  const Guarantee g = unguaranteed_ranks(v);
  EXPECT_EQ(g.from, 1u);
  EXPECT_EQ(g.to, 66u);
  EXPECT_EQ(quantile(v, 0), std::ldexp(1.0, -40));
  // Ranks above the collapsed bucket keep the guarantee: rank 70 is 2^29.
  const double q = 69.5 / 81.0;
  // 2^29 tops its bucket (2^28, 2^29]: the representative is alpha away.
  EXPECT_NEAR(quantile(v, q), std::ldexp(1.0, 29),
              relative_accuracy(0) * std::ldexp(1.0, 29) * (1 + 1e-12));
}

TEST(Ddsketch, UnguaranteedRanksOfBothStores) {
  Sketch s(params(0, 16));
  for (int k = -30; k <= 30; k++) s.add_all({std::ldexp(1.0, k), -std::ldexp(3.0, k)});
  s.add_all({0.0, 0.0, 0.0});
  const View v = s.stored_view();
  ASSERT_TRUE(v.positive.collapsed && v.negative.collapsed);
  const Guarantee g = unguaranteed_ranks(v);
  // Negatives: 61 values, the last (smallest magnitude) 46 collapsed; then
  // 3 zeros; positives: the first 46 collapsed.
  EXPECT_EQ(g.from, 61u - 46u + 1u);
  EXPECT_EQ(g.to, 61u + 3u + 46u);
  const Sketch clean = Sketch::of(params(6), {1, 2, 3});
  const Guarantee none = unguaranteed_ranks(clean.view());
  EXPECT_GT(none.from, none.to);
}

// --- determinism --------------------------------------------------------------------------

TEST(Ddsketch, StoredBytesDoNotDependOnOrder) {
  Random r(11);
  for (const Params& p : {params(6, 2048), params(4, 16), params(10, 100)}) {
    std::vector<double> values = mixed_values(p.scale + p.max_buckets, 3000, 10);
    const Bytes expected = Sketch::of(p, values).stored();
    for (int i = 0; i < 8; i++) {
      shuffle(&values, &r);
      ASSERT_EQ(Sketch::of(p, values).stored(), expected);
    }
    std::sort(values.begin(), values.end());
    ASSERT_EQ(Sketch::of(p, values).stored(), expected);
    std::reverse(values.begin(), values.end());
    ASSERT_EQ(Sketch::of(p, values).stored(), expected);
  }
}

// Parts as an aggregate's partial states: each a working state or its
// stored form (a parallel worker's or a distributed node's result), merged in
// a random tree; every combination gives the single-pass bytes.
TEST(Ddsketch, StoredBytesDoNotDependOnPartitionOrMergeShape) {
  Random r(12);
  for (const Params& p : {params(6, 2048), params(3, 16), params(8, 40)}) {
    const std::vector<double> values = mixed_values(p.scale * 7 + p.max_buckets, 4000, 12);
    const Bytes expected = Sketch::of(p, values).stored();
    for (int trial = 0; trial < 12; trial++) {
      const size_t parts = 1 + r.below(20);
      std::vector<Sketch> sketches(parts, Sketch(p));
      for (double v : values) sketches[r.below(parts)].add(v);
      for (Sketch& s : sketches)
        if (r.below(2) == 0) s = Sketch::from_bytes(s.stored());
      while (sketches.size() > 1) {
        const size_t i = r.below(sketches.size());
        Sketch a = sketches[i];
        sketches.erase(sketches.begin() + static_cast<long>(i));
        const size_t j = r.below(sketches.size());
        a.merge(sketches[j]);
        if (r.below(3) == 0) a = Sketch::from_bytes(a.stored());
        sketches[j] = a;
      }
      ASSERT_EQ(sketches[0].stored(), expected) << "trial " << trial;
    }
  }
}

TEST(Ddsketch, MergesOfStoredAndWorkingInEveryCombination) {
  const Params p = params(5, 32);
  const std::vector<double> a_values = mixed_values(1, 500, 8), b_values = mixed_values(2, 700, 8);
  std::vector<double> all = a_values;
  all.insert(all.end(), b_values.begin(), b_values.end());
  const Bytes expected = Sketch::of(p, all).stored();
  const Sketch a = Sketch::of(p, a_values), b = Sketch::of(p, b_values);
  const Sketch a_stored = Sketch::from_bytes(a.stored()), b_stored = Sketch::from_bytes(b.stored());
  for (const Sketch* x : {&a, &a_stored})
    for (const Sketch* y : {&b, &b_stored}) {
      EXPECT_EQ(x->united(*y).stored(), expected);
      EXPECT_EQ(y->united(*x).stored(), expected);
    }
  // And with empty sketches of either encoding, on either side.
  for (const Bytes& empty : {test::empty_stored(p), test::empty_working(p)}) {
    const Sketch e = Sketch::from_bytes(empty);
    EXPECT_EQ(a.united(e).stored(), a.stored());
    EXPECT_EQ(e.united(a).stored(), a.stored());
    EXPECT_EQ(e.united(e).stored(), test::empty_stored(p));
  }
}

// The union takes the smaller max_buckets: the result is the sketch built
// with it from the start, whichever side had it and whatever collapsed.
TEST(Ddsketch, UnionWithSmallerMaxBucketsEqualsBuildingWithIt) {
  Random r(13);
  for (int trial = 0; trial < 20; trial++) {
    const int scale = static_cast<int>(r.below(8));
    const uint32_t m1 = 16 + static_cast<uint32_t>(r.below(200));
    const uint32_t m2 = 16 + static_cast<uint32_t>(r.below(200));
    const std::vector<double> a_values = mixed_values(100 + trial, 800, 10);
    const std::vector<double> b_values = mixed_values(200 + trial, 800, 10);
    std::vector<double> all = a_values;
    all.insert(all.end(), b_values.begin(), b_values.end());
    const Sketch a = Sketch::of(params(scale, m1), a_values);
    const Sketch b = Sketch::of(params(scale, m2), b_values);
    const Bytes expected = Sketch::of(params(scale, std::min(m1, m2)), all).stored();
    ASSERT_EQ(a.united(b).stored(), expected) << trial;
    ASSERT_EQ(b.united(a).stored(), expected) << trial;
  }
}

// Folding is exact when nothing collapsed: a sketch at a fine scale folded
// (by a union with an empty coarser sketch, or with a coarser sketch of
// other values) equals the sketch built at the coarser scale.
TEST(Ddsketch, FoldingAcrossScalesEqualsBuildingAtTheCoarserScale) {
  // A spread narrow enough for no store to collapse at scale 12.
  const std::vector<double> a_values = mixed_values(21, 3000, 1),
                            b_values = mixed_values(22, 3000, 1);
  std::vector<double> all = a_values;
  all.insert(all.end(), b_values.begin(), b_values.end());
  for (int fine = kMinScale; fine <= kMaxScale; fine += 3) {
    const Sketch a = Sketch::of(params(fine, kMaxBuckets), a_values);
    ASSERT_FALSE(a.stored_view().positive.collapsed || a.stored_view().negative.collapsed);
    for (int coarse = kMinScale; coarse <= fine; coarse++) {
      const Params p = params(coarse, kMaxBuckets);
      ASSERT_EQ(a.folded(coarse, kMaxBuckets).stored(), Sketch::of(p, a_values).stored())
          << fine << " -> " << coarse;
      const Sketch b = Sketch::of(p, b_values);
      ASSERT_EQ(a.united(b).stored(), Sketch::of(p, all).stored());
      ASSERT_EQ(b.united(a).stored(), Sketch::of(p, all).stored());
      ASSERT_EQ(Sketch::from_bytes(a.stored()).united(b).stored(), Sketch::of(p, all).stored());
    }
  }
  // A fold can also collapse: the coarser scale with a smaller max_buckets.
  const Sketch a = Sketch::of(params(9, kMaxBuckets), a_values);
  EXPECT_EQ(a.folded(3, 20).stored(), Sketch::of(params(3, 20), a_values).stored());
}

// The documented exception (ddsketch.h, ddsketch_merge.cpp): a store that
// collapsed at the finer scale folds its collapsed bucket as a whole, so the
// union can differ from the single pass at the coarser scale; it is still a
// valid sketch with the same count, sum, min and max.
TEST(Ddsketch, FoldingACollapsedStoreIsValidButMayDifferFromTheSinglePass) {
  // At scale 1 with 16 buckets, 2^-4 (index -8) collapses below 2^8 (index
  // 16): it joins index 1. Folded to scale 0, index 1 is 1 -- but built at
  // scale 0, 2^-4 is index -4, inside 16 buckets of index 8: not collapsed.
  const std::vector<double> values = {std::ldexp(1.0, -4), std::ldexp(1.0, 8)};
  const Sketch fine = Sketch::of(params(1, 16), values);
  ASSERT_TRUE(fine.stored_view().positive.collapsed);
  const Sketch folded = fine.folded(0, 16);
  const Sketch direct = Sketch::of(params(0, 16), values);
  EXPECT_NE(folded.stored(), direct.stored());
  const View fv = folded.stored_view();  // canonical
  const View dv = direct.stored_view();
  EXPECT_EQ(fv.count, dv.count);
  EXPECT_EQ(fv.min, dv.min);
  EXPECT_EQ(fv.max, dv.max);
  EXPECT_EQ(sum(fv), sum(dv));
  EXPECT_TRUE(fv.positive.collapsed);
  EXPECT_FALSE(dv.positive.collapsed);
}

TEST(Ddsketch, SelfUnionDoublesCountsAndKeepsQuantiles) {
  const Sketch a = Sketch::of(params(6), mixed_values(31, 2000, 5));
  Sketch b = a;
  b.merge(b);
  const View av = a.stored_view(), bv = b.stored_view();
  EXPECT_EQ(bv.count, 2 * av.count);
  EXPECT_EQ(bv.zero_count, 2 * av.zero_count);
  EXPECT_EQ(sum(bv), 2 * sum(av));
  // The same rank in the doubled multiset holds the same value, so the same
  // bucket answers; only ranks 1 and n, answered exactly by min and max,
  // become a bucket's answer in the union (their second copies).
  const double alpha = relative_accuracy(6);
  for (double q = 0; q <= 1.0; q += 0.001) {
    const double k = std::ceil(q * static_cast<double>(av.count));
    if (k > 1 && k < static_cast<double>(av.count)) {
      EXPECT_EQ(quantile(bv, q), quantile(av, q)) << q;
    } else {
      EXPECT_LE(std::fabs(quantile(bv, q) - quantile(av, q)),
                alpha * std::fabs(quantile(av, q)) * (1 + 1e-12));
    }
  }
}

// --- the count limit --------------------------------------------------------------------------

// A crafted sketch of 2^64 - 1 ones (valid input: the sum is exact in 2176
// bits).
Bytes full_sketch() {
  Sketch one = Sketch::of(params(0, 16), {1.0});
  Bytes b = one.stored();
  store_le64(&b[detail::kCountOffset], kMaxCount);
  // Rewrite the sum and the bucket count: 2^64 - 1 times 1.0.
  detail::SumWords sum = {};
  detail::sum_add_scaled(sum, 1.0, kMaxCount);
  Bytes out(detail::kSumWordsOffset + 8 * detail::trim_sum(sum).len + 4 + 4 + 1 + 10 + 4);
  std::copy(b.begin(), b.begin() + detail::kSumOffset, out.begin());
  uint8_t* p = detail::put_stored_sum(out.data() + detail::kSumOffset, sum);
  store_le32(p, 1);
  store_le32(p + 4, 0);
  p = detail::put_varint(p + 8, 0);
  p = detail::put_varint(p, kMaxCount);
  store_le32(p, 0);
  out.resize(static_cast<size_t>(p + 4 - out.data()));
  return out;
}

TEST(Ddsketch, CountLimit) {
  const Bytes full = full_sketch();
  View v;
  ASSERT_TRUE(parse(full.data(), full.size(), Validation::kCanonical, &v).is_ok())
      << parse(full.data(), full.size(), Validation::kCanonical, &v).message();
  EXPECT_EQ(v.count, kMaxCount);
  EXPECT_EQ(sum(v), 18446744073709551615.0);
  // Adding ignores the value; a union that would overflow is refused.
  Sketch s = Sketch::from_bytes(full);
  s.add(5);
  EXPECT_EQ(s.stored(), full);
  const Status st = s.try_merge(Sketch::of(params(0, 16), {2.0}).view());
  EXPECT_EQ(st.code(), StatusCode::kInvalidParameter);
  EXPECT_NE(std::string(st.message()).find("would hold more than 18446744073709551615 values"),
            std::string::npos);
  EXPECT_EQ(s.stored(), full);
  EXPECT_TRUE(s.try_merge(test::must_parse(test::empty_stored(params(3, 16)))).is_ok());
}

// --- quantiles and ranks ----------------------------------------------------------------------

TEST(Ddsketch, QuantileEdgeCases) {
  EXPECT_TRUE(std::isnan(quantile(Sketch(params(6)).view(), 0.5)));
  const Sketch one = Sketch::of(params(6), {3.7});
  for (double q : {0.0, 0.3, 0.5, 1.0}) EXPECT_EQ(one.quantile(q), 3.7);
  const Sketch zeros = Sketch::of(params(6), {0.0, -0.0, 0.0});
  for (double q : {0.0, 0.5, 1.0}) {
    EXPECT_EQ(zeros.quantile(q), 0.0);
    EXPECT_FALSE(std::signbit(zeros.quantile(q)));
  }
  const Sketch negative = Sketch::of(params(6), {-1, -2, -3, -4, -5});
  EXPECT_EQ(negative.quantile(0), -5.0);
  EXPECT_EQ(negative.quantile(1), -1.0);
  EXPECT_NEAR(negative.quantile(0.5), -3.0, 3.0 * relative_accuracy(6));
  EXPECT_NEAR(negative.quantile(0.4), -4.0, 4.0 * relative_accuracy(6));
  EXPECT_NEAR(negative.quantile(0.41), -3.0, 3.0 * relative_accuracy(6));
  const Sketch mixed = Sketch::of(params(6), {-10, -1, 0, 0, 1, 10});
  EXPECT_EQ(mixed.quantile(0), -10.0);
  EXPECT_NEAR(mixed.quantile(0.3), -1.0, relative_accuracy(6));  // rank 2
  EXPECT_EQ(mixed.quantile(0.5), 0.0);                           // rank 3
  EXPECT_EQ(mixed.quantile(0.6), 0.0);                           // rank 4
  EXPECT_NEAR(mixed.quantile(0.75), 1.0, relative_accuracy(6));  // rank 5
  EXPECT_EQ(mixed.quantile(1), 10.0);
  // Out-of-range q is clamped by the core (the wrapper refuses it).
  EXPECT_EQ(mixed.quantile(-1), -10.0);
  EXPECT_EQ(mixed.quantile(2), 10.0);
  EXPECT_EQ(mixed.quantile(NAN), -10.0);
}

// percentile_disc's rank, k = max(1, ceil(q n)), for every n up to 60 and a
// grid of q: the answer is within alpha of the k-th value.
TEST(Ddsketch, QuantileRanksArePercentileDisc) {
  Random r(41);
  for (size_t n = 1; n <= 60; n++) {
    std::vector<double> values;
    for (size_t i = 0; i < n; i++) values.push_back((r.uniform() - 0.3) * 100);
    // Values from 0.0x to 70: more than 2048 buckets at scale 8; no collapse.
    const Sketch s = Sketch::of(params(8, kMaxBuckets), values);
    std::sort(values.begin(), values.end());
    const double alpha = relative_accuracy(8);
    for (int g = 0; g <= 200; g++) {
      const double q = g / 200.0;
      const double expected = test::percentile_disc(values, q);
      ASSERT_LE(std::fabs(s.quantile(q) - expected), alpha * std::fabs(expected) * (1 + 1e-12))
          << "n " << n << " q " << q;
    }
  }
}

TEST(Ddsketch, EveryQuantileIsWithinAlphaAtEveryScale) {
  for (int scale = kMinScale; scale <= kMaxScale; scale++) {
    // As wide a spread as max_buckets holds without a collapse.
    std::vector<double> values = mixed_values(500 + scale, 4000, scale <= 6 ? 15 : 1.2);
    const Sketch s = Sketch::of(params(scale, kMaxBuckets), values);
    const View v = s.stored_view();
    ASSERT_FALSE(v.positive.collapsed || v.negative.collapsed);
    std::sort(values.begin(), values.end());
    const double alpha = relative_accuracy(scale);
    for (size_t k = 1; k <= values.size(); k++) {
      const double q = (static_cast<double>(k) - 0.5) / static_cast<double>(values.size());
      const double truth = test::percentile_disc(values, q);
      ASSERT_LE(std::fabs(quantile(v, q) - truth), alpha * std::fabs(truth) * (1 + 1e-12))
          << "scale " << scale << " rank " << k;
    }
  }
}

TEST(Ddsketch, RankIsExactOutsideAndCountsWholeBuckets) {
  const Sketch s = Sketch::of(params(6), {-10, -1, 0, 0, 1, 10});
  EXPECT_EQ(s.rank(-11), 0.0);
  EXPECT_EQ(s.rank(-10.0000001), 0.0);
  EXPECT_EQ(s.rank(10), 1.0);
  EXPECT_EQ(s.rank(1e300), 1.0);
  EXPECT_NEAR(s.rank(-5), 1.0 / 6, 1e-15);
  EXPECT_NEAR(s.rank(-0.5), 2.0 / 6, 1e-15);
  EXPECT_NEAR(s.rank(0), 4.0 / 6, 1e-15);
  EXPECT_NEAR(s.rank(5), 5.0 / 6, 1e-15);
  EXPECT_EQ(Sketch(params(6)).rank(1), 0.0);
  // rank(quantile(q)) >= q, and rank is monotone.
  const Sketch big = Sketch::of(params(6), mixed_values(51, 3000, 4));
  double previous = 0;
  for (double x = -100; x <= 100; x += 0.37) {
    const double r = big.rank(x);
    ASSERT_GE(r, previous);
    previous = r;
  }
  for (double q = 0.001; q < 1; q += 0.013) ASSERT_GE(big.rank(big.quantile(q)), q - 1e-12) << q;
}

}  // namespace
}  // namespace sketch::ddsketch
