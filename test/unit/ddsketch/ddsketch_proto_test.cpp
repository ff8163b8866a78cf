// DataDog's DDSketch protobuf into and out of ddsketch
// (core/ddsketch/ddsketch_proto.h): the wire reader's refusals, which
// bucket each key of each index rule becomes, exact imports and folding,
// the re-bucketing guarantee, counts, every malformed input, and the
// export read back.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/common/protobuf_wire.h"
#include "core/ddsketch/ddsketch_proto.h"
#include "ddsketch_test_util.h"
#include "protobuf_builder.h"

namespace sketch::ddsketch {
namespace {

using sketch::test::dd_contiguous;
using sketch::test::dd_entry;
using sketch::test::dd_mapping;
using sketch::test::Proto;
using namespace sketch::ddsketch::test;  // Sketch, params, buckets_of, Random

struct Imported {
  Status status;
  ProtoTarget target{};
  std::map<int64_t, uint64_t> positive, negative;  // at target.scale
  uint64_t zero_count = 0;
};

Imported import(const std::vector<uint8_t>& bytes, ProtoIndexRule rule = ProtoIndexRule::kCeil,
                int max_scale = kMaxScale) {
  Imported out;
  ProtoSummary summary;
  out.status = read_proto(bytes.data(), bytes.size(), &summary);
  if (!out.status.is_ok()) return out;
  out.status = plan_proto(summary, rule, max_scale, &out.target);
  if (!out.status.is_ok()) return out;
  std::vector<ExpBucket> pos(summary.bins[0] + 1), neg(summary.bins[1] + 1);
  ExpHistogram h;
  out.status = proto_histogram(bytes.data(), bytes.size(), summary, out.target, pos.data(),
                               neg.data(), &h);
  if (!out.status.is_ok()) return out;
  for (size_t k = 0; k < h.positive.n; k++) out.positive[h.positive.buckets[k].index] += h.positive.buckets[k].count;
  for (size_t k = 0; k < h.negative.n; k++) out.negative[h.negative.buckets[k].index] += h.negative.buckets[k].count;
  out.zero_count = h.zero_count;
  return out;
}

std::vector<uint8_t> sketch_of(const Proto& mapping, const Proto* positive = nullptr,
                               const Proto* negative = nullptr, double zeros = 0) {
  Proto m;
  m.message(1, mapping);
  if (positive != nullptr) m.message(2, *positive);
  if (negative != nullptr) m.message(3, *negative);
  if (zeros != 0) m.dbl(4, zeros);
  return m.data();
}

void expect_refused(const std::vector<uint8_t>& bytes, StatusCode code, const std::string& words,
                    ProtoIndexRule rule = ProtoIndexRule::kCeil) {
  const Imported got = import(bytes, rule);
  ASSERT_FALSE(got.status.is_ok()) << words;
  EXPECT_EQ(got.status.code(), code) << got.status.message();
  EXPECT_NE(std::string(got.status.message()).find(words), std::string::npos)
      << got.status.message();
}

// --- the wire reader -------------------------------------------------------------

TEST(ProtobufWire, ReadsEveryWireTypeAndRefusesTheRest) {
  Proto p;
  p.varint(1, 300).dbl(2, 1.5).bytes(3, {7, 8});
  protobuf::Reader r(p.data().data(), p.data().size());
  protobuf::Field f;
  ASSERT_TRUE(r.next(&f));
  EXPECT_EQ(f.number, 1u);
  EXPECT_EQ(f.value, 300u);
  ASSERT_TRUE(r.next(&f));
  EXPECT_EQ(protobuf::bits_to_double(f.value), 1.5);
  ASSERT_TRUE(r.next(&f));
  EXPECT_EQ(f.size, 2u);
  EXPECT_EQ(f.data[1], 8);
  EXPECT_TRUE(r.at_end());

  for (const std::vector<uint8_t>& bad : std::vector<std::vector<uint8_t>>{
           {0x0b},                    // wire type 3 (group)
           {0x0e},                    // wire type 6
           {0x02, 0x00},              // field number 0
           {0x09, 1, 2, 3},           // fixed64 truncated
           {0x12, 5, 1},              // length past the end
           {0x08, 0x80},              // varint truncated
           {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},  // above 2^64
       }) {
    protobuf::Reader bad_reader(bad.data(), bad.size());
    EXPECT_FALSE(bad_reader.next(&f)) << bad.size();
    EXPECT_STRNE(bad_reader.error(), "");
  }
}

TEST(ProtobufWire, ZigzagRoundTrips) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{INT32_MIN}, int64_t{INT32_MAX},
                    INT64_MIN, INT64_MAX}) {
    EXPECT_EQ(protobuf::zigzag_decode(protobuf::zigzag_encode(v)), v);
  }
  EXPECT_EQ(protobuf::zigzag_encode(-1), 1u);
  EXPECT_EQ(protobuf::zigzag_encode(1), 2u);
}

