#include "pg/common/call_site.h"

namespace sketch::pg {

void raise_null_parameters(const char* aggregate, const char* names) {
  ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                  errmsg("%s parameters %s must not be NULL", aggregate, names)));
}

bool weight_arg(FunctionCallInfo fcinfo, int argno, bool int4, const char* what,
                const char* hint, uint64* weight) {
  if (PG_ARGISNULL(argno)) return false;
  const int64 w = int4 ? PG_GETARG_INT32(argno) : PG_GETARG_INT64(argno);
  if (w < 0)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s must not be negative, got %lld", what, static_cast<long long>(w)),
                    errhint("%s", hint)));
  *weight = static_cast<uint64>(w);
  return w > 0;
}

void raise_parameters_changed(const char* message, const char* detail) {
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", message),
                  errdetail("%s", detail)));
  pg_unreachable();
}

}  // namespace sketch::pg
