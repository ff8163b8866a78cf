// Fuzz target: exponential histograms into ddsketch
// (core/ddsketch/ddsketch_exponential.h), what ddsketch_from_otel and
// ddsketch_from_prometheus hand the core after walking their jsonb. The
// input is read as a histogram: scale (byte 0, -10..20 and a little beyond),
// max_scale (byte 1), max_buckets (bytes 2-3), presence flags (byte 4), then
// as flagged count, sum, min, max, zero_threshold (8 bytes each; the doubles
// raw, so NaN, infinities and denormals come up) and zero_count, then per
// sign a bucket count (1 byte) and buckets (2-byte index step, a step of
// 0xffff meaning "the same index again": out of order; 4-byte count, 0xffffffff
// meaning 2^63). Whatever plan_from_exponential accepts must be written into
// exactly plan.size bytes, pass the strict parse, count every value, hold
// every non-empty bucket folded to the plan's scale with its count, have
// min and max in the right buckets (the strict parse checks that) and
// answer quantiles within [min, max] and a sum that is a number.
#include <cmath>
#include <cstring>
#include <map>
#include <vector>

#include "core/ddsketch/ddsketch_exponential.h"
#include "fuzz_check.h"

namespace {

using namespace sketch;
using namespace sketch::ddsketch;

struct Reader {
  const uint8_t* p;
  const uint8_t* end;
  uint64_t u(int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= uint64_t{p < end ? *p++ : uint8_t{0}} << (8 * i);
    return v;
  }
  double d() {
    const uint64_t bits = u(8);
    double x;
    std::memcpy(&x, &bits, 8);
    return x;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, data + size};
  ExpHistogram h;
  h.scale = static_cast<int>(r.u(1) % 34) - 11;
  const int max_scale = static_cast<int>(r.u(1) % 15) - 1;
  const int64_t max_buckets = static_cast<int64_t>(r.u(2)) + 8;
  const uint64_t flags = r.u(1);
  if (flags & 1) {
    h.has_count = true;
    h.count = r.u(8);
  }
  if (flags & 2) {
    h.has_sum = true;
    h.sum = r.d();
  }
  if (flags & 4) {
    h.has_min = true;
    h.min = r.d();
  }
  if (flags & 8) {
    h.has_max = true;
    h.max = r.d();
  }
  if (flags & 16) h.zero_threshold = r.d();
  if (flags & 32) h.zero_count = r.u(flags & 64 ? 8 : 1);
  std::vector<ExpBucket> stores[2];
  for (int k = 0; k < 2; k++) {
    const int n = static_cast<int>(r.u(1));
    int64_t index = static_cast<int64_t>(r.u(4) & 0x7ff) - 1024;  // around 1
    if (flags & 128) index *= int64_t{1} << (h.scale > 0 && h.scale < 21 ? h.scale : 0);
    for (int b = 0; b < n && r.p < r.end; b++) {
      const uint64_t step = r.u(2);
      if (step != 0xffff) index += static_cast<int64_t>(step % 64);
      uint64_t count = r.u(4);
      if (count == 0xffffffff) count = uint64_t{1} << 63;
      stores[k].push_back({index, count});
      if (step != 0xffff) index++;
    }
  }
  h.positive = {stores[0].data(), stores[0].size()};
  h.negative = {stores[1].data(), stores[1].size()};

  ExpPlan plan;
  if (!plan_from_exponential(h, max_scale, max_buckets, &plan).is_ok()) return 0;
  FUZZ_CHECK(plan.scale >= kMinScale && plan.scale <= kMaxScale && plan.scale <= h.scale);
  std::vector<uint8_t> out(plan.size);
  write_from_exponential(h, plan, out.data());
  View v;
  const Status st = parse(out.data(), out.size(), Validation::kCanonical, &v);
  FUZZ_CHECK(st.is_ok());
  // Every count where the folding rule puts it.
  uint64_t total = h.zero_count;
  for (int k = 0; k < 2; k++) {
    std::map<int64_t, uint64_t> want, got;
    for (const ExpBucket& b : stores[k]) {
      if (b.count == 0) continue;
      want[detail::fold_index(b.index, h.scale - plan.scale)] += b.count;
      total += b.count;
    }
    for_each_bucket(k == 0 ? v.positive : v.negative,
                    [&](int32_t i, uint64_t c) { got[i] += c; });
    FUZZ_CHECK(want == got);
  }
  FUZZ_CHECK(v.count == total && v.zero_count == h.zero_count);
  FUZZ_CHECK(!h.has_count || h.count == total);
  if (v.count > 0) {
    for (double q : {0.0, 0.01, 0.5, 0.99, 1.0}) {
      const double x = quantile(v, q);
      FUZZ_CHECK(x >= v.min && x <= v.max);
    }
    FUZZ_CHECK(!std::isnan(sum(v)));  // infinite past the double range (2^63 values of 1e300)
  }
  return 0;
}
