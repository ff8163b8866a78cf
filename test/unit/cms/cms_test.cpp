// Count-min sketch: counting, conservative update, saturation, merging, the
// heavy-hitter candidate list, the stored format and its validation.
//
// The central properties: an estimate is never below the true count, however
// the sketch was put together (plain or conservative, merged in any
// grouping); merging is the sketch of the concatenated stream (counters and
// N, byte for byte); and a value missing from the candidate list has a true
// count no larger than any candidate's estimate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cms_test_util.h"
#include "core/cms/cms_internal.h"

namespace sketch::cms {
namespace {

using test::exact_counts;
using test::key_hash;
using test::params;
using test::Sketch;
using test::Zipf;

constexpr uint64_t kSeed = 20240601;

// A stream of the given shape, fully deterministic.
struct Stream {
  const char* name;
  std::vector<uint64_t> keys;
};

std::vector<Stream> streams() {
  std::vector<Stream> out;
  out.push_back({"uniform 20k over 1k", test::uniform_keys(20000, 1000, kSeed)});
  out.push_back({"uniform 50k over 50k", test::uniform_keys(50000, 50000, kSeed + 1)});
  out.push_back({"zipf 1.0 50k over 10k", Zipf(10000, 1.0, kSeed + 2).take(50000)});
  out.push_back({"zipf 1.3 50k over 100k", Zipf(100000, 1.3, kSeed + 3).take(50000)});
  out.push_back({"zipf 0.7 30k over 5k", Zipf(5000, 0.7, kSeed + 4).take(30000)});
  return out;
}

Sketch build(const Params& p, const std::vector<uint64_t>& keys) {
  Sketch s(p);
  s.add_all(keys);
  return s;
}

// --- parameters ----------------------------------------------------------------

TEST(CmsParams, DefaultsAre2719By5) {
  Params p;
  ASSERT_TRUE(params_for_accuracy(kDefaultEpsilon, kDefaultDelta, false, 100, &p).is_ok());
  EXPECT_EQ(p.width, 2719u);
  EXPECT_EQ(p.depth, 5u);
  EXPECT_EQ(p.candidates, 100u);
  const Params d = default_params();
  EXPECT_EQ(d.width, p.width);
  EXPECT_EQ(d.depth, p.depth);
  EXPECT_EQ(d.candidates, p.candidates);
  EXPECT_FALSE(d.conservative);
}

TEST(CmsParams, WidthAndDepthFollowEpsilonAndDelta) {
  struct Case {
    double epsilon, delta;
    uint32_t width, depth;
  };
  for (const Case& c : {Case{0.01, 0.01, 272, 5}, Case{0.1, 0.5, 28, 1}, Case{0.5, 0.9, 6, 1},
                        Case{0.001, 1e-10, 2719, 24}, Case{0.0001, 0.001, 27183, 7}}) {
    Params p;
    ASSERT_TRUE(params_for_accuracy(c.epsilon, c.delta, true, 7, &p).is_ok());
    EXPECT_EQ(p.width, c.width) << c.epsilon;
    EXPECT_EQ(p.depth, c.depth) << c.delta;
    EXPECT_TRUE(p.conservative);
    EXPECT_EQ(p.candidates, 7u);
    // The sketch's own guarantees are at least as good as those asked for.
    EXPECT_LE(epsilon_of(p.width), c.epsilon);
    EXPECT_LE(delta_of(p.depth), c.delta);
  }
}

TEST(CmsParams, OutOfRangeIsRefusedWithAClearMessage) {
  Params p;
  struct Case {
    double epsilon, delta;
    int64_t k;
    const char* needle;
  };
  for (const Case& c : {Case{0, 0.01, 100, "epsilon"}, Case{1, 0.01, 100, "epsilon"},
                        Case{-0.5, 0.01, 100, "epsilon"}, Case{NAN, 0.01, 100, "epsilon"},
                        Case{0.01, 0, 100, "delta"}, Case{0.01, 1, 100, "delta"},
                        Case{0.01, NAN, 100, "delta"}, Case{0.01, 1e-15, 100, "rows"},
                        Case{0.01, 0.01, -1, "k"}, Case{0.01, 0.01, 10001, "k"},
                        Case{1e-9, 0.01, 100, "dumped as text"}}) {
    const Status st = params_for_accuracy(c.epsilon, c.delta, false, c.k, &p);
    EXPECT_EQ(st.code(), StatusCode::kInvalidParameter) << c.epsilon << " " << c.delta;
    EXPECT_NE(std::string(st.message()).find(c.needle), std::string::npos) << st.message();
  }
  for (auto [w, d] : {std::pair<int64_t, int64_t>{0, 5}, {-3, 5}, {100, 0}, {100, 33},
                      {int64_t{1} << 40, 1}, {200000000, 1}, {30000000, 5}}) {
    const Status st = params_for_size(w, d, false, 100, &p);
    EXPECT_EQ(st.code(), StatusCode::kInvalidParameter) << w << "x" << d;
  }
  // The largest allowed sketches are accepted: about kMaxDumpableBytes of
  // counters (8 bytes each), so that every sketch can be dumped as text.
  EXPECT_TRUE(params_for_size(1, 32, false, 10000, &p).is_ok());
  EXPECT_TRUE(params_for_size(67000000, 1, false, 0, &p).is_ok());
  EXPECT_FALSE(params_for_size(67200000, 1, false, 0, &p).is_ok());
}

TEST(CmsParams, ErrorBoundIsFloorOfEpsilonTimesN) {
  EXPECT_EQ(error_bound(2719, 0), 0u);
  EXPECT_EQ(error_bound(2719, 200000), 199u);  // e·200000/2719 = 199.95
  EXPECT_EQ(error_bound(2719, 3000000), 2999u);
  // Never more than N: no estimate exceeds N.
  EXPECT_EQ(error_bound(2, 100), 100u);
  EXPECT_EQ(error_bound(1, kMaxCount), kMaxCount);
  EXPECT_NEAR(double(error_bound(1000, uint64_t{1} << 60)),
              std::exp(1.0) / 1000 * std::ldexp(1.0, 60), 1e6);
}

// --- counting --------------------------------------------------------------------

TEST(CmsCount, NeverUnderestimatesOnRandomAndZipfStreams) {
  for (const Stream& stream : streams()) {
    const auto exact = exact_counts(stream.keys);
    for (bool conservative : {false, true}) {
      for (auto [w, d] : {std::pair<uint32_t, uint32_t>{2719, 5}, {100, 3}, {17, 1}, {5000, 8}}) {
        SCOPED_TRACE(std::string(stream.name) + (conservative ? " conservative " : " plain ") +
                     std::to_string(w) + "x" + std::to_string(d));
        const Sketch s = build(params(w, d, conservative), stream.keys);
        EXPECT_EQ(s.total(), stream.keys.size());
        uint64_t under = 0;
        for (const auto& [key, count] : exact)
          if (s.estimate(key) < count) under++;
        EXPECT_EQ(under, 0u);
        // Keys never added are never below 0, trivially, and are bounded by N.
        EXPECT_LE(s.estimate(999999999), s.total());
      }
    }
  }
}

TEST(CmsCount, WideSketchesAreExact) {
  const std::vector<uint64_t> keys = test::uniform_keys(5000, 50, kSeed);
  const auto exact = exact_counts(keys);
  const Sketch s = build(params(1 << 20, 4), keys);
  for (const auto& [key, count] : exact) EXPECT_EQ(s.estimate(key), count) << key;
  EXPECT_EQ(s.estimate(12345678), 0u);
}

TEST(CmsCount, WeightedAddEqualsRepeatedAdds) {
  Sketch once(params(300, 4));
  Sketch repeated(params(300, 4));
  std::mt19937_64 rng(kSeed);
  for (int i = 0; i < 500; i++) {
    const uint64_t key = rng() % 200, weight = rng() % 7 + 1;
    once.add(key, weight);
    for (uint64_t j = 0; j < weight; j++) repeated.add(key);
  }
  EXPECT_EQ(once.counters(), repeated.counters());
  EXPECT_EQ(once.total(), repeated.total());
}

TEST(CmsCount, ConservativeUpdateOverestimatesLessOnZipf) {
  const std::vector<uint64_t> keys = Zipf(20000, 1.0, kSeed).take(200000);
  const auto exact = exact_counts(keys);
  const Sketch plain = build(params(500, 4, false), keys);
  const Sketch conservative = build(params(500, 4, true), keys);
  double plain_over = 0, conservative_over = 0;
  for (const auto& [key, count] : exact) {
    ASSERT_GE(conservative.estimate(key), count);
    ASSERT_GE(plain.estimate(key), count);
    // Never worse than plain, key by key.
    EXPECT_LE(conservative.estimate(key), plain.estimate(key)) << key;
    plain_over += double(plain.estimate(key) - count);
    conservative_over += double(conservative.estimate(key) - count);
  }
  plain_over /= double(exact.size());
  conservative_over /= double(exact.size());
  std::printf("mean overestimate over %zu keys, 500 x 4: plain %.1f, conservative %.1f\n",
              exact.size(), plain_over, conservative_over);
  EXPECT_LT(conservative_over, plain_over * 0.8);
}

TEST(CmsCount, CountersSaturateInsteadOfWrapping) {
  for (bool conservative : {false, true}) {
    SCOPED_TRACE(conservative ? "conservative" : "plain");
    Sketch s(params(64, 3, conservative));
    s.add(1, kMaxCount - 1);
    EXPECT_EQ(s.estimate(1), kMaxCount - 1);
    s.add(1, 5);
    EXPECT_EQ(s.estimate(1), kMaxCount);
    EXPECT_EQ(s.total(), kMaxCount);
    s.add(1, kMaxCount);
    s.add(2, kMaxCount);
    EXPECT_EQ(s.estimate(1), kMaxCount);
    EXPECT_EQ(s.estimate(2), kMaxCount);
    EXPECT_EQ(s.total(), kMaxCount);
    for (uint64_t c : s.counters()) EXPECT_LE(c, kMaxCount);
    // Merging saturated sketches stays saturated.
    const Sketch m = s.merged(s);
    EXPECT_EQ(m.estimate(1), kMaxCount);
    EXPECT_EQ(m.total(), kMaxCount);
    // And the stored form is still valid input.
    View v;
    EXPECT_TRUE(test::parse_bytes(m.canonical(), Validation::kCanonical, &v).is_ok());
  }
}

// --- merging ---------------------------------------------------------------------

TEST(CmsMerge, EqualsTheSketchOfTheConcatenatedStream) {
  for (const Stream& stream : streams()) {
    const size_t n = stream.keys.size();
    for (size_t cut : {size_t{0}, n / 3, n / 2, n - 1}) {
      SCOPED_TRACE(std::string(stream.name) + " cut at " + std::to_string(cut));
      const std::vector<uint64_t> left(stream.keys.begin(), stream.keys.begin() + cut);
      const std::vector<uint64_t> right(stream.keys.begin() + cut, stream.keys.end());
      const Params p = params(1000, 4);
      const Sketch whole = build(p, stream.keys);
      const Sketch merged = build(p, left).merged(build(p, right));
      EXPECT_EQ(merged.counters(), whole.counters());
      EXPECT_EQ(merged.total(), whole.total());
      EXPECT_EQ(build(p, right).merged(build(p, left)).canonical(), merged.canonical())
          << "not commutative";
    }
  }
}

TEST(CmsMerge, ManyPartsLikeAnHourlyRollup) {
  const std::vector<uint64_t> keys = Zipf(5000, 1.1, kSeed).take(48000);
  const Params p = params(2719, 5);
  Sketch day(p);
  for (size_t hour = 0; hour < 24; hour++)
    day.merge(build(p, std::vector<uint64_t>(keys.begin() + hour * 2000,
                                             keys.begin() + (hour + 1) * 2000)));
  const Sketch direct = build(p, keys);
  EXPECT_EQ(day.counters(), direct.counters());
  EXPECT_EQ(day.total(), direct.total());
  // The heavy hitters survive the rollup.
  const auto exact = test::exact_top(exact_counts(keys), 10);
  const auto top = day.top(10);
  ASSERT_EQ(top.size(), 10u);
  for (size_t i = 0; i < 10; i++) EXPECT_EQ(top[i].first, test::key_text(exact[i].first));
}

TEST(CmsMerge, WhenEverythingFitsTheBytesEqualTheDirectSketch) {
  // At most k distinct values: every value is a candidate whatever the
  // order or grouping, so the stored bytes are identical.
  const std::vector<uint64_t> keys = test::uniform_keys(3000, 80, kSeed);
  const Params p = params(500, 3);
  const Sketch direct = build(p, keys);
  EXPECT_EQ(direct.candidate_count(), 80u);
  const Sketch a = build(p, std::vector<uint64_t>(keys.begin(), keys.begin() + 1000));
  const Sketch b = build(p, std::vector<uint64_t>(keys.begin() + 1000, keys.begin() + 1800));
  const Sketch c = build(p, std::vector<uint64_t>(keys.begin() + 1800, keys.end()));
  EXPECT_EQ(a.merged(b).merged(c).canonical(), direct.canonical());
  EXPECT_EQ(a.merged(b.merged(c)).canonical(), direct.canonical());
  EXPECT_EQ(c.merged(a).merged(b).canonical(), direct.canonical());
  std::vector<uint64_t> shuffled = keys;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(kSeed));
  EXPECT_EQ(build(p, shuffled).canonical(), direct.canonical());
}

TEST(CmsMerge, StoredOperandsGiveTheSameResult) {
  const Params p = params(700, 4, false, 20);
  const Sketch a = build(p, Zipf(3000, 1.0, kSeed).take(5000));
  const Sketch b = build(p, Zipf(3000, 1.0, kSeed + 1).take(7000));
  const std::vector<uint8_t> expected = a.merged(b).canonical();
  const Sketch stored_a = Sketch::from_bytes(a.canonical(), Validation::kCanonical);
  const Sketch stored_b = Sketch::from_bytes(b.canonical(), Validation::kCanonical);
  EXPECT_EQ(stored_a.merged(b).canonical(), expected);
  EXPECT_EQ(a.merged(stored_b).canonical(), expected);
  EXPECT_EQ(stored_a.merged(stored_b).canonical(), expected);
}

TEST(CmsMerge, ConservativeMergesNeverUnderestimate) {
  const std::vector<uint64_t> keys = Zipf(10000, 1.0, kSeed).take(60000);
  const auto exact = exact_counts(keys);
  const std::vector<uint64_t> left(keys.begin(), keys.begin() + 25000);
  const std::vector<uint64_t> right(keys.begin() + 25000, keys.end());
  const Sketch cc = build(params(400, 4, true), left).merged(build(params(400, 4, true), right));
  const Sketch pc = build(params(400, 4, false), left).merged(build(params(400, 4, true), right));
  const Sketch cp = build(params(400, 4, true), left).merged(build(params(400, 4, false), right));
  for (const Sketch* s : {&cc, &pc, &cp}) {
    EXPECT_TRUE(s->view().params.conservative) << "conservative if either input is";
    for (const auto& [key, count] : exact) ASSERT_GE(s->estimate(key), count) << key;
    View v;
    EXPECT_TRUE(test::parse_bytes(s->canonical(), Validation::kCanonical, &v).is_ok());
  }
  const Sketch pp = build(params(400, 4), left).merged(build(params(400, 4), right));
  EXPECT_FALSE(pp.view().params.conservative);
}

TEST(CmsMerge, MismatchedParametersAreRefusedNamingBoth) {
  const Sketch a(params(2719, 5));
  for (const Params& other : {params(272, 5), params(2719, 4), params(100, 2)}) {
    const Sketch b(other);
    const Status st = check_mergeable(a.view(), b.view());
    EXPECT_EQ(st.code(), StatusCode::kMismatch);
    const std::string message = st.message();
    EXPECT_NE(message.find("width 2719, depth 5, hash identity 1"), std::string::npos) << message;
    EXPECT_NE(message.find("width " + std::to_string(other.width) + ", depth " +
                           std::to_string(other.depth) + ", hash identity 1"),
              std::string::npos)
        << message;
  }
  // Update mode and k may differ.
  EXPECT_TRUE(check_mergeable(a.view(), Sketch(params(2719, 5, true, 7)).view()).is_ok());
}

TEST(CmsMerge, CandidateCapacityOfTheResultIsTheLarger) {
  const Sketch small = build(params(1000, 4, false, 5), test::uniform_keys(2000, 30, kSeed));
  const Sketch large = build(params(1000, 4, false, 50), test::uniform_keys(2000, 30, kSeed + 1));
  for (const Sketch& m : {small.merged(large), large.merged(small)}) {
    EXPECT_EQ(m.view().params.candidates, 50u);
    EXPECT_EQ(m.candidate_count(), 30u);
  }
  EXPECT_EQ(small.merged(large).canonical(), large.merged(small).canonical());
}

// Wide sketches (no collisions) make estimates exact, so the expected
// candidate lists can be written down.
TEST(CmsMerge, CandidateListsAreUnitedAndReRankedByTheMergedCounters) {
  const Params p = params(1 << 16, 4, false, 3);
  Sketch a(p), b(p);
  // a sees 1 x50, 2 x40, 3 x30, 4 x20 -> list {1, 2, 3}; 4 is only counted.
  for (auto [key, n] : {std::pair<uint64_t, uint64_t>{1, 50}, {2, 40}, {3, 30}, {4, 20}})
    a.add(key, n);
  // b sees 4 x45, 5 x35, 6 x25, 1 x1 -> list {4, 5, 6}.
  for (auto [key, n] : {std::pair<uint64_t, uint64_t>{4, 45}, {5, 35}, {6, 25}, {1, 1}})
    b.add(key, n);
  EXPECT_EQ(a.candidate_texts(), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(b.candidate_texts(), (std::vector<std::string>{"4", "5", "6"}));
  // Merged: 4 = 65, 1 = 51, 2 = 40, 5 = 35, 3 = 30, 6 = 25: the best three.
  const Sketch m = a.merged(b);
  EXPECT_EQ(m.top(10), (std::vector<std::pair<std::string, uint64_t>>{
                           {"4", 65}, {"1", 51}, {"2", 40}}));
  EXPECT_EQ(b.merged(a).canonical(), m.canonical());
}

TEST(CmsMerge, AValueOnNoInputListIsMissedEvenIfItsTotalRanks) {
  // The documented blind spot: 9 is fourth in both parts, so neither list of
  // three holds it, although it is first overall.
  const Params p = params(1 << 16, 4, false, 3);
  Sketch a(p), b(p);
  for (auto [key, n] : {std::pair<uint64_t, uint64_t>{1, 50}, {2, 49}, {3, 48}, {9, 47}}) a.add(key, n);
  for (auto [key, n] : {std::pair<uint64_t, uint64_t>{4, 50}, {5, 49}, {6, 48}, {9, 47}}) b.add(key, n);
  const Sketch m = a.merged(b);
  EXPECT_EQ(m.estimate(9), 94u);
  EXPECT_EQ(m.top(3), (std::vector<std::pair<std::string, uint64_t>>{
                          {"1", 50}, {"4", 50}, {"2", 49}}));
}

TEST(CmsMerge, EqualEstimatesAreBrokenByHashSoMergesCommute) {
  const Params p = params(1 << 16, 4, false, 4);
  Sketch a(p), b(p);
  // Every value counts 10. a's list holds 1..4 (5 and 6 do not beat 10);
  // b's holds 7..10. The merge keeps the four smallest hashes of the eight.
  for (uint64_t key = 1; key <= 6; key++) a.add(key, 10);
  for (uint64_t key = 7; key <= 12; key++) b.add(key, 10);
  EXPECT_EQ(a.candidate_texts(), (std::vector<std::string>{"1", "2", "3", "4"}));
  std::vector<std::pair<uint64_t, std::string>> by_hash;
  for (uint64_t key : {1, 2, 3, 4, 7, 8, 9, 10}) by_hash.emplace_back(key_hash(key), test::key_text(key));
  std::sort(by_hash.begin(), by_hash.end());
  std::vector<std::string> expected;
  for (size_t i = 0; i < 4; i++) expected.push_back(by_hash[i].second);
  std::sort(expected.begin(), expected.end());
  const Sketch ab = a.merged(b);
  EXPECT_EQ(ab.candidate_texts(), expected);
  EXPECT_EQ(b.merged(a).canonical(), ab.canonical());
}

// --- the candidate list -----------------------------------------------------------

TEST(CmsCandidates, AllValuesAreCandidatesWhileTheyFit) {
  const std::vector<uint64_t> keys = test::uniform_keys(10000, 100, kSeed);
  const auto exact = exact_counts(keys);
  const Sketch s = build(params(1 << 16, 4), keys);
  EXPECT_EQ(s.candidate_count(), 100u);
  const auto top = s.top(100);
  const auto expected = test::exact_top(exact, 100);
  ASSERT_EQ(top.size(), 100u);
  for (size_t i = 0; i < 100; i++) EXPECT_EQ(top[i].second, expected[i].second);
  EXPECT_EQ(s.admissions(), 100);
}

// The guarantee of the list in one stream: a value missing at the end has a
// true count no larger than the smallest estimate on the (full) list.
TEST(CmsCandidates, AMissingValueCountsNoMoreThanAnyCandidate) {
  for (const Stream& stream : streams()) {
    const auto exact = exact_counts(stream.keys);
    for (bool conservative : {false, true}) {
      for (uint32_t k : {1u, 10u, 100u}) {
        SCOPED_TRACE(std::string(stream.name) + (conservative ? " conservative" : " plain") +
                     " k=" + std::to_string(k));
        const Sketch s = build(params(1000, 4, conservative, k), stream.keys);
        ASSERT_EQ(s.candidate_count(), k);
        const auto top = s.top(k);
        const uint64_t smallest = top.back().second;
        std::set<std::string> on_list;
        for (const auto& t : top) on_list.insert(t.first);
        for (const auto& [key, count] : exact)
          if (!on_list.count(test::key_text(key))) {
            ASSERT_LE(count, smallest) << key;
          }
      }
    }
  }
}

// The list follows the documented rule exactly, whatever the heap keys are:
// a reference that ranks by current estimates (from the same counters) after
// every add, with candidates' keys never stored, must hold the same values
// at every step. This is what lets add() leave a candidate's key stale when
// the candidate is counted again (refresh_root() makes the root current
// before any eviction).
TEST(CmsCandidates, TheListIsTheReferenceRuleOnCurrentEstimates) {
  for (const Stream& stream : streams()) {
    for (bool conservative : {false, true}) {
      for (uint32_t k : {1u, 7u, 20u}) {
        SCOPED_TRACE(std::string(stream.name) + (conservative ? " conservative" : " plain") +
                     " k=" + std::to_string(k));
        Sketch s(params(64, 3, conservative, k));
        std::set<uint64_t> reference;
        size_t step = 0;
        for (uint64_t key : stream.keys) {
          s.add(key);
          const View v = s.view();
          const uint64_t h = key_hash(key);
          if (!reference.count(h)) {
            if (reference.size() < k) {
              reference.insert(h);
            } else {
              // Weakest: smallest current estimate, then largest hash.
              uint64_t weakest = 0, weakest_est = 0;
              bool first = true;
              for (uint64_t c : reference) {
                const uint64_t e = estimate(v, c);
                if (first || e < weakest_est || (e == weakest_est && c > weakest)) {
                  weakest = c;
                  weakest_est = e;
                  first = false;
                }
              }
              if (estimate(v, h) > weakest_est) {
                reference.erase(weakest);
                reference.insert(h);
              }
            }
          }
          if (++step % 997 == 0 || step == stream.keys.size()) {
            std::set<uint64_t> held;
            for (uint32_t i = 0; i < v.count; i++) held.insert(candidate_at(v, i).hash);
            ASSERT_EQ(held, reference) << "after " << step << " values";
          }
        }
      }
    }
  }
}

TEST(CmsCandidates, TopTenOfAZipfStreamIsExact) {
  const std::vector<uint64_t> keys = Zipf(50000, 1.0, kSeed).take(200000);
  const auto exact = test::exact_top(exact_counts(keys), 10);
  for (bool conservative : {false, true}) {
    const Sketch s = build(params(2719, 5, conservative), keys);
    const auto top = s.top(10);
    ASSERT_EQ(top.size(), 10u);
    for (size_t i = 0; i < 10; i++) EXPECT_EQ(top[i].first, test::key_text(exact[i].first)) << i;
  }
}

TEST(CmsCandidates, NoListWithKZero) {
  const Sketch s = build(params(500, 3, false, 0), test::uniform_keys(1000, 20, kSeed));
  EXPECT_EQ(s.candidate_count(), 0u);
  EXPECT_EQ(s.total(), 1000u);
  EXPECT_TRUE(s.top(10).empty());
  View v;
  EXPECT_TRUE(test::parse_bytes(s.canonical(), Validation::kCanonical, &v).is_ok());
  EXPECT_EQ(s.merged(s).total(), 2000u);
}

// Long texts, heavy churn: the arena compacts and grows, and every candidate
// keeps its own text.
TEST(CmsCandidates, TextsSurviveChurnCompactionAndGrowth) {
  auto text_of = [](uint64_t key) {
    return std::to_string(key) + "#" +
           std::string(key % 97 * 3 + (key % 5 == 0 ? 1500 : 0), char('a' + key % 26));
  };
  for (uint32_t k : {1u, 7u, 64u}) {
    SCOPED_TRACE("k=" + std::to_string(k));
    Sketch s(params(211, 3, false, k));
    std::mt19937_64 rng(kSeed + k);
    Zipf zipf(3000, 0.8, kSeed);
    for (int i = 0; i < 30000; i++) {
      const uint64_t key = i % 2 == 0 ? rng() % 500 : zipf.next();
      s.add_hash(key_hash(key), 1 + rng() % 3, text_of(key));
    }
    std::printf("k=%u: %d admissions, %d arena growths\n", k, s.admissions(), s.growths());
    EXPECT_GT(s.admissions(), int(k) * 2);
    if (k > 1) {
      EXPECT_GT(s.growths(), 0);
    }
    // Every candidate's text is the one of its hash (clipped to
    // kMaxValueBytes when longer), in the working state and the stored form.
    const std::vector<uint8_t> stored = s.canonical();
    for (const Sketch& form : {s, Sketch::from_bytes(stored, Validation::kCanonical)}) {
      const View v = form.view();
      ASSERT_EQ(v.count, k);
      for (uint32_t i = 0; i < v.count; i++) {
        const Candidate c = candidate_at(v, i);
        const std::string text(reinterpret_cast<const char*>(c.text), c.len);
        const uint64_t key = std::stoull(text.substr(0, text.find('#')));
        EXPECT_EQ(key_hash(key), c.hash);
        const std::string full = text_of(key);
        EXPECT_EQ(c.clipped, full.size() > kMaxValueBytes);
        EXPECT_EQ(text, full.substr(0, kMaxValueBytes));
      }
    }
  }
}

// Same-length texts and a steady stream of evictions: the arena (16 bytes a
// candidate to start) fills with evicted texts and is compacted in place,
// never grown.
TEST(CmsCandidates, EvictionsCompactTheArenaInPlace) {
  Sketch s(params(1 << 16, 4, false, 4));
  for (uint64_t i = 1; i <= 40; i++) s.add_hash(key_hash(i), 10 + i, "v" + std::to_string(100000 + i));
  EXPECT_EQ(s.admissions(), 40);
  EXPECT_EQ(s.growths(), 0);
  const View v = s.view();
  EXPECT_EQ(v.arena_capacity, initial_arena_capacity(4));
  EXPECT_EQ(s.candidate_texts(),
            (std::vector<std::string>{"v100037", "v100038", "v100039", "v100040"}));
  EXPECT_EQ(s.top(1), (std::vector<std::pair<std::string, uint64_t>>{{"v100040", 50}}));
}

TEST(CmsCandidates, LongTextsAreClipped) {
  Sketch s(params(100, 2, false, 4));
  const std::string long_text(3000, 'x');
  s.add_hash(key_hash(1), 5, long_text);
  s.add_hash(key_hash(2), 3, "short");
  const auto top = s.top(4);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].first, std::string(kMaxValueBytes, 'x'));
  EXPECT_EQ(top[1].first, "short");
  const Sketch stored = Sketch::from_bytes(s.canonical(), Validation::kCanonical);
  bool clipped_seen = false;
  for (uint32_t i = 0; i < 2; i++) clipped_seen |= candidate_at(stored.view(), i).clipped;
  EXPECT_TRUE(clipped_seen);
}

