// topk aggregates: topk_agg(item [, k]), topk_agg_weighted(item, weight
// [, k]) and topk_union(topk), all through the shared state mechanism
// (pg/common/aggregate_state.h): a state is written in place only when it
// is a working state the executor owns, copied into one otherwise.
//
// Per row: hash the item, one index probe and one add when the item is
// held; a new item also costs its type's output function (its text), and
// now and then a purge (O(k), at most once per k new items).
#include "pg/common/call_site.h"
#include "pg/topk/topk_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(topk_agg_trans);
PG_FUNCTION_INFO_V1(topk_agg_weighted_trans);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of the transition functions: the item's hasher and output
// function, and k as resolved from the last row's argument.
using AggSite = CallSite<uint32, 1, ItemSource>;

// k of this row: argument k_arg when given (the same on every row), else
// the default.
uint32 row_k(FunctionCallInfo fcinfo, AggSite* site, int k_arg) {
  if (PG_NARGS() <= k_arg) return topk::kDefaultK;
  if (PG_ARGISNULL(k_arg))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("topk k must not be NULL")));
  const double args[1] = {static_cast<double>(PG_GETARG_INT32(k_arg))};
  return site->params_for(args, [&] { return topk_k(PG_GETARG_INT32(k_arg)); });
}

pg_noinline void report_other_k(uint32 state_k, uint32 k) {
  raise_parameters_changed("topk aggregate parameter k must be the same for every row",
                           psprintf("The aggregate started with k = %u and now got k = %u.",
                                    state_k, k));
}

Datum agg_trans(FunctionCallInfo fcinfo, bool weighted) {
  AggSite* site = AggSite::of(fcinfo);
  const uint32 k = row_k(fcinfo, site, weighted ? 3 : 2);
  uint64 weight = 1;
  if (PG_ARGISNULL(1) || (weighted && !topk_weight(fcinfo, 2, false, &weight)))
    return keep_state(fcinfo);
  const Datum value = PG_GETARG_DATUM(1);
  const uint64 hash = hash_element64(&site->value.hasher, value);
  uint8_t* state = TopkStates::take_or_make(
      fcinfo, site->in_aggregate, [k] { return topk_new_state(k); },
      [k](const uint8_t* s) {
        if (unlikely(topk::k_of(s) != k)) report_other_k(topk::k_of(s), k);
      });
  return TopkStates::give(fcinfo, topk_state_add(state, hash, weight, &site->value, value),
                          site->in_aggregate);
}

}  // namespace

// topk_agg_trans(state topk, item anyelement [, k integer])
extern "C" Datum topk_agg_trans(PG_FUNCTION_ARGS) { return agg_trans(fcinfo, false); }

// topk_agg_weighted_trans(state topk, item anyelement, weight bigint [, k integer])
extern "C" Datum topk_agg_weighted_trans(PG_FUNCTION_ARGS) { return agg_trans(fcinfo, true); }

SKETCH_UNION_AND_FINAL(topk, TopkStates)
