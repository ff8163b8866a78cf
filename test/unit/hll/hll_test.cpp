// HyperLogLog building, promotion, union, folding and estimates.
//
// The central property: however a sketch is put together -- insertion
// order, sparse or dense, unions in any grouping, built at a high precision
// and folded down -- its canonical bytes equal those of one sketch built
// directly from the same set of hashes at the final precision. Byte equality
// is stricter than equal estimates and is what GROUP BY rollups rely on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/hll/hll_internal.h"
#include "core/common/normal.h"
#include "hll_test_util.h"

namespace sketch::hll {
namespace {

using test::Sketch;
using test::stream;
using test::stream_hash;

constexpr uint64_t kSeed = 20240601;

// A half-open range [begin, end) of stream kSeed; ranges may overlap.
struct Range {
  uint64_t begin;
  uint64_t end;
};

Sketch build(int p, std::initializer_list<Range> ranges) {
  Sketch s(p);
  for (const Range& r : ranges) s.add_all(stream(kSeed, r.begin, r.end));
  return s;
}

std::string describe(const Sketch& s) {
  return "p=" + std::to_string(s.p()) + " " + encoding_name(s.encoding()) +
         (s.encoding() == Encoding::kDense ? "" : " count=" + std::to_string(s.count()));
}

// --- building and promotion -------------------------------------------------

TEST(HllBuild, EmptySketchIsAnEmptySparseList) {
  const Sketch s(14);
  EXPECT_EQ(s.encoding(), Encoding::kSparseSet);
  const std::vector<uint8_t> c = s.canonical();
  ASSERT_EQ(c.size(), sparse_size(0));
  std::vector<uint8_t> expected(sparse_size(0));
  write_empty(expected.data(), 14);
  EXPECT_EQ(c, expected);
}

// The stored layout, byte for byte, for two hand-made entries: pins the
// on-disk format so a change to it cannot pass unnoticed.
TEST(HllBuild, CanonicalSparseLayout) {
  Sketch s(12);
  s.add(test::hash_with_entry(0x2000001, 3));  // inserted out of order
  s.add(test::hash_with_entry(5, 1));
  s.add(test::hash_with_entry(5, 7));  // same index, larger rank wins
  const std::vector<uint8_t> expected = {
      'S', 'K', 1, 1, 1, 12, 1, 0xff,           // header: hll v1, hash 1, p, sparse, kind none
      2, 0, 0, 0,                               // count
      0x47, 0x01, 0x00, 0x00,                   // entry (5 << 6 | 7)
      0x43, 0x00, 0x00, 0x80,                   // entry (0x2000001 << 6 | 3)
  };
  EXPECT_EQ(s.canonical(), expected);
}

TEST(HllBuild, PromotionHappensExactlyAboveMaxSparseEntries) {
  for (int p : {4, 10, 14}) {
    SCOPED_TRACE("p=" + std::to_string(p));
    const uint32_t limit = max_sparse_entries(p);
    const std::vector<uint64_t> hashes = stream(kSeed + p, 0, limit + 50);
    Sketch s(p);
    std::set<uint32_t> indexes;
    for (size_t i = 0; i < hashes.size(); i++) {
      s.add(hashes[i]);
      indexes.insert(static_cast<uint32_t>(hashes[i] >> (64 - kSparsePrecision)));
      const bool want_dense = indexes.size() > limit;
      ASSERT_EQ(s.encoding() == Encoding::kDense, want_dense) << "after " << i + 1 << " adds";
      if (!want_dense) {
        ASSERT_EQ(s.count(), indexes.size());
      }
    }
    // Dense after promotion equals everything inserted into dense directly.
    Sketch direct = Sketch::empty_dense(p);
    direct.add_all(hashes);
    EXPECT_EQ(s.bytes(), direct.bytes());
  }
}

// The raw API: kNeedsDense comes from the add that would create entry
// limit + 1, and leaves the set untouched.
TEST(HllBuild, NeedsDenseLeavesTheFullSetUnchanged) {
  const int p = 10;
  const uint32_t limit = max_sparse_entries(p);
  const uint32_t capacity = set_capacity_for(limit);
  std::vector<uint8_t> buf(sparse_set_size(capacity));
  write_empty_set(buf.data(), p, capacity);
  for (uint32_t i = 0; i < limit; i++)
    ASSERT_EQ(add_hash(buf.data(), test::hash_with_entry(i * 7, 2)), AddOutcome::kDone);
  const std::vector<uint8_t> before = buf;
  EXPECT_EQ(add_hash(buf.data(), test::hash_with_entry(123456, 1)), AddOutcome::kNeedsDense);
  EXPECT_EQ(buf, before);
  // An existing index with a larger rank is no new entry: still sparse.
  EXPECT_EQ(add_hash(buf.data(), test::hash_with_entry(7, 30)), AddOutcome::kDone);
  View v;
  ASSERT_TRUE(test::parse_bytes(buf, Validation::kStructure, &v).is_ok());
  EXPECT_EQ(v.count, limit);
  EXPECT_TRUE(v.encoding == Encoding::kSparseSet);
}

// A stored value used as an aggregate state (an INITCOND, a direct call's
// argument, a partial state that went through text): state::to_working
// copies a stored sparse list into a working set instead of writing it in
// place (issue 9: add_hash on the list itself wrote past its end); a dense
// sketch already is a working state and takes the values in place. Either
// way the values end up as if added from the start.
TEST(HllBuild, StoredSketchUsedAsAStateTakesMoreValues) {
  for (int p : {4, 10, 14}) {
    for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{5}, uint64_t{max_sparse_entries(p)},
                       uint64_t{3} * register_count(p)}) {
      SCOPED_TRACE("p=" + std::to_string(p) + " n=" + std::to_string(n));
      const Sketch built = build(p, {{0, n}});
      Sketch state = Sketch::from_bytes(built.canonical(), Validation::kCanonical);
      state.add_all(stream(kSeed, n, n + 40));
      EXPECT_NE(state.encoding(), Encoding::kSparse);
      EXPECT_EQ(state.canonical(), build(p, {{0, n + 40}}).canonical());
    }
  }
}

