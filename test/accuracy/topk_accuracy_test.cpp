// topk (Misra-Gries) against its deterministic bounds, on fixed-seed Zipf
// streams (key r of n drawn with weight 1/r^s), so a run is reproducible
// bit for bit. The promise (core/topk/topk.h), for every key x with true
// count f_x, whatever the stream and whatever the merge tree:
//
//   x held:      lower = c_x  <=  f_x  <=  upper = c_x + Δ
//   x not held:  0            <=  f_x  <=  Δ
//   and          Δ <= floor((N - Σc) / (k + 1))   (topk::error_bound)
//
// Nothing here is probabilistic: every assertion below follows from those
// three lines, and is checked for every one of the 10^6 keys. From them the
// two reporting rules a caller can build for a threshold θ:
//
//   no_false_negatives  report the held items with upper > θ·N. Every key
//                       with f_x > θ·N is reported, provided θ·N >= Δ: a key
//                       not held has f_x <= Δ <= θ·N, so a heavier one is
//                       held, and its upper >= f_x > θ·N.
//   no_false_positives  report the held items with lower > θ·N. Every key
//                       reported has f_x >= lower > θ·N: no precondition.
//
// Δ <= N / (k + 1) means the first rule's precondition holds for every
// θ >= 1/(k+1) (asserted); below that it is checked against the actual Δ,
// and a threshold whose precondition fails is skipped (and printed as such).
//
// Streams: 10^7 events over 10^6 keys for s = 0.8, 1.1 and 1.5, sampled by
// binary search of a uniform (53 bits of splitmix64, test::Random) in the
// precomputed CDF. Every (s, k) pair, k = 64 and 1024, is built in one pass
// and through four merge trees over the same 10^7 events (all runs use the
// full stream):
//
//   2 parts     one random cut of the stream; some inputs stored
//   16 parts    each event to a random part; folded one after the other in
//               a random order (a rollup's chain)
//   256 parts   each event to a random part; random pairs merged until one
//               is left (random shapes: some parts merge deep, some late)
//   256 parts   255 random cut points (parts of very different sizes, a few
//               maybe empty); random pairs
//
// In every tree a third of the parts are stored first (Summary(stored())),
// so merges run into stored and working targets, and each merge takes its
// input either stored (Summary::merge) or as whatever bytes it holds,
// working or stored (Summary::merge_bytes); a quarter of the merge results
// are stored before merging on, as a rollup kept in a table. Every
// intermediate result is checked against Δ <= (N - Σc)/(k+1).
//
// Plus: on the cms accuracy test's stream (200,000 events over 50,000 keys,
// Zipf 1/r, cms::test::Zipf with seeds 1, 2, 3) the default k = 1024 ranks
// the true top 10 first, in order, with estimates equal to the true counts;
// and the recall of the true top 10 / top 100 of topk and of cms's
// candidate list on the same Zipf streams (written as a TSV for
// test/report/topk_vs_cms.sh when SKETCH_REPORT_DIR is set).
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cms_test_util.h"
#include "topk_test_util.h"

namespace sketch::topk {
namespace {

using test::HeldItem;
using test::item_hash;
using test::must_parse;
using test::Random;
using test::Summary;

constexpr uint32_t kKeys = 1000000;
constexpr size_t kEvents = 10000000;
const double kExponents[] = {0.8, 1.1, 1.5};
const uint32_t kKs[] = {64, 1024};
const double kThresholds[] = {0.001, 0.01, 0.05};

// Keys 1..n, P(key r) = r^-s / Σ_j j^-s: the first CDF entry above a
// uniform in [0, 1).
class ZipfSampler {
 public:
  ZipfSampler(uint32_t n, double s) : cdf_(n) {
    double sum = 0;
    for (uint32_t r = 0; r < n; r++) cdf_[r] = sum += std::pow(double(r + 1), -s);
    for (double& c : cdf_) c /= sum;
    cdf_.back() = 1.0;
  }
  uint32_t operator()(Random& rng) const {
    const double u = rng.uniform();
    return uint32_t(std::upper_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin()) + 1;
  }

