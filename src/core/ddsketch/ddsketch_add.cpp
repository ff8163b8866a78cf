// Adding one value (or, for a weighted row, many copies of it at once) to a
// working state, in place; growing a window when it must.
//
// The per-row path: the value's bucket (exact, ddsketch_internal.h), then,
// when the bucket is between the store's lowest and highest, one counter
// increment. Only a new lowest or highest bucket takes the slow path: it
// may collapse the lowest buckets (the store would otherwise span more than
// max_buckets indices) and may move the window within its slots; when the
// slots are too few for that (fewer than twice the new span), add() changes
// nothing and asks for a larger state, which grow() writes.
#include <algorithm>
#include <cmath>

#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

using namespace detail;

namespace {

// The extent of a store of `buckets` buckets in [low, high] once `index`
// joins it, at max_buckets.
Extent extent_with(uint32_t buckets, int64_t low, int64_t high, bool collapsed, int64_t index,
                   uint32_t max_buckets) {
  ExtentBuilder b;
  if (buckets > 0) b.include(low, high);
  if (buckets > 0 && collapsed) b.include_collapsed_floor(low);
  b.include(index, index);
  return b.finish(max_buckets);
}

// The slots of a window that must grow to take the extent: what a new
// window would get, and at least double the old one (up to 2 max_buckets),
// so that a store grows a logarithmic number of times.
uint32_t grown_capacity(uint32_t old_capacity, const Extent& e, uint32_t max_buckets) {
  const uint32_t want = want_capacity(e.span(), max_buckets);
  const uint64_t doubled =
      std::min<uint64_t>(uint64_t{2} * old_capacity, uint64_t{2} * max_buckets);
  return want > doubled ? want : static_cast<uint32_t>(doubled);
}

bool is_finite(double v) { return std::isfinite(v); }

// The store a nonzero value goes to, and its bucket there.
struct Target {
  bool positive;
  int64_t index;
};

Target target_of(double value, int scale) {
  return Target{value > 0, index_of(std::fabs(value), scale)};
}

// add() and add_times() are this one function: `times` is the constant 1
// in add(), the per-row path, where it costs nothing.
__attribute__((always_inline)) inline bool add_copies(uint8_t* working, double value,
                                                      uint64_t times, size_t* size) {
  const uint64_t count = load_le64(working + kCountOffset);
  if (times == 0 || times > kMaxCount - count || !is_finite(value)) return true;
  if (value == 0) {
    value = 0.0;  // -0.0 counts as +0.0, in min and max too
    store_le64(working + kZeroCountOffset, load_le64(working + kZeroCountOffset) + times);
  } else {
    const int scale = scale_of(working);
    const Target t = target_of(value, scale);
    uint8_t* window = t.positive ? positive_window(working) : negative_window(working);
    const uint32_t buckets = load_le32(window + kWinBuckets);
    const int64_t low = load_i32(window + kWinMin);
    const int64_t high = load_i32(window + kWinMax);
    if (buckets > 0 && t.index >= low && t.index <= high) {
      // The common case: an existing bucket or a gap between two.
      uint8_t* slot =
          window + kWinHeader + 8 * static_cast<size_t>(t.index - load_i32(window + kWinOffset));
      const uint64_t before = load_le64(slot);
      store_le64(slot, before + times);
      if (before == 0) store_le32(window + kWinBuckets, buckets + 1);
    } else {
      const uint32_t max_buckets = max_buckets_of(working);
      const bool was_collapsed =
          (working[kFlagsOffset] &
           (t.positive ? kFlagPositiveCollapsed : kFlagNegativeCollapsed)) != 0;
      const Extent e = extent_with(buckets, low, high, was_collapsed, t.index, max_buckets);
      const uint32_t capacity = load_le32(window + kWinCapacity);
      if (!window_contains(window, e) && capacity < want_capacity(e.span(), max_buckets)) {
        const uint32_t grown = grown_capacity(capacity, e, max_buckets);
        const uint32_t other = load_le32(
            (t.positive ? negative_window(working) : positive_window(working)) + kWinCapacity);
        *size = t.positive ? working_bytes(grown, other) : working_bytes(other, grown);
        return false;
      }
      bool collapsed = prepare_window(window, e);
      int64_t index = t.index;
      if (index < e.floor) {
        // The value is smaller than everything the store keeps: it joins
        // the lowest bucket, as the collapse rule says.
        index = e.floor;
        collapsed = true;
      }
      window_add(window, index, times);
      if (collapsed)
        working[kFlagsOffset] |= t.positive ? kFlagPositiveCollapsed : kFlagNegativeCollapsed;
    }
    if (times == 1) sum_add_double_le(working + kSumOffset, value);
    else sum_add_scaled_le(working + kSumOffset, value, times);
  }
  store_le64(working + kCountOffset, count + times);
  if (count == 0) {
    store_double(working + kMinOffset, value);
    store_double(working + kMaxOffset, value);
  } else {
    if (value < load_double(working + kMinOffset)) store_double(working + kMinOffset, value);
    if (value > load_double(working + kMaxOffset)) store_double(working + kMaxOffset, value);
  }
  return true;
}

}  // namespace

bool add(uint8_t* working, double value, size_t* size) {
  return add_copies(working, value, 1, size);
}

bool add_times(uint8_t* working, double value, uint64_t times, size_t* size) {
  return add_copies(working, value, times, size);
}

namespace {

// What grow() writes for a value: the value's store in a window of the
// grown capacity around its extent with the value; the other store as it
// is, in its own window when that holds it.
struct GrowPlan {
  Extent pos, neg;
  uint32_t positive_capacity, negative_capacity;
};

GrowPlan plan_grow(const View& v, double value) {
  GrowPlan plan;
  plan.pos = extent_of(v.positive, v.max_buckets);
  plan.neg = extent_of(v.negative, v.max_buckets);
  // A working store keeps its window (add() counts on it: *size); anything
  // else gets a new one.
  const bool working = v.encoding == Encoding::kWorking;
  plan.positive_capacity = working && v.positive.capacity >= plan.pos.span()
                               ? v.positive.capacity
                               : capacity_for(plan.pos, true, v.max_buckets);
  plan.negative_capacity = working && v.negative.capacity >= plan.neg.span()
                               ? v.negative.capacity
                               : capacity_for(plan.neg, false, v.max_buckets);
  if (value == 0 || !is_finite(value)) return plan;
  const Target t = target_of(value, v.scale);
  const Store& s = t.positive ? v.positive : v.negative;
  Extent& e = t.positive ? plan.pos : plan.neg;
  e = extent_with(s.buckets, s.min_index, s.max_index, s.collapsed, t.index, v.max_buckets);
  const uint32_t old_capacity = v.encoding == Encoding::kWorking ? s.capacity : 0;
  (t.positive ? plan.positive_capacity : plan.negative_capacity) =
      grown_capacity(old_capacity, e, v.max_buckets);
  return plan;
}

}  // namespace

size_t grown_size(const View& v, double value) {
  const GrowPlan plan = plan_grow(v, value);
  return working_bytes(plan.positive_capacity, plan.negative_capacity);
}

void grow(const View& v, double value, uint8_t* dst) {
  const GrowPlan plan = plan_grow(v, value);
  write_working_with(v, plan.pos, plan.neg, plan.positive_capacity, plan.negative_capacity, dst);
}

}  // namespace sketch::ddsketch