// The aggregate's per-row add raises dense registers inline (Family::add)
// instead of calling add_hash: the two must leave the same bytes, including
// the extreme ranks (a rest of all zeros, a rest with only its last bit set).
TEST(HllBuild, InlineDenseAddEqualsAddHash) {
  std::mt19937_64 rng(kSeed);
  for (int p : {kMinPrecision, 10, kDefaultPrecision, kMaxPrecision}) {
    SCOPED_TRACE("p=" + std::to_string(p));
    std::vector<uint8_t> inline_add(dense_size(p)), called(dense_size(p));
    std::vector<uint8_t> empty(sparse_size(0));
    write_empty(empty.data(), p);
    View v;
    ASSERT_TRUE(test::parse_bytes(empty, Validation::kStructure, &v).is_ok());
    write_dense(v, p, inline_add.data());
    called = inline_add;
    std::vector<uint64_t> hashes = {0, 1, ~uint64_t{0}, uint64_t{1} << (63 - p)};
    for (int i = 0; i < 20000; i++) hashes.push_back(rng());
    for (uint64_t h : hashes) {
      Family::Element e{h};
      Family::Growth growth;
      ASSERT_TRUE(Family::add(inline_add.data(), e, &growth));
      ASSERT_EQ(add_hash(called.data(), h), AddOutcome::kDone);
    }
    EXPECT_EQ(inline_add, called);
  }
}

TEST(HllBuild, KNeedsGrowthOnlyWhenTheSetIsFull) {
  const uint32_t capacity = set_capacity_for(0);
  std::vector<uint8_t> buf(sparse_set_size(capacity));
  write_empty_set(buf.data(), 14, capacity);
  const uint32_t fits = capacity * 3 / 4;  // load factor 3/4
  for (uint32_t i = 0; i < fits; i++)
    ASSERT_EQ(add_hash(buf.data(), test::hash_with_entry(i + 1, 1)), AddOutcome::kDone);
  EXPECT_EQ(add_hash(buf.data(), test::hash_with_entry(999, 1)), AddOutcome::kNeedsGrowth);
  EXPECT_EQ(add_hash(buf.data(), test::hash_with_entry(1, 5)), AddOutcome::kDone);
}

