// hll aggregates: hll_agg(value [, p]) and hll_union(hll).
//
// The state type is hll itself, in its working encoding, so parallel query,
// window use and distributed engines can move states without serial
// functions. Inside an aggregate the transition functions update the state
// in place (see aggregate_support.h); a new state is returned only when the
// sparse set grows or turns dense.
#include "pg/aggregate_support.h"
#include "pg/element_hash.h"
#include "pg/hll_datum.h"
#include "pg/report.h"
#include "pg/sketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(hll_agg_trans);
PG_FUNCTION_INFO_V1(hll_union_trans);
PG_FUNCTION_INFO_V1(hll_final);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// Outside an aggregate nobody owns the first argument, so work on a copy.
struct varlena* modifiable_state(FunctionCallInfo fcinfo) {
  if (in_aggregate(fcinfo)) return reinterpret_cast<struct varlena*>(PG_GETARG_POINTER(0));
  return hll_state_copy(hll_arg(fcinfo, 0));
}

// Working encodings never leave an aggregate: called as plain functions, the
// transition functions return the stored form.
Datum return_state(FunctionCallInfo fcinfo, struct varlena* state) {
  if (in_aggregate(fcinfo)) PG_RETURN_POINTER(state);
  PG_RETURN_POINTER(hll_canonical(hll_view(state)));
}

}  // namespace

// hll_agg_trans(state hll, value anyelement [, p integer])
extern "C" Datum hll_agg_trans(PG_FUNCTION_ARGS) {
  const bool has_precision = PG_NARGS() > 2;
  if (has_precision && PG_ARGISNULL(2))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("hll precision must not be NULL")));
  const int p = has_precision ? PG_GETARG_INT32(2) : hll::kDefaultPrecision;
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  const uint64 hash = hash_element64(element_hasher(fcinfo, 1), PG_GETARG_DATUM(1));
  struct varlena* state;
  if (PG_ARGISNULL(0)) {
    hll_check_precision(p);
    state = hll_new_state(p);
  } else {
    state = modifiable_state(fcinfo);
    // The state was created at its precision by the first row; a precision
    // that changes between rows would silently be ignored otherwise.
    if (has_precision && payload(state)[5] != p)
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("hll precision must be the same for every row of hll_agg"),
                      errdetail("The aggregate started with p = %d and now got p = %d.",
                                payload(state)[5], p)));
  }
  return return_state(fcinfo, hll_state_add(state, hash));
}

// hll_union_trans(state hll, other hll): transition of hll_union and the
// combine function of both aggregates.
extern "C" Datum hll_union_trans(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  const hll::View other = hll_arg(fcinfo, 1);
  if (PG_ARGISNULL(0)) return return_state(fcinfo, hll_state_copy(other));
  return return_state(fcinfo, hll_state_union(modifiable_state(fcinfo), other));
}

// Final function: the stored form of the state; never modifies the state,
// so the aggregates also work as window aggregates.
extern "C" Datum hll_final(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  PG_RETURN_POINTER(hll_canonical(hll_arg(fcinfo, 0)));
}
