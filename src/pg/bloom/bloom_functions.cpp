// bloom scalar functions: sizing, building, combining and reading filters.
//
// As for hll, a NULL filter means "no data": the readers (cardinality, fpp)
// answer 0 and the union ignores it. Membership is in bloom_probe.cpp.
#include <cmath>

#include "core/common/saturate.h"
#include "pg/bloom/bloom_datum.h"
#include "pg/bloom/parquet_hash.h"
#include "pg/common/element_hash.h"
#include "pg/common/fn_extra.h"
#include "pg/common/json_object.h"
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
  AddCache* cache = fn_extra_of<AddCache>(fcinfo);
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
  return BloomStates::give(fcinfo, BloomStates::add(state, element), false);
}

extern "C" Datum bloom_union2(PG_FUNCTION_ARGS) { return BloomStates::union2(fcinfo); }

// Strict: the intersection with "no data" is unknown parameters, not a filter.
extern "C" Datum bloom_intersect(PG_FUNCTION_ARGS) {
  const bloom::View a = bloom_arg(fcinfo, 0);
  const bloom::View b = bloom_arg(fcinfo, 1);
  BloomStates::raise_if(check_element_kind(element_kind_of(a.data), element_kind_of(b.data)));
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
  JsonObject json("bloom");
  json.string("layout", bloom_layout_name(v.layout));
  json.integer("bits", v.bits);
  json.integer("hashes", v.hashes);
  json.integer("bits_set", set);
  json.number("fill_ratio", static_cast<double>(set) / static_cast<double>(v.bits), Digits::kSix);
  json.number("cardinality", bloom::estimate_cardinality(v), Digits::kOneDecimal);
  json.number("fpp", bloom::estimate_fpp(v), Digits::kSix);
  json.sketch_fields(v.size + VARHDRSZ, bloom::kFormatVersion, split ? "xxh64" : "xxh3_128",
                     v.data);
  // A split-block filter also names its physical type (null while it has
  // none: bloom_empty, bloom_from_parquet without one).
  if (split) {
    const ElementKind kind = element_kind_of(v.data);
    json.integer("blocks", bloom::split_block::block_count(v.bits));
    if (kind == ElementKind::kNone) json.null("physical_type");
    else json.string("physical_type", element_kind_label(kind));
  }
  return json.finish();
}

// Filters are canonical: equal parameters and equal sets of added values give
// equal bytes (see sketch_args_equal).
extern "C" Datum bloom_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }

extern "C" Datum bloom_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }
