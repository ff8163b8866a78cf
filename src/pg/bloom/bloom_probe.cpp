// Membership: bloom_contains(filter, value) and bloom_contained(value, filter),
// the functions of the operators filter @> value and value <@ filter.
//
// A probe reads k bits of the filter in place: no copy and no decoding beyond
// the constant-time header check. A filter stored out of line (TOAST) is
// detoasted once per call site and kept in fn_extra for as long as the same
// value comes back (see detoast_cache.h), so probing a million rows against
// `(SELECT filter FROM t)` fetches the filter once, not a million times.
#include "pg/bloom/bloom_datum.h"
#include "pg/common/detoast_cache.h"
#include "pg/common/element_hash.h"

extern "C" {
PG_FUNCTION_INFO_V1(bloom_contains);
PG_FUNCTION_INFO_V1(bloom_contained);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

struct ProbeCache {
  ElementHasher hasher;
  DetoastCache filter;
};

// A NULL value has no answer (NULL); a NULL filter is an empty one, which
// contains nothing (false), like every reader treats a NULL sketch as empty.
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
  const bloom::View filter =
      bloom_view(detoast_cached(fcinfo->flinfo, &cache->filter, PG_GETARG_DATUM(filter_arg)));
  check_value_kind(filter.data, &cache->hasher);
  PG_RETURN_BOOL(
      bloom::contains_hash(filter, hash_element128(&cache->hasher, PG_GETARG_DATUM(value_arg))));
}

}  // namespace

extern "C" Datum bloom_contains(PG_FUNCTION_ARGS) { return probe(fcinfo, 0, 1); }

extern "C" Datum bloom_contained(PG_FUNCTION_ARGS) { return probe(fcinfo, 1, 0); }
