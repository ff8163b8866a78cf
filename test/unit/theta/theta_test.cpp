// theta core: the sketch against its definition (the reference sketch of
// the set, byte for byte) whatever the order of adds and the merge tree,
// unions across lg_k, intersections and differences against the set algebra
// of the samples, the stored form and its validation, the working table
// (growth, rebuilds, its structure checks), bounds and Jaccard.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "../../common/theta_test_util.h"
#include "core/common/normal.h"

namespace sketch::theta {
namespace {

using test::difference;
using test::estimate_of;
using test::hashes_of;
using test::intersection;
using test::item_hash;
using test::must_parse;
using test::Random;
using test::reference;
using test::reference_of_retained;
using test::Sketch;
using test::stored_bytes;
using test::united;

std::vector<uint64_t> item_hashes(int64_t begin, int64_t end) {
  std::vector<uint64_t> out;
  for (int64_t i = begin; i < end; i++) out.push_back(item_hash(i));
  return out;
}

Sketch sketch_of(int lg_k, const std::vector<uint64_t>& hashes) {
  Sketch s(lg_k);
  for (uint64_t h : hashes) s.add_hash(h);
  return s;
}

std::vector<uint64_t> concat(std::vector<uint64_t> a, const std::vector<uint64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

bool refused(const std::vector<uint8_t>& bytes, Validation validation = Validation::kCanonical) {
  View v;
  return !parse(bytes.data(), bytes.size(), validation, &v).is_ok();
}

// --- the sketch is the KMV of the set ---------------------------------------

TEST(ThetaTest, ExactBelowK) {
  for (int lg_k : {4, 8, 12}) {
    const int64_t k = int64_t{1} << lg_k;
    for (int64_t n : {int64_t{0}, int64_t{1}, k / 2, k}) {
      Sketch s(lg_k);
      for (int64_t i = 0; i < 3 * n; i++) s.add(i % n);  // each item three times
      const std::vector<uint8_t> stored = s.stored();
      EXPECT_EQ(stored, reference(lg_k, item_hashes(0, n))) << lg_k << " " << n;
      const View v = must_parse(stored, Validation::kCanonical);
      EXPECT_EQ(v.theta, kThetaExact);
      EXPECT_EQ(v.count, static_cast<uint32_t>(n));
      EXPECT_EQ(estimate(v), double(n));
      const Bounds b = bounds(v, 0.95);
      EXPECT_EQ(b.lower, double(n));
      EXPECT_EQ(b.upper, double(n));
    }
  }
}

TEST(ThetaTest, OneMoreThanKSetsTheta) {
  const int lg_k = 6;
  const std::vector<uint64_t> hashes = item_hashes(0, 65);
  const std::vector<uint8_t> stored = sketch_of(lg_k, hashes).stored();
  EXPECT_EQ(stored, reference(lg_k, hashes));
  const View v = must_parse(stored, Validation::kCanonical);
  EXPECT_EQ(v.count, 64u);
  EXPECT_EQ(v.theta, test::retained(hashes).back());  // the 65th smallest
}

TEST(ThetaTest, StoredBytesIndependentOfOrderAndMergeTree) {
  const int lg_k = 8;
  Random r(1);
  std::vector<uint64_t> hashes = item_hashes(0, 6000);
  const std::vector<uint8_t> expected = reference(lg_k, hashes);
  EXPECT_EQ(must_parse(expected).count, 256u);

  // Orders: ascending items, descending with repeats, shuffled.
  EXPECT_EQ(sketch_of(lg_k, hashes).stored(), expected);
  std::vector<uint64_t> reversed(hashes.rbegin(), hashes.rend());
  EXPECT_EQ(sketch_of(lg_k, concat(reversed, reversed)).stored(), expected);
  std::vector<uint64_t> shuffled = hashes;
  for (size_t i = shuffled.size(); i > 1; i--) std::swap(shuffled[i - 1], shuffled[r.below(i)]);
  EXPECT_EQ(sketch_of(lg_k, shuffled).stored(), expected);

  // Parts: each hash to a random one of 13 (some share hashes too).
  std::vector<std::vector<uint64_t>> part_hashes(13);
  for (uint64_t h : hashes) {
    part_hashes[r.below(13)].push_back(h);
    if (r.below(5) == 0) part_hashes[r.below(13)].push_back(h);
  }
  std::vector<Sketch> parts;
  for (size_t p = 0; p < part_hashes.size(); p++) {
    parts.push_back(sketch_of(lg_k, part_hashes[p]));
    if (p % 3 == 0) parts.back() = Sketch(parts.back().stored());  // a stored input
  }
  // A left fold of stored inputs, and one of whatever bytes the parts hold.
  Sketch fold(lg_k);
  for (const Sketch& p : parts) ASSERT_TRUE(fold.merge(p).is_ok());
  EXPECT_EQ(fold.stored(), expected);
  Sketch fold_bytes(parts[5].bytes());
  for (size_t p = 0; p < parts.size(); p++) {
    if (p != 5) {
      ASSERT_TRUE(fold_bytes.merge_bytes(parts[p].bytes()).is_ok());
    }
  }
  EXPECT_EQ(fold_bytes.stored(), expected);
  // Random pairs until one is left; some results stored on the way.
  std::vector<Sketch> level = parts;
  while (level.size() > 1) {
    const size_t i = r.below(level.size());
    Sketch a = level[i];
    level.erase(level.begin() + i);
    const size_t j = r.below(level.size());
    const Sketch b = level[j];
    level.erase(level.begin() + j);
    ASSERT_TRUE((r.below(2) ? a.merge(b) : a.merge_bytes(b.bytes())).is_ok());
    if (r.below(4) == 0) a = Sketch(a.stored());
    level.push_back(a);
  }
  EXPECT_EQ(level[0].stored(), expected);
  // The set operation's union of stored sketches, folded.
  std::vector<uint8_t> u = parts[0].stored();
  for (size_t p = 1; p < parts.size(); p++) u = united(u, parts[p].stored());
  EXPECT_EQ(u, expected);
}

TEST(ThetaTest, UnionIsTheSketchOfTheUnion) {
  for (int lg_k : {4, 10, 12}) {
    // Overlapping sets, each above k or not.
    for (auto [a_end, b_begin, b_end] :
         {std::tuple<int64_t, int64_t, int64_t>{30000, 20000, 50000}, {100, 50, 400},
          {5000, 0, 5000}, {10, 20, 30}}) {
      const std::vector<uint64_t> a = item_hashes(0, a_end), b = item_hashes(b_begin, b_end);
      const std::vector<uint8_t> expected = reference(lg_k, concat(a, b));
      Sketch x = sketch_of(lg_k, a);
      const Sketch y = sketch_of(lg_k, b);
      ASSERT_TRUE(x.merge(y).is_ok());
      EXPECT_EQ(x.stored(), expected);
      EXPECT_EQ(united(sketch_of(lg_k, a).stored(), y.stored()), expected);
    }
  }
}

TEST(ThetaTest, DifferentLgKUniteAtTheSmaller) {
  struct Case {
    int64_t a_end, b_begin, b_end;
  };
  for (const Case& c : {Case{20000, 15000, 40000}, Case{3000, 100, 600}, Case{900, 800, 1000}}) {
    const std::vector<uint64_t> a = item_hashes(0, c.a_end), b = item_hashes(c.b_begin, c.b_end);
    const Sketch big = sketch_of(12, a), small = sketch_of(10, b);
    const std::vector<uint8_t> expected = reference(10, concat(a, b));
    Sketch x = big;
    ASSERT_TRUE(x.merge(small).is_ok());
    EXPECT_EQ(x.stored(), expected);
    Sketch y = small;
    ASSERT_TRUE(y.merge_bytes(big.bytes()).is_ok());  // a working lg_k 12 state into 10
    EXPECT_EQ(y.stored(), expected);
    EXPECT_EQ(united(big.stored(), small.stored()), expected);
    EXPECT_EQ(united(small.stored(), big.stored()), expected);
    // A union with an empty sketch folds to a smaller lg_k exactly.
    EXPECT_EQ(united(big.stored(), test::empty_stored(10)), reference(10, a));
  }
}

TEST(ThetaTest, MergePlansInPlaceAndNot) {
  const Sketch few = sketch_of(10, item_hashes(0, 5));
  const Sketch many = sketch_of(10, item_hashes(100, 3100));
  const Sketch stored_few(few.stored());
  const std::vector<uint8_t> many_stored = many.stored();
  const View many_view = must_parse(many_stored);
  // A small table with room: in place; without room: a new table.
  const View few_view = few.view();
  EXPECT_EQ(few_view.encoding, Encoding::kWorking);
  EXPECT_TRUE(plan_merge(few_view, must_parse(few.stored())).in_place);
  EXPECT_FALSE(plan_merge(few_view, many_view).in_place);
  // A full table: in place, whatever comes.
  EXPECT_EQ(many.view().capacity, detail::full_capacity(10));
  EXPECT_TRUE(plan_merge(many.view(), many_view).in_place);
  // Stored, or a larger lg_k than the result's: never in place.
  EXPECT_FALSE(plan_merge(must_parse(many_stored), few_view).in_place);
  const Sketch small_k = sketch_of(8, item_hashes(0, 5));
  EXPECT_FALSE(plan_merge(few_view, small_k.view()).in_place);
  EXPECT_EQ(plan_merge(few_view, small_k.view()).lg_k, 8);
  // Each path gives the sketch of the union; a lower θ from b sweeps a's
  // table in place.
  auto set_of = [&](const Sketch* s) {
    return s == &many ? item_hashes(100, 3100) : item_hashes(0, 5);
  };
  for (const Sketch* start : {&few, &many, &stored_few}) {
    for (const Sketch* other : {&few, &many}) {
      Sketch s = *start;
      ASSERT_TRUE(s.merge(*other).is_ok());
      EXPECT_EQ(s.stored(), reference(10, concat(set_of(start), set_of(other))));
    }
  }
  Sketch full = sketch_of(10, item_hashes(0, 2000));  // θ above many's
  const uint64_t before = full.view().theta;
  ASSERT_LT(many_view.theta, before);
  ASSERT_TRUE(full.merge_bytes(many_stored).is_ok());
  EXPECT_EQ(full.view().theta, many_view.theta);
  EXPECT_EQ(full.stored(), reference(10, concat(item_hashes(0, 2000), item_hashes(100, 3100))));
}

// --- intersection and difference ---------------------------------------------

// The expected result by the set algebra of the samples: θ = min, the
// hashes below it kept by `keep`, at the smaller k (trimmed when more).
template <class Keep>
std::vector<uint8_t> expected_op(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                                 Keep keep) {
  const View va = must_parse(a), vb = must_parse(b);
  const int lg_k = std::min(va.lg_k, vb.lg_k);
  uint64_t theta = std::min(va.theta, vb.theta);
  const std::vector<uint64_t> ha = hashes_of(a), hb = hashes_of(b);
  const std::set<uint64_t> sa(ha.begin(), ha.end()), sb(hb.begin(), hb.end());
  std::set<uint64_t> all = sa;
  all.insert(sb.begin(), sb.end());
  std::vector<uint64_t> kept;
  for (uint64_t h : all)
    if (h < theta && keep(sa.count(h) > 0, sb.count(h) > 0)) kept.push_back(h);
  const size_t k = size_t{1} << lg_k;
  if (kept.size() > k) {
    theta = kept[k];
    kept.resize(k);
  }
  return stored_bytes(lg_k, theta, kept);
}

const auto kBoth = [](bool in_a, bool in_b) { return in_a && in_b; };
const auto kOnlyA = [](bool in_a, bool in_b) { return in_a && !in_b; };

TEST(ThetaTest, IntersectionAndDifferenceExactInExactMode) {
  const std::vector<uint64_t> a = item_hashes(0, 300), b = item_hashes(200, 500);
  const std::vector<uint8_t> sa = sketch_of(12, a).stored(), sb = sketch_of(12, b).stored();
  const std::vector<uint8_t> both = intersection(sa, sb), only_a = difference(sa, sb);
  EXPECT_EQ(both, reference(12, item_hashes(200, 300)));
  EXPECT_EQ(only_a, reference(12, item_hashes(0, 200)));
  EXPECT_EQ(estimate_of(both), 100.0);
  EXPECT_EQ(estimate_of(only_a), 200.0);
  const Bounds bb = bounds(must_parse(both), 0.99);
  EXPECT_EQ(bb.lower, 100.0);
  EXPECT_EQ(bb.upper, 100.0);
  // Disjoint, identical, empty.
  const std::vector<uint8_t> sc = sketch_of(12, item_hashes(1000, 1100)).stored();
  EXPECT_EQ(estimate_of(intersection(sa, sc)), 0.0);
  EXPECT_EQ(difference(sa, sc), sa);
  EXPECT_EQ(intersection(sa, sa), sa);
  EXPECT_EQ(estimate_of(difference(sa, sa)), 0.0);
  const std::vector<uint8_t> empty = test::empty_stored(12);
  EXPECT_EQ(intersection(sa, empty), empty);
  EXPECT_EQ(difference(empty, sa), empty);
  EXPECT_EQ(difference(sa, empty), sa);
}

TEST(ThetaTest, IntersectionAndDifferenceMatchTheSamples) {
  struct Case {
    int lg_a, lg_b;
    int64_t a_end, b_begin, b_end;
  };
  for (const Case& c : {Case{10, 10, 20000, 10000, 30000}, Case{10, 10, 5000, 0, 50000},
                        Case{12, 8, 20000, 19000, 21000}, Case{8, 12, 3000, 1000, 40000},
                        Case{12, 4, 20000, 0, 10}, Case{10, 10, 20000, 20000, 40000},
                        Case{6, 6, 100, 50, 150}}) {
    SCOPED_TRACE(testing::Message() << c.lg_a << " " << c.lg_b << " " << c.a_end << " "
                                    << c.b_begin << " " << c.b_end);
    const std::vector<uint8_t> sa = sketch_of(c.lg_a, item_hashes(0, c.a_end)).stored();
    const std::vector<uint8_t> sb = sketch_of(c.lg_b, item_hashes(c.b_begin, c.b_end)).stored();
    const std::vector<uint8_t> both = intersection(sa, sb), only_a = difference(sa, sb);
    EXPECT_EQ(both, expected_op(sa, sb, kBoth));
    EXPECT_EQ(only_a, expected_op(sa, sb, kOnlyA));
    must_parse(both, Validation::kCanonical);
    must_parse(only_a, Validation::kCanonical);
    // Unions of results are theta sketches too.
    must_parse(united(both, only_a), Validation::kCanonical);
    // In place, into a's own bytes (and b's for the intersection).
    for (int into = 0; into < 3; into++) {
      std::vector<uint8_t> buffer = into == 1 ? sb : sa;
      const View self = must_parse(buffer);
      const View other = must_parse(into == 1 ? sa : sb);
      size_t size;
      if (into == 2) {
        size = a_not_b_size(self, other);
        write_a_not_b(self, other, buffer.data());
      } else {
        size = intersect_size(self, other);
        write_intersect(self, other, buffer.data());
      }
      buffer.resize(size);
      buffer[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kNone);
      EXPECT_EQ(buffer, into == 2 ? only_a : both) << into;
    }
  }
  // a \ b trimmed to the smaller k is the sketch of A \ B at that k (b
  // exact: every hash of A \ B below θa is known).
  const std::vector<uint8_t> sa = sketch_of(12, item_hashes(0, 20000)).stored();
  const std::vector<uint8_t> sb = sketch_of(4, item_hashes(0, 10)).stored();
  EXPECT_EQ(difference(sa, sb), reference(4, item_hashes(10, 20000)));
}

// --- the stored form and validation ----------------------------------------------

TEST(ThetaTest, ValidationRefusesBrokenInvariants) {
  const std::vector<uint8_t> good = sketch_of(4, item_hashes(0, 100)).stored();
  const View v = must_parse(good, Validation::kCanonical);
  ASSERT_EQ(v.count, 16u);
  ASSERT_LT(v.theta, kThetaExact);
  const std::vector<uint64_t> h = hashes_of(good);
  EXPECT_FALSE(refused(good));
  EXPECT_FALSE(refused(good, Validation::kStructure));
  auto with = [&](std::vector<uint64_t> hashes, uint64_t theta = 0, int lg_k = 4) {
    return stored_bytes(lg_k, theta ? theta : v.theta, hashes);
  };
  EXPECT_FALSE(refused(with(h)));
  std::vector<uint64_t> swapped = h;
  std::swap(swapped[3], swapped[4]);
  EXPECT_TRUE(refused(with(swapped)));  // not ascending
  std::vector<uint64_t> repeated = h;
  repeated[4] = repeated[3];
  EXPECT_TRUE(refused(with(repeated)));  // not strictly ascending
  std::vector<uint64_t> zero = h;
  zero[0] = 0;
  EXPECT_TRUE(refused(with(zero)));
  EXPECT_TRUE(refused(with(h, h.back())));  // the last hash at θ
  EXPECT_FALSE(refused(with(h, h.back() + 1)));
  std::vector<uint64_t> seventeen = h;
  seventeen.push_back(v.theta);
  EXPECT_TRUE(refused(with(seventeen, v.theta + 1)));  // count > k
  EXPECT_TRUE(refused(with(seventeen, v.theta + 1), Validation::kStructure));
  EXPECT_FALSE(refused(with(seventeen, v.theta + 1, 5)));  // fine at lg_k 5
  std::vector<uint8_t> b = good;
  store_le64(b.data() + detail::kThetaOffset, 0);
  EXPECT_TRUE(refused(b));
  EXPECT_TRUE(refused(b, Validation::kStructure));
  store_le64(b.data() + detail::kThetaOffset, kThetaExact + 1);
  EXPECT_TRUE(refused(b));
  EXPECT_TRUE(refused(b, Validation::kStructure));
  store_le64(b.data() + detail::kThetaOffset, kThetaExact);  // exact mode: fine
  EXPECT_FALSE(refused(b));
  for (uint8_t lg_k : {0, 3, 25, 255}) {
    b = good;
    b[5] = lg_k;
    EXPECT_TRUE(refused(b)) << int(lg_k);
    EXPECT_TRUE(refused(b, Validation::kStructure)) << int(lg_k);
  }
  b = good;
  b[kElementKindOffset] = 0;  // kUnknown: no theta was ever built without kinds
  EXPECT_TRUE(refused(b));
  EXPECT_TRUE(refused(b, Validation::kStructure));
  b[kElementKindOffset] = 16;  // no such kind
  EXPECT_TRUE(refused(b));
  b = good;
  b[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kText);
  EXPECT_FALSE(refused(b));
  b = good;
  store_le32(b.data() + detail::kReservedOffset, 1);
  EXPECT_TRUE(refused(b));
  b = good;
  b[6] = 3;  // no such encoding
  EXPECT_TRUE(refused(b, Validation::kStructure));
  b = good;
  b[3] = 2;  // a later format version
  EXPECT_TRUE(refused(b));
  b = good;
  b.push_back(0);
  EXPECT_TRUE(refused(b));
  EXPECT_TRUE(refused(b, Validation::kStructure));
  for (size_t len = 0; len < good.size(); len++) {
    View w;
    EXPECT_FALSE(parse(good.data(), len, Validation::kStructure, &w).is_ok()) << len;
    EXPECT_FALSE(parse(good.data(), len, Validation::kCanonical, &w).is_ok()) << len;
  }
  // Results of intersections: fewer than k below a θ under 2^63, any count.
  EXPECT_FALSE(refused(with({h[0], h[5]})));
  EXPECT_FALSE(refused(with({})));
}

TEST(ThetaTest, WorkingStatesAreNotCanonicalAndAreChecked) {
  Sketch s(6);
  for (int64_t i = 0; i < 200; i++) s.add(i);
  const std::vector<uint8_t> working = s.bytes();
  const View v = must_parse(working);
  ASSERT_EQ(v.encoding, Encoding::kWorking);
  ASSERT_LT(v.theta, kThetaExact);
  EXPECT_TRUE(refused(working, Validation::kCanonical));
  EXPECT_TRUE(is_working_state(working.data(), working.size()));
  const std::vector<uint8_t> stored = s.stored();
  EXPECT_FALSE(is_working_state(stored.data(), stored.size()));

  std::vector<uint8_t> b = working;
  store_le32(b.data() + detail::kCountOffset, v.count + 1);  // count lies
  EXPECT_TRUE(refused(b, Validation::kStructure));
  store_le32(b.data() + detail::kCountOffset, detail::load_limit(v.capacity) + 1);
  EXPECT_FALSE(is_working_state(b.data(), b.size()));
  b = working;
  b.resize(b.size() - 8);
  EXPECT_TRUE(refused(b, Validation::kStructure));
  EXPECT_FALSE(is_working_state(b.data(), b.size()));
  b = working;
  b[kElementKindOffset] = 0;
  EXPECT_FALSE(is_working_state(b.data(), b.size()));
  EXPECT_TRUE(refused(b, Validation::kStructure));
  b = working;
  store_le32(b.data() + detail::kCapacityOffset, v.capacity / 2);
  EXPECT_FALSE(is_working_state(b.data(), b.size()));
  EXPECT_TRUE(refused(b, Validation::kStructure));
  b = working;
  store_le64(b.data() + detail::kThetaOffset, 0);
  EXPECT_FALSE(is_working_state(b.data(), b.size()));
  EXPECT_TRUE(refused(b, Validation::kStructure));
  // A slot at or above θ.
  uint32_t occupied = 0;
  while (detail::hash_at(working.data(), occupied) == 0) occupied++;
  b = working;
  detail::set_hash(b.data(), occupied, v.theta);
  EXPECT_TRUE(refused(b, Validation::kStructure));
  // A hash moved to where a lookup would not find it: just after an empty
  // slot, away from its home.
  const uint32_t mask = v.capacity - 1;
  const uint64_t h = detail::hash_at(working.data(), occupied);
  bool moved = false;
  for (uint32_t to = 0; to < v.capacity && !moved; to++) {
    if (detail::hash_at(working.data(), to) != 0 ||
        detail::hash_at(working.data(), (to + mask) & mask) != 0 ||
        (static_cast<uint32_t>(h) & mask) == to)
      continue;
    b = working;
    detail::set_hash(b.data(), occupied, 0);
    detail::set_hash(b.data(), to, h);
    EXPECT_TRUE(refused(b, Validation::kStructure)) << occupied << " -> " << to;
    moved = true;
  }
  EXPECT_TRUE(moved);
}

// --- the working table ----------------------------------------------------

TEST(ThetaTest, TablesGrowToTwiceKThenRebuild) {
  const int lg_k = 10;
  Sketch s(lg_k);
  EXPECT_EQ(s.view().capacity, 16u);
  size_t growths = 0;
  std::vector<uint32_t> capacities;
  for (int64_t i = 0; i < 20000; i++) {
    const size_t g = s.add(i);
    if (g) capacities.push_back(s.view().capacity);
    growths += g;
    ASSERT_LE(s.view().count, detail::load_limit(s.view().capacity));
  }
  // 16 -> 32 -> ... -> 2048 = 2k: seven growths, the last one the full size.
  EXPECT_EQ(growths, 7u);
  EXPECT_EQ(capacities, (std::vector<uint32_t>{32, 64, 128, 256, 512, 1024, 2048}));
  EXPECT_EQ(s.view().capacity, detail::full_capacity(lg_k));
  EXPECT_LT(s.view().theta, kThetaExact);  // rebuilt
  EXPECT_EQ(s.stored(), reference(lg_k, item_hashes(0, 20000)));
}

TEST(ThetaTest, CollidingHomesProbeAndRebuildCorrectly) {
  // Every hash with the same low bits: one long run of occupied slots,
  // which every insert probes and every rebuild takes apart; the table's
  // structure check (reachability from each home) runs after every add.
  for (int lg_k : {4, 6}) {
    Random r(lg_k);
    Sketch s(lg_k);
    std::vector<uint64_t> hashes;
    for (int i = 0; i < 2000; i++) {
      const uint64_t h = ((r.next() >> 1) & ~uint64_t{0x7f}) | (i % 3 == 0 ? 0x15 : 0x2a);
      const uint64_t hash = (h << 1) | (r.next() & 1);
      hashes.push_back(hash);
      s.add_hash(hash);
      if (i % 7 == 0) s.add_hash(hashes[r.below(hashes.size())]);  // a repeat
      ASSERT_NO_THROW(must_parse(s.bytes())) << i;
    }
    EXPECT_EQ(s.stored(), reference(lg_k, hashes));
  }
}

TEST(ThetaTest, SweepsKeepEveryHashFindable) {
  // Tables with clustered homes swept at random thresholds: the survivors
  // are exactly the hashes below θ, and the structure check (each hash in
  // the run of its home slot) passes.
  Random r(17);
  for (int trial = 0; trial < 500; trial++) {
    const uint32_t capacity = 16u << r.below(4);
    std::vector<uint8_t> state(detail::working_bytes(capacity));
    detail::write_working_empty(state.data(), 8, capacity, kThetaExact, ElementKind::kNone,
                                kHashIdentity);
    std::set<uint64_t> held;
    const uint32_t n = static_cast<uint32_t>(r.below(detail::load_limit(capacity) + 1));
    while (held.size() < n) {
      uint64_t h = r.next() >> 1;
      if (trial % 2 == 0) h = (h & ~uint64_t{0xf}) | r.below(3);  // three homes
      if (h == 0) continue;
      ASSERT_EQ(detail::insert(state.data(), h), AddOutcome::kDone);
      held.insert(h);
    }
    const uint64_t theta = 1 + (r.next() >> 1);
    detail::sweep_below(state.data(), theta);
    const View v = must_parse(state);
    std::set<uint64_t> left;
    detail::for_each_hash(v, [&](uint64_t h) { left.insert(h); });
    std::set<uint64_t> expected(held.begin(), held.lower_bound(theta));
    EXPECT_EQ(left, expected) << trial;
    EXPECT_EQ(v.theta, theta);
    for (uint64_t h : expected) {  // each found: inserting it again changes nothing
      ASSERT_EQ(detail::insert(state.data(), h), AddOutcome::kDone);
      ASSERT_EQ(must_parse(state).count, expected.size());
    }
  }
}

TEST(ThetaTest, HashZeroIsSkipped) {
  Sketch s(4);
  s.add_hash(0);
  s.add_hash(1);  // h = 1 >> 1 = 0
  EXPECT_EQ(must_parse(s.stored()).count, 0u);
  s.add_hash(2);  // h = 1
  s.add_hash(3);  // h = 1 again
  EXPECT_EQ(hashes_of(s.stored()), std::vector<uint64_t>{1});
  EXPECT_EQ(retained_hash(~uint64_t{0}), kThetaExact - 1);
}

TEST(ThetaTest, SizesStayDumpable) {
  EXPECT_EQ(empty_size(), 24u);
  EXPECT_EQ(stored_size(3), 48u);
  EXPECT_EQ(new_working_size(12), 24u + 16 * 8);
  EXPECT_LT(detail::working_bytes(detail::full_capacity(kMaxLgK)), kMaxDumpableBytes);
  EXPECT_GT(detail::working_bytes(detail::full_capacity(kMaxLgK + 1)), kMaxDumpableBytes);
  EXPECT_TRUE(check_lg_k(kMinLgK).is_ok());
  EXPECT_TRUE(check_lg_k(kMaxLgK).is_ok());
  EXPECT_EQ(check_lg_k(kMinLgK - 1).code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(check_lg_k(kMaxLgK + 1).code(), StatusCode::kInvalidParameter);
  EXPECT_TRUE(check_confidence(0.95).is_ok());
  for (double bad : {0.0, 1.0, -0.5, 2.0, std::nan("")})
    EXPECT_EQ(check_confidence(bad).code(), StatusCode::kInvalidParameter);
}

TEST(ThetaTest, RthSmallestAndSortMatchStdSort) {
  Random r(5);
  for (int trial = 0; trial < 300; trial++) {
    const uint32_t n = 1 + static_cast<uint32_t>(r.below(trial % 10 == 0 ? 20000 : 400));
    std::vector<uint64_t> v(n);
    for (uint64_t& x : v) {
      x = trial % 3 == 0 ? r.below(5) : (r.next() >> 1) >> r.below(63);
      if (r.below(4) == 0) x = 0;  // empty slots
    }
    std::vector<uint64_t> nonzero;
    for (uint64_t x : v)
      if (x) nonzero.push_back(x);
    std::sort(nonzero.begin(), nonzero.end());
    if (!nonzero.empty()) {
      const uint32_t rank = 1 + static_cast<uint32_t>(r.below(nonzero.size()));
      EXPECT_EQ(radix_select<false>(n, rank, [&](uint32_t i) { return v[i]; }),
                nonzero[rank - 1]);
    }
    std::vector<uint8_t> bytes(8 * n);
    for (uint32_t i = 0; i < n; i++) store_le64(bytes.data() + 8 * i, v[i]);
    detail::sort_hashes(bytes.data(), n);
    std::sort(v.begin(), v.end());
    for (uint32_t i = 0; i < n; i++) ASSERT_EQ(load_le64(bytes.data() + 8 * i), v[i]);
  }
}

// --- estimates, bounds, Jaccard ---------------------------------------------

TEST(ThetaTest, BoundsSolveTheQuadratic) {
  const double z = two_sided_z(0.95);
  for (uint64_t count : {0u, 1u, 7u, 100u, 4096u}) {
    for (uint64_t theta : {kThetaExact / 3, kThetaExact / 1000, uint64_t{1} << 40}) {
      const Bounds b = count_bounds(count, theta, z);
      const double p = std::ldexp(double(theta), -63), q = 1 - p, c = double(count);
      const double est = c / p;
      EXPECT_LE(b.lower, est);
      EXPECT_GE(b.upper, est);
      EXPECT_GE(b.lower, c);
      // Both ends solve (c - n p)^2 = z^2 n p q (the lower one unless
      // raised to c).
      auto residual = [&](double n) {
        return ((c - n * p) * (c - n * p) - z * z * n * p * q) / std::max(1.0, c * c);
      };
      EXPECT_NEAR(residual(b.upper), 0.0, 1e-6) << count << " " << theta;
      if (b.lower > c) {
        EXPECT_NEAR(residual(b.lower), 0.0, 1e-6) << count << " " << theta;
      }
      if (count == 0) {
        EXPECT_EQ(b.lower, 0.0);
        EXPECT_NEAR(b.upper, z * z * q / p, 1e-9 * b.upper);
      }
    }
  }
}

TEST(ThetaTest, BoundsCoverExactAnswersInExactMode) {
  for (int64_t n : {0, 1, 10, 1000, 4096}) {
    const std::vector<uint8_t> s = sketch_of(12, item_hashes(0, n)).stored();
    for (double confidence : {0.5, 0.95, 0.999}) {
      const Bounds b = bounds(must_parse(s), confidence);
      EXPECT_EQ(b.lower, double(n));
      EXPECT_EQ(b.upper, double(n));
    }
  }
  // In estimation mode the interval holds the estimate and widens with
  // the confidence.
  const View v = must_parse(sketch_of(10, item_hashes(0, 100000)).stored());
  const Bounds b90 = bounds(v, 0.90), b99 = bounds(v, 0.99);
  EXPECT_LT(b99.lower, b90.lower);
  EXPECT_GT(b99.upper, b90.upper);
  EXPECT_LT(b90.lower, estimate(v));
  EXPECT_GT(b90.upper, estimate(v));
  EXPECT_LT(b99.lower, 100000.0);
  EXPECT_GT(b99.upper, 100000.0);
}

TEST(ThetaTest, Jaccard) {
  const std::vector<uint8_t> a = sketch_of(12, item_hashes(0, 100)).stored();
  const std::vector<uint8_t> b = sketch_of(12, item_hashes(50, 150)).stored();
  Similarity s = jaccard(must_parse(a), must_parse(b), 0.95);
  EXPECT_TRUE(s.defined);
  EXPECT_TRUE(s.exact);
  EXPECT_EQ(s.sample, 150u);
  EXPECT_EQ(s.shared, 50u);
  EXPECT_DOUBLE_EQ(s.estimate, 1.0 / 3);
  EXPECT_EQ(s.lower, s.estimate);
  EXPECT_EQ(s.upper, s.estimate);
  const std::vector<uint8_t> empty = test::empty_stored(12);
  EXPECT_FALSE(jaccard(must_parse(empty), must_parse(empty), 0.95).defined);
  s = jaccard(must_parse(a), must_parse(empty), 0.95);
  EXPECT_TRUE(s.defined);
  EXPECT_EQ(s.estimate, 0.0);
  // Exact inputs whose union holds more than k: a sample of k.
  const std::vector<uint8_t> c = sketch_of(12, item_hashes(0, 4000)).stored();
  const std::vector<uint8_t> d = sketch_of(12, item_hashes(2000, 6000)).stored();
  s = jaccard(must_parse(c), must_parse(d), 0.95);
  EXPECT_FALSE(s.exact);
  EXPECT_EQ(s.sample, 4096u);
  EXPECT_LT(s.lower, 1.0 / 3);
  EXPECT_GT(s.upper, 1.0 / 3);
  // Estimation mode, different lg_k; identical sketches.
  const std::vector<uint8_t> e = sketch_of(12, item_hashes(0, 100000)).stored();
  const std::vector<uint8_t> f = sketch_of(10, item_hashes(50000, 150000)).stored();
  s = jaccard(must_parse(e), must_parse(f), 0.99);
  EXPECT_EQ(s.sample, 1024u);
  EXPECT_LT(s.lower, 1.0 / 3);
  EXPECT_GT(s.upper, 1.0 / 3);
  s = jaccard(must_parse(e), must_parse(e), 0.95);
  EXPECT_EQ(s.estimate, 1.0);
  EXPECT_EQ(s.shared, 4096u);
  EXPECT_EQ(s.upper, 1.0);
  // The Wilson interval at the extremes stays within [0, 1].
  const Bounds w0 = wilson_interval(0, 10, 1.96), w1 = wilson_interval(10, 10, 1.96);
  EXPECT_EQ(w0.lower, 0.0);
  EXPECT_GT(w0.upper, 0.0);
  EXPECT_LT(w1.lower, 1.0);
  EXPECT_EQ(w1.upper, 1.0);
}

TEST(ThetaTest, EstimatesOfLargeSetsAreClose) {
  // One sketch per size: within 5 standard errors (RSE ≈ 1/sqrt(k - 1)).
  for (int64_t n : {5000, 50000, 200000}) {
    const double e = sketch_of(10, item_hashes(0, n)).estimate();
    EXPECT_NEAR(e / double(n), 1.0, 5 / std::sqrt(1023.0)) << n;
  }
}

}  // namespace
}  // namespace sketch::theta
