// Union of two ell sketches at the smaller of their precisions.
//
// Register union is exact (each side's seen values, within the larger u's
// window), commutative, associative and idempotent, and tokens are a set:
// the same hashes give the same bytes whatever the order or grouping of the
// merges. A merge of two non-empty sketches clears kUnmerged: the martingale
// estimate describes one stream of adds, not a union.
#include <algorithm>

#include "core/ell/ell.h"
#include "core/ell/ell_internal.h"

namespace sketch::ell {

using namespace detail;

namespace {

bool is_tokens(const View& v) { return v.encoding != Encoding::kDense; }

uint32_t union_count(const View& a, const View& b) {
  uint32_t count = a.count;
  for_each_token(b, [&](uint32_t token) {
    if (!set_contains(a, token)) count++;
  });
  return count;
}

// Tokens do not depend on p; a set stays a set while it fits at p.
MergePlan plan_alone(const View& v, int p, bool keep_a) {
  MergePlan plan{p, Encoding::kDense, false, dense_size(p), 0, keep_a, !keep_a};
  if (is_tokens(v) && v.count <= max_sparse_tokens(p)) {
    plan.encoding = Encoding::kSparseSet;
    plan.capacity = set_capacity_for(v.count);
    plan.size = sparse_set_size(plan.capacity);
    if (keep_a && v.encoding == Encoding::kSparseSet) {
      plan.in_place = true;
      plan.capacity = v.capacity;
      plan.size = v.size;
    }
  } else if (keep_a && v.encoding == Encoding::kDense && v.p == p) {
    plan.in_place = true;
    plan.size = v.size;
  }
  return plan;
}

}  // namespace

void forget_stream(uint8_t* sketch) {
  store_le32(sketch + kFlagsOffset, 0);
  if (encoding_of(sketch) == Encoding::kDense)
    std::fill(sketch + kMartingaleOffset, sketch + kRegistersOffset, uint8_t{0});
}

MergePlan plan_merge(const View& a, const View& b) {
  const int p = std::min(a.p, b.p);
  if (is_empty(b)) return plan_alone(a, p, true);
  if (is_empty(a)) return plan_alone(b, p, false);
  MergePlan plan{p, Encoding::kDense, false, dense_size(p), 0, false, false};
  if (a.encoding == Encoding::kDense) {
    plan.in_place = a.p == p;
    if (plan.in_place) plan.size = a.size;
    return plan;
  }
  if (!is_tokens(b)) return plan;
  const uint32_t count = union_count(a, b);
  if (count > max_sparse_tokens(p)) return plan;
  plan.encoding = Encoding::kSparseSet;
  if (a.encoding == Encoding::kSparseSet && uint64_t{count} * 4 <= uint64_t{a.capacity} * 3) {
    plan.in_place = true;
    plan.capacity = a.capacity;
    plan.size = a.size;
  } else {
    plan.capacity = set_capacity_for(count);
    plan.size = sparse_set_size(plan.capacity);
  }
  return plan;
}

void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan,
           uint8_t* dst) {
  uint8_t* out = plan.in_place ? a_buffer : dst;
  if (plan.keep_a || plan.take_b) {
    const View& v = plan.keep_a ? a : b;
    if (plan.in_place) {
      out[5] = static_cast<uint8_t>(plan.p);  // a set at a lower p: tokens stay
      return;
    }
    if (plan.encoding == Encoding::kSparseSet) {
      write_set(v, plan.capacity, out);
      out[5] = static_cast<uint8_t>(plan.p);
    } else {
      write_dense(v, plan.p, out);
    }
    return;
  }
  if (plan.encoding == Encoding::kDense) {
    if (!plan.in_place) write_dense(a, plan.p, out);
    merge_into_registers(out + kRegistersOffset, plan.p, b);
  } else {
    if (!plan.in_place) write_set(a, plan.capacity, out);
    out[5] = static_cast<uint8_t>(plan.p);
    for_each_token(b, [&](uint32_t token) { set_insert(out, token); });
  }
  forget_stream(out);
}

}  // namespace sketch::ell
