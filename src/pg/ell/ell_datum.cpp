#include "pg/ell/ell_datum.h"

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

void ell_check_precision(int p) {
  if (!ell::valid_precision(p))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("ell precision %d is out of range", p),
                    errhint("Use a precision between %d and %d; %d gives a 0.80%% standard "
                            "error in 7 KiB.", ell::kMinPrecision, ell::kMaxPrecision,
                            ell::kDefaultPrecision)));
}

uint8_t* ell_new_state(int p) {
  const uint32 capacity = ell::set_capacity_for(0);
  uint8_t* state = EllStates::allocate(ell::sparse_set_size(capacity));
  ell::write_empty_set(state, p, capacity);
  return state;
}

uint8_t* ell_state_fold(const ell::View& v, int p) {
  // A union with an empty sketch of precision p is exactly the fold to p.
  struct varlena* empty = new_sketch(ell::sparse_size(0));
  ell::write_empty(payload(empty), p);
  return EllStates::merge(EllStates::copy(v), ell_view(empty));
}

}  // namespace sketch::pg
