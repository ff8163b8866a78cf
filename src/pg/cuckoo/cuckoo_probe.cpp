// Membership: cuckoo_contains(filter, value), cuckoo_contained(value, filter)
// (the functions of @> and <@) and cuckoo_count(filter, value).
//
// A probe reads the two buckets of each sub-filter in place: no copy and no
// decoding beyond the O(S) structure check. A filter stored out of line
// (TOAST) is detoasted once per call site and kept in fn_extra for as long as
// the same value comes back (detoast_cache.h).
#include "pg/common/detoast_cache.h"
#include "pg/common/element_hash.h"
#include "pg/cuckoo/cuckoo_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(cuckoo_contains);
PG_FUNCTION_INFO_V1(cuckoo_contained);
PG_FUNCTION_INFO_V1(cuckoo_count);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

struct ProbeCache {
  ElementHasher hasher;
  DetoastCache filter;
};

ProbeCache* probe_cache(FunctionCallInfo fcinfo, int value_arg) {
  auto* cache = static_cast<ProbeCache*>(fcinfo->flinfo->fn_extra);
  if (cache == nullptr) {
    cache = static_cast<ProbeCache*>(
        MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(ProbeCache)));
    init_element_hasher(fcinfo, value_arg, &cache->hasher);
    fcinfo->flinfo->fn_extra = cache;
  }
  return cache;
}

// A NULL value has no answer (NULL); a NULL filter is an empty one (false).
Datum probe(FunctionCallInfo fcinfo, int filter_arg, int value_arg) {
  if (PG_ARGISNULL(value_arg)) PG_RETURN_NULL();
  if (PG_ARGISNULL(filter_arg)) PG_RETURN_BOOL(false);
  ProbeCache* cache = probe_cache(fcinfo, value_arg);
  const cuckoo::View filter =
      cuckoo_view(detoast_cached(fcinfo->flinfo, &cache->filter, PG_GETARG_DATUM(filter_arg)));
  check_value_kind(filter.data, &cache->hasher);
  PG_RETURN_BOOL(cuckoo::contains_hash(
      filter, hash_element128(&cache->hasher, PG_GETARG_DATUM(value_arg))));
}

}  // namespace

extern "C" Datum cuckoo_contains(PG_FUNCTION_ARGS) { return probe(fcinfo, 0, 1); }

extern "C" Datum cuckoo_contained(PG_FUNCTION_ARGS) { return probe(fcinfo, 1, 0); }

// Copies of the value's fingerprint in its buckets: NULL for a NULL value, 0
// for a NULL filter.
extern "C" Datum cuckoo_count(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  if (PG_ARGISNULL(0)) PG_RETURN_INT32(0);
  ProbeCache* cache = probe_cache(fcinfo, 1);
  const cuckoo::View filter =
      cuckoo_view(detoast_cached(fcinfo->flinfo, &cache->filter, PG_GETARG_DATUM(0)));
  check_value_kind(filter.data, &cache->hasher);
  PG_RETURN_INT32(static_cast<int32>(
      cuckoo::count_hash(filter, hash_element128(&cache->hasher, PG_GETARG_DATUM(1)))));
}
