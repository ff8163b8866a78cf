// counting_bloom aggregates: counting_bloom_agg(value, n, p) and
// counting_bloom_union(counting_bloom).
//
// The state type is counting_bloom itself, so parallel workers, window
// frames and distributed engines move states without serial functions.
// Every state goes through the shared mechanism (aggregate_state.h): per row
// one hash and k counter increments, with no allocation. A state of 1 MiB or
// more is a working state (core/counting_bloom/counting_bloom.h) that counts
// each value a few rows after prefetching its cells, as bloom_agg's does;
// the final function returns the stored form.
#include "pg/common/element_hash.h"
#include "pg/counting_bloom/counting_bloom_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(counting_bloom_agg_trans);
PG_FUNCTION_INFO_V1(counting_bloom_union_trans);
PG_FUNCTION_INFO_V1(counting_bloom_final);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of the transition function: the value's hasher and the
// parameters of the last (n, p) seen, so that constant arguments are sized
// once per query.
struct AggCache {
  ElementHasher hasher;
  bool in_aggregate;
  bool sized;
  double n;
  double p;
  counting_bloom::Params params;
};

AggCache* agg_cache(FunctionCallInfo fcinfo) {
  auto* cache = static_cast<AggCache*>(fcinfo->flinfo->fn_extra);
  if (cache == nullptr) {
    cache = static_cast<AggCache*>(
        MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(AggCache)));
    init_element_hasher(fcinfo, 1, &cache->hasher);
    cache->in_aggregate = in_aggregate(fcinfo);
    fcinfo->flinfo->fn_extra = cache;
  }
  return cache;
}

uint8_t* new_state(const counting_bloom::Params& params, bool in_agg) {
  const bool deferred = in_agg && counting_bloom::defer_adds(params.cells);
  uint8_t* state = CountingBloomStates::allocate(
      deferred ? counting_bloom::working_size(params.cells)
               : counting_bloom::filter_size(params.cells));
  if (deferred) {
    counting_bloom::write_empty_working(state, params);
  } else {
    counting_bloom::write_empty(state, params);
  }
  return state;
}

pg_noinline void report_other_params(const uint8* filter, const counting_bloom::Params& params,
                                     double n, double p) {
  ereport(ERROR,
          (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
           errmsg("counting_bloom_agg parameters n and p must be the same for every row"),
           errdetail("The filter was started with m=%llu cells and k=%d hashes; this row's "
                     "n = %.0f and p = %g give m=%llu and k=%d.",
                     static_cast<unsigned long long>(counting_bloom::cells_of(filter)),
                     counting_bloom::hashes_of(filter), n, p,
                     static_cast<unsigned long long>(params.cells), params.hashes)));
}

}  // namespace

// counting_bloom_agg_trans(state counting_bloom, value anyelement, n bigint,
// p float8)
extern "C" Datum counting_bloom_agg_trans(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("counting_bloom_agg parameters n and p must not be NULL")));
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  AggCache* cache = agg_cache(fcinfo);
  const double n = static_cast<double>(PG_GETARG_INT64(2));
  const double p = PG_GETARG_FLOAT8(3);
  if (unlikely(!cache->sized || cache->n != n || cache->p != p)) {
    cache->params = counting_bloom_sized(PG_GETARG_INT64(2), p);
    cache->n = n;
    cache->p = p;
    cache->sized = true;
  }
  counting_bloom::Family::Element element{hash_element128(&cache->hasher, PG_GETARG_DATUM(1))};
  const bool in_agg = cache->in_aggregate;
  uint8_t* state = PG_ARGISNULL(0) ? new_state(cache->params, in_agg)
                                   : CountingBloomStates::take(fcinfo, in_agg);
  if (unlikely(counting_bloom::cells_of(state) != cache->params.cells ||
               counting_bloom::hashes_of(state) != cache->params.hashes))
    report_other_params(state, cache->params, n, p);
  CountingBloomStates::accept_kind(state, &cache->hasher);
  return CountingBloomStates::give(CountingBloomStates::add(state, element), in_agg);
}

// Transition of counting_bloom_union and the combine function of both
// aggregates: either side may be a working state of counting_bloom_agg.
extern "C" Datum counting_bloom_union_trans(PG_FUNCTION_ARGS) {
  return CountingBloomStates::union_trans(fcinfo);
}

// Final function of counting_bloom_agg: the stored form of the state, read
// only (FINALFUNC_MODIFY = READ_ONLY), so it also works as a window
// aggregate.
extern "C" Datum counting_bloom_final(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  return CountingBloomStates::final(fcinfo);
}