TEST(CmsCandidates, RankingBreaksTiesByText) {
  Sketch s(params(1 << 16, 3, false, 10));
  for (uint64_t key : {30, 10, 20}) s.add(key, 7);
  s.add(5, 9);
  EXPECT_EQ(s.top(10), (std::vector<std::pair<std::string, uint64_t>>{
                           {"5", 9}, {"10", 7}, {"20", 7}, {"30", 7}}));
  EXPECT_EQ(s.top(2).size(), 2u);
}

// --- format ---------------------------------------------------------------------

// The stored layout, byte for byte, for two keys in a 3 x 2 sketch: pins the
// on-disk format so a change to it cannot pass unnoticed.
TEST(CmsFormat, StoredLayout) {
  Sketch s(params(3, 2, true, 2));
  s.add_hash(0x0000000200000001ULL, 4, "b");  // h1 = 1, h2 = 3
  s.add_hash(0x00000001ffffffffULL, 2, "aa");  // h1 = 2^32 - 1, h2 = 1
  // Columns floor(g * 3 / 2^32): first: g = 1, 4 -> 0, 0; second: g = 2^32-1,
  // 0 -> 2, 0. Conservative: row 1 column 0 is shared, so the second value
  // reads min(0, 4) + 2 = 2 in row 0 column 2 and leaves row 1 column 0 at 4.
  const std::vector<uint8_t> expected = {
      'S', 'K', 2, 1, 1, 1, 1, 0xff,  // header: cms v1, hash 1, conservative, stored, kind none
      3, 0, 0, 0,                  // width
      2, 0, 0, 0,                  // depth
      2, 0, 0, 0,                  // k
      2, 0, 0, 0,                  // candidates
      6, 0, 0, 0, 0, 0, 0, 0,      // N
      4, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,  2, 0, 0, 0, 0, 0, 0, 0,  // row 0
      4, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,  // row 1
      0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0,  2, 0, 0, 0,  // "aa": hash, end 2
      1, 0, 0, 0, 2, 0, 0, 0,  3, 0, 0, 0,              // "b": hash, end 3
      'a', 'a', 'b'};
  EXPECT_EQ(s.canonical(), expected);
  EXPECT_EQ(s.estimate(0), 0u);
}

