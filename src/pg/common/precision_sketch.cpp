#include "pg/common/precision_sketch.h"

extern "C" {
#include "utils/array.h"
}

namespace sketch::pg {

int32 precision_typmod_in(FunctionCallInfo fcinfo, const PrecisionFamily& family) {
  ArrayType* modifiers = PG_GETARG_ARRAYTYPE_P(0);
  int count;
  int32* values = ArrayGetIntegerTypmods(modifiers, &count);
  if (count != 1)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s takes exactly one modifier, the precision: %s(p)",
                           family.type_name, family.type_name)));
  family.check_precision(values[0]);
  return values[0];
}

Datum precision_typmod_out(FunctionCallInfo fcinfo) {
  const int32 typmod = PG_GETARG_INT32(0);
  PG_RETURN_CSTRING(typmod >= 0 ? psprintf("(%d)", typmod) : pstrdup(""));
}

void raise_precision_not_raised(const PrecisionFamily& family, int p, int32 typmod,
                                const char* detail) {
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("%s precision %d does not fit %s(%d)", family.type_name, p,
                         family.type_name, typmod),
                  errdetail("%s", detail),
                  errhint("Build the sketch with %s_agg(value, %d).", family.type_name, typmod)));
}

}  // namespace sketch::pg
