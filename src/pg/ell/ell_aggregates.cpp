// ell aggregates: ell_agg(value [, p]) and ell_union(ell).
//
// The state type is ell itself, in its working encoding, so parallel query,
// window use and distributed engines can move states without serial
// functions (the shared mechanism, aggregate_state.h, as for hll).
//
// ell_agg's result is a rollup: it must be the same bytes for the same set
// whatever the plan (the order rows arrive in, parallel workers, Citus
// shards). An unmerged dense state also carries the martingale estimate,
// which depends on the order of the first arrivals and which a parallel
// plan's combine step drops, so ell_agg's final function forgets it
// (ell::forget_stream): its sketches offer the maximum-likelihood estimate.
// A sketch built one value at a time with ell_add keeps it.
#include "pg/ell/ell_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(ell_agg_trans);
PG_FUNCTION_INFO_V1(ell_agg_final);
}

using namespace sketch;
using namespace sketch::pg;

// ell_agg_trans(state ell, value anyelement [, p integer])
extern "C" Datum ell_agg_trans(PG_FUNCTION_ARGS) {
  return precision_agg_trans<EllStates, kEllPrecision>(fcinfo);
}

// The stored form of the state in a new datum, without the stream's
// martingale: never modifies the state (FINALFUNC_MODIFY = READ_ONLY).
extern "C" Datum ell_agg_final(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  struct varlena* out = ell_canonical(ell_arg(fcinfo, 0));
  ell::forget_stream(payload(out));
  PG_RETURN_POINTER(out);
}

SKETCH_UNION_AND_FINAL(ell, EllStates)