// --- which bucket a key becomes ------------------------------------------------------

// ceil (sketches-py, -js): key k holds (g^(k-1), g^k], ddsketch's bucket k.
// floor (sketches-go, -java): index i holds [g^i, g^(i+1)), bucket i + 1.
TEST(DdsketchProto, IndexRulesDifferByOneBucket) {
  const Proto store = dd_contiguous(64, {3});  // key 64: 2 = g^64 at scale 6
  const std::vector<uint8_t> bytes = sketch_of(dd_mapping(gamma_of(6)), &store, &store, 2);
  const Imported ceil_rule = import(bytes, ProtoIndexRule::kCeil);
  ASSERT_TRUE(ceil_rule.status.is_ok()) << ceil_rule.status.message();
  EXPECT_TRUE(ceil_rule.target.exact);
  EXPECT_EQ(ceil_rule.target.scale, 6);
  EXPECT_EQ(ceil_rule.positive, (std::map<int64_t, uint64_t>{{64, 3}}));
  EXPECT_EQ(ceil_rule.negative, (std::map<int64_t, uint64_t>{{64, 3}}));
  EXPECT_EQ(ceil_rule.zero_count, 2u);
  // The value 2 itself: ddsketch's bucket 64, as under ceil.
  EXPECT_EQ(bucket_index(2.0, 6), 64);
  const Imported floor_rule = import(bytes, ProtoIndexRule::kFloor);
  ASSERT_TRUE(floor_rule.status.is_ok());
  EXPECT_EQ(floor_rule.positive, (std::map<int64_t, uint64_t>{{65, 3}}));
  // Go's index 64 is [2, 2 g): its representative 2 * 2g / (1 + g) lies in bucket 65.
  const double g = gamma_of(6);
  EXPECT_EQ(bucket_index(2.0 * 2 * g / (1 + g), 6), 65);
}

TEST(DdsketchProto, IntegerOffsetShiftsKeys) {
  const Proto store = dd_contiguous(10, {1, 0, 2});  // keys 10, 12
  const Imported got = import(sketch_of(dd_mapping(gamma_of(3), -4), &store));
  ASSERT_TRUE(got.status.is_ok()) << got.status.message();
  EXPECT_TRUE(got.target.exact);
  EXPECT_EQ(got.positive, (std::map<int64_t, uint64_t>{{14, 1}, {16, 2}}));
}

TEST(DdsketchProto, BothEncodingsAddAndZeroCountsAreSkipped) {
  Proto store = dd_contiguous(-3, {1, 0, 5});
  store.message(1, dd_entry(-3, 2)).message(1, dd_entry(7, 4)).message(1, dd_entry(8, 0));
  const Imported got = import(sketch_of(dd_mapping(gamma_of(0)), &store));
  ASSERT_TRUE(got.status.is_ok()) << got.status.message();
  EXPECT_EQ(got.positive, (std::map<int64_t, uint64_t>{{-3, 3}, {-1, 5}, {7, 4}}));
}

