// topk core: the Misra-Gries bounds against exact counts, purges, merges
// (also across k), the stored form and its validation, overflow, aging.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "../../common/topk_test_util.h"
#include "core/common/scale.h"
#include "core/topk/topk_internal.h"

namespace sketch::topk {
namespace {

using test::HeldItem;
using test::item_hash;
using test::must_parse;
using test::Random;
using test::Summary;

using Counts = std::map<int64_t, uint64_t>;

// A skewed item: item i with probability ~ 1/(i+1) over `keys` keys.
int64_t skewed(Random& r, int64_t keys) {
  return static_cast<int64_t>(std::pow(static_cast<double>(keys), r.uniform())) - 1;
}

// Every item's true count lies within its bounds, items not held are below
// Δ, and Δ respects (N - Σc)/(k+1).
void expect_bounds(const std::vector<uint8_t>& stored, const Counts& truth) {
  const View v = must_parse(stored, Validation::kCanonical);
  uint64_t n = 0;
  for (const auto& [item, count] : truth) n += count;
  EXPECT_EQ(v.total, n);
  EXPECT_LE(v.count, v.k);
  EXPECT_LE(v.max_error, error_bound(v));
  std::map<uint64_t, int64_t> by_hash;
  for (const auto& [item, count] : truth) by_hash[item_hash(item)] = item;
  for (const HeldItem& h : Summary::items_of(stored)) {
    ASSERT_TRUE(by_hash.count(h.hash)) << h.text;
    const uint64_t f = truth.at(by_hash[h.hash]);
    EXPECT_LE(h.lower, f) << h.text;
    EXPECT_GE(h.upper, f) << h.text;
    by_hash.erase(h.hash);
  }
  for (const auto& [hash, item] : by_hash) EXPECT_LE(truth.at(item), v.max_error) << item;
}

TEST(TopkTest, ExactWhileAtMostKItems) {
  Summary s(16);
  Counts truth;
  for (int i = 0; i < 1000; i++) {
    const int64_t item = i % 16;
    s.add(item, 1 + item);
    truth[item] += 1 + item;
  }
  const std::vector<uint8_t> stored = s.stored();
  const View v = must_parse(stored, Validation::kCanonical);
  EXPECT_EQ(v.max_error, 0u);
  EXPECT_EQ(v.count, 16u);
  const std::vector<HeldItem> items = Summary::items_of(stored);
  EXPECT_EQ(items.front().text, "15");
  for (const HeldItem& h : items) EXPECT_EQ(h.lower, truth[std::stoll(h.text)]);
  // Each item's text was asked for once, when it entered.
  EXPECT_EQ(s.texts_made(), 16u);
}

TEST(TopkTest, BoundsHoldOnSkewedStreams) {
  for (uint32_t k : {1u, 2u, 8u, 64u}) {
    Random r(k);
    Summary s(k);
    Counts truth;
    for (int i = 0; i < 50000; i++) {
      const int64_t item = skewed(r, 5000);
      const uint64_t w = 1 + r.below(3);
      ASSERT_TRUE(s.add(item, w));
      truth[item] += w;
    }
    SCOPED_TRACE(k);
    expect_bounds(s.stored(), truth);
  }
}

TEST(TopkTest, HeavyItemsHeldFromTheStartAreExact) {
  // Items 0..4 arrive first and stay heavy: every purge lowers them by the
  // same t, so c + Δ is their true count.
  Summary s(32);
  Counts truth;
  Random r(7);
  for (int64_t item = 0; item < 5; item++) {
    s.add(item);
    truth[item]++;
  }
  for (int i = 0; i < 100000; i++) {
    const int64_t item = r.below(4) == 0 ? static_cast<int64_t>(r.below(5))
                                         : 5 + static_cast<int64_t>(r.below(100000));
    s.add(item);
    truth[item]++;
  }
  const std::vector<HeldItem> items = s.items();
  ASSERT_GE(items.size(), 5u);
  for (int i = 0; i < 5; i++) EXPECT_EQ(items[i].upper, truth[std::stoll(items[i].text)]);
  EXPECT_GT(must_parse(s.stored()).max_error, 0u);
}

TEST(TopkTest, MergesKeepTheBounds) {
  Random r(11);
  std::vector<Summary> parts;
  Counts truth;
  for (int p = 0; p < 9; p++) {
    parts.emplace_back(64);
    for (int i = 0; i < 10000; i++) {
      // Each part has its own heavy items besides the shared ones.
      const int64_t item = r.below(2) ? skewed(r, 2000) : 10000 * (p + 1) + skewed(r, 300);
      parts.back().add(item);
      truth[item]++;
    }
  }
  // A left fold, and a balanced tree, of stored and working inputs.
  Summary fold(64);
  for (const Summary& p : parts) ASSERT_TRUE(fold.merge(p).is_ok());
  expect_bounds(fold.stored(), truth);
  std::vector<Summary> level = parts;
  while (level.size() > 1) {
    std::vector<Summary> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2) {
      Summary m(level[i].bytes());
      ASSERT_TRUE(m.merge_bytes(level[i + 1].bytes()).is_ok());
      next.push_back(m);
    }
    if (level.size() % 2) next.push_back(level.back());
    level = next;
  }
  expect_bounds(level[0].stored(), truth);
}

TEST(TopkTest, DifferentKMergeAtTheSmallerK) {
  Random r(3);
  Summary big(256), small(16);
  Counts truth;
  for (int i = 0; i < 20000; i++) {
    const int64_t item = skewed(r, 3000);
    (i % 2 ? big : small).add(item);
    truth[item]++;
  }
  Summary a(big.stored());
  ASSERT_TRUE(a.merge(small).is_ok());
  Summary b(small.stored());
  ASSERT_TRUE(b.merge(big).is_ok());
  for (const Summary* m : {&a, &b}) {
    const std::vector<uint8_t> stored = m->stored();
    EXPECT_EQ(must_parse(stored).k, 16u);
    expect_bounds(stored, truth);
  }
}

TEST(TopkTest, StoredFormIsCanonical) {
  // Without purges the stored form is a function of the counts: any order
  // of the same adds gives the same bytes.
  Summary a(64), b(64);
  for (int64_t i = 0; i < 50; i++) a.add(i, i + 1);
  for (int64_t i = 49; i >= 0; i--) b.add(i, i + 1);
  EXPECT_EQ(a.stored(), b.stored());
  View v;
  EXPECT_TRUE(parse(a.stored().data(), a.stored().size(), Validation::kCanonical, &v).is_ok());
  // A working state is never accepted from outside.
  EXPECT_FALSE(parse(a.bytes().data(), a.bytes().size(), Validation::kCanonical, &v).is_ok());
  EXPECT_TRUE(parse(a.bytes().data(), a.bytes().size(), Validation::kStructure, &v).is_ok());
}

TEST(TopkTest, CanonicalValidationRefusesBrokenInvariants) {
  Summary s(8);
  for (int64_t i = 0; i < 5; i++) s.add(i, 10 * (i + 1));
  const std::vector<uint8_t> good = s.stored();
  auto refused = [](std::vector<uint8_t> bytes) {
    View v;
    return !parse(bytes.data(), bytes.size(), Validation::kCanonical, &v).is_ok();
  };
  EXPECT_FALSE(refused(good));
  std::vector<uint8_t> b = good;
  store_le64(b.data() + detail::kTotalOffset, 10);  // counters above N
  EXPECT_TRUE(refused(b));
  b = good;
  store_le64(b.data() + detail::kErrorOffset, 1000);  // Δ above N
  EXPECT_TRUE(refused(b));
  b = good;
  store_le64(b.data() + detail::kStoredRecordsOffset + 8, 0);  // a zero counter
  EXPECT_TRUE(refused(b));
  b = good;  // two records swapped: not in hash order
  std::swap_ranges(b.begin() + 32, b.begin() + 48, b.begin() + 52);
  EXPECT_TRUE(refused(b));
  b = good;
  b[kElementKindOffset] = 0;  // kUnknown: no topk was ever built without kinds
  EXPECT_TRUE(refused(b));
  b = good;
  store_le32(b.data() + detail::kKOffset, 4);  // more items than k
  EXPECT_TRUE(refused(b));
  b = good;
  b.pop_back();
  EXPECT_TRUE(refused(b));
  b = good;
  store_le32(b.data() + detail::kStoredRecordsOffset + 16, 4000);  // text past the end
  EXPECT_TRUE(refused(b));
  b = good;  // a one-byte text marked clipped
  store_le32(b.data() + detail::kStoredRecordsOffset + 16,
             load_le32(b.data() + detail::kStoredRecordsOffset + 16) | detail::kClippedBit);
  EXPECT_TRUE(refused(b));
  for (size_t len = 0; len < good.size(); len++) {
    View v;
    EXPECT_FALSE(parse(good.data(), len, Validation::kStructure, &v).is_ok()) << len;
  }
}

TEST(TopkTest, OverflowIsRefusedNotWrapped) {
  Summary s(4);
  ASSERT_TRUE(s.add(1, kMaxTotal - 1));
  EXPECT_TRUE(s.add(2, 1));
  EXPECT_FALSE(s.add(3, 1));
  EXPECT_EQ(must_parse(s.stored()).total, kMaxTotal);
  Summary t(4);
  t.add(5);
  EXPECT_EQ(t.merge(s).code(), StatusCode::kOverflow);
}

TEST(TopkTest, RadixSelectMatchesSorting) {
  Random r(5);
  for (int trial = 0; trial < 200; trial++) {
    const uint32_t n = 1 + static_cast<uint32_t>(r.below(300));
    std::vector<uint64_t> v(n);
    for (uint64_t& x : v) x = trial % 3 == 0 ? r.below(4) : r.next() >> r.below(64);
    const uint32_t rank = 1 + static_cast<uint32_t>(r.below(n));
    std::vector<uint64_t> sorted = v;
    std::sort(sorted.rbegin(), sorted.rend());
    EXPECT_EQ(radix_select<true>(n, rank, [&](uint32_t i) { return v[i]; }), sorted[rank - 1]);
  }
}

TEST(TopkTest, ExactFactorIsExact) {
  const ExactFactor half(0.5), one(1.0), tiny(1e-300);
  EXPECT_EQ(half.floor(7), 3u);
  EXPECT_EQ(half.ceil(7), 4u);
  EXPECT_EQ(one.floor(kMaxTotal), kMaxTotal);
  EXPECT_EQ(one.ceil(kMaxTotal), kMaxTotal);
  EXPECT_EQ(tiny.floor(kMaxTotal), 0u);
  EXPECT_EQ(tiny.ceil(kMaxTotal), 1u);
  // 0.1 is not 1/10: floor(0.1·10) is 1 only because the double 0.1 is
  // slightly above 1/10.
  EXPECT_EQ(ExactFactor(0.1).floor(10), 1u);
  EXPECT_EQ(ExactFactor(0.3).floor(10), 2u);  // the double 0.3 is below 3/10
}

TEST(TopkTest, ScalingKeepsTheBoundsOfTheScaledTruth) {
  Random r(9);
  Summary s(32);
  Counts truth;
  for (int i = 0; i < 30000; i++) {
    const int64_t item = skewed(r, 4000);
    s.add(item);
    truth[item]++;
  }
  const std::vector<uint8_t> stored = s.stored();
  const View v = must_parse(stored, Validation::kCanonical);
  for (double f : {1.0, 0.5, 0.37, 0.01}) {
    ASSERT_TRUE(check_scale_factor(f).is_ok());
    std::vector<uint8_t> scaled(scaled_size(v, f));
    write_scaled(v, f, scaled.data());
    const View w = must_parse(scaled, Validation::kCanonical);
    const ExactFactor x(f);
    EXPECT_EQ(w.total, x.floor(v.total));
    std::map<uint64_t, uint64_t> scaled_truth;
    for (const auto& [item, c] : truth) scaled_truth[item_hash(item)] = x.floor(c);
    for (const HeldItem& h : Summary::items_of(scaled)) {
      EXPECT_LE(h.lower, scaled_truth[h.hash]);
      EXPECT_GE(h.upper, scaled_truth[h.hash]);
      scaled_truth.erase(h.hash);
    }
    for (const auto& [hash, c] : scaled_truth) EXPECT_LE(c, w.max_error);
    if (f == 1.0) {
      EXPECT_EQ(scaled, stored);
    }
  }
  for (double bad : {0.0, -1.0, 1.5, std::nan("")})
    EXPECT_EQ(check_scale_factor(bad).code(), StatusCode::kInvalidParameter);
}

TEST(TopkTest, KOutOfRangeIsRefused) {
  EXPECT_TRUE(check_k(1).is_ok());
  EXPECT_TRUE(check_k(kMaxK).is_ok());
  EXPECT_EQ(check_k(0).code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(check_k(int64_t{kMaxK} + 1).code(), StatusCode::kInvalidParameter);
}

}  // namespace
}  // namespace sketch::topk
