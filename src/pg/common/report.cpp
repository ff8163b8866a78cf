#include "pg/common/report.h"

#include <cstdarg>

namespace sketch::pg {

namespace {

int sqlstate_for(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidFormat: return ERRCODE_INVALID_BINARY_REPRESENTATION;
    case StatusCode::kInvalidText: return ERRCODE_INVALID_TEXT_REPRESENTATION;
    case StatusCode::kInvalidParameter: return ERRCODE_INVALID_PARAMETER_VALUE;
    case StatusCode::kMismatch: return ERRCODE_INVALID_PARAMETER_VALUE;
    case StatusCode::kOverflow: return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
    case StatusCode::kUnsupported: return ERRCODE_FEATURE_NOT_SUPPORTED;
    case StatusCode::kOk: break;
  }
  return ERRCODE_INTERNAL_ERROR;
}

}  // namespace

void raise_error(const Status& status, int override_code) {
  ereport(ERROR, (errcode(override_code != 0 ? override_code : sqlstate_for(status.code())),
                  errmsg("%s", status.message())));
  pg_unreachable();
}

void check_parameter(const Status& status, const char* hint_format, ...) {
  if (status.is_ok()) return;
  StringInfoData hint;
  initStringInfo(&hint);
  for (;;) {
    va_list args;
    va_start(args, hint_format);
    const int needed = appendStringInfoVA(&hint, hint_format, args);
    va_end(args);
    if (needed == 0) break;
    enlargeStringInfo(&hint, needed);
  }
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", status.message()),
                  errhint("%s", hint.data)));
}

void raise_error(const Status& status, const Hints& hints) {
  for (const Hint& hint : hints.entry) {
    if (hint.code != status.code() || hint.code == StatusCode::kOk) continue;
    ereport(ERROR, (errcode(hint.sqlstate != 0 ? hint.sqlstate : sqlstate_for(status.code())),
                    errmsg("%s", status.message()), errhint("%s", hint.text)));
  }
  raise_error(status);
}

}  // namespace sketch::pg
