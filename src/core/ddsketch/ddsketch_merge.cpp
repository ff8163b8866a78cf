// Union of two sketches: fold the finer one to the coarser scale, add the
// bucket counts, collapse at the smaller max_buckets; add counts, zeros,
// sums; take the extreme min and max.
//
// Why the result does not depend on grouping, at one scale. Write a store's
// canonical form for a multiset of indices with highest index H and limit M
// as: every index below the floor c = H - M + 1 raised to c (and the flag
// set when one was). A part built from some of the values (limit M_a >= M,
// highest H_a <= H) raised its indices below c_a = H_a - M_a + 1 to c_a. In
// the union c = max(H_a, H_b) - min(M_a, M_b) + 1 >= c_a, so each of the
// part's raised indices (true index < c_a <= c) is raised to c again, just
// as it would have been from its true index; the part's other indices are
// true ones. So the union of canonical parts is canonical for the union of
// the multisets, whatever the partition, the order of merges or the parts'
// limits, and adding one value is the special case of a part of one value.
// The flag is the OR of the parts' flags and "something was raised", which
// is again "some true index < c".
//
// Across scales the argument breaks at one point only: folding maps a raised
// index c_a to ceil(c_a / 2^d), and a value that the part raised from a
// true index i < c_a would, built at the coarser scale from the start, sit
// at max(ceil(i / 2^d), c) -- lower, when c < ceil(c_a / 2^d). Folding a
// store whose flag is clear is exact (nesting). So a union that folds a
// collapsed store may differ in its bytes from the single-pass sketch at
// the coarser scale (ddsketch.h); every other union is identical.
#include <algorithm>

#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

using namespace detail;

namespace {

struct UnionShape {
  int scale;
  uint32_t max_buckets;
  int shift_a, shift_b;  // how far each side folds
  Extent pos, neg;
};

UnionShape shape_of(const View& a, const View& b) {
  UnionShape u;
  u.scale = std::min(a.scale, b.scale);
  u.max_buckets = std::min(a.max_buckets, b.max_buckets);
  u.shift_a = a.scale - u.scale;
  u.shift_b = b.scale - u.scale;
  ExtentBuilder pos, neg;
  pos.include_store(a.positive, u.shift_a);
  pos.include_store(b.positive, u.shift_b);
  neg.include_store(a.negative, u.shift_a);
  neg.include_store(b.negative, u.shift_b);
  u.pos = pos.finish(u.max_buckets);
  u.neg = neg.finish(u.max_buckets);
  return u;
}

// A's window can take the store's union in place: it already covers the
// extent, or it has the slots to slide there with room to spare (the same
// rule as add(), so that a union aggregate does not reallocate per row).
bool fits(const Store& s, const Extent& e, uint32_t max_buckets) {
  if (e.empty) return true;
  const int64_t offset = s.offset, capacity = s.capacity;
  return (offset <= e.low && e.high < offset + capacity) ||
         s.capacity >= want_capacity(e.span(), max_buckets);
}

}  // namespace

Status check_mergeable(const View& a, const View& b) {
  if (a.count > kMaxCount - b.count)
    return Status::error(StatusCode::kInvalidParameter,
                         "the union of ddsketches of %llu and %llu values would hold more than "
                         "%llu values",
                         static_cast<unsigned long long>(a.count),
                         static_cast<unsigned long long>(b.count),
                         static_cast<unsigned long long>(kMaxCount));
  return Status::ok();
}

MergePlan plan_merge(const View& a, const View& b) {
  const UnionShape u = shape_of(a, b);
  MergePlan plan{u.scale, u.max_buckets, false, 0};
  // In place only when nothing about a's layout changes but its windows'
  // positions: same scale and limit, and not b's own bytes (a self-union is
  // written into a new buffer, so that b is never read while it changes).
  plan.in_place = a.encoding == Encoding::kWorking && u.shift_a == 0 &&
                  a.max_buckets == u.max_buckets && a.data != b.data &&
                  fits(a.positive, u.pos, u.max_buckets) && fits(a.negative, u.neg, u.max_buckets);
  plan.size = plan.in_place ? a.size
                            : working_bytes(capacity_for(u.pos, true, u.max_buckets),
                                            capacity_for(u.neg, false, u.max_buckets));
  return plan;
}

void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan, uint8_t* dst) {
  const UnionShape u = shape_of(a, b);
  uint8_t* out;
  bool pos_collapsed, neg_collapsed;
  if (plan.in_place) {
    out = a_buffer;
    pos_collapsed = prepare_window(positive_window(out), u.pos);
    neg_collapsed = prepare_window(negative_window(out), u.neg);
  } else {
    // a, folded and collapsed, into a new working state of the union's
    // scale and limit, with windows around the union's extents.
    out = dst;
    write_ddsketch_header(out, u.scale, Encoding::kWorking);
    store_le32(out + kMaxBucketsOffset, u.max_buckets);
    out[kFlagsOffset] = 0;
    out[kReservedOffset] = out[kReservedOffset + 1] = out[kReservedOffset + 2] = 0;
    std::memcpy(out + kCountOffset, a.data + kCountOffset, kSumOffset - kCountOffset);
    SumWords sum;
    load_sum(a, sum);
    put_working_sum(out + kSumOffset, sum);
    uint8_t* nw = put_window(positive_window(out), u.pos, capacity_for(u.pos, true, u.max_buckets));
    put_window(nw, u.neg, capacity_for(u.neg, false, u.max_buckets));
    pos_collapsed = add_store_into(positive_window(out), a.positive, u.shift_a, u.pos);
    neg_collapsed = add_store_into(negative_window(out), a.negative, u.shift_a, u.neg);
  }
  pos_collapsed |= add_store_into(positive_window(out), b.positive, u.shift_b, u.pos);
  neg_collapsed |= add_store_into(negative_window(out), b.negative, u.shift_b, u.neg);
  pos_collapsed |= a.positive.collapsed || b.positive.collapsed;
  neg_collapsed |= a.negative.collapsed || b.negative.collapsed;
  out[kFlagsOffset] = static_cast<uint8_t>((pos_collapsed ? kFlagPositiveCollapsed : 0) |
                                           (neg_collapsed ? kFlagNegativeCollapsed : 0));

  // The exact fields. count cannot overflow: check_mergeable refused that.
  const uint64_t count = load_le64(out + kCountOffset);
  if (b.count > 0) {
    if (count == 0) {
      store_double(out + kMinOffset, b.min);
      store_double(out + kMaxOffset, b.max);
    } else {
      if (b.min < load_double(out + kMinOffset)) store_double(out + kMinOffset, b.min);
      if (b.max > load_double(out + kMaxOffset)) store_double(out + kMaxOffset, b.max);
    }
  }
  store_le64(out + kCountOffset, count + b.count);
  store_le64(out + kZeroCountOffset, load_le64(out + kZeroCountOffset) + b.zero_count);
  SumWords sum, other;
  load_sum(View{u.scale, u.max_buckets, Encoding::kWorking, 0, 0, 0, 0, {}, {}, out, 0}, sum);
  load_sum(b, other);
  sum_add(sum, other);
  put_working_sum(out + kSumOffset, sum);
}

}  // namespace sketch::ddsketch
