// cms aging: every counter and N times a factor 0 < f <= 1, rounded down.
//
// A value's estimate is the minimum of its counters, each scaled counter is
// floor(f·c) or ceil(f·c), and both are monotone, so the scaled estimate is
// never below floor(f·truth) (each counter is at least the truth) and above
// it by at most floor(f·epsilon·N) + 2. Candidates keep their texts, except
// those whose estimate drops to 0; their ranks follow the scaled counters.

#include <cmath>
#include <algorithm>
#include <cstring>

#include "core/common/scale.h"
#include "core/cms/cms_internal.h"

namespace sketch::cms {

using namespace detail;

Status check_scalable(const View& v, double factor) {
  if (Status st = check_scale_factor(factor); !st.is_ok()) return st;
  if (v.total == kMaxCount)
    return Status::error(StatusCode::kInvalidParameter,
                         "a cms whose counts saturated at %llu cannot be scaled (its counters "
                         "are lower bounds of unknown values)",
                         static_cast<unsigned long long>(kMaxCount));
  return Status::ok();
}

// Counters, row by row. Each counter is rounded down, and then some are
// rounded up instead (the first ones in the row whose product had a
// fraction) until the row adds up to its target: the scaled N for plain
// update, so that every row still sums to N as validation requires; the
// row's own scaled sum for conservative update, with N' the smaller of the
// scaled N and all rows' targets, so that each row stays at most N' and all
// rows together at least N'. Rounding a counter up never makes an estimate
// low, and adds at most 1 to it. A round-up never passes N': the row's sum
// of floors already reaches its target whenever a counter's floor is N'.
// The deficit never exceeds the number of counters with a fraction (it is
// at most the sum of the fractions, each below 1).
uint64_t write_scaled_counters(const View& v, const ExactFactor& f, uint8_t* counters) {
  const uint32_t w = v.params.width;
  const uint8_t* in = v.data + kStoredCountersOffset;
  uint64_t total = f.floor(v.total);
  if (v.params.conservative) {
    uint64_t targets = 0;
    for (uint32_t i = 0; i < v.params.depth; i++) {
      uint64_t row = 0;
      for (uint32_t j = 0; j < w; j++) row += load_le64(in + 8 * (uint64_t{i} * w + j));
      targets += f.floor(row);
    }
    total = std::min(total, targets);
  }
  for (uint32_t i = 0; i < v.params.depth; i++) {
    uint64_t row = 0, floors = 0;
    for (uint32_t j = 0; j < w; j++) {
      const uint64_t c = load_le64(in + 8 * (uint64_t{i} * w + j));
      row += c;
      floors += f.floor(c);
      store_le64(counters + 8 * (uint64_t{i} * w + j), f.floor(c));
    }
    const uint64_t target = v.params.conservative ? f.floor(row) : total;
    uint64_t deficit = target > floors ? target - floors : 0;
    for (uint32_t j = 0; j < w && deficit > 0; j++) {
      const uint64_t c = load_le64(in + 8 * (uint64_t{i} * w + j));
      if (f.ceil(c) == f.floor(c) || f.ceil(c) > total) continue;
      store_le64(counters + 8 * (uint64_t{i} * w + j), f.ceil(c));
      deficit--;
    }
  }
  return total;
}

size_t write_scaled(const View& v, double factor, uint8_t* dst) {
  const ExactFactor f(factor);
  const size_t records_offset = stored_records_offset(v.params.width, v.params.depth);
  std::memcpy(dst, v.data, records_offset);
  store_le64(dst + kTotalOffset, write_scaled_counters(v, f, dst + kStoredCountersOffset));
  // Candidates whose scaled estimate is 0 were, as far as the sketch can
  // tell, never counted: they go, with their texts.
  const uint8_t* records = v.data + records_offset;
  const uint8_t* texts = records + kRecordSize * size_t{v.count};
  const uint8_t* counters = dst + kStoredCountersOffset;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < v.count; i++)
    if (estimate_at(counters, v.params.width, v.params.depth, load_le64(records + kRecordSize * i)) > 0)
      kept++;
  uint8_t* out_records = dst + records_offset;
  uint8_t* out_texts = out_records + kRecordSize * size_t{kept};
  uint32_t previous_end = 0, out_end = 0, r = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const uint8_t* rec = records + kRecordSize * i;
    const uint32_t word = load_le32(rec + 8);
    const uint32_t end = word & ~kClippedBit;
    const uint64_t hash = load_le64(rec);
    if (estimate_at(counters, v.params.width, v.params.depth, hash) > 0) {
      std::memcpy(out_texts + out_end, texts + previous_end, end - previous_end);
      out_end += end - previous_end;
      uint8_t* o = out_records + kRecordSize * size_t{r++};
      store_le64(o, hash);
      store_le32(o + 8, out_end | (word & kClippedBit));
    }
    previous_end = end;
  }
  store_le32(dst + kCountOffset, kept);
  return static_cast<size_t>(out_texts + out_end - dst);
}

}  // namespace sketch::cms