TEST(DdsketchProto, UnpackedAndSplitContiguousCountsAppend) {
  Proto store;
  store.dbl(2, 1).packed(2, {2, 3}).dbl(2, 4).sint(3, 100);  // offset after the counts
  const Imported got = import(sketch_of(dd_mapping(gamma_of(2)), &store));
  ASSERT_TRUE(got.status.is_ok()) << got.status.message();
  EXPECT_EQ(got.positive,
            (std::map<int64_t, uint64_t>{{100, 1}, {101, 2}, {102, 3}, {103, 4}}));
}

TEST(DdsketchProto, UnknownFieldsAreSkippedInAnyOrder) {
  Proto store = dd_contiguous(5, {1});
  store.varint(9, 1);
  Proto mapping = dd_mapping(gamma_of(4));
  mapping.bytes(15, {1, 2, 3});
  Proto m;
  m.dbl(4, 7).message(2, store).varint(20, 5).message(1, mapping);
  const Imported got = import(m.data());
  ASSERT_TRUE(got.status.is_ok()) << got.status.message();
  EXPECT_EQ(got.positive, (std::map<int64_t, uint64_t>{{5, 1}}));
  EXPECT_EQ(got.zero_count, 7u);
}

// gamma = 2^(2^-14): exact at scale 14, then folded to 12 by the
// exponential path (bucket ceil(k / 4)).
TEST(DdsketchProto, FinerExactScalesFold) {
  const Proto store = dd_contiguous(4001, {1, 1, 1, 1, 1});  // 4001..4005
  const Imported got = import(sketch_of(dd_mapping(gamma_of(14)), &store));
  ASSERT_TRUE(got.status.is_ok()) << got.status.message();
  EXPECT_TRUE(got.target.exact);
  EXPECT_EQ(got.target.scale, 14);
  std::vector<ExpBucket> b;
  for (auto [i, c] : got.positive) b.push_back({i, c});
  ExpHistogram h;
  h.scale = 14;
  h.positive = {b.data(), b.size()};
  ExpPlan plan;
  ASSERT_TRUE(plan_from_exponential(h, 12, kDefaultMaxBuckets, &plan).is_ok());
  EXPECT_EQ(plan.scale, 12);
  EXPECT_EQ(plan.low[0], 1001);   // ceil(4001 / 4)
  EXPECT_EQ(plan.high[0], 1002);  // ceil(4005 / 4)
}

// Any other gamma: a bin goes to the bucket of its representative, and
// every value of the bin is within the stated accuracy of that bucket's
// representative.
TEST(DdsketchProto, RebucketingKeepsTheStatedAccuracy) {
  for (double alpha : {0.01, 0.02, 0.001, 0.05}) {
    for (ProtoIndexRule rule : {ProtoIndexRule::kCeil, ProtoIndexRule::kFloor}) {
      const double gamma = 1 + 2 * alpha / (1 - alpha);  // as sketches-js computes it
      Proto store;
      std::vector<double> counts(600, 1);
      store = dd_contiguous(-300, counts);
      const Imported got = import(sketch_of(dd_mapping(gamma, 0.5), &store), rule);
      ASSERT_TRUE(got.status.is_ok()) << got.status.message();
      EXPECT_FALSE(got.target.exact);
      const int s = got.target.scale;
      EXPECT_LE(relative_accuracy(s), alpha);
      EXPECT_TRUE(s == 0 || relative_accuracy(s - 1) > alpha) << s;
      EXPECT_NEAR(got.target.accuracy, (1 + alpha) * (1 + relative_accuracy(s)) - 1, 1e-15);
      uint64_t total = 0;
      for (auto [i, c] : got.positive) total += c;
      EXPECT_EQ(total, 600u);
      // Bin k (ceil key k' = k or k + 1) is (g^(k'-o-1), g^(k'-o)].
      for (int64_t key = -300; key < 300; key++) {
        const int64_t k = rule == ProtoIndexRule::kFloor ? key + 1 : key;
        const double upper = std::pow(gamma, static_cast<double>(k) - 0.5);
        const double lower = upper / gamma;
        const double rep = 2 * upper / (1 + gamma);
        const double ours = bucket_value(bucket_index(rep, s), s);
        EXPECT_LE(std::fabs(ours - lower) / lower, got.target.accuracy * (1 + 1e-12)) << key;
        EXPECT_LE(std::fabs(ours - upper) / upper, got.target.accuracy * (1 + 1e-12)) << key;
      }
    }
  }
}

