#include "pg/hll/hll_datum.h"

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

void hll_check_precision(int p) {
  if (!hll::valid_precision(p))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("hll precision %d is out of range", p),
                    errhint("Use a precision between %d and %d; %d gives a 0.81%% standard "
                            "error in 12 KiB.", hll::kMinPrecision, hll::kMaxPrecision,
                            hll::kDefaultPrecision)));
}

struct varlena* hll_canonical(const hll::View& v) { return HllStates::stored_of(v); }

uint8_t* hll_new_state(int p) {
  const uint32 capacity = hll::set_capacity_for(0);
  uint8_t* state = HllStates::allocate(hll::sparse_set_size(capacity));
  hll::write_empty_set(state, p, capacity);
  return state;
}

uint8_t* hll_state_fold(const hll::View& v, int p) {
  // A union with an empty sketch of precision p is exactly the fold to p.
  struct varlena* empty = new_sketch(hll::sparse_size(0));
  hll::write_empty(payload(empty), p);
  return HllStates::merge(HllStates::copy(v), hll_view(empty));
}

}  // namespace sketch::pg
