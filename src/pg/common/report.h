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

// ERROR 22023 with the status's message and a hint (a printf format),
// unless the status is ok: a parameter out of its documented range.
void check_parameter(const Status& status, const char* hint_format, ...)
    pg_attribute_printf(2, 3);

// What a family tells the user beside a failure of one status code: the
// hint (what to do instead) and, where the code's own SQLSTATE does not fit
// the family, the SQLSTATE to report.
struct Hint {
  StatusCode code;
  const char* text;
  int sqlstate;  // 0: the code's own
};

// A family's hints, one per status code at most; the unused entries are
// zero (code kOk, which never fails).
struct Hints {
  static constexpr int kMax = 3;
  Hint entry[kMax];
};

inline constexpr Hints kNoHints{};

// Raises the status as raise_error does, with the family's hint for its
// code, if it has one.
SKETCH_NORETURN void raise_error(const Status& status, const Hints& hints);

}  // namespace sketch::pg
