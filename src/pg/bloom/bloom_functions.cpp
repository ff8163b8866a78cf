// bloom scalar functions: sizing, building, combining and reading filters.
//
// As for hll, a NULL filter means "no data": the readers (cardinality, fpp)
// answer 0 and the union ignores it. Membership is in bloom_probe.cpp.
#include <cmath>

#include "core/common/saturate.h"
#include "pg/bloom/bloom_datum.h"
#include "pg/bloom/parquet_hash.h"
#include "pg/common/element_hash.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(bloom_empty);
PG_FUNCTION_INFO_V1(bloom_empty_bits);
PG_FUNCTION_INFO_V1(bloom_add);
PG_FUNCTION_INFO_V1(bloom_union2);
PG_FUNCTION_INFO_V1(bloom_intersect);
PG_FUNCTION_INFO_V1(bloom_cardinality);
PG_FUNCTION_INFO_V1(bloom_fpp);
PG_FUNCTION_INFO_V1(bloom_info);
PG_FUNCTION_INFO_V1(bloom_eq);
PG_FUNCTION_INFO_V1(bloom_ne);
}

using namespace sketch;
using namespace sketch::pg;

extern "C" Datum bloom_empty(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(bloom_new(bloom_sized(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1))));
}

extern "C" Datum bloom_empty_bits(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(bloom_new(bloom_params(PG_GETARG_INT64(0), PG_GETARG_INT32(1))));
}

namespace {

// fn_extra of bloom_add: a hasher for each layout, built when a filter of
// that layout first comes (a split-block hasher refuses some types that the
// classic layout takes).
struct AddCache {
  ElementHasher hasher;
  ParquetHasher parquet;
  bool hasher_ready;
  bool parquet_ready;
};

}  // namespace

extern "C" Datum bloom_add(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  auto* cache = static_cast<AddCache*>(fcinfo->flinfo->fn_extra);
  if (cache == nullptr) {
    cache = static_cast<AddCache*>(
        MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(AddCache)));
    fcinfo->flinfo->fn_extra = cache;
  }
  uint8_t* state = BloomStates::take(fcinfo, false);
  bloom::Family::Element element;
  if (bloom::layout_of(state) == bloom::Layout::kSplitBlock) {
    if (!cache->parquet_ready) {
      init_parquet_hasher(fcinfo, 1, &cache->parquet);
      cache->parquet_ready = true;
    }
    const ElementKind target = parquet_target_kind(&cache->parquet, element_kind_of(state));
    if (!parquet_hash(&cache->parquet, PG_GETARG_DATUM(1), target, &element.hash))
      report_unrepresentable(&cache->parquet, target);
    BloomStates::raise_if(state::accept_kind(state, target));
  } else {
    if (!cache->hasher_ready) {
      init_element_hasher(fcinfo, 1, &cache->hasher);
      cache->hasher_ready = true;
    }
    element.hash = hash_element128(&cache->hasher, PG_GETARG_DATUM(1));
    BloomStates::accept_kind(state, &cache->hasher);
  }
  return BloomStates::give(BloomStates::add(state, element), false);
}

extern "C" Datum bloom_union2(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0) && PG_ARGISNULL(1)) PG_RETURN_NULL();
  if (PG_ARGISNULL(0)) PG_RETURN_DATUM(PG_GETARG_DATUM(1));
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  const bloom::View b = BloomStates::view_arg(fcinfo, 1);
  return BloomStates::give(BloomStates::merge(BloomStates::take(fcinfo, false), b), false);
}

// Strict: the intersection with "no data" is unknown parameters, not a filter.
extern "C" Datum bloom_intersect(PG_FUNCTION_ARGS) {
  const bloom::View a = bloom_arg(fcinfo, 0);
  const bloom::View b = bloom_arg(fcinfo, 1);
  const Status kinds = check_element_kind(element_kind_of(a.data), element_kind_of(b.data));
  if (!kinds.is_ok()) bloom_raise(kinds);
  bloom_check_compatible(a, b);
  struct varlena* out = bloom_stored(a);
  bloom::intersect_into(payload(out), b);
  // out holds a's kind: the mechanism combines it with b's (checked above).
  BloomStates::raise_if(state::accept_kind(payload(out), element_kind_of(b.data)));
  PG_RETURN_POINTER(out);
}

extern "C" Datum bloom_cardinality(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  PG_RETURN_INT64(saturating_int64(bloom::estimate_cardinality(bloom_arg(fcinfo, 0))));
}

extern "C" Datum bloom_fpp(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_FLOAT8(0.0);
  PG_RETURN_FLOAT8(bloom::estimate_fpp(bloom_arg(fcinfo, 0)));
}

extern "C" Datum bloom_info(PG_FUNCTION_ARGS) {
  const bloom::View v = bloom_arg(fcinfo, 0);
  const uint64 set = bloom::bits_set(v);
  const bool split = v.layout == bloom::Layout::kSplitBlock;
  const ElementKind kind = element_kind_of(v.data);
  // A split-block filter names its hash (Parquet's) and its physical type
  // (null while it has none: bloom_empty, bloom_from_parquet without one).
  char* split_fields =
      split ? psprintf(", \"blocks\": %llu, \"physical_type\": %s",
                       static_cast<unsigned long long>(bloom::split_block::block_count(v.bits)),
                       kind == ElementKind::kNone
                           ? "null"
                           : psprintf("\"%s\"", element_kind_label(kind)))
            : pstrdup("");
  char* json = psprintf(
      "{\"type\": \"bloom\", \"layout\": \"%s\", \"bits\": %llu, \"hashes\": %d, "
      "\"bytes\": %zu, \"bits_set\": %llu, \"fill_ratio\": %.6g, \"cardinality\": %.1f, "
      "\"fpp\": %.6g, \"format_version\": %d, \"hash\": \"%s seed %llu\", "
      "\"element_kind\": \"%s\"%s}",
      bloom_layout_name(v.layout), static_cast<unsigned long long>(v.bits), v.hashes,
      v.size + VARHDRSZ, static_cast<unsigned long long>(set),
      static_cast<double>(set) / static_cast<double>(v.bits), bloom::estimate_cardinality(v),
      bloom::estimate_fpp(v), bloom::kFormatVersion, split ? "xxh64" : "xxh3_128",
      static_cast<unsigned long long>(kHashSeed), element_kind_label(kind), split_fields);
  PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(json)));
}

// Filters are canonical: equal parameters and equal sets of added values give
// equal bytes (see sketch_args_equal).
extern "C" Datum bloom_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }

extern "C" Datum bloom_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }
