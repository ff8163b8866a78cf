// Membership: cuckoo_contains(filter, value), cuckoo_contained(value, filter)
// (the functions of @> and <@) and cuckoo_count(filter, value).
//
// A probe reads the two buckets of each sub-filter in place: no copy and no
// decoding beyond the O(S) structure check; a filter stored out of line is
// detoasted once per call site (pg/common/probe.h).
#include "pg/common/detoast_cache.h"
#include "pg/common/element_hash.h"
#include "pg/common/fn_extra.h"
#include "pg/common/probe.h"
#include "pg/cuckoo/cuckoo_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(cuckoo_count);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

struct ProbeCache : ProbeSite {
  // The parsed view of filter.value at filter.generation (view_generation 0:
  // none): a probe of a detoasted filter skips the O(S) structure check
  // that parsing would cost on every row (docs/benchmarks.md).
  uint64 view_generation;
  cuckoo::View view;
};

ProbeCache* probe_cache(FunctionCallInfo fcinfo, int value_arg) {
  return fn_extra_of<ProbeCache>(fcinfo, [fcinfo, value_arg](ProbeCache* cache) {
    init_element_hasher(fcinfo, value_arg, &cache->hasher);
  });
}

// The filter argument as a view, parsed once per detoasted value.
const cuckoo::View& filter_view(FunctionCallInfo fcinfo, ProbeCache* cache, int filter_arg) {
  const struct varlena* v = detoast_cached(fcinfo->flinfo, &cache->filter, PG_GETARG_DATUM(filter_arg));
  if (v == cache->filter.value) {
    if (cache->view_generation != cache->filter.generation) {
      cache->view = cuckoo_view(v);
      // Kept only when it reads the cached value itself (a stored filter);
      // a working state's view points into a per-call stored copy.
      const bool in_place = cache->view.data == reinterpret_cast<const uint8*>(VARDATA_ANY(v));
      cache->view_generation = in_place ? cache->filter.generation : 0;
    }
    return cache->view;
  }
  cache->view = cuckoo_view(v);  // read in place: its address is no key
  cache->view_generation = 0;
  return cache->view;
}

// A NULL value has no answer (NULL); a NULL filter is an empty one (false).
Datum probe(FunctionCallInfo fcinfo, int filter_arg, int value_arg) {
  if (PG_ARGISNULL(value_arg)) PG_RETURN_NULL();
  if (PG_ARGISNULL(filter_arg)) PG_RETURN_BOOL(false);
  ProbeCache* cache = probe_cache(fcinfo, value_arg);
  const cuckoo::View& filter = filter_view(fcinfo, cache, filter_arg);
  check_value_kind(filter.data, &cache->hasher);
  PG_RETURN_BOOL(cuckoo::contains_hash(
      filter, hash_element128(&cache->hasher, PG_GETARG_DATUM(value_arg))));
}

}  // namespace

SKETCH_MEMBERSHIP_PROBES(cuckoo)

// Copies of the value's fingerprint in its buckets: NULL for a NULL value, 0
// for a NULL filter.
extern "C" Datum cuckoo_count(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  if (PG_ARGISNULL(0)) PG_RETURN_INT32(0);
  ProbeCache* cache = probe_cache(fcinfo, 1);
  const cuckoo::View& filter = filter_view(fcinfo, cache, 0);
  check_value_kind(filter.data, &cache->hasher);
  PG_RETURN_INT32(static_cast<int32>(
      cuckoo::count_hash(filter, hash_element128(&cache->hasher, PG_GETARG_DATUM(1)))));
}
