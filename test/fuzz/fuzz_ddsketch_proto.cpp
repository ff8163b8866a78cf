// Fuzz target: DataDog's DDSketch protobuf into ddsketch
// (core/ddsketch/ddsketch_proto.h), as ddsketch_from_ddsketch_proto hands
// it to the core. Byte 0 picks the index rule (bit 0: floor), byte 1
// max_scale (-1..12, so that an invalid one comes up); the rest is the
// message. Whatever read_proto, plan_proto and proto_histogram accept must
// give ascending merged buckets within their room, and, when
// plan_from_exponential accepts the histogram, a sketch that passes the
// strict parse and counts every bin and zero. Every sketch so built must
// export (ddsketch_to_ddsketch_proto) to bytes that read back exactly to
// its own buckets.
#include <map>
#include <vector>

#include "core/ddsketch/ddsketch_proto.h"
#include "fuzz_check.h"

namespace {

using namespace sketch;
using namespace sketch::ddsketch;

std::map<int64_t, uint64_t> buckets(const ExpStore& s) {
  std::map<int64_t, uint64_t> out;
  for (size_t k = 0; k < s.n; k++) out[s.buckets[k].index] += s.buckets[k].count;
  return out;
}

std::map<int64_t, uint64_t> buckets(const Store& s) {
  std::map<int64_t, uint64_t> out;
  for_each_bucket(s, [&](int32_t i, uint64_t c) { out[i] += c; });
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const ProtoIndexRule rule = (data[0] & 1) ? ProtoIndexRule::kFloor : ProtoIndexRule::kCeil;
  const int max_scale = static_cast<int>(data[1] % 14) - 1;
  const uint8_t* proto = data + 2;
  const size_t n = size - 2;

  ProtoSummary summary;
  if (!read_proto(proto, n, &summary).is_ok()) return 0;
  FUZZ_CHECK(summary.gamma > 1 && summary.interpolation <= 3);
  ProtoTarget target;
  if (!plan_proto(summary, rule, max_scale, &target).is_ok()) return 0;
  FUZZ_CHECK(summary.interpolation == 0);
  FUZZ_CHECK(target.accuracy > 0 && target.accuracy < 3);
  std::vector<ExpBucket> pos(summary.bins[0]), neg(summary.bins[1]);
  ExpHistogram h;
  if (!proto_histogram(proto, n, summary, target, pos.data(), neg.data(), &h).is_ok()) return 0;
  FUZZ_CHECK(h.positive.n <= summary.bins[0] && h.negative.n <= summary.bins[1]);
  uint64_t total = h.zero_count;
  bool overflow = false;
  for (const ExpStore* s : {&h.positive, &h.negative})
    for (size_t k = 0; k < s->n; k++) {
      FUZZ_CHECK(s->buckets[k].count > 0);
      FUZZ_CHECK(k == 0 || s->buckets[k].index > s->buckets[k - 1].index);
      if (s->buckets[k].count > UINT64_MAX - total) overflow = true;
      total += s->buckets[k].count;
    }

  ExpPlan plan;
  if (!plan_from_exponential(h, max_scale, kMaxBuckets, &plan).is_ok()) return 0;
  FUZZ_CHECK(!overflow);
  std::vector<uint8_t> sketch(plan.size);
  write_from_exponential(h, plan, sketch.data());
  View v;
  FUZZ_CHECK(parse(sketch.data(), sketch.size(), Validation::kCanonical, &v).is_ok());
  FUZZ_CHECK(v.count == total && v.zero_count == h.zero_count);
  if (plan.shift == 0) {
    FUZZ_CHECK(buckets(v.positive) == buckets(h.positive));
    FUZZ_CHECK(buckets(v.negative) == buckets(h.negative));
  }

  // The export reads back to the same buckets.
  size_t out_size;
  if (!proto_size(v, &out_size).is_ok()) return 0;  // a count above 2^53
  std::vector<uint8_t> out(out_size);
  write_proto(v, out.data());
  ProtoSummary again;
  FUZZ_CHECK(read_proto(out.data(), out.size(), &again).is_ok());
  ProtoTarget back;
  FUZZ_CHECK(plan_proto(again, ProtoIndexRule::kCeil, kMaxScale, &back).is_ok());
  FUZZ_CHECK(back.exact && back.scale == v.scale);
  std::vector<ExpBucket> pos2(again.bins[0]), neg2(again.bins[1]);
  ExpHistogram h2;
  FUZZ_CHECK(proto_histogram(out.data(), out.size(), again, back, pos2.data(), neg2.data(), &h2)
                 .is_ok());
  FUZZ_CHECK(buckets(h2.positive) == buckets(v.positive));
  FUZZ_CHECK(buckets(h2.negative) == buckets(v.negative));
  FUZZ_CHECK(h2.zero_count == v.zero_count);
  return 0;
}
