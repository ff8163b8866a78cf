// Turning a core Status into a PostgreSQL ERROR.
//
// ereport(ERROR) longjmps, so it is only ever called here, from plain C-style
// code paths in which no C++ object with a destructor is alive (Status is
// trivially destructible).
#pragma once

#include "core/common/status.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

// Raises the status as an ERROR with the SQLSTATE that fits its code.
// `override_code`, when non-zero, replaces that SQLSTATE (text input reports
// every problem as invalid_text_representation, for instance).
SKETCH_NORETURN void raise_error(const Status& status, int override_code = 0);

inline void check(const Status& status, int override_code = 0) {
  if (!status.is_ok()) raise_error(status, override_code);
}

}  // namespace sketch::pg
