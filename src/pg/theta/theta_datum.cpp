#include "pg/theta/theta_datum.h"

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

void theta_raise(const Status& status) {
  if (status.code() == StatusCode::kInvalidParameter)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", status.message()),
                    errhint("lg_k is %d..%d (default %d: k = 4096 hashes, relative standard "
                            "error 1.6%%); a confidence is between 0 and 1, e.g. 0.95.",
                            theta::kMinLgK, theta::kMaxLgK, theta::kDefaultLgK)));
  raise_error(status);
}

int theta_lg_k(int64 lg_k) {
  theta_check(theta::check_lg_k(lg_k));
  return static_cast<int>(lg_k);
}

Status theta_validate(const uint8* data, size_t len) {
  theta::View v;
  return theta::parse(data, len, Validation::kCanonical, &v);
}

uint8_t* theta_new_state(int lg_k) {
  uint8_t* state = ThetaStates::allocate(theta::new_working_size(lg_k));
  theta::write_new_working(lg_k, state);
  return state;
}

}  // namespace sketch::pg