TEST(CmsFormat, EmptySketch) {
  const Params p = default_params();
  std::vector<uint8_t> empty(stored_size(p, 0, 0));
  write_empty(p, empty.data());
  EXPECT_EQ(empty.size(), 32u + 8u * 2719 * 5);
  EXPECT_EQ(Sketch(p).canonical(), empty);
  View v;
  ASSERT_TRUE(test::parse_bytes(empty, Validation::kCanonical, &v).is_ok());
  EXPECT_EQ(v.total, 0u);
  EXPECT_EQ(v.count, 0u);
}

TEST(CmsFormat, RoundTripsThroughStoredWorkingAndHex) {
  for (const Stream& stream : streams()) {
    for (bool conservative : {false, true}) {
      const Sketch s = build(params(600, 4, conservative, 30), stream.keys);
      const std::vector<uint8_t> stored = s.canonical();
      View v;
      ASSERT_TRUE(test::parse_bytes(stored, Validation::kCanonical, &v).is_ok()) << stream.name;
      // Stored -> working -> stored.
      const Sketch again = Sketch::from_bytes(stored, Validation::kCanonical);
      std::vector<uint8_t> working(working_size(v.params, working_arena_for(v, 30)));
      write_working(v, 30, working_arena_for(v, 30), working.data());
      EXPECT_EQ(Sketch::from_bytes(working).canonical(), stored);
      // Hex text.
      const std::string hex = s.hex();
      std::vector<uint8_t> decoded(hex_decoded_size(hex.size()));
      ASSERT_TRUE(hex_decode(hex.data(), hex.size(), decoded.data()).is_ok());
      EXPECT_EQ(decoded, stored);
      // A working copy keeps counting exactly like the original.
      Sketch continued = again;
      Sketch original = s;
      for (uint64_t key : test::uniform_keys(2000, 3000, kSeed)) {
        continued.add(key);
        original.add(key);
      }
      EXPECT_EQ(continued.canonical(), original.canonical());
    }
  }
}

