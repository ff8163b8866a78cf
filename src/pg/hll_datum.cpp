#include "pg/hll_datum.h"

#include <cstring>

#include "pg/report.h"
#include "pg/sketch_datum.h"

namespace sketch::pg {

hll::View hll_view(const struct varlena* v) {
  const SketchBytes b = bytes_of(v);
  hll::View view;
  check(hll::parse(b.data, b.len, hll::Validation::kStructure, &view));
  return view;
}

hll::View hll_arg(FunctionCallInfo fcinfo, int n) {
  return hll_view(PG_DETOAST_DATUM(PG_GETARG_DATUM(n)));
}

void hll_check_precision(int p) {
  if (!hll::valid_precision(p))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("hll precision %d is out of range", p),
                    errhint("Use a precision between %d and %d; %d gives a 0.81%% standard "
                            "error in 12 KiB.", hll::kMinPrecision, hll::kMaxPrecision,
                            hll::kDefaultPrecision)));
}

struct varlena* hll_canonical(const hll::View& v) {
  struct varlena* out = new_sketch(hll::canonical_size(v));
  hll::write_canonical(v, payload(out));
  return out;
}

struct varlena* hll_new_state(int p) {
  struct varlena* out = new_sketch(hll::sparse_set_size(hll::set_capacity_for(0)));
  hll::write_empty_set(payload(out), p, hll::set_capacity_for(0));
  return out;
}

struct varlena* hll_state_copy(const hll::View& v) {
  if (v.encoding == hll::Encoding::kDense) {
    struct varlena* out = new_sketch(v.size);
    std::memcpy(payload(out), v.body - kHeaderSize, v.size);
    return out;
  }
  const uint32 capacity = hll::set_capacity_for(v.count + 1);
  struct varlena* out = new_sketch(hll::sparse_set_size(capacity));
  hll::write_set(v, capacity, payload(out));
  return out;
}

struct varlena* hll_state_add(struct varlena* state, uint64 hash) {
  for (;;) {
    const hll::AddOutcome outcome = hll::add_hash(payload(state), hash);
    if (outcome == hll::AddOutcome::kDone) return state;
    const hll::View v = hll_view(state);
    struct varlena* grown;
    if (outcome == hll::AddOutcome::kNeedsGrowth) {
      const uint32 capacity = hll::grown_capacity(v);
      grown = new_sketch(hll::sparse_set_size(capacity));
      hll::write_set(v, capacity, payload(grown));
    } else {
      grown = new_sketch(hll::dense_size(v.p));
      hll::write_dense(v, v.p, payload(grown));
    }
    state = grown;
  }
}

struct varlena* hll_state_union(struct varlena* state, const hll::View& other) {
  const hll::View a = hll_view(state);
  const hll::UnionPlan plan = hll::plan_union(a, other);
  if (plan.in_place) {
    hll::apply_union(payload(state), a, other, plan, nullptr);
    return state;
  }
  struct varlena* out = new_sketch(plan.size);
  hll::apply_union(nullptr, a, other, plan, payload(out));
  return out;
}

struct varlena* hll_state_fold(const hll::View& v, int p) {
  // A union with an empty sketch of precision p is exactly the fold to p.
  struct varlena* empty = new_sketch(hll::sparse_size(0));
  hll::write_empty(payload(empty), p);
  return hll_state_union(hll_state_copy(v), hll_view(empty));
}

}  // namespace sketch::pg
