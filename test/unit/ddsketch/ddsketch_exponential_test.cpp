// Exponential histograms (OpenTelemetry, Prometheus) into ddsketch:
// the index facts of ../shared/interop/otel/CHECK.txt, power-of-two
// boundaries, exact folding from finer scales, byte identity with sketches
// built from the same values, and every refusal.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "core/ddsketch/ddsketch_exponential.h"
#include "ddsketch_test_util.h"

namespace sketch::ddsketch {
namespace {

struct Built {
  Status status;
  std::vector<uint8_t> bytes;
};

Built build(const ExpHistogram& h, int max_scale = kMaxScale,
            int64_t max_buckets = kDefaultMaxBuckets) {
  ExpPlan plan;
  Built b;
  b.status = plan_from_exponential(h, max_scale, max_buckets, &plan);
  if (!b.status.is_ok()) return b;
  b.bytes.assign(plan.size, 0xAB);
  write_from_exponential(h, plan, b.bytes.data());
  View v;
  b.status = parse(b.bytes.data(), b.bytes.size(), Validation::kCanonical, &v);
  return b;
}

// The buckets of a stored sketch as a histogram at its scale, with its
// exact count, min and max and its sum (exact for the values used here).
struct Histogram {
  std::vector<ExpBucket> pos, neg;
  ExpHistogram h;
};

Histogram histogram_of(const View& v) {
  Histogram out;
  for_each_bucket(v.positive, [&](int32_t i, uint64_t c) { out.pos.push_back({i, c}); });
  for_each_bucket(v.negative, [&](int32_t i, uint64_t c) { out.neg.push_back({i, c}); });
  out.h.scale = v.scale;
  out.h.zero_count = v.zero_count;
  out.h.positive = {out.pos.data(), out.pos.size()};
  out.h.negative = {out.neg.data(), out.neg.size()};
  out.h.has_count = true;
  out.h.count = v.count;
  out.h.has_sum = true;
  out.h.sum = sum(v);
  out.h.has_min = out.h.has_max = true;
  out.h.min = v.min;
  out.h.max = v.max;
  return out;
}

// OTel indices from CHECK.txt (its index facts): ddsketch index = OTel + 1.
TEST(DdsketchExponential, IndexFactsAreOtelPlusOne) {
  struct Fact {
    double value;
    int scale;
    int otel;
  };
  const Fact facts[] = {{1.0, 0, -1}, {2.0, 0, 0}, {2.5, 0, 1},  {4.0, 0, 1},
                        {5.0, 0, 2},  {0.5, 0, -2}, {1.0, 3, -1}, {2.0, 3, 7},
                        {1.5, 3, 4},  {1.4142135623730951, 1, 1}};
  for (const Fact& f : facts)
    EXPECT_EQ(bucket_index(f.value, f.scale), f.otel + 1) << f.value << " at scale " << f.scale;
}

// The OTLP example of metrics.json: zero_count 1, buckets (2,4]: 0 and
// (4,8]: 2, min 0, max 5, sum 10.
TEST(DdsketchExponential, TheOtlpExample) {
  const ExpBucket pos[] = {{2, 0}, {3, 2}};  // OTel indices 1 and 2
  ExpHistogram h;
  h.scale = 0;
  h.zero_count = 1;
  h.positive = {pos, 2};
  h.has_count = true;
  h.count = 3;
  h.has_sum = true;
  h.sum = 10;
  h.has_min = h.has_max = true;
  h.min = 0;
  h.max = 5;
  const Built b = build(h);
  ASSERT_TRUE(b.status.is_ok()) << b.status.message();
  // The same sketch as the values 0, 5, 5 give.
  const test::Sketch s = test::Sketch::of(test::params(0), {0, 5, 5});
  EXPECT_EQ(b.bytes, s.stored());
}

// Powers of two are the upper bound of their bucket in both systems: 2^k
// is OTel bucket k 2^S - 1, and a count there lands where ddsketch puts
// 2^k itself, at every scale and after folding from any finer one.
TEST(DdsketchExponential, PowersOfTwoFoldExactly) {
  for (int S = 0; S <= kOtelMaxScale; S++) {
    for (int s = 0; s <= kMaxScale && s <= S; s++) {
      for (int k : {-1074, -1022, -3, 0, 1, 7, 1023}) {
        const double v = std::ldexp(1.0, k);
        const int64_t otel = int64_t{k} * (int64_t{1} << S) - 1;
        const double above = std::nextafter(v, DBL_MAX);  // OTel bucket k 2^S
        // Among the denormals the next double is further away: 2^-1074
        // alone there.
        const bool alone = k == -1074;
        const ExpBucket pos[] = {{otel + 1, 3}, {otel + 2, 2}};
        ExpHistogram h;
        h.scale = S;
        h.positive = {pos, alone ? size_t{1} : size_t{2}};
        h.has_min = h.has_max = true;
        h.min = v;
        h.max = alone ? v : above;
        const Built b = build(h, s);
        ASSERT_TRUE(b.status.is_ok()) << b.status.message() << " S " << S << " s " << s;
        const View got = test::must_parse(b.bytes, Validation::kCanonical);
        const auto buckets = test::buckets_of(got.positive);
        EXPECT_EQ(got.scale, s);
        uint64_t at_v = 0, above_v = 0;
        for (const auto& [i, c] : buckets) {
          if (i == bucket_index(v, s)) at_v += c;
          if (i == bucket_index(above, s)) above_v += c;
        }
        EXPECT_EQ(at_v, 3u) << "2^" << k << " S " << S << " s " << s;
        if (!alone) EXPECT_EQ(above_v, 2u) << "2^" << k << " S " << S << " s " << s;
      }
    }
  }
}

// A sketch's own buckets, min, max and sum read back as a histogram give
// the same bytes, at every scale, both signs and zeros; and a finer
// histogram folds to the bytes of the same values at the coarser scale.
TEST(DdsketchExponential, SketchBucketsRoundTripByteForByte) {
  test::Random random(28);
  for (int scale = 0; scale <= kMaxScale; scale++) {
    std::vector<double> values;
    for (int k = 0; k < 300; k++) {
      const double magnitude = std::ldexp(1.0 + (random.next() % 1024) / 1024.0,
                                          static_cast<int>(random.next() % 10) - 5);
      values.push_back(random.next() % 5 == 0 ? -magnitude : magnitude);
    }
    values.push_back(0);
    values.push_back(std::ldexp(1.0, 5));
    const test::Sketch s = test::Sketch::of(test::params(scale, kMaxBuckets), values);
    const View v = s.stored_view();
    Histogram hist = histogram_of(v);
    const Built b = build(hist.h, kMaxScale, kMaxBuckets);
    ASSERT_TRUE(b.status.is_ok()) << b.status.message();
    EXPECT_EQ(b.bytes, s.stored()) << "scale " << scale;
    for (int coarser = 0; coarser < scale; coarser += 3) {
      const Built f = build(hist.h, coarser, kMaxBuckets);
      ASSERT_TRUE(f.status.is_ok()) << f.status.message();
      EXPECT_EQ(f.bytes, test::Sketch::of(test::params(coarser, kMaxBuckets), values).stored())
          << scale << " -> " << coarser;
    }
  }
}

// Scales above 12 fold down; the result equals ddsketch's own buckets of
// the values at scale 12, for values whose OTel index at 13..20 is known
// exactly (powers of two and their neighbours).
TEST(DdsketchExponential, ScalesAbove12FoldToAnyTarget) {
  for (int S = 13; S <= kOtelMaxScale; S++) {
    std::vector<ExpBucket> pos;
    std::vector<double> values;
    for (int k = -3; k <= 3; k++) {
      const int64_t base = int64_t{k} * (int64_t{1} << S);  // OTel base - 1 holds 2^k, base the next double
      pos.push_back({base, 1});
      pos.push_back({base + 1, 1});
      values.push_back(std::ldexp(1.0, k));
      values.push_back(std::nextafter(std::ldexp(1.0, k), DBL_MAX));
    }
    ExpHistogram h;
    h.scale = S;
    h.positive = {pos.data(), pos.size()};
    h.has_min = h.has_max = h.has_count = true;
    h.count = values.size();
    h.min = values.front();
    h.max = values.back();
    for (int s : {12, 6, 0}) {
      const Built b = build(h, s, kMaxBuckets);
      ASSERT_TRUE(b.status.is_ok()) << b.status.message();
      const test::Sketch want = test::Sketch::of(test::params(s, kMaxBuckets), values);
      const View got = test::must_parse(b.bytes, Validation::kCanonical);
      EXPECT_EQ(test::buckets_of(got.positive), test::buckets_of(want.stored_view().positive))
          << S << " -> " << s;
    }
  }
}

TEST(DdsketchExponential, MissingMinMaxSumComeFromTheBuckets) {
  const ExpBucket pos[] = {{10, 4}, {20, 1}};
  const ExpBucket neg[] = {{-3, 2}};
  ExpHistogram h;
  h.scale = 2;
  h.positive = {pos, 2};
  h.negative = {neg, 1};
  const Built b = build(h);
  ASSERT_TRUE(b.status.is_ok()) << b.status.message();
  const View v = test::must_parse(b.bytes, Validation::kCanonical);
  EXPECT_EQ(v.count, 7u);
  EXPECT_EQ(bucket_index(v.max, 2), 20);
  EXPECT_EQ(bucket_index(-v.min, 2), -3);
  EXPECT_GT(sum(v), 0);
}

TEST(DdsketchExponential, ZeroBucketWithAThreshold) {
  const ExpBucket pos[] = {{0, 2}};
  ExpHistogram h;
  h.scale = 0;
  h.zero_count = 3;
  h.zero_threshold = 1e-9;
  h.positive = {pos, 1};
  h.has_min = h.has_max = h.has_sum = true;
  h.min = -1e-10;  // a zero-bucket value: stored as 0
  h.max = 0.75;
  h.sum = 1.4;
  const Built b = build(h);
  ASSERT_TRUE(b.status.is_ok()) << b.status.message();
  const View v = test::must_parse(b.bytes, Validation::kCanonical);
  EXPECT_EQ(v.zero_count, 3u);
  EXPECT_EQ(v.min, 0.0);
  EXPECT_EQ(v.max, 0.75);
  // A min outside the zero bucket, with no negative bucket, is refused.
  h.min = -1e-3;
  EXPECT_EQ(build(h).status.code(), StatusCode::kInvalidParameter);
}

TEST(DdsketchExponential, SumIsClampedIntoItsBounds) {
  // Ten values 0.1 summed in floating point: 0.9999999999999999 < 10 * 0.1.
  const ExpBucket pos[] = {{bucket_index(0.1, 4), 10}};
  ExpHistogram h;
  h.scale = 4;
  h.positive = {pos, 1};
  h.has_min = h.has_max = h.has_sum = true;
  h.min = h.max = 0.1;
  double s = 0;
  for (int k = 0; k < 10; k++) s += 0.1;
  h.sum = s;
  const Built b = build(h);
  ASSERT_TRUE(b.status.is_ok()) << b.status.message();
  EXPECT_EQ(b.bytes, test::Sketch::of(test::params(4), std::vector<double>(10, 0.1)).stored());
}

TEST(DdsketchExponential, Refusals) {
  const ExpBucket pos[] = {{1, 1}, {1, 1}};
  ExpHistogram h;
  h.positive = {pos, 2};
  EXPECT_EQ(build(h).status.code(), StatusCode::kInvalidText);  // not ascending
  h.positive = {pos, 1};
  h.has_count = true;
  h.count = 2;
  EXPECT_EQ(build(h).status.code(), StatusCode::kInvalidText);  // count mismatch
  h.has_count = false;
  h.scale = -1;
  EXPECT_EQ(build(h).status.code(), StatusCode::kInvalidParameter);
  h.scale = 21;
  EXPECT_EQ(build(h).status.code(), StatusCode::kInvalidParameter);
  h.scale = 0;
  EXPECT_EQ(build(h, 13).status.code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(build(h, 12, 15).status.code(), StatusCode::kInvalidParameter);
  h.has_max = true;
  h.max = 3;  // bucket 1 is (1, 2]
  EXPECT_EQ(build(h).status.code(), StatusCode::kInvalidParameter);
  h.max = NAN;
  EXPECT_EQ(build(h).status.code(), StatusCode::kInvalidParameter);
  h.has_max = false;
  h.zero_threshold = -1;
  EXPECT_EQ(build(h).status.code(), StatusCode::kInvalidParameter);
  h.zero_threshold = 0;
  const ExpBucket far[] = {{1025, 1}};  // (2^1024, 2^1025]
  h.positive = {far, 1};
  EXPECT_EQ(build(h).status.code(), StatusCode::kOverflow);
  const ExpBucket wide[] = {{0, 1}, {5000, 1}};
  h.positive = {wide, 2};
  h.scale = 4;
  EXPECT_EQ(build(h).status.code(), StatusCode::kInvalidParameter);
  const ExpBucket huge[] = {{0, UINT64_MAX}, {1, 1}};
  h.positive = {huge, 2};
  h.scale = 0;
  EXPECT_EQ(build(h).status.code(), StatusCode::kOverflow);
}

TEST(DdsketchExponential, EmptyHistogram) {
  ExpHistogram h;
  h.scale = 20;
  h.has_count = true;
  const Built b = build(h);
  ASSERT_TRUE(b.status.is_ok()) << b.status.message();
  EXPECT_EQ(b.bytes, test::empty_stored(test::params(12)));
}

}  // namespace
}  // namespace sketch::ddsketch
