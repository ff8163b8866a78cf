#include "pg/common/result_row.h"

namespace sketch::pg {

Datum result_row(FunctionCallInfo fcinfo, const char* name, const Datum* values, int count,
                 const bool* nulls) {
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE)
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("%s must be called where a record is expected", name)));
  desc = BlessTupleDesc(desc);
  // A superuser may declare our C function with other OUT parameters;
  // refuse that row type rather than read past `values`.
  if (desc->natts != count)
    ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("%s returns %d columns, not %d", name, count, desc->natts)));
  if (nulls == nullptr) nulls = static_cast<bool*>(palloc0(sizeof(bool) * count));
  PG_RETURN_DATUM(HeapTupleGetDatum(
      heap_form_tuple(desc, const_cast<Datum*>(values), const_cast<bool*>(nulls))));
}

}  // namespace sketch::pg
