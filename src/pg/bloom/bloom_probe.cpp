// Membership: bloom_contains(filter, value) and bloom_contained(value, filter),
// the functions of the operators filter @> value and value <@ filter.
//
// A probe reads k bits of the filter in place: no copy and no decoding beyond
// the constant-time header check; a filter stored out of line is detoasted
// once per call site (pg/common/probe.h).
#include "pg/bloom/bloom_datum.h"
#include "pg/bloom/parquet_hash.h"
#include "pg/common/detoast_cache.h"
#include "pg/common/element_hash.h"
#include "pg/common/fn_extra.h"
#include "pg/common/probe.h"

using namespace sketch;
using namespace sketch::pg;

namespace {

struct ProbeCache {
  ElementHasher hasher;
  ParquetHasher parquet;
  bool hasher_ready;
  bool parquet_ready;
  DetoastCache filter;
};

// A NULL value has no answer (NULL); a NULL filter is an empty one, which
// contains nothing (false), like every reader treats a NULL sketch as empty.
Datum probe(FunctionCallInfo fcinfo, int filter_arg, int value_arg) {
  if (PG_ARGISNULL(value_arg)) PG_RETURN_NULL();
  if (PG_ARGISNULL(filter_arg)) PG_RETURN_BOOL(false);
  ProbeCache* cache = fn_extra_of<ProbeCache>(fcinfo);
  const bloom::View filter =
      bloom_view(detoast_cached(fcinfo->flinfo, &cache->filter, PG_GETARG_DATUM(filter_arg)));
  if (filter.layout == bloom::Layout::kSplitBlock) {
    if (unlikely(!cache->parquet_ready)) {
      init_parquet_hasher(fcinfo, value_arg, &cache->parquet);
      cache->parquet_ready = true;
    }
    ElementKind target = cache->parquet.kind;
    if (unlikely(element_kind_of(filter.data) != target))
      target = parquet_target_kind(&cache->parquet, element_kind_of(filter.data));
    Hash128 hash;
    // A value the filter's physical type cannot hold was never added.
    if (!parquet_hash(&cache->parquet, PG_GETARG_DATUM(value_arg), target, &hash))
      PG_RETURN_BOOL(false);
    PG_RETURN_BOOL(bloom::contains_hash(filter, hash));
  }
  if (unlikely(!cache->hasher_ready)) {
    init_element_hasher(fcinfo, value_arg, &cache->hasher);
    cache->hasher_ready = true;
  }
  check_value_kind(filter.data, &cache->hasher);
  PG_RETURN_BOOL(
      bloom::contains_hash(filter, hash_element128(&cache->hasher, PG_GETARG_DATUM(value_arg))));
}

}  // namespace

SKETCH_MEMBERSHIP_PROBES(bloom)
