// hll aggregates: hll_agg(value [, p]) and hll_union(hll).
//
// The state type is hll itself, in its working encoding, so parallel query,
// window use and distributed engines can move states without serial
// functions. Every state goes through the shared mechanism
// (aggregate_state.h): updated in place only when it is the executor's own
// working state, copied into one otherwise.
#include "pg/hll/hll_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(hll_agg_trans);
}

using namespace sketch;
using namespace sketch::pg;

// hll_agg_trans(state hll, value anyelement [, p integer])
extern "C" Datum hll_agg_trans(PG_FUNCTION_ARGS) {
  return precision_agg_trans<HllStates, kHllPrecision>(fcinfo);
}

SKETCH_UNION_AND_FINAL(hll, HllStates)