TEST(DdsketchProto, MaxScaleBoundsTheRebucketingScale) {
  const Proto store = dd_contiguous(0, {1});
  const Imported got = import(sketch_of(dd_mapping(1.0001), &store), ProtoIndexRule::kCeil, 5);
  ASSERT_TRUE(got.status.is_ok());
  EXPECT_EQ(got.target.scale, 5);
}

TEST(DdsketchProto, Refusals) {
  const Proto store = dd_contiguous(0, {1});
  const Proto no_store;
  // Mapping
  expect_refused(Proto().message(2, store).data(), StatusCode::kInvalidFormat, "no mapping");
  expect_refused(sketch_of(dd_mapping(1.0)), StatusCode::kInvalidFormat, "mapping.gamma");
  expect_refused(sketch_of(dd_mapping(NAN)), StatusCode::kInvalidFormat, "mapping.gamma");
  expect_refused(sketch_of(dd_mapping(INFINITY)), StatusCode::kInvalidFormat, "mapping.gamma");
  expect_refused(sketch_of(dd_mapping(1.02, NAN)), StatusCode::kInvalidFormat, "indexOffset");
  expect_refused(sketch_of(dd_mapping(1.02, 0, 7)), StatusCode::kInvalidFormat, "interpolation 7");
  for (uint64_t interpolation : {1, 2, 3})
    expect_refused(sketch_of(dd_mapping(1.02, 0, interpolation), &store),
                   StatusCode::kUnsupported, "is not supported");
  // Counts
  for (double c : {1.5, -1.0, double{NAN}, double{INFINITY}, 18446744073709551616.0}) {
    const Proto bad = dd_contiguous(0, {c});
    expect_refused(sketch_of(dd_mapping(2), &bad), StatusCode::kInvalidFormat,
                   "contiguousBinCounts has the count");
    Proto entry;
    entry.message(1, dd_entry(3, c));
    expect_refused(sketch_of(dd_mapping(2), &entry), StatusCode::kInvalidFormat,
                   "binCounts has the count");
    expect_refused(sketch_of(dd_mapping(2), nullptr, nullptr, c), StatusCode::kInvalidFormat,
                   "zeroCount");
  }
  // Structure
  Proto twice_key;
  twice_key.message(1, dd_entry(3, 1)).message(1, dd_entry(3, 2));
  expect_refused(sketch_of(dd_mapping(2), &twice_key), StatusCode::kInvalidFormat, "key 3 twice");
  expect_refused(Proto().message(1, dd_mapping(2)).message(1, dd_mapping(2)).data(),
                 StatusCode::kInvalidFormat, "mapping is given twice");
  Proto two_offsets = dd_contiguous(1, {1});
  two_offsets.sint(3, 2);
  expect_refused(sketch_of(dd_mapping(2), &two_offsets), StatusCode::kInvalidFormat,
                 "contiguousBinIndexOffset is given twice");
  Proto odd;
  odd.bytes(2, {1, 2, 3});
  expect_refused(sketch_of(dd_mapping(2), &odd), StatusCode::kInvalidFormat, "multiple of 8");
  expect_refused(Proto().varint(1, 5).data(), StatusCode::kInvalidFormat, "wire type 0");
  expect_refused(Proto().message(1, dd_mapping(2)).varint(4, 1).data(), StatusCode::kInvalidFormat,
                 "zeroCount has wire type 0");
  Proto wide_key;
  wide_key.message(1, Proto().varint(1, uint64_t{1} << 33).dbl(2, 1));
  expect_refused(sketch_of(dd_mapping(2), &wide_key), StatusCode::kInvalidFormat, "above 32 bits");
  std::vector<uint8_t> truncated = sketch_of(dd_mapping(2), &store);
  truncated.pop_back();
  expect_refused(truncated, StatusCode::kInvalidFormat, "runs past the end");
  // A bin far beyond the doubles' range (re-bucketing computes its value).
  const Proto far = dd_contiguous(INT32_MAX, {1});
  expect_refused(sketch_of(dd_mapping(1.5), &far), StatusCode::kOverflow, "beyond the doubles");
  // max_scale
  ProtoSummary summary;
  const std::vector<uint8_t> ok = sketch_of(dd_mapping(2), &store);
  ASSERT_TRUE(read_proto(ok.data(), ok.size(), &summary).is_ok());
  ProtoTarget t;
  EXPECT_EQ(plan_proto(summary, ProtoIndexRule::kCeil, 13, &t).code(),
            StatusCode::kInvalidParameter);
  EXPECT_EQ(plan_proto(summary, ProtoIndexRule::kCeil, -1, &t).code(),
            StatusCode::kInvalidParameter);
}

