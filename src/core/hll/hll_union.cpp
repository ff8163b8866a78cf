// Union of two hll sketches: register max, at the smaller of the two
// precisions (folding the larger one down is exact, see detail::fold).
#include "core/hll/hll.h"
#include "core/hll/hll_internal.h"

namespace sketch::hll {

using namespace detail;

namespace {

bool is_sparse(const View& v) { return v.encoding != Encoding::kDense; }

// Distinct sparse indexes in a ∪ b, both sparse or sets.
uint32_t union_count(const View& a, const View& b) {
  uint32_t count = a.count;
  for_each_entry(b, [&](uint32_t entry) {
    if (!contains_index(a, entry_index(entry))) count++;
  });
  return count;
}

}  // namespace

MergePlan plan_merge(const View& a, const View& b) {
  const int p = a.p < b.p ? a.p : b.p;
  MergePlan plan{p, Encoding::kDense, false, dense_size(p), 0};
  if (a.encoding == Encoding::kDense) {
    plan.in_place = a.p == p;
    return plan;
  }
  if (!is_sparse(b)) return plan;
  const uint32_t count = union_count(a, b);
  if (count > max_sparse_entries(p)) return plan;
  plan.encoding = Encoding::kSparseSet;
  if (a.encoding == Encoding::kSparseSet &&
      uint64_t{count} * 4 <= uint64_t{a.capacity} * 3) {
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
  if (plan.encoding == Encoding::kDense) {
    if (!plan.in_place) write_dense(a, plan.p, out);
    merge_into_dense(out + kRegistersOffset, plan.p, b);
    return;
  }
  if (!plan.in_place) write_set(a, plan.capacity, out);
  out[5] = static_cast<uint8_t>(plan.p);  // sparse entries do not depend on p
  // The plan sized the set for every new index, so each insert succeeds.
  for_each_entry(b, [&](uint32_t entry) { set_insert(out, entry); });
}

}  // namespace sketch::hll
