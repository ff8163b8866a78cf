// Issue 32: deletes are safe on every path that builds a filter from members
// (cuckoo_agg's distinct state, unions of parts, the combine of parallel
// partial states), counts are exact, repeated values cost one copy; and
// issue 24: growth past the chain limit is refused through the mechanism
// with the family's Status. The 10^6-member cases are in
// test/accuracy/cuckoo_accuracy_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuckoo_test_util.h"

namespace sketch::cuckoo {
namespace {

using test::Filter;
using test::key_hash;
using test::params_for;

constexpr uint64_t kDeletesSeed = 20261202;

// Deletes every third member of 0..n-1 (i % 3 == 0) and counts the others
// that are absent afterwards.
uint64_t lost_after_deletes(Filter* f, uint64_t n, uint64_t seed) {
  for (uint64_t i = 0; i < n; i += 3) f->remove(key_hash(seed, i));
  uint64_t lost = 0;
  for (uint64_t i = 0; i < n; i++)
    if (i % 3 != 0 && !f->contains(key_hash(seed, i))) lost++;
  return lost;
}

// Values sharing a fingerprint and bucket pair each get a copy: with 4-bit
// fingerprints (p = 0.5) most of them collide, and deleting a third of them
// loses none of the rest. Under the old set semantics (add_new) they share
// copies and deletes lose members: the test can fail.
TEST(CuckooDeletes, DistinctStateGivesCollidingValuesACopyEach) {
  const uint64_t n = 2000;
  Filter d = Filter::distinct(n, 0.5);
  Filter set(n, 0.5);
  for (uint64_t i = 0; i < n; i++) {
    d.add_distinct(key_hash(kDeletesSeed, i));
    set.add(key_hash(kDeletesSeed, i), /*only_new=*/true);
  }
  EXPECT_EQ(held(d.view()), n);
  EXPECT_LT(held(set.view()), n);  // the set merged colliding values
  Filter stored = d.stored();
  EXPECT_EQ(stored.view().encoding, Encoding::kStored);
  EXPECT_EQ(stored.view().version, kFormatVersion);
  EXPECT_EQ(lost_after_deletes(&stored, n, kDeletesSeed), 0u);
  EXPECT_EQ(held(stored.view()), n - (n + 2) / 3);
  EXPECT_GT(lost_after_deletes(&set, n, kDeletesSeed), 0u);
}

TEST(CuckooDeletes, RepeatedValueCostsOneCopy) {
  Filter d = Filter::distinct(1000, 0.01);
  const size_t before = d.view().used;
  size_t growths = 0;
  for (int i = 0; i < 1000000; i++) growths += d.add_distinct(key_hash(kDeletesSeed, 7));
  EXPECT_EQ(growths, 0u);
  EXPECT_EQ(held(d.view()), 1u);
  EXPECT_EQ(d.count(key_hash(kDeletesSeed, 7)), 1);
  EXPECT_EQ(d.view().subfilters, 1);
  EXPECT_EQ(d.stored().bytes().size(), before);
}

TEST(CuckooDeletes, SeenSetGrowsAndKeepsEveryHash) {
  Filter d = Filter::distinct(100000, 0.01);
  for (uint64_t i = 0; i < 50000; i++) d.add_distinct(key_hash(kDeletesSeed, i));
  EXPECT_EQ(d.view().encoding, Encoding::kDistinct);
  EXPECT_GE(d.view().seen_capacity * 3, d.view().seen_entries * 4);
  EXPECT_EQ(d.view().seen_entries, 50000u);
  for (uint64_t i = 0; i < 50000; i++) d.add_distinct(key_hash(kDeletesSeed, i));  // all seen
  EXPECT_EQ(held(d.view()), 50000u);
}

// A filter sized for 1/16 grows into a chain; still one copy per value.
TEST(CuckooDeletes, DistinctStateGrowsTheFilterToo) {
  Filter d = Filter::distinct(1000, 0.01);
  for (uint64_t i = 0; i < 20000; i++) d.add_distinct(key_hash(kDeletesSeed, i));
  for (uint64_t i = 0; i < 20000; i++) d.add_distinct(key_hash(kDeletesSeed, i));
  EXPECT_GT(d.view().subfilters, 1);
  EXPECT_EQ(held(d.view()), 20000u);
  Filter s = d.stored();
  EXPECT_EQ(lost_after_deletes(&s, 20000, kDeletesSeed), 0u);
}

// The combine step of a parallel plan: two partial states that saw some
// values both; the union keeps one copy of those (their seen sets say which).
TEST(CuckooDeletes, CombineOfPartialStatesCountsLikeOnePass) {
  const uint64_t n = 30000;
  Filter a = Filter::distinct(n, 0.01), b = Filter::distinct(n, 0.01);
  for (uint64_t i = 0; i < n; i++) {
    if (i % 4 != 0) a.add_distinct(key_hash(kDeletesSeed, i));
    if (i % 4 != 1) b.add_distinct(key_hash(kDeletesSeed, i));
  }
  ASSERT_TRUE(a.merge(b).is_ok());
  EXPECT_EQ(a.view().encoding, Encoding::kDistinct);
  EXPECT_EQ(held(a.view()), n);
  EXPECT_EQ(a.view().seen_entries, n);
  Filter s = a.stored();
  EXPECT_EQ(lost_after_deletes(&s, n, kDeletesSeed), 0u);
  EXPECT_EQ(held(s.view()), n - n / 3);
  // Through text (a Citus split) the stored partials have no seen set: a
  // value on both sides keeps two copies, and two deletes remove it.
  Filter c = Filter::distinct(n, 0.01), e = Filter::distinct(n, 0.01);
  for (uint64_t i = 0; i < 100; i++) {
    c.add_distinct(key_hash(kDeletesSeed, i));
    e.add_distinct(key_hash(kDeletesSeed, i));
  }
  Filter cs = c.stored();
  ASSERT_TRUE(cs.merge(e.stored()).is_ok());
  EXPECT_EQ(held(cs.view()), 200u);
  EXPECT_EQ(cs.count(key_hash(kDeletesSeed, 5)), 2);
}

// Unions of 16 parts: sized for the whole set (one sub-filter size), and
// sized for 1/16 each (chains of several sizes: a delete may be refused as
// ambiguous, never loses a member).
TEST(CuckooDeletes, UnionOfSixteenParts) {
  const uint64_t n = 40000;
  for (const int64_t part_n : {int64_t{40000}, int64_t{2500}}) {
    Filter u = Filter::distinct(part_n, 0.01);
    for (int k = 0; k < 16; k++) {
      Filter part = Filter::distinct(part_n, 0.01);
      for (uint64_t i = k; i < n; i += 16) part.add_distinct(key_hash(kDeletesSeed, i));
      ASSERT_TRUE(u.merge(part.stored()).is_ok()) << part_n;
    }
    Filter s = u.stored();
    EXPECT_EQ(held(s.view()), n) << part_n;
    EXPECT_EQ(lost_after_deletes(&s, n, kDeletesSeed), 0u) << part_n;
    const uint64_t deletes = (n + 2) / 3;
    if (part_n == 40000) {
      EXPECT_EQ(held(s.view()), n - deletes);
    } else {
      EXPECT_GE(held(s.view()), n - deletes);
      EXPECT_LE(held(s.view()), n - deletes + deletes / 20) << "ambiguous deletes near fpp";
    }
  }
}

// remove_hash: when sub-filters of two sizes hold the fingerprint in the
// value's buckets nothing is removed; within one size a delete is never
// refused.
TEST(CuckooDeletes, AmbiguousDeleteRemovesNothing) {
  // 4-bit fingerprints in a tiny first sub-filter: forced growth, and
  // plenty of matches across sizes.
  Filter f(Params{1, 4, 4});
  uint64_t ambiguous = 0, deleted = 0;
  std::vector<Hash128> added;
  for (uint64_t i = 0; i < 200; i++) {
    f.add(key_hash(kDeletesSeed, i));
    added.push_back(key_hash(kDeletesSeed, i));
  }
  ASSERT_GT(f.view().subfilters, 2);
  for (const Hash128 h : added) {
    std::vector<uint8_t> b = f.bytes();
    const uint64_t before = held(f.view());
    const DeleteResult r = remove_hash(b.data(), h);
    if (r == DeleteResult::kAmbiguous) {
      ambiguous++;
      EXPECT_EQ(b, f.bytes());
    } else {
      ASSERT_EQ(r, DeleteResult::kDeleted);
      deleted++;
      ASSERT_TRUE(f.remove(h));
      EXPECT_EQ(held(f.view()), before - 1);
    }
  }
  EXPECT_GT(ambiguous, 0u);
  EXPECT_GT(deleted, 0u);
  // Every value not deleted is still there.
}

// Issue 24: state::add past kMaxSubfilters is refused with plan_grow's
// kOverflow (not a request for SIZE_MAX bytes), nothing written.
// A working chain of 32 sub-filters of one bucket each (unions make such
// chains; growth alone meets the byte cap first).
std::vector<uint8_t> chain_of_32(int f) {
  std::vector<uint8_t> b = test::empty_bytes(Params{1, f, 4});
  std::vector<uint8_t> chain(b.begin(), b.begin() + kFirstSubfilterOffset);
  chain[9] = kMaxSubfilters;
  chain[6] = static_cast<uint8_t>(Encoding::kSpareTail);
  for (int j = 0; j < kMaxSubfilters; j++) {
    std::vector<uint8_t> sub(subfilter_bytes(1, 4, f));
    store_le64(sub.data(), 1);
    chain.insert(chain.end(), sub.begin(), sub.end());
  }
  chain.resize(chain.size() + kGuardBytes);
  return chain;
}

TEST(CuckooGrowth, MechanismRefusesTheThirtyThirdSubfilter) {
  std::vector<uint8_t> b = chain_of_32(30);
  ASSERT_TRUE(Family::is_working(b.data(), b.size()));
  Family::Element e{key_hash(kDeletesSeed, 0), false};
  Family::Growth growth{};
  bool full = false;
  for (uint64_t i = 0; i < 100000 && !full; i++) {
    e.hash = key_hash(kDeletesSeed, i);
    full = !Family::add(b.data(), e, &growth);
  }
  ASSERT_TRUE(full);
  const std::vector<uint8_t> before = b;
  sketch::test::Arena arena;
  uint8_t* out = nullptr;
  const Status st = state::add_growing<Family>(b.data(), b.size(), e, growth, arena, &out);
  EXPECT_EQ(st.code(), StatusCode::kOverflow);
  EXPECT_NE(std::string(st.message()).find("32 sub-filters"), std::string::npos) << st.message();
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(b, before);
  // state::add (the per-row path) hands back the same refusal.
  const Status st2 = state::add<Family>(b.data(), b.size(), e, arena, &out);
  EXPECT_EQ(st2.code(), StatusCode::kOverflow);
  // grow() itself writes nothing past 32 sub-filters.
  View v;
  ASSERT_TRUE(parse(b.data(), b.size(), Validation::kStructure, &v).is_ok());
  std::vector<uint8_t> dst(b.size() + 64, 0xAB);
  grow(v, dst.data());
  for (uint8_t x : dst) ASSERT_EQ(x, 0xAB);
}

}  // namespace
}  // namespace sketch::cuckoo
