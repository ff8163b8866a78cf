// Membership: counting_bloom_contains(filter, value) and
// counting_bloom_contained(value, filter), the functions of the operators
// filter @> value and value <@ filter.
//
// As bloom's probe (bloom_probe.cpp): k counters read in place, and a filter
// stored out of line (TOAST) detoasted once per call site and kept in
// fn_extra for as long as the same value comes back (detoast_cache.h).
#include "pg/common/detoast_cache.h"
#include "pg/common/element_hash.h"
#include "pg/counting_bloom/counting_bloom_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(counting_bloom_contains);
PG_FUNCTION_INFO_V1(counting_bloom_contained);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

struct ProbeCache {
  ElementHasher hasher;
  DetoastCache filter;
};

// A NULL value has no answer (NULL); a NULL filter is an empty one, which
// contains nothing (false).
Datum probe(FunctionCallInfo fcinfo, int filter_arg, int value_arg) {
  if (PG_ARGISNULL(value_arg)) PG_RETURN_NULL();
  if (PG_ARGISNULL(filter_arg)) PG_RETURN_BOOL(false);
  auto* cache = static_cast<ProbeCache*>(fcinfo->flinfo->fn_extra);
  if (cache == nullptr) {
    cache = static_cast<ProbeCache*>(
        MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(ProbeCache)));
    init_element_hasher(fcinfo, value_arg, &cache->hasher);
    fcinfo->flinfo->fn_extra = cache;
  }
  const counting_bloom::View filter = counting_bloom_view(
      detoast_cached(fcinfo->flinfo, &cache->filter, PG_GETARG_DATUM(filter_arg)));
  check_value_kind(filter.data, &cache->hasher);
  PG_RETURN_BOOL(counting_bloom::contains_hash(
      filter, hash_element128(&cache->hasher, PG_GETARG_DATUM(value_arg))));
}

}  // namespace

extern "C" Datum counting_bloom_contains(PG_FUNCTION_ARGS) { return probe(fcinfo, 0, 1); }

extern "C" Datum counting_bloom_contained(PG_FUNCTION_ARGS) { return probe(fcinfo, 1, 0); }