TEST(CmsFormat, CanonicalIsTheSameAtAnUnalignedDestination) {
  const Sketch s = build(params(300, 3, false, 40), Zipf(1000, 1.0, kSeed).take(5000));
  const View v = s.view();
  std::vector<uint8_t> buffer(stored_size(v) + 3);
  write_stored(v, buffer.data() + 3);
  EXPECT_EQ(std::vector<uint8_t>(buffer.begin() + 3, buffer.end()), s.canonical());
}

TEST(CmsFormat, WorkingStatesAreNeverAcceptedAsInput) {
  const Sketch s = build(params(100, 2), {1, 2, 3});
  View v;
  const Status st = test::parse_bytes(s.bytes(), Validation::kCanonical, &v);
  EXPECT_EQ(st.code(), StatusCode::kInvalidFormat);
  EXPECT_NE(std::string(st.message()).find("working state"), std::string::npos);
  EXPECT_TRUE(test::parse_bytes(s.bytes(), Validation::kStructure, &v).is_ok());
  // Structure checks still catch a working state of the wrong length.
  std::vector<uint8_t> shorter(s.bytes().begin(), s.bytes().end() - 1);
  EXPECT_FALSE(test::parse_bytes(shorter, Validation::kStructure, &v).is_ok());
}

// --- validation -----------------------------------------------------------------

