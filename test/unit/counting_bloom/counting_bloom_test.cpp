// Counting Bloom filter core: layout, counters, add/delete/contains,
// saturation, union, the conversion to bloom, sizing, every class of corrupt
// input, and the shared aggregate-state mechanism on counting_bloom's traits.
//
// The central properties: a member added and not deleted is never reported
// absent; deleting what was added gives back the filter of what remains,
// byte for byte; and the non-zero cells are exactly the bloom filter of the
// same values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "arena.h"
#include "counting_bloom_test_util.h"
#include "core/common/working_state.h"

namespace sketch::counting_bloom {
namespace {

using test::Filter;
using test::key_hash;

constexpr uint64_t kSeed = 20240901;

std::vector<uint8_t> valid_bytes(uint64_t cells = 100, int hashes = 3, uint64_t keys = 5) {
  Filter f(cells, hashes);
  f.add_keys(kSeed, 0, keys);
  return f.bytes();
}

Status parse_bytes(const std::vector<uint8_t>& b, Validation validation = Validation::kCanonical) {
  View v;
  return parse(b.data(), b.size(), validation, &v);
}

void expect_invalid(const std::vector<uint8_t>& b, const std::string& message_part,
                    Validation validation = Validation::kCanonical) {
  const Status st = parse_bytes(b, validation);
  EXPECT_EQ(st.code(), StatusCode::kInvalidFormat) << message_part;
  EXPECT_NE(std::string(st.message()).find(message_part), std::string::npos)
      << "message: " << st.message();
  // The per-row shape check agrees with parse.
  EXPECT_FALSE(Family::is_working(b.data(), b.size())) << message_part;
}

// --- layout --------------------------------------------------------------------

TEST(CountingBloomFormat, EmptyFilterLayout) {
  const Filter f(100, 3);
  std::vector<uint8_t> expected = {
      'S', 'K', 7, 1, 1, 3, 0, 0xff,  // header: counting_bloom v1, hash 1, k = 3, stored, kind none
      100, 0, 0, 0, 0, 0, 0, 0,    // m = 100, uint64 LE
  };
  expected.resize(16 + 8 * 7, 0);  // ceil(100/16) = 7 words
  EXPECT_EQ(f.bytes(), expected);
  EXPECT_EQ(filter_size(100), 72u);
  EXPECT_EQ(filter_size(16), 24u);
  EXPECT_EQ(filter_size(17), 32u);
  EXPECT_EQ(kMaxCells, 1073610720u);
  EXPECT_LE(filter_size(kMaxCells), kMaxDumpableBytes);
  EXPECT_GT(filter_size(kMaxCells + 16), kMaxDumpableBytes);
}

// Cell j is nibble j%2 of byte j/2, low nibble first, at bloom's positions.
TEST(CountingBloomFormat, CellsAreNibblesAtBloomPositions) {
  const uint64_t m = 1000;
  const int k = 5;
  for (uint64_t key = 0; key < 50; key++) {
    Filter f(m, k);
    const Hash128 h = key_hash(kSeed, key);
    f.add(h);
    std::vector<uint8_t> expected(filter_size(m) - kCellsOffset, 0);
    bloom::Positions positions(h, m);
    for (int i = 0; i < k; i++) {
      const uint64_t p = positions.next();
      const unsigned shift = (p & 1) * 4;
      expected[p / 2] = static_cast<uint8_t>(expected[p / 2] + (1u << shift));
    }
    EXPECT_EQ(std::vector<uint8_t>(f.bytes().begin() + kCellsOffset, f.bytes().end()), expected);
  }
}

// --- add, delete, contains ----------------------------------------------------

TEST(CountingBloomMembership, NoFalseNegatives) {
  Filter f(test::params_for(1000, 0.01));
  f.add_keys(kSeed, 0, 3000);  // three times over capacity
  EXPECT_EQ(f.count_present(kSeed, 0, 3000), 3000u);
}

TEST(CountingBloomMembership, EmptyContainsNothing) {
  const Filter f(100, 3);
  EXPECT_EQ(f.count_present(kSeed, 0, 1000), 0u);
}

TEST(CountingBloomMembership, DeleteGivesTheFilterOfTheRest) {
  const Params params = test::params_for(2000, 0.01);
  Filter all(params), rest(params);
  for (uint64_t i = 0; i < 2000; i++) {
    all.add(key_hash(kSeed, i));
    if (i % 3 == 0) {
      EXPECT_TRUE(all.remove(key_hash(kSeed, i / 3)));  // interleaved
    }
  }
  for (uint64_t i = 2000 / 3 + 1; i < 2000; i++) rest.add(key_hash(kSeed, i));
  EXPECT_EQ(all.bytes(), rest.bytes());
  EXPECT_EQ(all.count_present(kSeed, 2000 / 3 + 1, 2000), 2000u - 2000 / 3 - 1);
}

TEST(CountingBloomMembership, AddThenDeleteIsEmptyAgain) {
  Filter f(500, 4);
  const Filter empty(500, 4);
  f.add_keys(kSeed, 0, 40);
  f.add_keys(kSeed, 0, 40);  // a multiset: each twice
  for (int round = 0; round < 2; round++)
    for (uint64_t i = 0; i < 40; i++) EXPECT_TRUE(f.remove(key_hash(kSeed, i)));
  EXPECT_EQ(f.bytes(), empty.bytes());
}

TEST(CountingBloomMembership, DeletingAnAbsentValueChangesNothing) {
  Filter f(test::params_for(100, 0.01));
  f.add_keys(kSeed, 0, 100);
  const std::vector<uint8_t> before = f.bytes();
  uint64_t deleted = 0;
  for (uint64_t i = 0; i < 1000; i++) {
    const Hash128 h = key_hash(kSeed + 1, i);
    if (f.contains(h)) continue;  // a false positive would be decremented: the trap
    EXPECT_FALSE(f.remove(h));
    deleted++;
  }
  EXPECT_GT(deleted, 900u);
  EXPECT_EQ(f.bytes(), before);
  // An empty filter ignores every delete.
  Filter empty(64, 3);
  EXPECT_FALSE(empty.remove(key_hash(kSeed, 1)));
  EXPECT_EQ(empty.bytes(), Filter(64, 3).bytes());
}

// The documented trap: deleting a false positive removes a member.
TEST(CountingBloomMembership, DeletingAFalsePositiveCanCreateAFalseNegative) {
  Filter f(16, 1);  // one hash, 16 cells: collisions are certain
  f.add(key_hash(kSeed, 0));
  uint64_t other = 1;
  while (!f.contains(key_hash(kSeed + 1, other))) other++;
  EXPECT_TRUE(f.remove(key_hash(kSeed + 1, other)));
  EXPECT_FALSE(f.contains(key_hash(kSeed, 0)));
}

TEST(CountingBloomMembership, CountersSaturateAndStay) {
  Filter f(64, 2);
  const Hash128 h = key_hash(kSeed, 7);
  for (int i = 0; i < 40; i++) f.add(h);
  Counts c = f.counts();
  EXPECT_GE(c.saturated, 1u);
  EXPECT_LE(c.cells_set, 2u);
  EXPECT_EQ(c.sum, 15u * c.cells_set);
  // A saturated counter is never decremented: the value stays "present".
  for (int i = 0; i < 40; i++) EXPECT_TRUE(f.remove(h));
  EXPECT_TRUE(f.contains(h));
  c = f.counts();
  EXPECT_EQ(c.sum, 15u * c.cells_set);
}

TEST(CountingBloomMembership, CountsOfAKnownFilter) {
  Filter f(1000, 4);
  f.add_keys(kSeed, 0, 30);
  const Counts c = f.counts();
  EXPECT_EQ(c.sum, 120u);  // every add increments k counters (none saturates)
  uint64_t set = 0;
  const Filter s = f.stored();
  for (uint64_t j = 0; j < 1000; j++) set += counter(s.view().words, j) != 0;
  EXPECT_EQ(c.cells_set, set);
  EXPECT_EQ(c.saturated, 0u);
}

// --- union ----------------------------------------------------------------------

TEST(CountingBloomCombine, UnionIsTheFilterOfTheMultisetSum) {
  const Params params = test::params_for(1000, 0.01);
  Filter a(params), b(params), both(params);
  a.add_keys(kSeed, 0, 600);
  b.add_keys(kSeed, 400, 1000);
  both.add_keys(kSeed, 0, 600);
  both.add_keys(kSeed, 400, 1000);
  ASSERT_TRUE(a.merge(b).is_ok());
  EXPECT_EQ(a.bytes(), both.bytes());
  // The overlap counts twice: deleting it once from the union keeps it.
  for (uint64_t i = 400; i < 600; i++) EXPECT_TRUE(a.remove(key_hash(kSeed, i)));
  Filter once(params);
  once.add_keys(kSeed, 0, 1000);
  EXPECT_EQ(a.bytes(), once.bytes());
}

TEST(CountingBloomCombine, UnionSaturatesEveryNibble) {
  // Every pair of counter values in every nibble position against the
  // scalar definition min(15, a + b).
  std::vector<uint8_t> a = Filter(256, 1).bytes(), b = a;
  for (uint64_t j = 0; j < 256; j++) {
    const unsigned x = j % 16, y = j / 16;
    a[kCellsOffset + j / 2] |= static_cast<uint8_t>(x << ((j & 1) * 4));
    b[kCellsOffset + j / 2] |= static_cast<uint8_t>(y << ((j & 1) * 4));
  }
  Filter fa = Filter::from_bytes(a);
  ASSERT_TRUE(fa.merge(Filter::from_bytes(b)).is_ok());
  const Filter s = fa.stored();
  for (uint64_t j = 0; j < 256; j++)
    EXPECT_EQ(counter(s.view().words, j), std::min(15u, static_cast<unsigned>(j % 16 + j / 16)))
        << "cell " << j;
  // And shifted by one cell, so that each pair meets in the other nibble and
  // in every nibble position of a word.
  std::vector<uint8_t> c = Filter(272, 1).bytes(), d = c;
  for (uint64_t j = 0; j < 256; j++) {
    const uint64_t cell = j + 1 + (j / 16) % 3;
    if (cell >= 272) continue;
    c[kCellsOffset + cell / 2] = static_cast<uint8_t>(
        (c[kCellsOffset + cell / 2] & ~(15u << ((cell & 1) * 4))) | ((j % 16) << ((cell & 1) * 4)));
    d[kCellsOffset + cell / 2] = static_cast<uint8_t>(
        (d[kCellsOffset + cell / 2] & ~(15u << ((cell & 1) * 4))) | ((j / 16) << ((cell & 1) * 4)));
  }
  Filter fc = Filter::from_bytes(c);
  const Filter fd = Filter::from_bytes(d);
  ASSERT_TRUE(fc.merge(fd).is_ok());
  const Filter sc = fc.stored();
  for (uint64_t cell = 0; cell < 272; cell++)
    EXPECT_EQ(counter(sc.view().words, cell),
              std::min(15u, counter(Filter::from_bytes(c).view().words, cell) +
                                counter(fd.view().words, cell)));
}

TEST(CountingBloomCombine, MismatchedParametersAreRefusedNamingBoth) {
  Filter a(1000, 4);
  const Filter b(1000, 5), c(1008, 4);
  Status st = a.merge(b);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_STREQ(st.message(),
               "cannot combine counting bloom filters with different parameters: "
               "(m=1000, k=4) and (m=1000, k=5)");
  st = a.merge(c);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_NE(std::string(st.message()).find("(m=1000, k=4) and (m=1008, k=4)"), std::string::npos);
  EXPECT_EQ(a.bytes(), Filter(1000, 4).bytes());
}

// --- to_bloom -------------------------------------------------------------------

TEST(CountingBloomToBloom, BitsAreTheBloomFilterOfTheSameValues) {
  for (uint64_t m : {8ull, 100ull, 1000ull, 4096ull, 9585ull}) {
    for (int k : {1, 3, 7}) {
      Filter c(m, k);
      bloom::test::Filter b(m, k);
      for (uint64_t i = 0; i < 300; i++) {
        c.add(key_hash(kSeed, i));
        b.add(key_hash(kSeed, i));
      }
      // Deleting values added twice and adding them back leaves the bits.
      for (uint64_t i = 0; i < 50; i++) c.add(key_hash(kSeed, i));
      for (uint64_t i = 0; i < 50; i++) c.remove(key_hash(kSeed, i));
      EXPECT_EQ(c.bloom_bytes(), b.bytes()) << "m=" << m << " k=" << k;
      const std::vector<uint8_t> bb = c.bloom_bytes();
      bloom::View bv;
      ASSERT_TRUE(bloom::parse(bb.data(), bb.size(), Validation::kCanonical, &bv).is_ok());
      EXPECT_EQ(bloom::bits_set(bv), c.counts().cells_set);
      EXPECT_DOUBLE_EQ(c.cardinality(), b.cardinality());
      EXPECT_DOUBLE_EQ(c.fpp(), b.fpp());
      for (uint64_t i = 0; i < 2000; i++)
        EXPECT_EQ(c.contains(key_hash(kSeed + 5, i)), bloom::contains_hash(bv, key_hash(kSeed + 5, i)));
    }
  }
}

TEST(CountingBloomToBloom, KeepsTheElementKind) {
  std::vector<uint8_t> b = valid_bytes();
  b[kElementKindOffset] = 3;
  const Filter f = Filter::from_bytes(b);
  EXPECT_EQ(f.bloom_bytes()[kElementKindOffset], 3);
}

// --- working encoding and the shared mechanism --------------------------------------

TEST(CountingBloomWorking, StoredFormEqualsDirectBuilding) {
  const Params params = test::params_for(5000, 0.01);
  Filter direct(params);
  Filter working = Filter::working(params);
  EXPECT_EQ(working.encoding(), Encoding::kQueued);
  for (uint64_t i = 0; i < 5000; i++) {
    direct.add(key_hash(kSeed, i));
    working.add(key_hash(kSeed, i));
  }
  EXPECT_EQ(working.view().pending, kPendingSlots);
  EXPECT_EQ(working.stored().bytes(), direct.bytes());
  // Fewer values than the queue holds: all of them pending.
  Filter few = Filter::working(params);
  few.add_keys(kSeed, 0, 5);
  EXPECT_EQ(few.view().pending, 5u);
  Filter few_direct(params);
  few_direct.add_keys(kSeed, 0, 5);
  EXPECT_EQ(few.stored().bytes(), few_direct.bytes());
}

TEST(CountingBloomWorking, UnionWithWorkingStates) {
  const Params params = test::params_for(3000, 0.01);
  Filter a = Filter::working(params), b = Filter::working(params), direct(params);
  a.add_keys(kSeed, 0, 1500);
  b.add_keys(kSeed, 1000, 3000);
  direct.add_keys(kSeed, 0, 1500);
  direct.add_keys(kSeed, 1000, 3000);
  ASSERT_TRUE(a.merge(b).is_ok());
  EXPECT_EQ(a.stored().bytes(), direct.bytes());
  // A stored state absorbing a working one counts its queue too.
  Filter s(params);
  s.add_keys(kSeed, 0, 1500);
  ASSERT_TRUE(s.merge(b).is_ok());
  EXPECT_EQ(s.bytes(), direct.bytes());
}

TEST(CountingBloomWorking, DeferredFromOneMebibyte) {
  EXPECT_FALSE(defer_adds(1000000));
  EXPECT_TRUE(defer_adds(2100000));
}

TEST(CountingBloomWorking, NeverAcceptedAsStored) {
  std::vector<uint8_t> b = Filter::working(Params{100, 3}).bytes();
  const Status st = parse_bytes(b);
  EXPECT_EQ(st.code(), StatusCode::kInvalidFormat);
  EXPECT_NE(std::string(st.message()).find("encoding 1 is an aggregate's working state"),
            std::string::npos);
  EXPECT_TRUE(parse_bytes(b, Validation::kStructure).is_ok());
  EXPECT_TRUE(Family::is_working(b.data(), b.size()));
}

TEST(CountingBloomWorking, CorruptQueueIsRejected) {
  const std::vector<uint8_t> base = Filter::working(Params{100, 3}).bytes();
  const size_t queue = filter_size(100);
  std::vector<uint8_t> b = base;
  b[queue] = kPendingSlots + 1;
  expect_invalid(b, "inconsistent queue", Validation::kStructure);
  b = base;
  b[queue + 4] = kPendingSlots;
  expect_invalid(b, "inconsistent queue", Validation::kStructure);
  b = base;
  b.pop_back();
  expect_invalid(b, "need", Validation::kStructure);
}

// state::add / merge / to_stored straight on the traits, as the server does,
// starting from a stored value (an INITCOND) that must be copied first.
TEST(CountingBloomWorking, SharedMechanism) {
  sketch::test::Arena arena;
  std::vector<uint8_t> stored = valid_bytes(200, 3, 10);
  uint8_t* state = nullptr;
  // Not owned: always a copy.
  ASSERT_TRUE(state::to_working<Family>(stored.data(), stored.size(), false, arena, &state).is_ok());
  EXPECT_NE(state, stored.data());
  // Owned and valid: in place.
  uint8_t* same = nullptr;
  ASSERT_TRUE(state::to_working<Family>(stored.data(), stored.size(), true, arena, &same).is_ok());
  EXPECT_EQ(same, stored.data());
  Family::Element e{key_hash(kSeed, 99)};
  uint8_t* added = nullptr;
  ASSERT_TRUE(state::add<Family>(state, stored.size(), e, arena, &added).is_ok());
  EXPECT_EQ(added, state);
  uint8_t* merged = nullptr;
  size_t merged_len = 0;
  const Filter other = Filter::from_bytes(valid_bytes(200, 3, 20));
  ASSERT_TRUE(state::merge<Family>(state, stored.size(), other.view(), arena, &merged,
                                   &merged_len).is_ok());
  EXPECT_EQ(merged, state);
  uint8_t* out = nullptr;
  size_t out_len = 0;
  ASSERT_TRUE(state::to_stored<Family>(state, merged_len, arena, &out, &out_len).is_ok());
  Filter expected(200, 3);
  expected.add_keys(kSeed, 0, 10);
  expected.add(key_hash(kSeed, 99));
  expected.add_keys(kSeed, 0, 20);
  EXPECT_EQ(std::vector<uint8_t>(out, out + out_len), expected.bytes());
  // Corrupt bytes are refused, never written.
  std::vector<uint8_t> bad = stored;
  bad[5] = 0;
  uint8_t* refused = nullptr;
  EXPECT_FALSE(state::to_working<Family>(bad.data(), bad.size(), true, arena, &refused).is_ok());
}

// --- corrupt input -------------------------------------------------------------------

TEST(CountingBloomCorrupt, ValidReferenceParses) {
  const std::vector<uint8_t> b = valid_bytes();
  View v;
  ASSERT_TRUE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  EXPECT_EQ(v.cells, 100u);
  EXPECT_EQ(v.hashes, 3);
  EXPECT_EQ(v.encoding, Encoding::kStored);
  EXPECT_EQ(v.words, b.data() + kCellsOffset);
  EXPECT_TRUE(Family::is_working(b.data(), b.size()));
}

TEST(CountingBloomCorrupt, EveryTruncationIsRejected) {
  const std::vector<uint8_t> b = valid_bytes(1000, 5, 50);
  for (size_t len = 0; len < b.size(); len++) {
    const std::vector<uint8_t> prefix(b.begin(), b.begin() + len);
    EXPECT_FALSE(parse_bytes(prefix).is_ok()) << "length " << len;
    EXPECT_FALSE(Family::is_working(prefix.data(), prefix.size()));
  }
  expect_invalid({b.begin(), b.begin() + 12}, "truncated before the cell count (12 bytes)");
  expect_invalid({b.begin(), b.end() - 8}, "1000 cells need 520 bytes, got 512");
}

TEST(CountingBloomCorrupt, BadHeader) {
  std::vector<uint8_t> b = valid_bytes();
  b[0] = 'X';
  expect_invalid(b, "bad magic");
  b = valid_bytes();
  b[2] = 3;
  expect_invalid(b, "not counting_bloom");
  b = valid_bytes();
  b[3] = 2;
  expect_invalid(b, "format version 2");
  b = valid_bytes();
  b[4] = 9;
  expect_invalid(b, "unknown hash identity 9");
  b = valid_bytes();
  b[6] = 2;
  expect_invalid(b, "unknown encoding 2");
  b = valid_bytes();
  b[7] = 16;
  expect_invalid(b, "unknown element kind 16");
}

TEST(CountingBloomCorrupt, HashesOutOfRange) {
  std::vector<uint8_t> b = valid_bytes();
  b[5] = 0;
  expect_invalid(b, "0 hashes outside 1..64");
  b[5] = 65;
  expect_invalid(b, "65 hashes outside 1..64");
  b[5] = 64;
  EXPECT_TRUE(parse_bytes(b).is_ok());
}

TEST(CountingBloomCorrupt, CellCountOutOfRange) {
  std::vector<uint8_t> b = valid_bytes();
  store_le64(b.data() + kCellCountOffset, 7);
  expect_invalid(b, "7 cells outside 8..1073610720");
  store_le64(b.data() + kCellCountOffset, kMaxCells + 1);
  expect_invalid(b, "1073610721 cells outside");
  store_le64(b.data() + kCellCountOffset, ~uint64_t{0});
  expect_invalid(b, "18446744073709551615 cells outside");
  store_le64(b.data() + kCellCountOffset, kMaxCells);
  expect_invalid(b, "1073610720 cells need 536805376 bytes, got 72");
}

TEST(CountingBloomCorrupt, LengthMustMatchTheCellCount) {
  std::vector<uint8_t> b = valid_bytes(100, 3);  // 72 bytes
  std::vector<uint8_t> longer = b;
  longer.push_back(0);
  expect_invalid(longer, "100 cells need 72 bytes, got 73");
  store_le64(b.data() + kCellCountOffset, 113);  // needs eight words
  expect_invalid(b, "113 cells need 80 bytes, got 72");
  store_le64(b.data() + kCellCountOffset, 96);  // needs six words
  expect_invalid(b, "96 cells need 64 bytes, got 72");
  store_le64(b.data() + kCellCountOffset, 112);  // seven words, like 100
  EXPECT_TRUE(parse_bytes(b).is_ok());
}

TEST(CountingBloomCorrupt, PaddingNibblesMustBeZero) {
  // m = 100: cells 100..111 of the last word are padding.
  for (int cell = 100; cell < 112; cell++) {
    for (unsigned value : {1u, 8u, 15u}) {
      std::vector<uint8_t> b = valid_bytes(100, 3);
      b[kCellsOffset + cell / 2] |= static_cast<uint8_t>(value << ((cell & 1) * 4));
      expect_invalid(b, "padding cells past cell 100 are not zero");
    }
  }
  std::vector<uint8_t> b = valid_bytes(100, 3);
  b[kCellsOffset + 99 / 2] |= 0xf0;  // cell 99 is real
  EXPECT_TRUE(parse_bytes(b).is_ok());
  b = valid_bytes(128, 3);
  b.back() = 0xff;
  EXPECT_TRUE(parse_bytes(b).is_ok());
}

TEST(CountingBloomCorrupt, RandomByteChangesGiveAValidFilterOrAnError) {
  const std::vector<uint8_t> base = valid_bytes(300, 4, 40);
  uint64_t s = 12345;
  for (int trial = 0; trial < 20000; trial++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    std::vector<uint8_t> b = base;
    b[(s >> 33) % b.size()] ^= static_cast<uint8_t>(1 + (s >> 17) % 255);
    View v;
    const bool ok = parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok();
    ASSERT_EQ(ok, Family::is_working(b.data(), b.size()));
    if (ok) {
      ASSERT_EQ(filter_size(v.cells), b.size());
      (void)count_cells(v);
      (void)contains_hash(v, key_hash(kSeed, 1));
      (void)delete_hash(b.data(), key_hash(kSeed, 1));
    }
  }
}

// --- parameters and sizing ----------------------------------------------------------

TEST(CountingBloomSizing, BloomsFormulas) {
  for (int64_t n : {1ll, 100ll, 1000000ll}) {
    for (double p : {0.1, 0.01, 0.001}) {
      Params c;
      bloom::Params b;
      ASSERT_TRUE(size_for(n, p, &c).is_ok());
      ASSERT_TRUE(bloom::size_for(n, p, &b).is_ok());
      EXPECT_EQ(c.cells, b.bits);
      EXPECT_EQ(c.hashes, b.hashes);
    }
  }
  Params c;
  ASSERT_TRUE(size_for(1000000, 0.01, &c).is_ok());
  EXPECT_EQ(c.cells, 9585059u);
  EXPECT_EQ(c.hashes, 7);
}

TEST(CountingBloomSizing, BadParameters) {
  Params c;
  Status st = size_for(0, 0.01, &c);
  EXPECT_EQ(st.code(), StatusCode::kInvalidParameter);
  EXPECT_STREQ(st.message(), "counting bloom filter capacity n must be at least 1, got 0");
  st = size_for(10, 1.0, &c);
  EXPECT_EQ(st.code(), StatusCode::kInvalidParameter);
  st = size_for(10, std::nan(""), &c);
  EXPECT_EQ(st.code(), StatusCode::kInvalidParameter);
  st = size_for(10, 1e-30, &c);
  EXPECT_EQ(st.code(), StatusCode::kInvalidParameter);
  EXPECT_NE(std::string(st.message()).find("hashes"), std::string::npos);
  // Too large to build, but plan_size still answers.
  st = size_for(200000000, 0.01, &c);
  EXPECT_EQ(st.code(), StatusCode::kInvalidParameter);
  EXPECT_NE(std::string(st.message()).find("above the maximum of 1073610720 cells"),
            std::string::npos);
  ASSERT_TRUE(plan_size(200000000, 0.01, &c).is_ok());
  EXPECT_GT(c.cells, kMaxCells);
  EXPECT_TRUE(check_params(8, 1).is_ok());
  EXPECT_TRUE(check_params(static_cast<int64_t>(kMaxCells), 64).is_ok());
  EXPECT_FALSE(check_params(7, 1).is_ok());
  EXPECT_FALSE(check_params(static_cast<int64_t>(kMaxCells) + 1, 1).is_ok());
  EXPECT_FALSE(check_params(100, 0).is_ok());
  EXPECT_FALSE(check_params(100, 65).is_ok());
}

TEST(CountingBloomEstimate, CardinalityAndFpp) {
  Filter f(test::params_for(10000, 0.01));
  EXPECT_EQ(f.cardinality(), 0.0);
  EXPECT_EQ(f.fpp(), 0.0);
  f.add_keys(kSeed, 0, 10000);
  EXPECT_NEAR(f.cardinality(), 10000, 300);
  EXPECT_NEAR(f.fpp(), 0.01, 0.002);
  for (uint64_t i = 0; i < 5000; i++) f.remove(key_hash(kSeed, i));
  EXPECT_NEAR(f.cardinality(), 5000, 150);
}

}  // namespace
}  // namespace sketch::counting_bloom
