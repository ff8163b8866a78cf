#include "pg/theta/theta_datum.h"

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

int theta_lg_k(int64 lg_k) {
  theta_check(theta::check_lg_k(lg_k));
  return static_cast<int>(lg_k);
}

uint8_t* theta_new_state(int lg_k) {
  uint8_t* state = ThetaStates::allocate(theta::new_working_size(lg_k));
  theta::write_new_working(lg_k, state);
  return state;
}

}  // namespace sketch::pg
