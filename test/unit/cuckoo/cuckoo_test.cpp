// Cuckoo filter core: the alternate-bucket involution, format and validation
// of every field, add / add_new / delete / count / contains, the undone kick
// path, growth, determinism, union, and the shared mechanism on its traits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cuckoo_test_util.h"

namespace sketch::cuckoo {
namespace {

using test::Filter;
using test::key_hash;
using test::params_for;

constexpr uint64_t kSeed = 20240901;

Status parse_bytes(const std::vector<uint8_t>& b, Validation validation = Validation::kCanonical) {
  View v;
  return parse(b.data(), b.size(), validation, &v);
}

void expect_invalid(const std::vector<uint8_t>& b, const std::string& part) {
  const Status st = parse_bytes(b);
  EXPECT_EQ(st.code(), StatusCode::kInvalidFormat) << part;
  EXPECT_NE(std::string(st.message()).find(part), std::string::npos) << st.message();
}

std::vector<uint8_t> some_filter(uint64_t keys = 20) {
  Filter f(100, 0.01);
  for (uint64_t i = 0; i < keys; i++) f.add(key_hash(kSeed, i));
  return f.stored().bytes();
}

TEST(CuckooAlt, IsAnInvolutionForManyBucketCounts) {
  const uint64_t counts[] = {1, 2, 3, 5, 7, 8, 13, 97, 100, 101, 1000, 4093, 65536, 1000003,
                             (uint64_t{1} << 33) + 17};
  for (uint64_t buckets : counts) {
    for (uint32_t fp = 1; fp < 3000; fp += 7) {
      for (uint64_t k = 0; k < 20; k++) {
        const uint64_t i = (k * 0x9E3779B97F4A7C15ULL) % buckets;
        const uint64_t j = alt_bucket(i, fp, buckets);
        ASSERT_LT(j, buckets);
        ASSERT_EQ(alt_bucket(j, fp, buckets), i) << buckets << " " << fp << " " << i;
      }
    }
  }
}

TEST(CuckooSizing, FingerprintBitsAndBuckets) {
  Params p;
  ASSERT_TRUE(plan_size(1000000, 0.01, 4, &p).is_ok());
  EXPECT_EQ(p.fingerprint_bits, 10);  // ceil(log2(800))
  EXPECT_EQ(p.buckets, static_cast<uint64_t>(std::ceil(1000000 / (4 * 0.90))));
  ASSERT_TRUE(plan_size(1000000, 0.001, 4, &p).is_ok());
  EXPECT_EQ(p.fingerprint_bits, 13);
  ASSERT_TRUE(plan_size(10, 0.5, 2, &p).is_ok());
  EXPECT_EQ(p.fingerprint_bits, 4);  // at least 4
  ASSERT_TRUE(plan_size(1, 0.01, 8, &p).is_ok());
  EXPECT_EQ(p.buckets, 1u);
  EXPECT_EQ(plan_size(0, 0.01, 4, &p).code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(plan_size(10, 0.0, 4, &p).code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(plan_size(10, 1.0, 4, &p).code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(plan_size(10, 0.01, 3, &p).code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(plan_size(10, 1e-12, 4, &p).code(), StatusCode::kInvalidParameter);
  ASSERT_TRUE(plan_size(10, 2.0 * 4 / 4294967296.0, 4, &p).is_ok());
  EXPECT_EQ(p.fingerprint_bits, 32);
  EXPECT_EQ(size_for(int64_t{1} << 40, 0.01, 4, &p).code(), StatusCode::kOverflow);
  EXPECT_TRUE(plan_size(int64_t{1} << 40, 0.01, 4, &p).is_ok());
}

TEST(CuckooFormat, EmptyLayout) {
  const Params params{10, 12, 4};
  const std::vector<uint8_t> b = test::empty_bytes(params);
  // 16 + (16 + ceil(10*4*12/64)*8 = 16 + 64) + 8
  ASSERT_EQ(b.size(), 16u + 16u + 64u + 8u);
  EXPECT_EQ(b[0], 'S');
  EXPECT_EQ(b[2], static_cast<uint8_t>(SketchKind::kCuckoo));
  EXPECT_EQ(b[3], 2);
  EXPECT_EQ(b[5], 12);
  EXPECT_EQ(b[6], 0);
  EXPECT_EQ(b[8], 4);
  EXPECT_EQ(b[9], 1);
  EXPECT_EQ(load_le64(b.data() + 16), 10u);
  EXPECT_EQ(load_le64(b.data() + 24), 0u);
  EXPECT_TRUE(parse_bytes(b).is_ok());
  EXPECT_TRUE(Family::is_working(b.data(), b.size()));
}

TEST(CuckooFormat, RejectsEveryInconsistency) {
  const std::vector<uint8_t> good = some_filter();
  ASSERT_TRUE(parse_bytes(good).is_ok());
  std::vector<uint8_t> b;
  b = good; b[5] = 3; expect_invalid(b, "fingerprint bits");
  b = good; b[5] = 33; expect_invalid(b, "fingerprint bits");
  b = good; b[8] = 3; expect_invalid(b, "bucket size");
  b = good; b[8] = 16; expect_invalid(b, "bucket size");
  b = good; b[9] = 0; expect_invalid(b, "sub-filter count");
  b = good; b[9] = 33; expect_invalid(b, "sub-filter count");
  b = good; b[9] = 2; expect_invalid(b, "");
  b = good; b[12] = 1; expect_invalid(b, "reserved");
  b = good; b[6] = 1; expect_invalid(b, "working state");
  b = good; b[6] = 2; expect_invalid(b, "encoding 2 is an aggregate's working state");
  b = good; b[6] = 3; expect_invalid(b, "encoding 3 is an aggregate's working state");
  b = good; b[6] = 4; expect_invalid(b, "encoding 4 is an aggregate's working state");
  b = good; b[6] = 5; expect_invalid(b, "unknown encoding");
  b = good; b[3] = 3; expect_invalid(b, "unsupported cuckoo format version 3");
  b = good; b[3] = 1; EXPECT_TRUE(parse_bytes(b).is_ok());  // version 1: the same layout
  // A distinct state (encoding 3) parses only with a whole seen set after
  // its layout: a power-of-two capacity in range, fewer entries than slots.
  {
    std::vector<uint8_t> d = good;
    d[6] = 3;
    EXPECT_FALSE(parse_bytes(d, Validation::kStructure).is_ok());
    d.resize(good.size() + seen_region_bytes(kMinSeenCapacity), 0);
    store_le64(d.data() + good.size() + 8, kMinSeenCapacity);
    EXPECT_TRUE(parse_bytes(d, Validation::kStructure).is_ok());
    EXPECT_TRUE(Family::is_working(d.data(), d.size()));
    std::vector<uint8_t> e = d;
    store_le64(e.data() + good.size() + 8, kMinSeenCapacity + 1);
    EXPECT_FALSE(parse_bytes(e, Validation::kStructure).is_ok());
    EXPECT_FALSE(Family::is_working(e.data(), e.size()));
    e = d;
    store_le64(e.data() + good.size(), kMinSeenCapacity);
    EXPECT_FALSE(parse_bytes(e, Validation::kStructure).is_ok());
    e = d;
    e.pop_back();
    EXPECT_FALSE(Family::is_working(e.data(), e.size()));
  }
  b = good; store_le64(b.data() + 16, 0); expect_invalid(b, "0 buckets");
  b = good; store_le64(b.data() + 16, load_le64(b.data() + 16) + 1000); expect_invalid(b, "longer");
  b = good; store_le64(b.data() + 16, ~uint64_t{0}); expect_invalid(b, "longer");
  b = good; store_le64(b.data() + 24, load_le64(b.data() + 24) + 1); expect_invalid(b, "counts");
  b = good; store_le64(b.data() + 24, ~uint64_t{0}); expect_invalid(b, "count above");
  b = good; b.back() = 1; expect_invalid(b, "guard");
  b = good; b.push_back(0); expect_invalid(b, "need");
  b = good; b.pop_back(); expect_invalid(b, "guard");
  b = good; b.resize(20); expect_invalid(b, "truncated");
  b = good; b.resize(7); EXPECT_FALSE(parse_bytes(b).is_ok());
  // A padding bit: 28 buckets * 4 * 10 bits = 1120 bits = 17.5 words -> 18.
  {
    Params params;
    ASSERT_TRUE(size_for(100, 0.01, 4, &params).is_ok());
    ASSERT_EQ(params.buckets, 28u);
    ASSERT_EQ(params.fingerprint_bits, 10);
    b = good;
    const size_t area_end = 32 + area_bytes(28, 4, 10);
    b[area_end - 1] |= 0x80;
    expect_invalid(b, "padding");
  }
  // A stored value with a tail is not a stored value.
  b = good; b.resize(b.size() + 8);
  EXPECT_FALSE(Family::is_working(b.data(), b.size()));
  b[6] = 1;
  EXPECT_TRUE(Family::is_working(b.data(), b.size()));
  EXPECT_TRUE(parse_bytes(b, Validation::kStructure).is_ok());
  // Structure checks refuse every bad chain too.
  for (size_t cut = 0; cut < good.size(); cut++) {
    std::vector<uint8_t> t(good.begin(), good.begin() + cut);
    EXPECT_FALSE(Family::is_working(t.data(), t.size())) << cut;
    EXPECT_FALSE(parse_bytes(t, Validation::kStructure).is_ok()) << cut;
  }
}

TEST(CuckooOps, AddContainsCountDelete) {
  Filter f(1000, 0.01);
  for (uint64_t i = 0; i < 500; i++) f.add(key_hash(kSeed, i));
  for (uint64_t i = 0; i < 500; i++) ASSERT_TRUE(f.contains(key_hash(kSeed, i)));
  EXPECT_EQ(held(f.view()), 500u);
  const Hash128 h = key_hash(kSeed, 1);
  EXPECT_GE(f.count(h), 1);
  const int64_t before = f.count(h);
  f.add(h);
  EXPECT_EQ(f.count(h), before + 1);
  f.add(h, true);  // add_new: already present
  EXPECT_EQ(f.count(h), before + 1);
  EXPECT_TRUE(f.remove(h));
  EXPECT_TRUE(f.remove(h));
  EXPECT_EQ(f.count(h), before - 1);
  for (uint64_t i = 0; i < 500; i += 2) ASSERT_TRUE(f.remove(key_hash(kSeed, i))) << i;
  for (uint64_t i = 3; i < 500; i += 2) {
    ASSERT_TRUE(f.contains(key_hash(kSeed, i))) << i;
  }
  EXPECT_EQ(held(f.view()), 249u);
  // Absent: unchanged.
  const std::vector<uint8_t> bytes = f.bytes();
  uint64_t removed = 0;
  for (uint64_t i = 0; i < 1000; i++) removed += f.remove(key_hash(kSeed + 1, i));
  EXPECT_LT(removed, 30u);  // only false positives remove anything
  if (removed == 0) {
    EXPECT_EQ(f.bytes(), bytes);
  }
  const std::vector<uint8_t> stored = f.stored().bytes();
  EXPECT_TRUE(parse_bytes(stored).is_ok());
}

TEST(CuckooOps, SameValueAddedTwoBPlusOneTimesGrows) {
  Filter f(1000, 0.01);
  const Hash128 h = key_hash(kSeed, 7);
  for (int i = 0; i < 8; i++) EXPECT_EQ(f.add(h), 0u);
  EXPECT_EQ(f.view().subfilters, 1);
  EXPECT_EQ(f.add(h), 1u);  // 2b + 1 copies: both buckets full, kicks cannot help
  EXPECT_EQ(f.view().subfilters, 2);
  EXPECT_EQ(f.count(h), 9);
  EXPECT_TRUE(parse_bytes(f.stored().bytes()).is_ok());
}

TEST(CuckooOps, FailedKickPathLeavesBytesUnchanged) {
  // A filter of 2 buckets: fill it, then an add that cannot fit.
  Params params{2, 16, 4};
  std::vector<uint8_t> b = test::empty_bytes(params);
  uint64_t i = 0;
  while (add_hash(b.data(), key_hash(kSeed, i)) == AddResult::kAdded) i++;
  const std::vector<uint8_t> full = b;
  for (uint64_t k = 0; k < 50; k++) {
    EXPECT_EQ(add_hash(b.data(), key_hash(kSeed + 2, k)), AddResult::kFull);
    ASSERT_EQ(b, full);
  }
  // A larger filter at its limit.
  Params big{1000, 12, 4};
  b = test::empty_bytes(big);
  int full_count = 0;
  for (uint64_t k = 0; full_count < 20 && k < 100000; k++) {
    const std::vector<uint8_t> before = b;
    if (add_hash(b.data(), key_hash(kSeed + 3, k)) == AddResult::kFull) {
      full_count++;
      ASSERT_EQ(b, before);
    }
  }
  EXPECT_EQ(full_count, 20);
  View v;
  ASSERT_TRUE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  EXPECT_GT(held(v), 3600u);  // > 90% load before the first failure
}

TEST(CuckooOps, GrowthKeepsEveryMember) {
  Filter f(1000, 0.01);
  size_t grown = 0;
  for (uint64_t i = 0; i < 10000; i++) grown += f.add(key_hash(kSeed, i));
  EXPECT_GE(grown, 3u);
  EXPECT_GE(f.view().subfilters, 4);
  for (uint64_t i = 0; i < 10000; i++) ASSERT_TRUE(f.contains(key_hash(kSeed, i))) << i;
  EXPECT_EQ(held(f.view()), 10000u);
  const View v = f.view();
  for (int j = 1; j < v.subfilters; j++) EXPECT_EQ(v.buckets[j], v.buckets[j - 1] * 2);
  EXPECT_TRUE(parse_bytes(f.stored().bytes()).is_ok());
}

TEST(CuckooOps, GrowthLimits) {
  Filter f(10, 0.01);
  View v = f.view();
  size_t size = 0;
  EXPECT_TRUE(plan_grow(v, &size).is_ok());
  // A chain of 32 sub-filters cannot grow.
  std::vector<uint8_t> b = f.bytes();
  b[9] = 32;
  std::vector<uint8_t> chain(16);
  std::memcpy(chain.data(), b.data(), 16);
  uint64_t buckets = 1;
  for (int j = 0; j < 32; j++) {
    std::vector<uint8_t> sub(subfilter_bytes(buckets, 4, v.fingerprint_bits));
    store_le64(sub.data(), buckets);
    chain.insert(chain.end(), sub.begin(), sub.end());
  }
  chain.resize(chain.size() + 8);
  ASSERT_TRUE(parse_bytes(chain).is_ok());
  ASSERT_TRUE(parse(chain.data(), chain.size(), Validation::kCanonical, &v).is_ok());
  const Status st = plan_grow(v, &size);
  EXPECT_EQ(st.code(), StatusCode::kOverflow);
  EXPECT_NE(std::string(st.message()).find("32 sub-filters"), std::string::npos);
  // Bytes: a sub-filter whose double passes kMaxDumpableBytes.
  Params params;
  ASSERT_TRUE(size_for(300000000, 0.01, 4, &params).is_ok());
  b.assign(filter_size(params), 0);
  write_empty(b.data(), params);
  ASSERT_TRUE(parse(b.data(), b.size(), Validation::kStructure, &v).is_ok());
  const Status st2 = plan_grow(v, &size);
  EXPECT_EQ(st2.code(), StatusCode::kOverflow);
  EXPECT_NE(std::string(st2.message()).find("536805376"), std::string::npos) << st2.message();
  EXPECT_EQ(size, SIZE_MAX);
}

// Found by fuzz_cuckoo_parse (regressions/cuckoo_parse/
// count_at_slots_add_past_bound.bin): a working state that parse(kStructure)
// accepts may carry any count up to B*b. An add written into it in place
// counted past B*b (and a delete from a count of 0 wrapped around), so the
// state stopped parsing and the next row's growth found it corrupt. Counts
// now stay within 0..B*b; exact counts never reach the bounds this way.
TEST(CuckooOps, CountsStayWithinTheirSlotsInAStructureCheckedState) {
  std::vector<uint8_t> w = test::empty_bytes(Params{4, 8, 2});
  w[6] = static_cast<uint8_t>(Encoding::kSpareTail);
  const size_t count_at = kFirstSubfilterOffset + 8;
  store_le64(w.data() + count_at, 8);  // says full, holds nothing
  ASSERT_TRUE(parse_bytes(w, Validation::kStructure).is_ok());
  ASSERT_EQ(add_hash(w.data(), key_hash(kSeed, 1)), AddResult::kAdded);
  EXPECT_EQ(load_le64(w.data() + count_at), 8u);
  ASSERT_TRUE(parse_bytes(w, Validation::kStructure).is_ok());
  View v;
  ASSERT_TRUE(parse(w.data(), w.size(), Validation::kStructure, &v).is_ok());
  EXPECT_TRUE(contains_hash(v, key_hash(kSeed, 1)));

  store_le64(w.data() + count_at, 0);  // says empty, holds one
  ASSERT_TRUE(delete_hash(w.data(), key_hash(kSeed, 1)));
  EXPECT_EQ(load_le64(w.data() + count_at), 0u);
  ASSERT_TRUE(parse_bytes(w, Validation::kStructure).is_ok());

  // The same through the mechanism, as the executor's state: every add
  // lands and the state keeps parsing.
  store_le64(w.data() + count_at, 8);
  sketch::test::StateBuffer<Family> state;
  state.assign(w);
  for (uint64_t i = 0; i < 40; i++) {
    Family::Element e{key_hash(kSeed + 1, i), false};
    state.add(e);
    ASSERT_TRUE(parse_bytes(state.bytes(), Validation::kStructure).is_ok()) << i;
  }
  for (uint64_t i = 0; i < 40; i++) EXPECT_TRUE(contains_hash(state.view(), key_hash(kSeed + 1, i)));

  // Exact counts are unchanged by the bound: a filter filled to its first
  // refusal still counts every slot.
  Filter f(Params{4, 8, 2});
  for (uint64_t i = 0; i < 8; i++) f.add(key_hash(kSeed + 2, i));
  EXPECT_TRUE(parse_bytes(f.stored().bytes()).is_ok());
}

TEST(CuckooOps, Deterministic) {
  Filter a(2000, 0.001), b(2000, 0.001);
  for (uint64_t i = 0; i < 5000; i++) {
    a.add(key_hash(kSeed, i));
    b.add(key_hash(kSeed, i));
    if (i % 3 == 0) {
      a.remove(key_hash(kSeed, i / 2));
      b.remove(key_hash(kSeed, i / 2));
    }
  }
  EXPECT_EQ(a.stored().bytes(), b.stored().bytes());
}

TEST(CuckooUnion, AMultisetSumAndSelfUnion) {
  Filter f(1000, 0.01);
  for (uint64_t i = 0; i < 400; i++) f.add(key_hash(kSeed, i));
  Filter u = f;
  ASSERT_TRUE(u.merge(f).is_ok());
  EXPECT_EQ(held(u.view()), 2 * held(f.view()));
  EXPECT_EQ(u.view().subfilters, 1);
  for (uint64_t i = 0; i < 400; i++) ASSERT_EQ(u.count(key_hash(kSeed, i)), 2 * f.count(key_hash(kSeed, i)));
  for (uint64_t i = 0; i < 20000; i++) {
    const Hash128 h = key_hash(kSeed + 9, i);
    ASSERT_EQ(u.contains(h), f.contains(h));
  }
  // A full filter united with itself: every copy kept in appended room.
  Filter g(1000, 0.01);
  for (uint64_t i = 0; i < 1000; i++) g.add(key_hash(kSeed, i));
  Filter v = g;
  ASSERT_TRUE(v.merge(g).is_ok());
  EXPECT_EQ(held(v.view()), 2 * held(g.view()));
}

TEST(CuckooUnion, DifferentSizesAppendSubfilters) {
  Filter a(1000, 0.01), b(50000, 0.01);
  for (uint64_t i = 0; i < 900; i++) a.add(key_hash(kSeed, i));
  for (uint64_t i = 0; i < 40000; i++) b.add(key_hash(kSeed + 1, i));
  Filter u = a;
  ASSERT_TRUE(u.merge(b).is_ok());
  EXPECT_EQ(u.view().subfilters, 2);
  EXPECT_EQ(u.view().buckets[1], b.view().buckets[0]);
  // Set semantics: a fingerprint of b already in its bucket pair of a (a
  // collision of two keys, below 1% at this load) is not added twice.
  EXPECT_LE(held(u.view()), 40900u);
  EXPECT_GE(held(u.view()), 40900u - 400u);
  for (uint64_t i = 0; i < 900; i++) ASSERT_TRUE(u.contains(key_hash(kSeed, i)));
  for (uint64_t i = 0; i < 40000; i++) ASSERT_TRUE(u.contains(key_hash(kSeed + 1, i)));
  // Same size, overfull together: an appended sub-filter takes the rest.
  Filter c(1000, 0.01), d(1000, 0.01);
  for (uint64_t i = 0; i < 1000; i++) c.add(key_hash(kSeed + 2, i));
  for (uint64_t i = 0; i < 1000; i++) d.add(key_hash(kSeed + 3, i));
  ASSERT_TRUE(c.merge(d).is_ok());
  EXPECT_EQ(c.view().subfilters, 2);
  for (uint64_t i = 0; i < 1000; i++) {
    ASSERT_TRUE(c.contains(key_hash(kSeed + 2, i)));
    ASSERT_TRUE(c.contains(key_hash(kSeed + 3, i)));
  }
  EXPECT_TRUE(parse_bytes(c.stored().bytes()).is_ok());
  // Many merges into one state reuse its tail.
  Filter acc(1000, 0.01);
  for (int part = 0; part < 30; part++) {
    Filter p(1000, 0.01);
    for (uint64_t i = 0; i < 100; i++) p.add(key_hash(kSeed + 10, part * 100 + i));
    ASSERT_TRUE(acc.merge(p).is_ok());
  }
  for (uint64_t i = 0; i < 3000; i++) ASSERT_TRUE(acc.contains(key_hash(kSeed + 10, i)));
  EXPECT_TRUE(parse_bytes(acc.stored().bytes()).is_ok());
}

TEST(CuckooUnion, RefusesMismatches) {
  Filter a(1000, 0.01), b(1000, 0.001), c(1000, 0.01, 2);
  const Status st = a.merge(b);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_NE(std::string(st.message()).find("fingerprint_bits=10"), std::string::npos);
  EXPECT_NE(std::string(st.message()).find("fingerprint_bits=13"), std::string::npos);
  EXPECT_EQ(a.merge(c).code(), StatusCode::kMismatch);
}

TEST(CuckooFpp, FormulaAndEmpty) {
  Filter f(1000, 0.01);
  EXPECT_EQ(estimate_fpp(f.view()), 0.0);
  for (uint64_t i = 0; i < 900; i++) f.add(key_hash(kSeed, i));
  const double load = 900.0 / capacity(f.view());
  const double want = 1 - std::pow(1 - 1.0 / 1023, 8 * load);
  EXPECT_NEAR(estimate_fpp(f.view()), want, 1e-12);
  EXPECT_LT(estimate_fpp(f.view()), 0.01);
}

TEST(CuckooState, MechanismConvertsStoredAndWorking) {
  Filter f(1000, 0.01);
  for (uint64_t i = 0; i < 100; i++) f.add(key_hash(kSeed, i));
  const std::vector<uint8_t> stored = f.stored().bytes();
  EXPECT_EQ(stored[6], 0);
  EXPECT_TRUE(Family::is_working(stored.data(), stored.size()));
  // A working state with a tail: its stored form drops the tail.
  Filter g(1000, 0.01), h(1000, 0.01);
  for (uint64_t i = 0; i < 10; i++) h.add(key_hash(kSeed, i));
  ASSERT_TRUE(g.merge(h).is_ok());
  EXPECT_EQ(g.view().encoding, Encoding::kSpareTail);
  EXPECT_GT(g.view().size, g.view().used);
  const std::vector<uint8_t> gs = g.stored().bytes();
  EXPECT_EQ(gs.size(), g.view().used);
  EXPECT_TRUE(parse_bytes(gs).is_ok());
  EXPECT_EQ(gs, h.stored().bytes());
}

// --- the deferred encoding ---------------------------------------------------

TEST(CuckooDeferred, QueuedAddsGiveTheBytesOfImmediateAdds) {
  // Through growth too: n = 500 filled with 3,000 values (repeats included).
  Filter immediate(500, 0.01);
  Filter deferred = Filter::deferred(params_for(500, 0.01));
  size_t grown = 0;
  for (uint64_t i = 0; i < 3000; i++) {
    const Hash128 h = key_hash(kSeed, (i * 7919) % 2500);
    immediate.add(h, true);
    grown += deferred.add(h, true);
  }
  EXPECT_GT(grown, 0u);
  EXPECT_EQ(deferred.view().encoding, Encoding::kDeferred);
  EXPECT_EQ(deferred.view().pending, kPendingSlots);
  // Every value is present once settled: the stored form settles.
  const Filter settled = deferred.stored();
  EXPECT_EQ(settled.bytes(), immediate.stored().bytes());
  for (uint64_t k = 0; k < 2500; k++) EXPECT_TRUE(settled.contains(key_hash(kSeed, k))) << k;
}

TEST(CuckooDeferred, AMultisetAddOrAMergeSettlesTheQueueFirst) {
  Filter deferred = Filter::deferred(params_for(1000, 0.01));
  for (uint64_t i = 0; i < 10; i++) deferred.add(key_hash(kSeed, i), true);
  EXPECT_EQ(deferred.view().pending, 10u);
  // cuckoo_add (a copy, not set semantics) adds the queue, then itself.
  deferred.add(key_hash(kSeed, 3), false);
  EXPECT_EQ(deferred.view().pending, 0u);
  EXPECT_EQ(deferred.count(key_hash(kSeed, 3)), 2);
  EXPECT_EQ(held(deferred.view()), 11u);
  // A merge into a deferred state, and of a deferred other, settles both.
  Filter a = Filter::deferred(params_for(1000, 0.01));
  Filter b = Filter::deferred(params_for(1000, 0.01));
  for (uint64_t i = 0; i < 5; i++) a.add(key_hash(kSeed, i), true);
  for (uint64_t i = 100; i < 107; i++) b.add(key_hash(kSeed, i), true);
  ASSERT_TRUE(a.merge(b).is_ok());
  EXPECT_EQ(held(a.view()), 12u);
  for (uint64_t i = 100; i < 107; i++) EXPECT_TRUE(a.contains(key_hash(kSeed, i)));
}

TEST(CuckooDeferred, ParseAndStructureCheckTheQueue) {
  Filter f = Filter::deferred(params_for(100, 0.01));
  for (uint64_t i = 0; i < 3; i++) f.add(key_hash(kSeed, i), true);
  std::vector<uint8_t> b = f.bytes();
  View v;
  ASSERT_TRUE(parse(b.data(), b.size(), Validation::kStructure, &v).is_ok());
  EXPECT_EQ(v.pending, 3u);
  EXPECT_EQ(pending_of(b.data(), b.size()), 3u);
  EXPECT_TRUE(Family::is_working(b.data(), b.size()));
  EXPECT_FALSE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  // A count past the slots, a head outside them, a missing or longer queue.
  const size_t queue = v.used;
  for (auto [offset, value] : {std::pair<size_t, uint8_t>{0, 17}, {4, 16}}) {
    std::vector<uint8_t> bad = b;
    bad[queue + offset] = value;
    EXPECT_FALSE(parse(bad.data(), bad.size(), Validation::kStructure, &v).is_ok()) << offset;
    EXPECT_FALSE(Family::is_working(bad.data(), bad.size())) << offset;
  }
  for (size_t len : {b.size() - 1, b.size() + 8, v.used}) {
    std::vector<uint8_t> bad(b.begin(), b.begin() + std::min(len, b.size()));
    bad.resize(len);
    EXPECT_FALSE(parse(bad.data(), bad.size(), Validation::kStructure, &v).is_ok()) << len;
    EXPECT_FALSE(Family::is_working(bad.data(), bad.size())) << len;
  }
}

}  // namespace
}  // namespace sketch::cuckoo
