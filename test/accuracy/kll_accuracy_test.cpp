// kll rank error against the bound the sketch reports, over 10^6 values per
// stream, fixed seeds.
//
// The bound (kll::rank_error, single-sided) is DataSketches' empirical fit of
// the 99th percentile of the normalized rank error for k: at most 1% of the
// queries may exceed it. Each case asks 99 rank queries, at the true values
// of ranks 1%..99%, and 99 quantile queries, whose answers' true ranks must
// lie within the bound of q; at most one of the 99 of each may miss. The
// cases: uniform, sorted, reverse-sorted and many-duplicates streams, one
// pass and unions of 2 and 16 parts (contiguous slices, so that each part
// sees a different range: the hardest split for a merge), k 200 and 800.
// The worst error and the bound are printed for docs/kll.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kll_test_util.h"

namespace sketch::kll {
namespace {

using test::Random;
using test::Reader;
using test::Sketch;

constexpr size_t kValues = 1000000;

std::vector<double> stream(const std::string& name) {
  Random rnd(20261203);
  std::vector<double> v(kValues);
  for (size_t i = 0; i < kValues; ++i) {
    if (name == "uniform") v[i] = rnd.uniform() * 2e6 - 1e6;
    if (name == "sorted") v[i] = static_cast<double>(i);
    if (name == "reverse") v[i] = static_cast<double>(kValues - i);
    if (name == "duplicates") v[i] = static_cast<double>(rnd.below(37));
    if (name == "lognormal") v[i] = std::exp(2.0 * rnd.normal());
  }
  return v;
}

std::vector<uint8_t> build(const std::vector<double>& values, uint32_t k, size_t parts) {
  Sketch total(k);
  const size_t per = values.size() / parts;
  for (size_t p = 0; p < parts; ++p) {
    Sketch part(k);
    const size_t end = p + 1 == parts ? values.size() : (p + 1) * per;
    for (size_t i = p * per; i < end; ++i) part.add(values[i]);
    const Status st = total.merge_stored(part.stored());
    if (!st.is_ok()) throw std::runtime_error(st.message());
  }
  return total.stored();
}

struct Outcome {
  double worst_rank = 0, worst_quantile = 0, bound = 0;
  int rank_misses = 0, quantile_misses = 0;
};

Outcome measure(const std::vector<double>& values, uint32_t k, size_t parts) {
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  Reader r(build(values, k, parts));
  Outcome o;
  o.bound = rank_error(r.view(), false);
  EXPECT_EQ(r.view().n, values.size());
  EXPECT_EQ(r.quantile(0), sorted.front());
  EXPECT_EQ(r.quantile(1), sorted.back());
  for (int i = 1; i <= 99; ++i) {
    const double q = i / 100.0;
    const double v = sorted[static_cast<size_t>(q * (sorted.size() - 1))];
    const double rank_err = std::fabs(r.rank(v) - test::true_rank(sorted, v));
    o.worst_rank = std::max(o.worst_rank, rank_err);
    if (rank_err > o.bound) o.rank_misses++;
    // The answer's true ranks are [rank of the values below it, rank <= it]:
    // its error is the distance from q to that interval.
    const double answer = r.quantile(q);
    const double hi = test::true_rank(sorted, answer);
    const double lo = static_cast<double>(std::lower_bound(sorted.begin(), sorted.end(), answer) -
                                          sorted.begin()) /
                      static_cast<double>(sorted.size());
    const double q_err = q < lo ? lo - q : (q > hi ? q - hi : 0.0);
    o.worst_quantile = std::max(o.worst_quantile, q_err);
    if (q_err > o.bound) o.quantile_misses++;
  }
  return o;
}

class KllAccuracy : public ::testing::TestWithParam<std::string> {};

TEST_P(KllAccuracy, RankErrorWithinReportedBound) {
  const std::vector<double> values = stream(GetParam());
  for (uint32_t k : {200u, 800u}) {
    for (size_t parts : {size_t{1}, size_t{2}, size_t{16}}) {
      const Outcome o = measure(values, k, parts);
      std::printf("kll accuracy %-10s k %3u parts %2zu: worst rank error %.5f, worst quantile "
                  "rank error %.5f, bound %.5f, misses %d + %d of 99\n",
                  GetParam().c_str(), k, parts, o.worst_rank, o.worst_quantile, o.bound,
                  o.rank_misses, o.quantile_misses);
      EXPECT_LE(o.rank_misses, 1) << GetParam() << " k " << k << " parts " << parts;
      EXPECT_LE(o.quantile_misses, 1) << GetParam() << " k " << k << " parts " << parts;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Streams, KllAccuracy,
                         ::testing::Values("uniform", "sorted", "reverse", "duplicates",
                                           "lognormal"));

}  // namespace
}  // namespace sketch::kll
