// The split-block layout at the SQL surface: bloom_agg(value, n, p, layout),
// bloom_empty(n, p, layout), bloom_sizing(n, p, layout), and the Parquet
// bytes of a filter (bloom_to_parquet, bloom_from_parquet).
//
// A split-block value is hashed as Parquet hashes it (parquet_hash.h) and
// set by core/bloom/split_block.h; everything else (states, the working
// encoding's prefetch queue, unions, readers) is bloom's, dispatching on
// the layout recorded in the header.
#include <cstring>

#include "core/bloom/parquet_header.h"
#include "pg/bloom/bloom_datum.h"
#include "pg/bloom/parquet_hash.h"
#include "pg/common/call_site.h"
#include "pg/common/element_hash.h"
#include "pg/common/report.h"
#include "pg/common/sizing.h"
#include "pg/common/sketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(bloom_agg_layout_trans);
PG_FUNCTION_INFO_V1(bloom_empty_layout);
PG_FUNCTION_INFO_V1(bloom_sizing_layout);
PG_FUNCTION_INFO_V1(bloom_to_parquet);
PG_FUNCTION_INFO_V1(bloom_from_parquet);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// The hashers of bloom_agg_layout_trans, each made when a filter of its
// layout first comes (a split-block hasher refuses some types that the
// classic layout takes).
struct LayoutHashers {
  ElementHasher hasher;   // classic
  ParquetHasher parquet;  // split-block
  bool hasher_ready;
  bool parquet_ready;
};

void init_call_site_value(FunctionCallInfo, LayoutHashers*) {}

// fn_extra of bloom_agg_layout_trans: its hashers and the sizing of the
// last (n, p, layout) seen.
using LayoutAggSite = CallSite<bloom::Params, 3, LayoutHashers>;

pg_noinline void report_other_params(const uint8* filter, const bloom::Params& params) {
  raise_parameters_changed(
      "bloom_agg parameters n, p and layout must be the same for every row",
      psprintf("The filter was started as a %s filter of m=%llu bits; this row's arguments "
               "give a %s filter of m=%llu bits.",
               bloom_layout_name(bloom::layout_of(filter)),
               static_cast<unsigned long long>(bloom::bits_of(filter)),
               bloom_layout_name(params.layout), static_cast<unsigned long long>(params.bits)));
}

}  // namespace

// bloom_agg_layout_trans(state bloom, value anyelement, n bigint, p float8,
// layout text)
extern "C" Datum bloom_agg_layout_trans(PG_FUNCTION_ARGS) {
  require_parameters(fcinfo, 2, "bloom_agg", "n, p and layout");
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  LayoutAggSite* site = LayoutAggSite::of(fcinfo);
  const bloom::Layout layout = bloom_layout_arg(PG_GETARG_TEXT_PP(4));
  const double args[3] = {static_cast<double>(PG_GETARG_INT64(2)), PG_GETARG_FLOAT8(3),
                          static_cast<double>(layout)};
  const bloom::Params& params = site->params_for(
      args, [&] { return bloom_sized_layout(PG_GETARG_INT64(2), PG_GETARG_FLOAT8(3), layout); });
  const bool in_agg = site->in_aggregate;
  LayoutHashers* cache = &site->value;
  if (layout == bloom::Layout::kClassic) {
    if (unlikely(!cache->hasher_ready)) {
      init_element_hasher(fcinfo, 1, &cache->hasher);
      cache->hasher_ready = true;
    }
  } else if (unlikely(!cache->parquet_ready)) {
    init_parquet_hasher(fcinfo, 1, &cache->parquet);
    cache->parquet_ready = true;
  }
  uint8_t* state =
      PG_ARGISNULL(0) ? bloom_new_state(params, in_agg) : BloomStates::take(fcinfo, in_agg);
  if (unlikely(bloom::bits_of(state) != params.bits || bloom::hashes_of(state) != params.hashes ||
               bloom::layout_of(state) != params.layout))
    report_other_params(state, params);
  bloom::Family::Element element;
  if (layout == bloom::Layout::kClassic) {
    element.hash = hash_element128(&cache->hasher, PG_GETARG_DATUM(1));
    BloomStates::accept_kind(state, &cache->hasher);
  } else {
    ElementKind target = cache->parquet.kind;
    if (unlikely(element_kind_of(state) != target))
      target = parquet_target_kind(&cache->parquet, element_kind_of(state));
    if (unlikely(!parquet_hash(&cache->parquet, PG_GETARG_DATUM(1), target, &element.hash)))
      report_unrepresentable(&cache->parquet, target);
    BloomStates::raise_if(state::accept_kind(state, target));
  }
  return BloomStates::give(fcinfo, BloomStates::add(state, element), in_agg);
}