 private:
  std::vector<double> cdf_;
};

std::vector<uint32_t> zipf_stream(uint32_t keys, double s, size_t events, uint64_t seed) {
  const ZipfSampler zipf(keys, s);
  Random rng(seed);
  std::vector<uint32_t> out(events);
  for (uint32_t& key : out) key = zipf(rng);
  return out;
}

std::vector<uint64_t> counts_of(const std::vector<uint32_t>& stream, uint32_t keys) {
  std::vector<uint64_t> f(size_t{keys} + 1, 0);
  for (uint32_t key : stream) f[key]++;
  return f;
}

// item_hash of keys 0..n, computed once.
const std::vector<uint64_t>& key_hashes() {
  static const std::vector<uint64_t> hashes = [] {
    std::vector<uint64_t> h(size_t{kKeys} + 1);
    for (uint32_t key = 0; key <= kKeys; key++) h[key] = item_hash(key);
    return h;
  }();
  return hashes;
}

// Σc <= N and (k+1)·Δ <= N - Σc, i.e. Δ <= error_bound(v) = floor((N - Σc)/(k+1)),
// on any view (item_at reads stored records and working entries alike).
void expect_error_bound(const View& v, const std::string& what) {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < v.count; i++) sum += detail::item_at(v, i).count;
  ASSERT_LE(sum, v.total) << what;
  EXPECT_LE(v.max_error, error_bound(v)) << what;
  EXPECT_LE((uint64_t{v.k} + 1) * v.max_error, v.total - sum) << what;
}

struct Check {
  uint64_t n = 0, max_error = 0, bound = 0;
  uint32_t held = 0;
  std::string thresholds;  // per θ: reported by each rule, or "skipped"
};

// Every key's truth within its bounds, Δ within error_bound, and both
// reporting rules for each threshold.
Check check_summary(const std::vector<uint8_t>& stored, const std::vector<uint64_t>& f,
                    uint32_t k, const std::string& what) {
  SCOPED_TRACE(what);
  Check out;
  const View v = must_parse(stored, Validation::kCanonical);
  uint64_t n = 0;
  for (uint64_t c : f) n += c;
  EXPECT_EQ(v.total, n);
  EXPECT_EQ(v.k, k);
  EXPECT_LE(v.count, k);
  expect_error_bound(v, what);
  out.n = v.total;
  out.max_error = v.max_error;
  out.bound = error_bound(v);
  out.held = v.count;

  const std::vector<HeldItem> items = Summary::items_of(stored);
  std::unordered_map<uint64_t, size_t> held;
  for (size_t i = 0; i < items.size(); i++) held.emplace(items[i].hash, i);
  const std::vector<uint64_t>& hashes = key_hashes();
  std::vector<int64_t> held_key(items.size(), -1);
  size_t outside = 0;
  for (uint32_t key = 1; key < f.size(); key++) {
    const auto it = held.find(hashes[key]);
    if (it == held.end()) {
      if (f[key] > v.max_error) {
        if (++outside <= 5)
          ADD_FAILURE() << "key " << key << " not held, count " << f[key] << " > Δ "
                        << v.max_error;
      }
      continue;
    }
    const HeldItem& h = items[it->second];
    held_key[it->second] = key;
    EXPECT_EQ(h.text, std::to_string(key));
    if (f[key] < h.lower || f[key] > h.upper) {
      if (++outside <= 5)
        ADD_FAILURE() << "key " << key << ": count " << f[key] << " outside [" << h.lower
                      << ", " << h.upper << "]";
    }
  }
  EXPECT_EQ(outside, 0u);
  for (size_t i = 0; i < items.size(); i++)
    EXPECT_GE(held_key[i], 0) << "held item " << items[i].text << " is no key of the stream";

  for (double theta : kThresholds) {
    const double line = theta * double(v.total);
    char buf[96];
    // The bound alone guarantees the precondition from θ = 1/(k+1) on.
    if (theta * (k + 1) >= 1) {
      EXPECT_GE(line, double(v.max_error)) << "θ " << theta;
    }
    if (line < double(v.max_error)) {
      std::snprintf(buf, sizeof buf, "  %g: skipped (θN < Δ)", theta);
      out.thresholds += buf;
      // no_false_positives needs no precondition: still checked.
    }
    uint64_t heavy = 0, nfn = 0, nfp = 0;
    for (size_t i = 0; i < items.size(); i++) {
      const uint64_t truth = held_key[i] >= 0 ? f[held_key[i]] : 0;
      if (double(items[i].upper) > line) nfn++;
      if (double(items[i].lower) > line) {
        nfp++;
        EXPECT_GT(double(truth), line) << "no_false_positives reported " << items[i].text
                                       << " (count " << truth << ") at θ " << theta;
      }
    }
    for (uint32_t key = 1; key < f.size(); key++) {
      if (double(f[key]) <= line) continue;
      heavy++;
      if (line < double(v.max_error)) continue;  // precondition fails: rule not valid
      const auto it = held.find(hashes[key]);
      EXPECT_TRUE(it != held.end() && double(items[it->second].upper) > line)
          << "no_false_negatives missed key " << key << " (count " << f[key] << ") at θ "
          << theta;
    }
    if (line >= double(v.max_error)) {
      std::snprintf(buf, sizeof buf, "  %g: %" PRIu64 "/%" PRIu64 "/%" PRIu64, theta, heavy,
                    nfn, nfp);
      out.thresholds += buf;
    }
  }
  return out;
}

// --- merge trees ----------------------------------------------------------

enum class Split { kCut, kScatter };
enum class Shape { kChain, kRandomPairs };

struct Tree {
  size_t parts;
  Split split;
  Shape shape;
  const char* name;
};

const Tree kTrees[] = {
    {2, Split::kCut, Shape::kRandomPairs, "2 cut"},
    {16, Split::kScatter, Shape::kChain, "16 scatter chain"},
    {256, Split::kScatter, Shape::kRandomPairs, "256 scatter pairs"},
    {256, Split::kCut, Shape::kRandomPairs, "256 cut pairs"},
};

// a ∪= b, taking b stored or as its own bytes (working, or stored if it was
// stored and not updated since); then checks the bound on the result.
void merge(Summary& a, const Summary& b, Random& r) {
  if (r.below(2) == 0) {
    ASSERT_TRUE(a.merge(b).is_ok());
  } else {
    ASSERT_TRUE(a.merge_bytes(b.bytes()).is_ok());
  }
  expect_error_bound(must_parse(a.bytes()), "after a merge");
  if (::testing::Test::HasFailure()) return;
  if (r.below(4) == 0) a = Summary(a.stored());
}

Summary build_tree(const std::vector<uint32_t>& stream, uint32_t k, const Tree& tree,
                   uint64_t seed) {
  Random r(seed);
  std::vector<Summary> parts(tree.parts, Summary(k));
  if (tree.split == Split::kScatter) {
    for (uint32_t key : stream) parts[r.below(tree.parts)].add(key);
  } else {
    std::vector<size_t> cuts{0, stream.size()};
    for (size_t i = 1; i < tree.parts; i++) cuts.push_back(r.below(stream.size() + 1));
    std::sort(cuts.begin(), cuts.end());
    for (size_t p = 0; p < tree.parts; p++)
      for (size_t i = cuts[p]; i < cuts[p + 1]; i++) parts[p].add(stream[i]);
  }
  for (Summary& p : parts)
    if (r.below(3) == 0) p = Summary(p.stored());
  // Random order for the chain, random pairs otherwise.
  for (size_t i = parts.size(); i > 1; i--) std::swap(parts[i - 1], parts[r.below(i)]);
  if (tree.shape == Shape::kChain) {
    for (size_t i = 1; i < parts.size(); i++) {
      merge(parts[0], parts[i], r);
      if (::testing::Test::HasFailure()) return parts[0];
    }
    return parts[0];
  }
  while (parts.size() > 1) {
    const size_t i = r.below(parts.size());
    size_t j = r.below(parts.size() - 1);
    if (j >= i) j++;
    merge(parts[i], parts[j], r);
    if (::testing::Test::HasFailure()) return parts[i];
    parts[j] = std::move(parts.back());
    parts.pop_back();
  }
  return parts[0];
}

struct Worst {
  double ratio = 0;  // max over runs of Δ / (N / (k+1))
};

void run_exponent(double s, uint64_t seed, Worst* worst) {
  const std::vector<uint32_t> stream = zipf_stream(kKeys, s, kEvents, seed);
  const std::vector<uint64_t> f = counts_of(stream, kKeys);
  uint64_t distinct = 0, top = 0;
  for (uint64_t c : f) {
    distinct += c > 0;
    top = std::max(top, c);
  }
  std::printf("\nZipf s = %.1f: %zu events over %u keys (%" PRIu64 " occur), top key %.4f of N\n",
              s, kEvents, kKeys, distinct, double(top) / double(kEvents));
  std::printf("%-5s %-18s %5s %8s %8s %10s %10s %8s   %s\n", "k", "build", "held", "Δ", "bound",
              "Δ/N", "1/(k+1)", "Δ(k+1)/N", "θ: true heavy / no_false_neg / no_false_pos");
  for (uint32_t k : kKs) {
    std::vector<std::pair<std::string, Summary>> runs;
    {
      Summary one(k);
      for (uint32_t key : stream) ASSERT_TRUE(one.add(key));
      runs.emplace_back("one pass", std::move(one));
    }
    uint64_t tree_seed = seed * 1000 + k;
    for (const Tree& tree : kTrees) {
      runs.emplace_back(tree.name, build_tree(stream, k, tree, tree_seed++));
      if (::testing::Test::HasFailure()) return;
    }
    for (const auto& [name, summary] : runs) {
      const std::string what = "s " + std::to_string(s) + " k " + std::to_string(k) + " " + name;
      const Check c = check_summary(summary.stored(), f, k, what);
      const double ratio = double(c.max_error) * (k + 1) / double(c.n);
      worst->ratio = std::max(worst->ratio, ratio);
      std::printf("%-5u %-18s %5u %8" PRIu64 " %8" PRIu64 " %10.6f %10.6f %8.4f %s\n", k,
                  name.c_str(), c.held, c.max_error, c.bound, double(c.max_error) / double(c.n),
                  1.0 / (k + 1), ratio, c.thresholds.c_str());
    }
  }
  std::printf("largest Δ / (N/(k+1)) of these runs: %.4f (the bound: 1)\n", worst->ratio);
  std::fflush(stdout);
}

TEST(TopkAccuracy, ZipfBoundsHoldForEveryKeyS08) {
  Worst w;
  run_exponent(0.8, 801, &w);
  EXPECT_LE(w.ratio, 1.0);
}

TEST(TopkAccuracy, ZipfBoundsHoldForEveryKeyS11) {
  Worst w;
  run_exponent(1.1, 1101, &w);
  EXPECT_LE(w.ratio, 1.0);
}

TEST(TopkAccuracy, ZipfBoundsHoldForEveryKeyS15) {
  Worst w;
  run_exponent(1.5, 1501, &w);
  EXPECT_LE(w.ratio, 1.0);
}

// --- the cms accuracy test's stream ---------------------------------------

// 200,000 events over 50,000 keys, Zipf 1/r, cms::test::Zipf seeds 1, 2, 3
// (CmsAccuracy.OverestimatesBeyondEpsilonNAreRarerThanDelta). At the default
// k the 10 heaviest keys are held from their first occurrence, before any
// purge, so upper = c + Δ is their exact count and the ranking by c is the
// ranking by count. Ties: the summary breaks ties of c by hash, the truth
// below by key, so position i is compared by true count (the i-th reported
// key's count must be the i-th largest count); the key itself is compared
// where that count is not shared with another key of the top 11.
TEST(TopkAccuracy, TopTenOfTheCmsStreamIsExact) {
  constexpr uint64_t kCmsKeys = 50000, kCmsEvents = 200000;
  std::printf("\n200,000 events over 50,000 keys, Zipf 1/r (the cms accuracy stream), k = %u\n",
              kDefaultK);
  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<uint64_t> keys = cms::test::Zipf(kCmsKeys, 1.0, seed).take(kCmsEvents);
    const auto exact = cms::test::exact_counts(keys);
    const auto top11 = cms::test::exact_top(exact, 11);
    Summary s;  // kDefaultK
    for (uint64_t key : keys) ASSERT_TRUE(s.add(static_cast<int64_t>(key)));
    const std::vector<HeldItem> items = s.items();
    const View v = must_parse(s.stored(), Validation::kCanonical);
    ASSERT_GE(items.size(), 10u);
    std::printf("seed %" PRIu64 ": Δ %" PRIu64 ", top 10:", seed, v.max_error);
    bool tie = false;
    for (size_t i = 0; i < 10; i++) {
      const uint64_t key = std::stoull(items[i].text);
      const auto it = exact.find(key);
      ASSERT_TRUE(it != exact.end()) << items[i].text;
      const uint64_t truth = it->second;
      EXPECT_EQ(truth, top11[i].second) << "seed " << seed << " position " << i;
      EXPECT_EQ(items[i].upper, truth) << "seed " << seed << " key " << key;
      const bool shared = std::count_if(top11.begin(), top11.end(), [&](const auto& t) {
                            return t.second == top11[i].second;
                          }) > 1;
      tie |= shared;
      if (!shared) {
        EXPECT_EQ(key, top11[i].first) << "seed " << seed << " position " << i;
      }
      std::printf(" %" PRIu64 "=%" PRIu64, key, items[i].upper);
    }
    std::printf("%s\n", tie ? " (ties in the true top 11)" : "");
  }
  std::fflush(stdout);
}

