// Membership: counting_bloom_contains(filter, value) and
// counting_bloom_contained(value, filter), the functions of the operators
// filter @> value and value <@ filter.
//
// As bloom's probe (bloom_probe.cpp): k counters read in place, and a filter
// stored out of line (TOAST) detoasted once per call site
// (pg/common/probe.h).
#include "pg/common/detoast_cache.h"
#include "pg/common/element_hash.h"
#include "pg/common/fn_extra.h"
#include "pg/common/probe.h"
#include "pg/counting_bloom/counting_bloom_datum.h"

using namespace sketch;
using namespace sketch::pg;

namespace {

struct ProbeCache : ProbeSite {
  // The plain bloom filter of the detoasted filter's non-zero cells
  // (counting_bloom_to_bloom's), built once per detoasted value: a probe
  // asks only whether k cells are non-zero, and the bits answer that from a
  // quarter of the memory (the counters of a 1% filter of 1.8M members are
  // 8.6 MB, its bits 2.1 MB), so its k reads miss the caches as bloom's do.
  // Kept while filter.generation is bits_generation (0: none).
  uint64 bits_generation;
  uint8* bits;  // in fn_mcxt
  bloom::View bits_view;
};

// The plain bits of a detoasted stored filter, from the cache or built now.
const bloom::View& plain_bits(FunctionCallInfo fcinfo, ProbeCache* cache,
                              const counting_bloom::View& filter) {
  if (cache->bits_generation != cache->filter.generation) {
    if (cache->bits != nullptr) pfree(cache->bits);
    cache->bits = nullptr;
    cache->bits_generation = 0;
    const size_t size = counting_bloom::bloom_size(filter);
    uint8* bits = static_cast<uint8*>(MemoryContextAllocHuge(fcinfo->flinfo->fn_mcxt, size));
    counting_bloom::to_bloom(filter, bits);
    check(bloom::parse(bits, size, bloom::Validation::kStructure, &cache->bits_view));
    cache->bits = bits;
    cache->bits_generation = cache->filter.generation;
  }
  return cache->bits_view;
}

// A NULL value has no answer (NULL); a NULL filter is an empty one, which
// contains nothing (false).
Datum probe(FunctionCallInfo fcinfo, int filter_arg, int value_arg) {
  if (PG_ARGISNULL(value_arg)) PG_RETURN_NULL();
  if (PG_ARGISNULL(filter_arg)) PG_RETURN_BOOL(false);
  ProbeCache* cache = fn_extra_of<ProbeCache>(fcinfo, [fcinfo, value_arg](ProbeCache* c) {
    init_element_hasher(fcinfo, value_arg, &c->hasher);
  });
  const struct varlena* v =
      detoast_cached(fcinfo->flinfo, &cache->filter, PG_GETARG_DATUM(filter_arg));
  const counting_bloom::View filter = counting_bloom_view(v);
  check_value_kind(filter.data, &cache->hasher);
  const Hash128 hash = hash_element128(&cache->hasher, PG_GETARG_DATUM(value_arg));
  // A detoasted stored filter (read in place: not a working state's
  // per-call stored copy) is probed through its cached plain bits; any
  // other through its counters.
  if (v == cache->filter.value && filter.data == reinterpret_cast<const uint8*>(VARDATA_ANY(v)))
    PG_RETURN_BOOL(bloom::contains_hash(plain_bits(fcinfo, cache, filter), hash));
  PG_RETURN_BOOL(counting_bloom::contains_hash(filter, hash));
}

}  // namespace

SKETCH_MEMBERSHIP_PROBES(counting_bloom)
