#include "pg/common/sizing.h"

namespace sketch::pg {

Datum sizing_row(FunctionCallInfo fcinfo, const char* name, Datum* values, int count) {
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE)
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("%s must be called where a record is expected", name)));
  desc = BlessTupleDesc(desc);
  bool nulls[8] = {false, false, false, false, false, false, false, false};
  Assert(count <= 8);
  (void)count;
  PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

void raise_sizing_parameter(const Status& status, const char* hint) {
  if (status.is_ok()) return;
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", status.message()),
                  errhint("%s", hint)));
}

}  // namespace sketch::pg