// --- recall against cms's candidate list ------------------------------------

// Tie-aware recall of the true top n: the share of the n positions that the
// first n reported keys fill with a key whose true count is at least the
// n-th largest count (so a reported key tied with the n-th counts).
double recall(const std::vector<uint64_t>& reported, const std::vector<uint64_t>& f,
              uint64_t nth_count, size_t n) {
  size_t hits = 0;
  for (size_t i = 0; i < reported.size() && i < n; i++)
    if (f[reported[i]] >= nth_count) hits++;
  return double(hits) / double(n);
}

struct Contender {
  std::string name;
  std::vector<uint64_t> (*run)(const std::vector<uint32_t>& stream, size_t parts,
                               uint64_t seed, size_t* bytes);
};

template <uint32_t K>
std::vector<uint64_t> run_topk(const std::vector<uint32_t>& stream, size_t parts, uint64_t seed,
                               size_t* bytes) {
  Random r(seed);
  std::vector<Summary> ps(parts, Summary(K));
  for (uint32_t key : stream) ps[parts == 1 ? 0 : r.below(parts)].add(key);
  for (size_t i = 1; i < parts; i++)
    if (!ps[0].merge(ps[i]).is_ok()) throw std::runtime_error("merge");
  const std::vector<uint8_t> stored = ps[0].stored();
  *bytes = stored.size();
  std::vector<uint64_t> out;
  for (const HeldItem& h : Summary::items_of(stored)) out.push_back(std::stoull(h.text));
  return out;
}

