// bloom aggregates: bloom_agg(value, n, p), bloom_agg_bits(value, bits,
// hashes) and bloom_union(bloom).
//
// The state type is bloom itself, so parallel workers, window frames and
// distributed engines move states without serial functions. Inside an
// aggregate the transition functions update the state in place (see
// aggregate_support.h): per row one hash and k bit sets, with no allocation
// and no type dispatch beyond the cached hasher. A bloom_agg
// state of 1 MiB or more is a working state (core/bloom.h) that sets each
// value's bits a few rows after prefetching them; the final function returns
// the stored form. Smaller states, and bloom_union's, are stored filters.
#include "pg/aggregate_support.h"
#include "pg/bloom_datum.h"
#include "pg/element_hash.h"
#include "pg/sketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(bloom_agg_trans);
PG_FUNCTION_INFO_V1(bloom_agg_bits_trans);
PG_FUNCTION_INFO_V1(bloom_union_trans);
PG_FUNCTION_INFO_V1(bloom_final);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of the bloom_agg transition functions: the value's hasher, and the
// parameters of the last (n, p) or (bits, hashes) arguments seen, so that
// constant arguments are sized once per query, not once per row.
struct AggCache {
  ElementHasher hasher;
  bool in_aggregate;  // a call site is in an aggregate or never is
  bool sized;
  Datum arg2;
  Datum arg3;
  bloom::Params params;
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

using Sizer = bloom::Params (*)(Datum arg2, Datum arg3);

bloom::Params size_by_n_p(Datum n, Datum p) {
  return bloom_sized(DatumGetInt64(n), DatumGetFloat8(p));
}

bloom::Params size_by_bits(Datum bits, Datum hashes) {
  return bloom_params(DatumGetInt64(bits), DatumGetInt32(hashes));
}

void check_same_params(const char* name, const char* args, const uint8* filter,
                       const bloom::Params& params) {
  const uint64 bits = bloom::bits_of(filter);
  const int hashes = bloom::hashes_of(filter);
  if (bits != params.bits || hashes != params.hashes)
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
             errmsg("%s parameters %s must be the same for every row", name, args),
             errdetail("The filter was started with (m=%llu, k=%d); this row's parameters give "
                       "(m=%llu, k=%d).", static_cast<unsigned long long>(bits), hashes,
                       static_cast<unsigned long long>(params.bits), params.hashes)));
}

// (state bloom, value anyelement, a, b): adds the value to the state, sized
// by `size` from (a, b) when the state is new. Parameters may differ between
// groups but not between the rows of one group.
Datum agg_trans(FunctionCallInfo fcinfo, const char* name, const char* args, Sizer size) {
  if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("%s parameters %s must not be NULL", name, args)));
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  AggCache* cache = agg_cache(fcinfo);
  if (!cache->sized || cache->arg2 != PG_GETARG_DATUM(2) || cache->arg3 != PG_GETARG_DATUM(3)) {
    cache->params = size(PG_GETARG_DATUM(2), PG_GETARG_DATUM(3));
    cache->arg2 = PG_GETARG_DATUM(2);
    cache->arg3 = PG_GETARG_DATUM(3);
    cache->sized = true;
  }
  const Hash128 hash = hash_element128(&cache->hasher, PG_GETARG_DATUM(1));

  if (!cache->in_aggregate) {
    // Called directly: a new stored value, never a working state.
    struct varlena* out =
        PG_ARGISNULL(0) ? bloom_new(cache->params) : bloom_stored(bloom_arg(fcinfo, 0));
    check_same_params(name, args, payload(out), cache->params);
    bloom::add_hash(payload(out), hash);
    PG_RETURN_POINTER(out);
  }
  // In an aggregate the state is one this function (or the combine function)
  // made: update it in place.
  if (PG_ARGISNULL(0)) {
    if (!bloom::defer_adds(cache->params.bits)) {
      struct varlena* state = bloom_new(cache->params);
      bloom::add_hash(payload(state), hash);
      PG_RETURN_POINTER(state);
    }
    struct varlena* state = bloom_new_working(cache->params);
    bloom::add_hash_deferred(payload(state), hash);
    PG_RETURN_POINTER(state);
  }
  struct varlena* state = reinterpret_cast<struct varlena*>(PG_GETARG_POINTER(0));
  uint8* filter = payload(state);
  check_same_params(name, args, filter, cache->params);
  if (bloom::encoding_of(filter) == bloom::Encoding::kWorking) {
    bloom::add_hash_deferred(filter, hash);
  } else {
    bloom::add_hash(filter, hash);
  }
  PG_RETURN_POINTER(state);
}

}  // namespace

// bloom_agg_trans(state bloom, value anyelement, n bigint, p float8)
extern "C" Datum bloom_agg_trans(PG_FUNCTION_ARGS) {
  return agg_trans(fcinfo, "bloom_agg", "n and p", size_by_n_p);
}

// bloom_agg_bits_trans(state bloom, value anyelement, bits bigint, hashes integer)
extern "C" Datum bloom_agg_bits_trans(PG_FUNCTION_ARGS) {
  return agg_trans(fcinfo, "bloom_agg_bits", "bits and hashes", size_by_bits);
}

// bloom_union_trans(state bloom, other bloom): transition of bloom_union and
// the combine function of all three aggregates, so either side may be a
// working state of bloom_agg (its queued values are added too).
extern "C" Datum bloom_union_trans(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  const bool aggregate = in_aggregate(fcinfo);
  struct varlena* other_datum = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
  const bloom::View other =
      aggregate ? bloom_state_view(other_datum) : bloom_view(other_datum);
  if (PG_ARGISNULL(0)) {
    // In an aggregate the first filter becomes the state as it is: the
    // executor copies a returned value that is not the state into the
    // aggregate's memory.
    PG_RETURN_POINTER(other_datum);
  }
  struct varlena* state;
  if (aggregate) {
    state = reinterpret_cast<struct varlena*>(PG_GETARG_POINTER(0));
  } else {
    state = bloom_stored(bloom_arg(fcinfo, 0));
  }
  bloom_check_compatible(bloom_state_view(state), other);
  bloom::union_into(payload(state), other);
  PG_RETURN_POINTER(state);
}

// Final function of bloom_agg and bloom_agg_bits: the stored form of the
// state, leaving the state as it is (FINALFUNC_MODIFY = READ_ONLY), so the
// aggregates also work as window aggregates.
extern "C" Datum bloom_final(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  const bloom::View v = bloom_state_view(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
  if (v.encoding == bloom::Encoding::kStored) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  PG_RETURN_POINTER(bloom_stored(v));
}
