// hll aggregates: hll_agg(value [, p]) and hll_union(hll).
//
// The state type is hll itself, in its working encoding, so parallel query,
// window use and distributed engines can move states without serial
// functions. Every state goes through the shared mechanism
// (aggregate_state.h): updated in place only when it is the executor's own
// working state, copied into one otherwise.
#include "pg/common/call_site.h"
#include "pg/common/element_hash.h"
#include "pg/hll/hll_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(hll_agg_trans);
}

using namespace sketch;
using namespace sketch::pg;

// hll_agg_trans(state hll, value anyelement [, p integer])
extern "C" Datum hll_agg_trans(PG_FUNCTION_ARGS) {
  const bool has_precision = PG_NARGS() > 2;
  if (has_precision && PG_ARGISNULL(2))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("hll precision must not be NULL")));
  const int p = has_precision ? PG_GETARG_INT32(2) : hll::kDefaultPrecision;
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  // The state's header is read right after hashing, and in a GROUP BY over
  // many groups it is a cache miss on nearly every row: ask for it now so
  // that the miss overlaps the hashing (a prefetch never faults, whatever
  // the pointer).
  if (!PG_ARGISNULL(0)) __builtin_prefetch(DatumGetPointer(PG_GETARG_DATUM(0)));
  const bool in_agg = in_aggregate(fcinfo);
  const ElementHasher* hasher = element_hasher(fcinfo, 1);
  hll::Family::Element element{hash_element64(hasher, PG_GETARG_DATUM(1))};
  uint8_t* state;
  if (PG_ARGISNULL(0)) {
    hll_check_precision(p);
    state = hll_new_state(p);
  } else {
    state = HllStates::take(fcinfo, in_agg);
    // The state was created at its precision by the first row; a precision
    // that changes between rows would silently be ignored otherwise.
    const int state_p = hll::precision_of(state);
    if (has_precision && state_p != p)
      raise_parameters_changed(
          "hll precision must be the same for every row of hll_agg",
          psprintf("The aggregate started with p = %d and now got p = %d.", state_p, p));
  }
  HllStates::accept_kind(state, hasher);
  return HllStates::give(fcinfo, HllStates::add(state, element), in_agg);
}

SKETCH_UNION_AND_FINAL(hll, HllStates)