TEST(HllBuild, CanonicalSizes) {
  // A 4-byte varlena header comes on top of stored_size in PostgreSQL.
  const Sketch hundred = Sketch::from_hashes(14, stream(kSeed, 0, 100));
  EXPECT_LE(hundred.canonical().size() + 4, 450u);
  const Sketch thousand = Sketch::from_hashes(14, stream(kSeed, 0, 1000));
  EXPECT_EQ(thousand.encoding(), Encoding::kSparseSet);
  EXPECT_LE(thousand.canonical().size() + 4, 4096u);
  const Sketch dense = Sketch::from_hashes(14, stream(kSeed, 0, 20000));
  EXPECT_EQ(dense.encoding(), Encoding::kDense);
  EXPECT_EQ(dense.canonical().size(), 8u + 12288u);
  // Sparse is only used while it is no larger than dense.
  for (int p = kMinPrecision; p <= kMaxPrecision; p++)
    EXPECT_LE(sparse_size(max_sparse_entries(p)), dense_size(p)) << "p=" << p;
}

TEST(HllBuild, InsertionOrderDoesNotMatter) {
  std::mt19937_64 rng(kSeed);
  // Sizes below, at and above promotion at p = 14 (3071 entries).
  for (uint64_t n : {1, 100, 3000, 3100, 20000}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<uint64_t> hashes = stream(kSeed, 0, n);
    const std::vector<uint8_t> reference = Sketch::from_hashes(14, hashes).canonical();
    // Repeats must not matter either.
    for (uint64_t i = 0; i < n; i += 3) hashes.push_back(hashes[i]);
    for (int round = 0; round < 4; round++) {
      std::shuffle(hashes.begin(), hashes.end(), rng);
      EXPECT_EQ(Sketch::from_hashes(14, hashes).canonical(), reference);
    }
  }
}

// write_stored falls back to a memcpy insertion sort when the
// destination is not 4-byte aligned; both paths must write the same bytes.
TEST(HllBuild, CanonicalIsTheSameAtAnUnalignedDestination) {
  const Sketch s = Sketch::from_hashes(14, stream(kSeed, 0, 500));
  const View v = s.view();
  std::vector<uint8_t> buffer(stored_size(v) + 1);
  write_stored(v, buffer.data() + 1);
  EXPECT_EQ(std::vector<uint8_t>(buffer.begin() + 1, buffer.end()), s.canonical());
}

// --- union -----------------------------------------------------------------

// Sketches of each shape: small and large sparse, dense, at several
// precisions, over overlapping ranges of one stream.
struct Shape {
  int p;
  Range range;
};

std::vector<Shape> union_shapes() {
  return {
      {14, {0, 60}},         // sparse, small
      {14, {30, 2030}},      // sparse, large
      {14, {2000, 4000}},    // sparse; with the one above, the union must promote
      {14, {1000, 31000}},   // dense
      {14, {20000, 65000}},  // dense
      {12, {500, 700}},      // sparse at a lower precision
      {12, {10000, 30000}},  // dense at a lower precision
      {10, {0, 150}},        // sparse, close to the p = 10 limit of 191
      {10, {100, 5000}},     // dense
      {18, {0, 45000}},      // sparse at p = 18 (limit 49151)
      {18, {40000, 100000}}, // dense at p = 18
  };
}

Sketch build(const Shape& s) { return build(s.p, {s.range}); }

TEST(HllUnion, EqualsDirectBuildAtTheSmallerPrecision) {
  const std::vector<Shape> shapes = union_shapes();
  for (const Shape& x : shapes) {
    const Sketch a = build(x);
    for (const Shape& y : shapes) {
      const Sketch b = build(y);
      SCOPED_TRACE(describe(a) + " ∪ " + describe(b));
      const Sketch ab = a.united(b);
      const Sketch ba = b.united(a);
      const int p = std::min(x.p, y.p);
      EXPECT_EQ(ab.p(), p);
      EXPECT_EQ(ab.canonical(), ba.canonical()) << "not commutative";
      EXPECT_EQ(ab.canonical(), build(p, {x.range, y.range}).canonical());
    }
  }
}

