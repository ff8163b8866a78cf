// topk aggregates: topk_agg(item [, k]), topk_agg_weighted(item, weight
// [, k]) and topk_union(topk), all through the shared state mechanism
// (pg/common/aggregate_state.h): a state is written in place only when it
// is a working state the executor owns, copied into one otherwise.
//
// Per row: hash the item, one index probe and one add when the item is
// held; a new item also costs its type's output function (its text), and
// now and then a purge (O(k), at most once per k new items).
#include "pg/topk/topk_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(topk_agg_trans);
PG_FUNCTION_INFO_V1(topk_agg_weighted_trans);
PG_FUNCTION_INFO_V1(topk_union_trans);
PG_FUNCTION_INFO_V1(topk_final);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of the transition functions: the item's hasher and output
// function, and k as resolved from the last row's argument.
struct AggCache {
  ItemSource item;
  bool in_aggregate;  // a call site is in an aggregate or never is
  bool resolved;
  int32 raw_k;
  uint32 k;
};

AggCache* agg_cache(FunctionCallInfo fcinfo) {
  auto* cache = static_cast<AggCache*>(fcinfo->flinfo->fn_extra);
  if (cache != nullptr) return cache;
  cache = static_cast<AggCache*>(MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(AggCache)));
  init_item_source(fcinfo, 1, &cache->item);
  cache->in_aggregate = in_aggregate(fcinfo);
  fcinfo->flinfo->fn_extra = cache;
  return cache;
}

// k of this row: argument k_arg when given (the same on every row), else
// the default.
uint32 row_k(FunctionCallInfo fcinfo, AggCache* cache, int k_arg) {
  if (PG_NARGS() <= k_arg) return topk::kDefaultK;
  if (PG_ARGISNULL(k_arg))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("topk k must not be NULL")));
  const int32 raw = PG_GETARG_INT32(k_arg);
  if (unlikely(!cache->resolved || cache->raw_k != raw)) {
    cache->k = topk_k(raw);
    cache->raw_k = raw;
    cache->resolved = true;
  }
  return cache->k;
}

pg_noinline void report_other_k(uint32 state_k, uint32 k) {
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("topk aggregate parameter k must be the same for every row"),
                  errdetail("The aggregate started with k = %u and now got k = %u.", state_k, k)));
}

Datum agg_trans(FunctionCallInfo fcinfo, bool weighted) {
  AggCache* cache = agg_cache(fcinfo);
  const uint32 k = row_k(fcinfo, cache, weighted ? 3 : 2);
  uint64 weight = 1;
  if (PG_ARGISNULL(1) || (weighted && !topk_weight(fcinfo, 2, false, &weight))) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  const Datum value = PG_GETARG_DATUM(1);
  const uint64 hash = hash_element64(&cache->item.hasher, value);
  uint8_t* state;
  if (PG_ARGISNULL(0)) {
    state = topk_new_state(k);
  } else {
    state = TopkStates::take(fcinfo, cache->in_aggregate);
    const uint32 state_k = load_le32(state + topk::detail::kKOffset);
    if (unlikely(state_k != k)) report_other_k(state_k, k);
  }
  return TopkStates::give(topk_state_add(state, hash, weight, &cache->item, value),
                          cache->in_aggregate);
}

}  // namespace

// topk_agg_trans(state topk, item anyelement [, k integer])
extern "C" Datum topk_agg_trans(PG_FUNCTION_ARGS) { return agg_trans(fcinfo, false); }

// topk_agg_weighted_trans(state topk, item anyelement, weight bigint [, k integer])
extern "C" Datum topk_agg_weighted_trans(PG_FUNCTION_ARGS) { return agg_trans(fcinfo, true); }

// topk_union_trans(state topk, other topk): transition of topk_union and the
// combine function of every topk aggregate.
extern "C" Datum topk_union_trans(PG_FUNCTION_ARGS) { return TopkStates::union_trans(fcinfo); }

// Final function: the stored form of the state; never modifies the state,
// so the aggregates also work as window aggregates.
extern "C" Datum topk_final(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  return TopkStates::final(fcinfo);
}
