#include "pg/common/float8_array.h"

extern "C" {
#include "utils/array.h"
}

namespace sketch::pg {

Float8Array float8_array_arg(FunctionCallInfo fcinfo, int argno, const char* function,
                             const char* what) {
  ArrayType* array = PG_GETARG_ARRAYTYPE_P(argno);
  if (ARR_NDIM(array) > 1)
    ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
                    errmsg("%s takes %s", function, what)));
  Float8Array out;
  deconstruct_array(array, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
                    &out.elements, &out.nulls, &out.n);
  out.lbound = ARR_NDIM(array) == 1 ? ARR_LBOUND(array)[0] : 1;
  return out;
}

Datum float8_array_result(const double* values, const bool* nulls, int n, int lbound) {
  auto* datums = static_cast<Datum*>(palloc(sizeof(Datum) * (n > 0 ? n : 1)));
  auto* flags = static_cast<bool*>(palloc(sizeof(bool) * (n > 0 ? n : 1)));
  for (int i = 0; i < n; i++) {
    flags[i] = nulls != nullptr && nulls[i];
    datums[i] = Float8GetDatum(flags[i] ? 0.0 : values[i]);
  }
  int dims[1] = {n};
  int lbs[1] = {lbound};
  ArrayType* result = construct_md_array(datums, flags, n > 0 ? 1 : 0, dims, lbs, FLOAT8OID,
                                         sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
  PG_RETURN_ARRAYTYPE_P(result);
}

}  // namespace sketch::pg