// --- export ---------------------------------------------------------------------

TEST(DdsketchProto, ExportReadsBackToTheSameBuckets) {
  for (int scale : {0, 6, 12}) {
    test::Random random(scale + 1);
    std::vector<double> values;
    for (int i = 0; i < 2000; i++) values.push_back((i % 5 == 0 ? -1 : 1) * std::exp(random.normal() * 3));
    for (int i = 0; i < 7; i++) values.push_back(0);
    const Sketch sk = Sketch::of(params(scale, 65536), values);
    const View v = sk.stored_view();
    size_t size;
    ASSERT_TRUE(proto_size(v, &size).is_ok());
    std::vector<uint8_t> bytes(size, 0xAB);
    write_proto(v, bytes.data());
    const Imported got = import(bytes);
    ASSERT_TRUE(got.status.is_ok()) << got.status.message();
    EXPECT_TRUE(got.target.exact);
    EXPECT_EQ(got.target.scale, scale);
    std::map<int64_t, uint64_t> pos, neg;
    for (auto [i, c] : buckets_of(v.positive)) pos[i] = c;
    for (auto [i, c] : buckets_of(v.negative)) neg[i] = c;
    EXPECT_EQ(got.positive, pos);
    EXPECT_EQ(got.negative, neg);
    EXPECT_EQ(got.zero_count, 7u);
  }
}

TEST(DdsketchProto, ExportOfAnEmptySketchHasBothStores) {
  const Sketch sk(params(6));
  const View v = sk.stored_view();
  size_t size;
  ASSERT_TRUE(proto_size(v, &size).is_ok());
  std::vector<uint8_t> bytes(size);
  write_proto(v, bytes.data());
  // mapping {gamma}, positiveValues {}, negativeValues {}: sketches-js
  // refuses a message without its stores.
  std::vector<uint8_t> want = {0x0a, 0x09, 0x09};
  const uint64_t bits = protobuf::double_to_bits(gamma_of(6));
  for (int i = 0; i < 8; i++) want.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  want.insert(want.end(), {0x12, 0x00, 0x1a, 0x00});
  EXPECT_EQ(bytes, want);
}

TEST(DdsketchProto, ExportRefusesCountsNoDoubleHolds) {
  Sketch sk(params(6));
  sk.add_times(3.0, (uint64_t{1} << 53) + 1);
  size_t size;
  EXPECT_EQ(proto_size(sk.stored_view(), &size).code(), StatusCode::kOverflow);
  Sketch fits(params(6));
  fits.add_times(3.0, uint64_t{1} << 53);
  EXPECT_TRUE(proto_size(fits.stored_view(), &size).is_ok());
}

}  // namespace
}  // namespace sketch::ddsketch