extern "C" Datum bloom_empty_layout(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(bloom_new(bloom_sized_layout(
      PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), bloom_layout_arg(PG_GETARG_TEXT_PP(2)))));
}

// bloom_sizing(n, p, layout) -> (bits, hashes, bytes, fits)
extern "C" Datum bloom_sizing_layout(PG_FUNCTION_ARGS) {
  const bloom::Layout layout = bloom_layout_arg(PG_GETARG_TEXT_PP(2));
  bloom::Params params;
  uint64 max_bits = bloom::kMaxBits;
  const char* hint =
      "Size a filter by n >= 1, the number of distinct values it should hold, and "
      "0 < p < 1, the false-positive probability wanted at that size.";
  if (layout == bloom::Layout::kClassic) {
    check_parameter(bloom::plan_size(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), &params), "%s",
                    hint);
  } else {
    uint64_t bits = 0;
    check_parameter(
        bloom::split_block::plan_bits(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), &bits), "%s",
        hint);
    params = bloom::Params{bits, bloom::split_block::kWordsPerBlock, layout};
    max_bits = bloom::split_block::kMaxBits;
  }
  // bytes: the value's size, header included, also for filters too large
  // to build (their bit counts stay far below overflow).
  Datum values[4] = {Int64GetDatum(static_cast<int64>(params.bits)), Int32GetDatum(params.hashes),
                     Int64GetDatum(static_cast<int64>(bloom::kBitsOffset + 8 * bloom::word_count(params.bits) + VARHDRSZ)),
                     BoolGetDatum(params.bits <= max_bits)};
  return result_row(fcinfo, "bloom_sizing", values, 4);
}

// The filter as a Parquet file stores it: the BloomFilterHeader, then the
// bitset (the filter's bit array, byte for byte).
extern "C" Datum bloom_to_parquet(PG_FUNCTION_ARGS) {
  const bloom::View v = bloom_arg(fcinfo, 0);
  if (v.layout != bloom::Layout::kSplitBlock)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("only a split-block bloom filter has a Parquet form"),
                    errhint("Build the filter with the layout 'split_block', for example "
                            "bloom_agg(value, n, p, 'split_block') or "
                            "bloom_empty(n, p, layout => 'split_block').")));
  const size_t bitset = v.bits / 8;
  uint8 header[bloom::parquet::kMaxHeaderSize];
  const size_t header_size = bloom::parquet::write_header(static_cast<uint32>(bitset), header);
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + header_size + bitset));
  SET_VARSIZE(out, VARHDRSZ + header_size + bitset);
  std::memcpy(VARDATA(out), header, header_size);
  std::memcpy(VARDATA(out) + header_size, v.words, bitset);
  PG_RETURN_BYTEA_P(out);
}

// bloom_from_parquet(data bytea, physical_type text DEFAULT NULL): a
// split-block filter from the bytes of a Parquet bloom filter. Without a
// physical type the filter holds none yet (like bloom_empty): any supported
// value may probe it, and the first added value fixes its type.
extern "C" Datum bloom_from_parquet(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  const SketchBytes b = bytes_of(PG_GETARG_BYTEA_PP(0));
  ElementKind kind = ElementKind::kNone;
  if (!PG_ARGISNULL(1)) kind = parquet_kind_named(text_to_cstring(PG_GETARG_TEXT_PP(1)));
  bloom::parquet::Parsed parsed;
  check(bloom::parquet::parse(b.data, b.len, &parsed));
  const bloom::Params params{uint64{parsed.num_bytes} * 8, bloom::split_block::kWordsPerBlock,
                             bloom::Layout::kSplitBlock};
  struct varlena* out = bloom_new(params);
  std::memcpy(payload(out) + bloom::kBitsOffset, b.data + parsed.header_size, parsed.num_bytes);
  BloomStates::raise_if(state::accept_kind(payload(out), kind));  // a new filter holds none
  PG_RETURN_POINTER(out);
}
