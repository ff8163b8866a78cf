// theta aggregates: theta_agg(value [, lg_k]), theta_union(sketch) and
// theta_intersect(sketch), all through the shared state mechanism
// (pg/common/aggregate_state.h): the first two with theta's traits
// (core/theta/theta_family.h), the intersection, whose state is the running
// intersection, with its own (core/theta/theta_intersect_family.h).
//
// Per row of theta_agg: hash the value and compare it with θ; only a hash
// below θ (all of them until the sketch holds k) probes the table.
#include "core/theta/theta_intersect_family.h"
#include "pg/theta/theta_datum.h"

#include "pg/common/call_site.h"

extern "C" {
PG_FUNCTION_INFO_V1(theta_agg_trans);
PG_FUNCTION_INFO_V1(theta_intersect_trans);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of theta_agg_trans: the value's hasher, and lg_k as resolved
// from the last row's argument.
using AggSite = CallSite<int, 1>;

int row_lg_k(FunctionCallInfo fcinfo, AggSite* site) {
  if (PG_NARGS() <= 2) return theta::kDefaultLgK;
  if (PG_ARGISNULL(2))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("theta lg_k must not be NULL")));
  const int32 raw = PG_GETARG_INT32(2);
  const double args[1] = {static_cast<double>(raw)};
  return site->params_for(args, [raw] { return theta_lg_k(raw); });
}

pg_noinline void report_other_lg_k(int state_lg_k, int lg_k) {
  raise_parameters_changed(
      "theta_agg parameter lg_k must be the same for every row",
      psprintf("The aggregate started with lg_k = %d and now got lg_k = %d.", state_lg_k, lg_k));
}

}  // namespace

// theta_agg_trans(state theta, value anyelement [, lg_k integer])
extern "C" Datum theta_agg_trans(PG_FUNCTION_ARGS) {
  AggSite* site = AggSite::of(fcinfo);
  const int lg_k = row_lg_k(fcinfo, site);
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  theta::Family::Element element{hash_element64(&site->value, PG_GETARG_DATUM(1))};
  uint8_t* state = ThetaStates::take_or_make(
      fcinfo, site->in_aggregate, [lg_k] { return theta_new_state(lg_k); },
      [lg_k](const uint8_t* s) {
        if (unlikely(theta::lg_k_of(s) != lg_k)) report_other_lg_k(theta::lg_k_of(s), lg_k);
      });
  ThetaStates::accept_kind(state, &site->value);
  return ThetaStates::give(fcinfo, ThetaStates::add(state, element), site->in_aggregate);
}

// theta_union_trans(state theta, other theta): transition of theta_union
// and the combine function of theta_agg and theta_union; theta_final: the
// stored form of the state, which it leaves as it is.
SKETCH_UNION_AND_FINAL(theta, ThetaStates)

using ThetaIntersectStates = SketchStates<theta::IntersectFamily, kThetaTypeName, kThetaHints>;

// theta_intersect_trans(state theta, other theta): transition and combine
// function of theta_intersect. NULL sketches are skipped; the state is a
// stored sketch, replaced by each row's intersection in a new buffer (the
// mechanism copies a state it may not use as it is: an INITCOND, a partial
// state, a working theta).
extern "C" Datum theta_intersect_trans(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  const bool in_agg = in_aggregate(fcinfo);
  const theta::View other = ThetaIntersectStates::stored_view_arg(fcinfo, 1);
  if (PG_ARGISNULL(0))
    return ThetaIntersectStates::give(fcinfo, ThetaIntersectStates::copy(other), in_agg);
  uint8_t* state = ThetaIntersectStates::take(fcinfo, in_agg);
  return ThetaIntersectStates::give(fcinfo, ThetaIntersectStates::merge(state, other), in_agg);
}