TEST(HllUnion, IsIdempotent) {
  for (const Shape& x : union_shapes()) {
    const Sketch a = build(x);
    SCOPED_TRACE(describe(a));
    EXPECT_EQ(a.united(a).canonical(), a.canonical());
    // In place into its own buffer, too.
    Sketch self = a;
    self.merge(self);
    EXPECT_EQ(self.canonical(), a.canonical());
  }
}

TEST(HllUnion, IsAssociative) {
  // A subset of the shapes keeps the triples affordable while covering
  // sparse/dense at mixed precisions.
  const std::vector<Shape> all = union_shapes();
  const std::vector<Shape> shapes = {all[0], all[1], all[2], all[3], all[6], all[8], all[9]};
  std::vector<Sketch> sketches;
  for (const Shape& s : shapes) sketches.push_back(build(s));
  for (const Sketch& a : sketches)
    for (const Sketch& b : sketches)
      for (const Sketch& c : sketches) {
        SCOPED_TRACE(describe(a) + " ∪ " + describe(b) + " ∪ " + describe(c));
        EXPECT_EQ(a.united(b).united(c).canonical(), a.united(b.united(c)).canonical());
      }
}

// Unions whose left side is a stored (canonical) sketch instead of a working
// set take the copy path of merge, not the in-place one.
TEST(HllUnion, CanonicalOperandsGiveTheSameResult) {
  const std::vector<Shape> shapes = union_shapes();
  for (const Shape& x : shapes)
    for (const Shape& y : shapes) {
      const Sketch a = build(x);
      const Sketch b = build(y);
      const Sketch stored_a = Sketch::from_bytes(a.canonical(), Validation::kCanonical);
      const Sketch stored_b = Sketch::from_bytes(b.canonical(), Validation::kCanonical);
      SCOPED_TRACE(describe(a) + " ∪ " + describe(b));
      const std::vector<uint8_t> expected = a.united(b).canonical();
      EXPECT_EQ(stored_a.united(b).canonical(), expected);
      EXPECT_EQ(a.united(stored_b).canonical(), expected);
      EXPECT_EQ(stored_a.united(stored_b).canonical(), expected);
    }
}

TEST(HllUnion, ManySmallSketchesLikeAnHourlyRollup) {
  // 24 "hours" of 40 values each, overlapping: a union of sets that grows
  // in place and crosses into dense at p = 10.
  for (int p : {10, 14}) {
    SCOPED_TRACE("p=" + std::to_string(p));
    Sketch total(p);
    for (uint64_t hour = 0; hour < 24; hour++) total.merge(build(p, {{hour * 30, hour * 30 + 40}}));
    EXPECT_EQ(total.canonical(), build(p, {{0, 23 * 30 + 40}}).canonical());
  }
}

TEST(HllUnion, OfP12AndP14HasP12) {
  const Sketch a = build(12, {{0, 3000}});
  const Sketch b = build(14, {{1000, 9000}});
  EXPECT_EQ(a.united(b).p(), 12);
  EXPECT_EQ(b.united(a).p(), 12);
  EXPECT_EQ(b.united(a).canonical(), build(12, {{0, 9000}}).canonical());
}

// A working set with room to spare absorbs a lower-precision sketch in its
// own buffer and takes on the lower precision.
TEST(HllUnion, InPlaceUnionLowersThePrecision) {
  Sketch a = build(14, {{0, 100}});
  const Sketch b = build(10, {{70, 120}});
  const MergePlan plan = plan_merge(a.view(), b.view());
  ASSERT_TRUE(plan.in_place) << "capacity " << a.view().capacity;
  EXPECT_EQ(plan.p, 10);
  a.merge(b);
  EXPECT_EQ(a.p(), 10);
  EXPECT_EQ(a.canonical(), build(10, {{0, 120}}).canonical());
}

