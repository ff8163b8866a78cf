// The kll core (core/kll/kll.h): layout, compaction, adds, merges, queries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/kll/kll_internal.h"
#include "kll_test_util.h"

namespace sketch::kll {
namespace {

using test::Reader;
using test::Sketch;

TEST(KllKeys, OrderOfDoublesAndIntegers) {
  const std::vector<double> ds = {-INFINITY, -1e300, -1.5, -1e-310, 0.0, 1e-310, 2.0, 1e300, INFINITY};
  for (size_t i = 1; i < ds.size(); ++i) EXPECT_LT(key_of_double(ds[i - 1]), key_of_double(ds[i]));
  for (double d : ds) EXPECT_EQ(double_of_key(key_of_double(d)), d);
  EXPECT_EQ(key_of_double(-0.0), key_of_double(0.0));
  EXPECT_TRUE(is_nan_key(key_of_double(NAN)));
  const std::vector<int64_t> is = {INT64_MIN, -5, -1, 0, 1, INT64_MAX};
  for (size_t i = 1; i < is.size(); ++i) EXPECT_LT(key_of_int64(is[i - 1]), key_of_int64(is[i]));
  for (int64_t v : is) EXPECT_EQ(int64_of_key(key_of_int64(v)), v);
}

TEST(KllLevels, CapacitiesFollowTwoThirds) {
  EXPECT_EQ(level_capacity(200, 1, 0), 200u);
  EXPECT_EQ(level_capacity(200, 2, 0), 133u);  // 200 * 2/3 = 133.3
  EXPECT_EQ(level_capacity(200, 3, 0), 89u);   // 88.9
  EXPECT_EQ(level_capacity(200, 30, 0), 8u);
  EXPECT_EQ(total_capacity(200, 2), 333u);
  EXPECT_FALSE(check_k(7).is_ok());
  EXPECT_TRUE(check_k(8).is_ok());
  EXPECT_FALSE(check_k(65536).is_ok());
}

TEST(Kll, EmptySketch) {
  Sketch s;
  Reader r(s.stored());
  EXPECT_EQ(r.view().n, 0u);
  EXPECT_EQ(r.view().kind, ElementKind::kNone);
  EXPECT_EQ(rank_error(r.view(), false), 0.0);
  EXPECT_EQ(r.rank(1.0), 0.0);
}

TEST(Kll, SmallStreamIsExact) {
  Sketch s;
  for (int i = 1; i <= 100; ++i) s.add(i);
  Reader r(s.stored());
  EXPECT_TRUE(is_exact(r.view()));
  EXPECT_EQ(r.quantile(0.0), 1.0);
  EXPECT_EQ(r.quantile(0.5), 50.0);
  EXPECT_EQ(r.quantile(0.505), 51.0);
  EXPECT_EQ(r.quantile(1.0), 100.0);
  EXPECT_DOUBLE_EQ(r.rank(50), 0.5);
  EXPECT_EQ(r.rank(0.5), 0.0);
  EXPECT_EQ(r.rank(100), 1.0);
}

TEST(Kll, LargeStreamKeepsInvariants) {
  Sketch s(200);
  test::Random rnd(7);
  std::vector<double> values;
  for (int i = 0; i < 200000; ++i) {
    values.push_back(rnd.uniform() * 1000 - 500);
    s.add(values.back());
  }
  const std::vector<uint8_t> stored = s.stored();
  Reader r(stored);  // canonical parse: sorted levels, weights add up to n
  EXPECT_EQ(r.view().n, 200000u);
  EXPECT_LE(r.view().retained(), total_capacity(200, r.view().levels));
  std::sort(values.begin(), values.end());
  EXPECT_EQ(r.quantile(0), values.front());
  EXPECT_EQ(r.quantile(1), values.back());
  double previous = -INFINITY;
  for (int i = 0; i <= 1000; ++i) {
    const double q = r.quantile(i / 1000.0);
    EXPECT_GE(q, previous);
    EXPECT_GE(q, values.front());
    EXPECT_LE(q, values.back());
    previous = q;
  }
  EXPECT_GT(rank_error(r.view(), false), 0.0);
  EXPECT_NEAR(rank_error(r.view(), false), 2.296 / std::pow(200, 0.9723), 1e-12);
  EXPECT_NEAR(rank_error(r.view(), true), 2.446 / std::pow(200, 0.9433), 1e-12);
  EXPECT_NEAR(rank_error_at(r.view(), false, 0.99), rank_error(r.view(), false), 1e-12);
  EXPECT_LT(rank_error_at(r.view(), false, 0.9), rank_error(r.view(), false));
}

TEST(Kll, SameRowsSameBytes) {
  Sketch a(100), b(100);
  test::Random rnd(11);
  for (int i = 0; i < 50000; ++i) {
    const double v = rnd.normal();
    a.add(v);
    b.add(v);
  }
  EXPECT_EQ(a.stored(), b.stored());
  // A stored copy that goes on adding gives the same bytes as the original.
  Sketch c = Sketch::from_bytes(a.stored());
  for (int i = 0; i < 5000; ++i) {
    a.add(i);
    c.add(i);
  }
  EXPECT_EQ(a.stored(), c.stored());
}

TEST(Kll, WeightedAddIsBinaryDecomposition) {
  Sketch s(100);
  s.add(5.0, 6);  // levels 1 and 2
  Reader r(s.stored());
  EXPECT_EQ(r.view().n, 6u);
  EXPECT_EQ(r.view().retained(), 2u);
  EXPECT_EQ(r.view().levels, 3u);
  EXPECT_EQ(r.quantile(0.5), 5.0);
  Sketch big(100);
  big.add(1.0, (uint64_t{1} << 40) + 3);
  big.add(2.0, 1);
  Reader rb(big.stored());
  EXPECT_EQ(rb.view().n, (uint64_t{1} << 40) + 4);
  EXPECT_EQ(rb.quantile(0.9), 1.0);
  EXPECT_EQ(rb.quantile(1.0), 2.0);
}

TEST(Kll, WeightedMatchesRepeatsInDistribution) {
  Sketch s(200);
  test::Random rnd(5);
  std::vector<double> values;
  for (int i = 0; i < 20000; ++i) {
    const double v = rnd.uniform();
    const uint64_t w = 1 + rnd.below(50);
    s.add(v, w);
    for (uint64_t j = 0; j < w; ++j) values.push_back(v);
  }
  std::sort(values.begin(), values.end());
  Reader r(s.stored());
  EXPECT_EQ(r.view().n, values.size());
  for (int i = 1; i < 100; ++i) {
    const double v = values[values.size() * i / 100];
    EXPECT_NEAR(r.rank(v), test::true_rank(values, v), 2 * rank_error(r.view(), false));
  }
}

TEST(Kll, MergeKeepsSmallerK) {
  Sketch a(400), b(100);
  for (int i = 0; i < 30000; ++i) a.add(i);
  for (int i = 30000; i < 60000; ++i) b.add(i);
  ASSERT_TRUE(a.merge(b).is_ok());
  Reader r(a.stored());
  EXPECT_EQ(r.view().k, 100u);
  EXPECT_EQ(r.view().n, 60000u);
  EXPECT_EQ(r.quantile(0), 0);
  EXPECT_EQ(r.quantile(1), 59999);
  EXPECT_NEAR(r.rank(30000), 0.5, 2 * rank_error(r.view(), false));
}

TEST(Kll, MergeWithEmptyAndStored) {
  Sketch a, e;
  for (int i = 0; i < 1000; ++i) a.add(i);
  const std::vector<uint8_t> before = a.stored();
  ASSERT_TRUE(a.merge(e).is_ok());
  EXPECT_EQ(a.stored(), before);
  Sketch f;
  ASSERT_TRUE(f.merge_stored(before).is_ok());
  EXPECT_EQ(f.stored(), before);
}

TEST(Kll, MergeRefusesOtherKinds) {
  Sketch a(200, ElementKind::kFloat), b(200, ElementKind::kNumber);
  a.add(1.0);
  b.add_int(1);
  EXPECT_EQ(a.merge(b).code(), StatusCode::kMismatch);
}

TEST(Kll, IntegersKeepEveryBit) {
  Sketch s(200, ElementKind::kNumber);
  const int64_t big = (int64_t{1} << 62) + 1;
  s.add_int(big);
  s.add_int(big + 2);
  s.add_int(-big);
  Reader r(s.stored());
  EXPECT_EQ(r.quantile_int(0), -big);
  EXPECT_EQ(r.quantile_int(0.5), big);
  EXPECT_EQ(r.quantile_int(1), big + 2);
  EXPECT_DOUBLE_EQ(r.rank_int(big + 1), 2.0 / 3.0);
}

TEST(Kll, ParseRefusesInconsistentBytes) {
  Sketch s;
  for (int i = 0; i < 5000; ++i) s.add(i);
  const std::vector<uint8_t> good = s.stored();
  View v;
  ASSERT_TRUE(parse(good.data(), good.size(), Validation::kCanonical, &v).is_ok());
  // The working encoding is for aggregate states only.
  EXPECT_FALSE(parse(s.working().data(), s.working().size(), Validation::kCanonical, &v).is_ok());
  auto refused = [&](std::vector<uint8_t> b) {
    return !parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok();
  };
  for (size_t len : {size_t{0}, size_t{7}, size_t{47}, good.size() - 1}) {
    EXPECT_TRUE(refused(std::vector<uint8_t>(good.begin(), good.begin() + len))) << len;
  }
  std::vector<uint8_t> b = good;
  b[16] ^= 1;  // n no longer the items' weight
  EXPECT_TRUE(refused(b));
  b = good;
  uint32_t h = v.levels - 1;
  while (v.offset(h + 1) - v.offset(h) < 2) --h;
  const size_t first = detail::items_offset(v.level_slots) + 8 * size_t{v.offset(h)};
  std::swap_ranges(b.begin() + first, b.begin() + first + 8, b.begin() + first + 8);
  EXPECT_TRUE(refused(b)) << "level " << h << " out of order";
  b = good;
  std::copy(b.begin() + detail::kMinOffset, b.begin() + detail::kMinOffset + 8,
            b.begin() + detail::kMaxOffset);  // max = min: items above max
  EXPECT_TRUE(refused(b));
  b = good;
  b[8] = 1;  // k
  b[9] = 0;
  EXPECT_TRUE(refused(b));
  b = good;
  b[7] = static_cast<uint8_t>(ElementKind::kText);
  EXPECT_TRUE(refused(b));
  b = good;
  b[44] = 1;
  EXPECT_TRUE(refused(b));
}

}  // namespace
}  // namespace sketch::kll