// A small valid stored sketch to corrupt: 4 x 2, plain, k = 3, two
// candidates "7" and "42".
std::vector<uint8_t> reference() {
  Sketch s(params(4, 2, false, 3));
  s.add(7, 3);
  s.add(42, 2);
  return s.canonical();
}

constexpr size_t kRecords = 32 + 8 * 8;  // 4 x 2 counters
constexpr size_t kTexts = kRecords + 2 * 12;

Status parse_canonical(const std::vector<uint8_t>& bytes) {
  View v;
  return test::parse_bytes(bytes, Validation::kCanonical, &v);
}

TEST(CmsValidation, TheReferenceIsValid) {
  const std::vector<uint8_t> r = reference();
  ASSERT_EQ(r.size(), kTexts + 3);
  EXPECT_TRUE(parse_canonical(r).is_ok());
}

TEST(CmsValidation, EveryCorruptionClassIsRefused) {
  struct Case {
    const char* name;
    void (*mutate)(std::vector<uint8_t>&);
    const char* needle;
  };
  const std::vector<Case> cases = {
      {"bad magic", [](auto& b) { b[0] = 'X'; }, "magic"},
      {"hll kind", [](auto& b) { b[2] = 1; }, "hll"},
      {"version 0", [](auto& b) { b[3] = 0; }, "version"},
      {"version 2", [](auto& b) { b[3] = 2; }, "version"},
      {"hash identity", [](auto& b) { b[4] = 2; }, "hash identity"},
      {"unknown flag", [](auto& b) { b[5] = 2; }, "flags"},
      {"encoding 0", [](auto& b) { b[6] = 0; }, "encoding"},
      {"encoding 3", [](auto& b) { b[6] = 3; }, "encoding"},
      {"working encoding", [](auto& b) { b[6] = 2; }, "working state"},
      {"unknown element kind", [](auto& b) { b[7] = 16; }, "unknown element kind 16"},
      {"width 0", [](auto& b) { store_le32(b.data() + 8, 0); }, "width"},
      {"width larger", [](auto& b) { store_le32(b.data() + 8, 5); }, ""},
      {"huge width", [](auto& b) { store_le32(b.data() + 8, 0xffffffff); }, "counters need"},
      {"depth 0", [](auto& b) { store_le32(b.data() + 12, 0); }, "depth"},
      {"depth 33", [](auto& b) { store_le32(b.data() + 12, 33); }, "depth"},
      {"k above max", [](auto& b) { store_le32(b.data() + 16, 10001); }, "capacity"},
      {"count above k", [](auto& b) { store_le32(b.data() + 16, 1); }, "exceed the capacity"},
      {"count beyond data", [](auto& b) { store_le32(b.data() + 20, 3); }, ""},
      {"total too large", [](auto& b) { store_le64(b.data() + 24, kMaxCount + 1); }, "2^63"},
      {"total off by one", [](auto& b) { store_le64(b.data() + 24, 6); }, "sums to"},
      {"counter above total", [](auto& b) { store_le64(b.data() + 32, 99); }, "exceeds the total"},
      {"row sum wrong", [](auto& b) { store_le64(b.data() + 32 + 8 * 4, load_le64(b.data() + 32 + 8 * 4) + 1); }, "sums to"},
      {"conservative rows below N",
       [](auto& b) {
         b[5] = 1;
         store_le64(b.data() + 24, 5);
         for (size_t j = 0; j < 8; j++) store_le64(b.data() + 32 + 8 * j, j == 0 || j == 4 ? 1 : 0);
       },
       ""},
      {"unsorted hashes",
       [](auto& b) {
         std::vector<uint8_t> first(b.begin() + kRecords, b.begin() + kRecords + 8);
         std::copy(b.begin() + kRecords + 12, b.begin() + kRecords + 20, b.begin() + kRecords);
         std::copy(first.begin(), first.end(), b.begin() + kRecords + 12);
       },
       "strictly increasing"},
      {"duplicate hash",
       [](auto& b) { std::copy(b.begin() + kRecords, b.begin() + kRecords + 8, b.begin() + kRecords + 12); },
       "strictly increasing"},
      {"ends decreasing", [](auto& b) { store_le32(b.data() + kRecords + 8, 5); }, "text length"},
      {"texts shorter", [](auto& b) { store_le32(b.data() + kRecords + 20, 2); }, "texts take"},
      {"trailing byte", [](auto& b) { b.push_back('x'); }, "texts take"},
      {"clipped short text", [](auto& b) { store_le32(b.data() + kRecords + 8, load_le32(b.data() + kRecords + 8) | 0x80000000u); }, "clipped"},
      {"zero byte in text", [](auto& b) { b[kTexts] = 0; }, "zero byte"},
      {"candidate never counted", [](auto& b) { store_le64(b.data() + kRecords + 12, 0xffffffffffffff00ULL); }, "never counted"},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> bytes = reference();
    c.mutate(bytes);
    const Status st = parse_canonical(bytes);
    EXPECT_EQ(st.code(), StatusCode::kInvalidFormat) << c.name;
    EXPECT_NE(std::string(st.message()).find(c.needle), std::string::npos)
        << c.name << ": " << st.message();
  }
}