// Unions whose result has just below, exactly, or just above
// max_sparse_entries(10) = 191 distinct entries: same encoding as a direct build.
TEST(HllUnion, PromotesAtTheSameBoundaryAsInsertion) {
  for (uint64_t end : {189, 190, 191, 192, 193, 194}) {
    SCOPED_TRACE("end=" + std::to_string(end));
    const Sketch a = build(10, {{0, 120}});
    const Sketch b = build(14, {{60, end}});
    const Sketch direct = build(10, {{0, end}});
    EXPECT_EQ(a.united(b).canonical(), direct.canonical());
    EXPECT_EQ(b.united(a).canonical(), direct.canonical());
  }
}

// Random unions in random groupings of random shapes, each left side a
// working set or a stored sketch, against one direct build.
TEST(HllUnion, RandomUnionTreesEqualDirectBuild) {
  std::mt19937_64 rng(kSeed);
  for (int trial = 0; trial < 300; trial++) {
    const int parts_count = 1 + static_cast<int>(rng() % 5);
    std::vector<Sketch> parts;
    std::vector<Range> ranges;
    int p_min = kMaxPrecision;
    for (int j = 0; j < parts_count; j++) {
      const int p = kMinPrecision + static_cast<int>(rng() % (kMaxPrecision - kMinPrecision + 1));
      const uint64_t begin = rng() % 5000;
      const uint64_t length = rng() % 4 == 0 ? rng() % 60000 : rng() % 400;
      Sketch part = build(p, {{begin, begin + length}});
      if (rng() % 2) part = Sketch::from_bytes(part.canonical(), Validation::kCanonical);
      parts.push_back(part);
      ranges.push_back({begin, begin + length});
      p_min = std::min(p_min, p);
    }
    while (parts.size() > 1) {
      const size_t i = rng() % parts.size();
      const size_t j = rng() % parts.size();
      if (i == j) continue;
      parts[i].merge(parts[j]);
      parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(j));
    }
    Sketch direct(p_min);
    for (const Range& r : ranges) direct.add_all(stream(kSeed, r.begin, r.end));
    ASSERT_EQ(parts[0].canonical(), direct.canonical()) << "trial " << trial;
  }
}

// --- folding ---------------------------------------------------------------

TEST(HllFold, FoldingEqualsBuildingAtTheLowerPrecision) {
  // Sizes around the p = 10 limit (191), the p = 14 limit (3071), and dense.
  for (uint64_t n : {1, 50, 150, 191, 192, 500, 3000, 3071, 3072, 5000, 50000}) {
    const Sketch high = build(14, {{0, n}});
    const Sketch low = build(10, {{0, n}});
    SCOPED_TRACE("n=" + std::to_string(n) + " from " + describe(high));
    EXPECT_EQ(high.folded(10).canonical(), low.canonical());
    EXPECT_EQ(high.folded(10).p(), 10);
    // write_dense folds from either encoding; compare when the direct
    // sketch is dense too (a small one stays sparse, which write_dense is not).
    if (low.encoding() == Encoding::kDense) {
      EXPECT_EQ(high.as_dense(10).bytes(), low.bytes());
    }
    // Dense to dense, whatever the source was.
    EXPECT_EQ(high.as_dense(14).as_dense(10).bytes(), low.as_dense(10).bytes());
  }
}

TEST(HllFold, EveryPairOfPrecisions) {
  // Many distinct values saturate high ranks in some registers and reach the
  // cases where the dropped index bits are all zero.
  const std::vector<uint64_t> hashes = stream(kSeed, 0, 200000);
  for (int from = kMinPrecision; from <= kMaxPrecision; from += 2) {
    const Sketch source = Sketch::from_hashes(from, hashes);
    for (int to = kMinPrecision; to <= from; to += 3) {
      SCOPED_TRACE("from p=" + std::to_string(from) + " to p=" + std::to_string(to));
      Sketch direct = Sketch::empty_dense(to);
      direct.add_all(hashes);
      EXPECT_EQ(source.as_dense(to).bytes(), direct.bytes());
      EXPECT_EQ(source.folded(to).canonical(), direct.canonical());
    }
  }
}

