// Issue 29: cuckoo_agg's distinct state with a prefetch queue (encoding
// kDistinctDeferred, filters of 1 MiB or more) adds exactly what the distinct
// state without one adds, in the same order: the same stored bytes, the same
// copies, and no member lost after deletes (issue 32's promise); and the
// seen set grows by at least a quarter of the layout at a time.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "cuckoo_test_util.h"

namespace sketch::cuckoo {
namespace {

using test::Filter;
using test::key_hash;
using test::params_for;

constexpr uint64_t kQueueSeed = 20261203;

// Key of row r of a stream over `domain` keys with repeats at every
// distance, within the queue's 16 rows too (the rows r % 5 == 0 take r / 3,
// a key a few rows apart; a multiplier coprime to the domain spreads the
// rest).
uint64_t row_key(uint64_t r, uint64_t domain) {
  return (r % 5 == 0 ? r / 3 : r * 2654435761u) % domain;
}
Hash128 row_hash(uint64_t r, uint64_t domain) { return key_hash(kQueueSeed, row_key(r, domain)); }

struct Pair {
  Filter now;
  Filter queued;
};

Pair both(const Params& params) {
  return Pair{Filter::distinct_as(params, Encoding::kDistinct),
              Filter::distinct_as(params, Encoding::kDistinctDeferred)};
}

// Deletes every third of the keys added (only members: deleting a value
// never added is outside the promise; in a chain of several sizes a delete
// may be refused as ambiguous) and counts the other members absent.
uint64_t lost_after_deletes(Filter* f, const std::set<uint64_t>& keys) {
  for (const uint64_t k : keys)
    if (k % 3 == 0) f->remove(key_hash(kQueueSeed, k));
  uint64_t lost = 0;
  for (const uint64_t k : keys)
    if (k % 3 != 0 && !f->contains(key_hash(kQueueSeed, k))) lost++;
  return lost;
}

TEST(CuckooDistinctQueue, NewAggregateStatesPickTheirEncodingBySize) {
  for (const int64_t n : {int64_t{10}, int64_t{100000}, int64_t{1000000}, int64_t{3670659}}) {
    const Params p = params_for(n, 0.01);
    std::vector<uint8_t> bytes(empty_distinct_size(p));
    write_empty_distinct(bytes.data(), p);
    View v;
    ASSERT_TRUE(parse(bytes.data(), bytes.size(), Validation::kStructure, &v).is_ok());
    EXPECT_EQ(v.encoding, filter_size(p) >= kDeferredMinBytes ? Encoding::kDistinctDeferred
                                                               : Encoding::kDistinct);
    EXPECT_EQ(v.seen_capacity, kMinSeenCapacity);
    EXPECT_EQ(v.pending, 0u);
    EXPECT_EQ(bytes.size(), working_size(v));
    EXPECT_TRUE(Family::is_working(bytes.data(), bytes.size()));
  }
}

// Both encodings over a stream with repeats, in a filter that grows into a
// chain and a seen set that grows many times: the same stored bytes.
TEST(CuckooDistinctQueue, SameStoredBytesAsAddingAtOnce) {
  for (const int64_t n : {int64_t{40}, int64_t{1000}, int64_t{20000}}) {
    const uint64_t domain = 8000;
    Pair s = both(params_for(n, 0.01));
    std::set<uint64_t> keys;
    for (uint64_t r = 0; r < 30000; r++) {
      keys.insert(row_key(r, domain));
      s.now.add_distinct(row_hash(r, domain));
      s.queued.add_distinct(row_hash(r, domain));
    }
    EXPECT_EQ(s.queued.view().encoding, Encoding::kDistinctDeferred) << n;
    EXPECT_EQ(s.queued.view().pending, kPendingSlots) << n;
    const Filter a = s.now.stored(), b = s.queued.stored();
    EXPECT_EQ(a.bytes(), b.bytes()) << n;
    EXPECT_EQ(held(b.view()), keys.size()) << n;  // one copy per distinct value
    if (n == 40) EXPECT_GT(b.view().subfilters, 1);
    Filter deleted = b;
    EXPECT_EQ(lost_after_deletes(&deleted, keys), 0u) << n;
  }
}

// Fewer rows than the queue holds: all of them still queued, none lost.
TEST(CuckooDistinctQueue, ShortStreamsStayQueuedUntilStored) {
  Pair s = both(params_for(1000, 0.01));
  for (uint64_t r = 0; r < 10; r++) {
    s.now.add_distinct(key_hash(kQueueSeed, r % 7));
    s.queued.add_distinct(key_hash(kQueueSeed, r % 7));
  }
  EXPECT_EQ(s.queued.view().pending, 10u);
  EXPECT_EQ(held(s.queued.view()), 0u);  // nothing added yet
  EXPECT_EQ(s.now.stored().bytes(), s.queued.stored().bytes());
  s.queued.settle();
  EXPECT_EQ(s.queued.view().pending, 0u);
  EXPECT_EQ(held(s.queued.view()), 7u);
  EXPECT_EQ(s.queued.view().seen_entries, 7u);
}

// The combine step of a parallel plan with queued values on both sides:
// the same union as without queues (one copy of a value both saw).
TEST(CuckooDistinctQueue, CombineSettlesBothSides) {
  const uint64_t domain = 5000;
  const Params p = params_for(int64_t{domain}, 0.01);
  Pair a = both(p), b = both(p);
  std::set<uint64_t> keys;
  for (uint64_t r = 0; r < 12000; r++) {
    keys.insert(row_key(r, domain));
    Pair& side = (r / 100) % 2 == 0 ? a : b;
    side.now.add_distinct(row_hash(r, domain));
    side.queued.add_distinct(row_hash(r, domain));
  }
  ASSERT_GT(b.queued.view().pending, 0u);
  ASSERT_TRUE(a.now.merge(b.now).is_ok());
  ASSERT_TRUE(a.queued.merge(b.queued).is_ok());
  EXPECT_EQ(a.now.stored().bytes(), a.queued.stored().bytes());
  EXPECT_EQ(held(a.queued.view()), keys.size());
  Filter s = a.queued.stored();
  EXPECT_EQ(lost_after_deletes(&s, keys), 0u);
}

// A delete on a raw queued state (cuckoo_delete settles it first).
TEST(CuckooDistinctQueue, SettledStateDeletesQueuedValues) {
  Filter f = Filter::distinct_as(params_for(1000, 0.01), Encoding::kDistinctDeferred);
  for (uint64_t k = 0; k < 5; k++) f.add_distinct(key_hash(kQueueSeed, k));
  f.settle();
  EXPECT_TRUE(f.remove(key_hash(kQueueSeed, 2)));
  EXPECT_EQ(f.count(key_hash(kQueueSeed, 2)), 0);
  EXPECT_EQ(held(f.view()), 4u);
}

// A queued state parses only with its whole queue before the seen set.
TEST(CuckooDistinctQueue, ParseChecksQueueAndSeenSet) {
  Filter f = Filter::distinct_as(params_for(1000, 0.01), Encoding::kDistinctDeferred);
  const std::vector<uint8_t> good = f.bytes();
  const size_t used = f.view().used;
  View v;
  ASSERT_TRUE(parse(good.data(), good.size(), Validation::kStructure, &v).is_ok());
  EXPECT_FALSE(parse(good.data(), good.size(), Validation::kCanonical, &v).is_ok());
  std::vector<uint8_t> b = good;
  store_le64(b.data() + used, 17);  // count 17 > kPendingSlots
  EXPECT_FALSE(parse(b.data(), b.size(), Validation::kStructure, &v).is_ok());
  EXPECT_FALSE(Family::is_working(b.data(), b.size()));
  b = good;
  b.resize(used + kQueueBytes / 2);  // the seen set and half the queue gone
  EXPECT_FALSE(parse(b.data(), b.size(), Validation::kStructure, &v).is_ok());
  EXPECT_FALSE(Family::is_working(b.data(), b.size()));
  b = good;
  b.pop_back();  // a seen slot short
  EXPECT_FALSE(parse(b.data(), b.size(), Validation::kStructure, &v).is_ok());
  EXPECT_FALSE(Family::is_working(b.data(), b.size()));
}

TEST(CuckooDistinctQueue, SeenSetGrowsByAQuarterOfTheLayoutAtLeast) {
  EXPECT_EQ(grown_seen_capacity(4, 56), 8u);  // a small filter: doubling
  EXPECT_EQ(grown_seen_capacity(4, 5098184), uint64_t{1} << 17);  // 2 MiB >= 5 MB / 4
  EXPECT_EQ(grown_seen_capacity(uint64_t{1} << 17, 5098184), uint64_t{1} << 18);
  EXPECT_EQ(grown_seen_capacity(kMaxSeenCapacity / 2, 400000000), kMaxSeenCapacity);
}

}  // namespace
}  // namespace sketch::cuckoo
