// cuckoo aggregates: cuckoo_agg(value, n, p) and cuckoo_union(cuckoo).
//
// The state type is cuckoo itself. Every state goes through the shared
// mechanism (aggregate_state.h): per row one hash, a probe of the state's
// seen set of 128-bit hashes (a value seen before is not added again) and,
// for a new value, a fingerprint copy in its buckets and its hash in the set,
// with no allocation (core/cuckoo/cuckoo.h: one copy per distinct value).
// A state that fills up grows by a sub-filter (core/cuckoo/cuckoo.h).
#include "pg/common/element_hash.h"
#include "pg/cuckoo/cuckoo_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(cuckoo_agg_trans);
PG_FUNCTION_INFO_V1(cuckoo_union_trans);
PG_FUNCTION_INFO_V1(cuckoo_final);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

struct AggCache {
  ElementHasher hasher;
  bool in_aggregate;
  bool sized;
  double n;  // the sizing arguments `params` came from, as values
  double p;
  cuckoo::Params params;
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

pg_noinline void report_other_params(const uint8* filter, const cuckoo::Params& params, double n,
                                     double p) {
  ereport(ERROR,
          (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
           errmsg("cuckoo_agg parameters n and p must be the same for every row"),
           errdetail("The filter was started with fingerprint_bits=%d and %llu buckets; this "
                     "row's n = %.0f and p = %g give fingerprint_bits=%d and %llu buckets.",
                     cuckoo::fingerprint_bits_of(filter),
                     static_cast<unsigned long long>(load_le64(filter + cuckoo::kFirstSubfilterOffset)),
                     n, p, params.fingerprint_bits,
                     static_cast<unsigned long long>(params.buckets))));
}

}  // namespace

// cuckoo_agg_trans(state cuckoo, value anyelement, n bigint, p float8)
extern "C" Datum cuckoo_agg_trans(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("cuckoo_agg parameters n and p must not be NULL")));
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  AggCache* cache = agg_cache(fcinfo);
  const double n = static_cast<double>(PG_GETARG_INT64(2));
  const double p = PG_GETARG_FLOAT8(3);
  if (unlikely(!cache->sized || cache->n != n || cache->p != p)) {
    cache->params = cuckoo_sized(PG_GETARG_INT64(2), p, 4);
    cache->n = n;
    cache->p = p;
    cache->sized = true;
  }
  // One copy per distinct value (duplicates removed by the 128-bit hash in
  // the state's seen set, never by fingerprint: core/cuckoo/cuckoo.h).
  cuckoo::Family::Element element{hash_element128(&cache->hasher, PG_GETARG_DATUM(1)), false,
                                  true};
  const bool in_agg = cache->in_aggregate;
  uint8_t* state;
  if (PG_ARGISNULL(0)) {
    state = cuckoo_new_state(cache->params, in_agg);
  } else {
    state = CuckooStates::take(fcinfo, in_agg);
    if (unlikely(in_agg && cuckoo::encoding_of(state) != cuckoo::Encoding::kDistinct))
      state = cuckoo_distinct_state(state);
  }
  // The first sub-filter and f say which (n, p) started the filter.
  if (unlikely(cuckoo::fingerprint_bits_of(state) != cache->params.fingerprint_bits ||
               cuckoo::bucket_size_of(state) != cache->params.bucket_size ||
               load_le64(state + cuckoo::kFirstSubfilterOffset) != cache->params.buckets))
    report_other_params(state, cache->params, n, p);
  CuckooStates::accept_kind(state, &cache->hasher);
  return CuckooStates::give(cuckoo_add_element(state, element), in_agg);
}

// Transition of cuckoo_union and combine function of both aggregates.
extern "C" Datum cuckoo_union_trans(PG_FUNCTION_ARGS) { return CuckooStates::union_trans(fcinfo); }

// Final function of cuckoo_agg: the stored form, the state left as it is.
extern "C" Datum cuckoo_final(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  return CuckooStates::final(fcinfo);
}