// Hand-picked hashes whose rank after the index is the largest possible, or
// whose dropped index bits are all zero, where fold() adds ranks.
TEST(HllFold, ExtremeRanksFoldExactly) {
  std::vector<uint64_t> hashes = {0, 1, uint64_t{1} << 38, uint64_t{1} << 37,
                                  uint64_t{1} << 50, ~uint64_t{0}, uint64_t{1} << 63};
  for (int p = kMinPrecision; p <= kMaxPrecision; p++) {
    Sketch direct = Sketch::empty_dense(p);
    direct.add_all(hashes);
    const Sketch sparse = Sketch::from_hashes(kMaxPrecision, hashes);
    EXPECT_EQ(sparse.as_dense(p).bytes(), direct.bytes()) << "p=" << p;
    Sketch dense18 = Sketch::empty_dense(kMaxPrecision);
    dense18.add_all(hashes);
    EXPECT_EQ(dense18.as_dense(p).bytes(), direct.bytes()) << "p=" << p;
  }
  // Hash 0 has rank 64 - p + 1, the largest register value.
  Sketch zero = Sketch::empty_dense(14);
  zero.add(0);
  EXPECT_EQ(detail::get_register(zero.view().body, 0), max_register_value(14));
}

// --- estimates -------------------------------------------------------------

TEST(HllEstimate, EmptyIsZero) {
  const Sketch empty(14);
  EXPECT_EQ(empty.estimate(), 0.0);
  EXPECT_FALSE(std::signbit(empty.estimate())) << "would print as -0";
  const Sketch dense = Sketch::empty_dense(14);
  EXPECT_EQ(dense.estimate(), 0.0);
  const Bounds b = bounds(empty.view(), 0.95);
  EXPECT_EQ(b.lower, 0.0);
  EXPECT_EQ(b.upper, 0.0);
}

TEST(HllEstimate, SmallSparseCountsAreExact) {
  for (uint64_t n : {1, 2, 10, 100, 1000}) {
    const Sketch s = build(14, {{0, n}});
    EXPECT_NEAR(s.estimate(), double(n), 1e-3 * n) << "n=" << n;
  }
}

TEST(HllEstimate, StoredAndWorkingFormsEstimateAlike) {
  for (uint64_t n : {5, 2000, 40000}) {
    const Sketch s = build(14, {{0, n}});
    const Sketch stored = Sketch::from_bytes(s.canonical(), Validation::kCanonical);
    EXPECT_EQ(stored.estimate(), s.estimate()) << "n=" << n;
  }
}

TEST(HllEstimate, BoundsContainTheEstimateAndWhatIsProven) {
  for (int p : {4, 10, 14}) {
    for (uint64_t n : {1, 3, 10, 100, 190, 1000, 3000, 10000, 100000}) {
      const Sketch s = build(p, {{0, n}});
      SCOPED_TRACE("n=" + std::to_string(n) + " " + describe(s));
      const View v = s.view();
      const double e = estimate(v);
      double previous_width = 0;
      for (double confidence : {0.5, 0.9, 0.95, 0.99, 0.999}) {
        const Bounds b = bounds(v, confidence);
        EXPECT_LE(b.lower, e);
        EXPECT_LE(e, b.upper);
        EXPECT_GE(b.upper - b.lower, previous_width);  // wider at higher confidence
        previous_width = b.upper - b.lower;
        if (v.encoding != Encoding::kDense) {
          EXPECT_GE(b.lower, double(v.count));
        }
      }
    }
  }
}

TEST(HllEstimate, StandardErrorOfDenseIsTheTextbookValue) {
  const Sketch dense = build(14, {{0, 50000}});
  ASSERT_EQ(dense.encoding(), Encoding::kDense);
  EXPECT_DOUBLE_EQ(standard_error(dense.view()), 1.04 / 128);
  const Sketch sparse = build(14, {{0, 100}});
  EXPECT_GT(standard_error(sparse.view()), 0.0);
  EXPECT_LT(standard_error(sparse.view()), 1e-3);
}

TEST(HllEstimate, TwoSidedZ) {
  EXPECT_NEAR(two_sided_z(0.95), 1.959964, 1e-6);
  EXPECT_NEAR(two_sided_z(0.99), 2.575829, 1e-6);
  EXPECT_NEAR(two_sided_z(0.6826894921370859), 1.0, 1e-9);
}

}  // namespace
}  // namespace sketch::hll