TEST(CmsValidation, EveryTruncationIsRefused) {
  const std::vector<uint8_t> r = reference();
  for (size_t len = 0; len < r.size(); len++) {
    const std::vector<uint8_t> prefix(r.begin(), r.begin() + len);
    EXPECT_FALSE(parse_canonical(prefix).is_ok()) << len;
    View v;
    EXPECT_FALSE(test::parse_bytes(prefix, Validation::kStructure, &v).is_ok()) << len;
  }
}

// Every single-byte corruption of a real sketch is either refused or a valid
// sketch whose stored form is exactly those bytes: nothing half-valid gets in.
TEST(CmsValidation, SingleByteCorruptionsAreRefusedOrConsistent) {
  const std::vector<uint8_t> r =
      build(params(16, 3, false, 4), test::uniform_keys(200, 12, kSeed)).canonical();
  ASSERT_TRUE(parse_canonical(r).is_ok());
  int accepted = 0;
  for (size_t i = 0; i < r.size(); i++) {
    for (uint8_t x : {0x01, 0x10, 0x80, 0xff}) {
      std::vector<uint8_t> bytes = r;
      bytes[i] ^= x;
      View v;
      if (!test::parse_bytes(bytes, Validation::kCanonical, &v).is_ok()) continue;
      accepted++;
      std::vector<uint8_t> again(stored_size(v));
      write_stored(v, again.data());
      EXPECT_EQ(again, bytes) << "byte " << i;
    }
  }
  // Only changes inside candidate texts can stay valid.
  EXPECT_LT(accepted, 4 * 12 * 3);
}

}  // namespace
}  // namespace sketch::cms