template <uint32_t K>
std::vector<uint64_t> run_cms(const std::vector<uint32_t>& stream, size_t parts, uint64_t seed,
                              size_t* bytes) {
  cms::Params p;
  if (!cms::params_for_accuracy(0.001, 0.01, false, K, &p).is_ok())
    throw std::runtime_error("cms params");
  Random r(seed);
  std::vector<cms::test::Sketch> ss(parts, cms::test::Sketch(p));
  for (uint32_t key : stream) ss[parts == 1 ? 0 : r.below(parts)].add(key);
  for (size_t i = 1; i < parts; i++) ss[0].merge(ss[i]);
  *bytes = ss[0].canonical().size();
  std::vector<uint64_t> out;
  for (const auto& [text, estimate] : ss[0].top(K)) out.push_back(std::stoull(text));
  return out;
}

// Recall of the true top 10 and top 100 on 10^6-event Zipf streams over
// 10^6 keys: topk at k = 64 and 1024, cms_agg's defaults (ε 0.001, δ 0.01:
// 2719 x 5, 100 candidates) and the same with 1024 candidates; one pass and
// the union of 16 parts (each event to a random part). With SKETCH_REPORT_DIR
// set, the table goes to $SKETCH_REPORT_DIR/topk_vs_cms.tsv
// (test/report/topk_vs_cms.sh). Measured with these seeds (N = 10^6):
//
//   s    sketch        top-10 1 part / 16   top-100 1 part / 16
//   0.8  topk k=64        0.20 / 0.50          0.03 / 0.10
//   0.8  topk k=1024      1.00 / 1.00          0.85 / 0.96
//   0.8  cms k=100, 1024  1.00 / 1.00          0.96 / 0.96
//   1.1  topk k=64        1.00 / 1.00          0.23 / 0.45
//   1.1  topk k=1024      1.00 / 1.00          1.00 / 1.00
//   1.1  cms k=100, 1024  1.00 / 1.00          0.98 / 0.98
//   1.5  topk k=64        1.00 / 1.00          0.59 / 0.64
//   1.5  topk k=1024, cms 1.00 / 1.00          1.00 / 1.00
//
// What is asserted: topk k=1024 finds the whole true top 10 everywhere and
// the top 100 for s > 1; cms (both list sizes) the top 10 everywhere and
// >= 95% of the top 100; k=64 the top 10 for s > 1. These are measurements,
// not guarantees: topk promises only keys with count > Δ, cms only with
// probability.
TEST(TopkAccuracy, RecallOfTheTrueTopAgainstCms) {
  constexpr size_t kReportEvents = 1000000;
  const Contender contenders[] = {
      {"topk k=64", run_topk<64>},
      {"topk k=1024", run_topk<1024>},
      {"cms k=100", run_cms<100>},
      {"cms k=1024", run_cms<1024>},
  };
  std::string tsv =
      "exponent\tsketch\tparts\tevents\tkeys\tbytes\titems\trecall_top10\trecall_top100\n";
  std::printf("\n%zu events over %u keys: tie-aware recall of the true top 10 / top 100\n",
              kReportEvents, kKeys);
  std::printf("%-5s %-12s %6s %8s %6s %12s %13s\n", "s", "sketch", "parts", "bytes", "items",
              "top-10", "top-100");
  uint64_t seed = 9000;
  for (double s : kExponents) {
    const std::vector<uint32_t> stream = zipf_stream(kKeys, s, kReportEvents, seed++);
    const std::vector<uint64_t> f = counts_of(stream, kKeys);
    std::vector<uint64_t> sorted(f.begin() + 1, f.end());
    std::sort(sorted.begin(), sorted.end(), std::greater<uint64_t>());
    for (const Contender& c : contenders) {
      for (size_t parts : {size_t{1}, size_t{16}}) {
        size_t bytes = 0;
        const std::vector<uint64_t> reported = c.run(stream, parts, seed * 7 + parts, &bytes);
        const double r10 = recall(reported, f, sorted[9], 10);
        const double r100 = recall(reported, f, sorted[99], 100);
        std::printf("%-5.1f %-12s %6zu %8zu %6zu %12.2f %13.2f\n", s, c.name.c_str(), parts,
                    bytes, reported.size(), r10, r100);
        char row[160];
        std::snprintf(row, sizeof row, "%.1f\t%s\t%zu\t%zu\t%u\t%zu\t%zu\t%.2f\t%.2f\n", s,
                      c.name.c_str(), parts, kReportEvents, kKeys, bytes, reported.size(), r10,
                      r100);
        tsv += row;
        // Floors measured with these seeds (see the comment above the test).
        SCOPED_TRACE(c.name + " s " + std::to_string(s) + " parts " + std::to_string(parts));
        if (c.name == "topk k=1024") {
          EXPECT_EQ(r10, 1.0);
          // At s = 0.8 the 100th count (~340) is below Δ (~460): no bound
          // promises the top 100 there (measured 0.85 one pass, 0.96 merged).
          EXPECT_GE(r100, s < 1 ? 0.85 : 1.0);
        } else if (c.name == "topk k=64") {
          // At most k items are reported; at s = 0.8 Δ ~ N/130 exceeds all
          // counts but the first few (N/75, N/130, ...): few items are held.
          EXPECT_LE(r100, 0.64);
          if (s > 1) {
            EXPECT_EQ(r10, 1.0);
          }
        } else {
          EXPECT_EQ(r10, 1.0);
          EXPECT_GE(r100, 0.95);
        }
      }
    }
  }
  if (const char* dir = std::getenv("SKETCH_REPORT_DIR")) {
    const std::string path = std::string(dir) + "/topk_vs_cms.tsv";
    FILE* out = std::fopen(path.c_str(), "w");
    ASSERT_NE(out, nullptr) << path;
    std::fputs(tsv.c_str(), out);
    std::fclose(out);
    std::printf("wrote %s\n", path.c_str());
  }
  std::fflush(stdout);
}

}  // namespace
}  // namespace sketch::topk
