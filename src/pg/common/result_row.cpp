#include "pg/common/result_row.h"

namespace sketch::pg {

Datum result_row(FunctionCallInfo fcinfo, const char* name, const Datum* values, int count,
                 const bool* nulls) {
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE)
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("%s must be called where a record is expected", name)));
  desc = BlessTupleDesc(desc);
  // The row type is the function's own (its OUT parameters), so a count
  // that does not match it is our bug, not the caller's.
  if (desc->natts != count)
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                    errmsg("%s returns %d columns, not %d", name, desc->natts, count)));
  if (nulls == nullptr) nulls = static_cast<bool*>(palloc0(sizeof(bool) * count));
  PG_RETURN_DATUM(HeapTupleGetDatum(
      heap_form_tuple(desc, const_cast<Datum*>(values), const_cast<bool*>(nulls))));
}

}  // namespace sketch::pg
