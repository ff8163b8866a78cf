// cms scalar functions: building, combining and reading sketches.
//
// NULL sketches mean "no data": the readers (frequency, total, error bound,
// top-k) treat them as empty, and the union ignores them, so rollup queries
// over no rows read 0 instead of NULL.
#include "pg/cms/cms_datum.h"
#include "pg/common/detoast_cache.h"
#include "pg/common/fn_extra.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

extern "C" {
#include "utils/tuplestore.h"

PG_FUNCTION_INFO_V1(cms_empty);
PG_FUNCTION_INFO_V1(cms_empty_sized);
PG_FUNCTION_INFO_V1(cms_add);
PG_FUNCTION_INFO_V1(cms_add_int4_count);
PG_FUNCTION_INFO_V1(cms_union2);
PG_FUNCTION_INFO_V1(cms_frequency);
PG_FUNCTION_INFO_V1(cms_total);
PG_FUNCTION_INFO_V1(cms_error_bound);
PG_FUNCTION_INFO_V1(cms_topk);
PG_FUNCTION_INFO_V1(cms_info);
PG_FUNCTION_INFO_V1(cms_scale);
PG_FUNCTION_INFO_V1(cms_eq);
PG_FUNCTION_INFO_V1(cms_ne);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

struct varlena* empty_sketch(const cms::Params& p) {
  struct varlena* out = new_sketch(cms::stored_size(p, 0, 0));
  cms::write_empty(p, payload(out));
  return out;
}

// cms_frequency's call-site cache: the sketch argument is often one large
// value read for many rows (a scalar subquery), so it is detoasted once.
struct FrequencyCache {
  ElementHasher hasher;
  DetoastCache sketch;
};

}  // namespace

// cms_empty(epsilon, delta, conservative, k): all arguments have SQL defaults.
extern "C" Datum cms_empty(PG_FUNCTION_ARGS) {
  const cms::Params p = cms_params_for_accuracy(PG_GETARG_FLOAT8(0), PG_GETARG_FLOAT8(1),
                                                PG_GETARG_BOOL(2), PG_GETARG_INT32(3));
  PG_RETURN_POINTER(empty_sketch(p));
}

// cms_empty_sized(width, depth, conservative, k)
extern "C" Datum cms_empty_sized(PG_FUNCTION_ARGS) {
  const cms::Params p = cms_params_for_size(PG_GETARG_INT32(0), PG_GETARG_INT32(1),
                                            PG_GETARG_BOOL(2), PG_GETARG_INT32(3));
  PG_RETURN_POINTER(empty_sketch(p));
}

// cms_add(sketch, value [, count]): see add_item (item_text.h).
constexpr auto add_counted = add_item<CmsStates, cms_weight, cms_state_add>;

extern "C" Datum cms_add(PG_FUNCTION_ARGS) { return add_counted(fcinfo, false); }

// cms_add(sketch, value unknown, count integer): the literal twin whose
// count is an integer, so that cms_add(s, 'x', 3) resolves (see
// src/sql/literal_overloads.sql).
extern "C" Datum cms_add_int4_count(PG_FUNCTION_ARGS) { return add_counted(fcinfo, true); }

extern "C" Datum cms_union2(PG_FUNCTION_ARGS) { return CmsStates::union2(fcinfo); }

// cms_frequency(sketch, value): never below the true count. NULL sketch -> 0,
// NULL value -> NULL.
extern "C" Datum cms_frequency(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  auto* cache = fn_extra_of<FrequencyCache>(
      fcinfo, [fcinfo](FrequencyCache* c) { init_element_hasher(fcinfo, 1, &c->hasher); });
  const cms::View v =
      cms_view(detoast_cached(fcinfo->flinfo, &cache->sketch, PG_GETARG_DATUM(0)));
  check_value_kind(v.data, &cache->hasher);
  const uint64 hash = hash_element64(&cache->hasher, PG_GETARG_DATUM(1));
  PG_RETURN_INT64(static_cast<int64>(cms::estimate(v, hash)));
}

// Parameters and N of argument 0 from its first bytes only: a stored sketch
// is mostly counters, which these readers do not need to fetch or
// decompress.
static void fixed_fields(FunctionCallInfo fcinfo, cms::Params* params, uint64* total) {
  const SketchBytes b = bytes_of(PG_DETOAST_DATUM_SLICE(PG_GETARG_DATUM(0), 0, cms::kFixedBytes));
  check(cms::parse_fixed(b.data, b.len, params, total));
}

extern "C" Datum cms_total(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  cms::Params params;
  uint64 total;
  fixed_fields(fcinfo, &params, &total);
  PG_RETURN_INT64(static_cast<int64>(total));
}

// floor(epsilon·N), epsilon = e/width: every estimate exceeds the true count
// by at most this much, with probability 1 - delta.
extern "C" Datum cms_error_bound(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  cms::Params params;
  uint64 total;
  fixed_fields(fcinfo, &params, &total);
  PG_RETURN_INT64(static_cast<int64>(cms::error_bound(params.width, total)));
}

// cms_topk(sketch, n) -> (value text, frequency bigint), and
// cms_topk(sketch, n, type_hint anyelement) -> (value anyelement, frequency):
// the n candidates with the largest estimates, best first (ties by text).
// The typed form reads each text back with the hint type's input function.
// NULL sketch or n -> no rows; negative n -> ERROR.
extern "C" Datum cms_topk(PG_FUNCTION_ARGS) {
  const bool typed = PG_NARGS() > 2;
  ReturnSetInfo* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  InitMaterializedSRF(fcinfo, 0);
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) return (Datum)0;
  const int32 n = PG_GETARG_INT32(1);
  if (n < 0)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("cms_topk: n must not be negative, got %d", n)));

  ItemReader reader;
  init_item_reader(fcinfo, typed ? 2 : -1, "cms_topk", &reader);

  const cms::View v = cms_arg(fcinfo, 0);
  cms::Ranked* ranked = static_cast<cms::Ranked*>(palloc(sizeof(cms::Ranked) * (v.count + 1)));
  cms::rank_candidates(v, ranked);
  const uint32 rows = static_cast<uint32>(n) < v.count ? static_cast<uint32>(n) : v.count;
  for (uint32 i = 0; i < rows; i++) {
    const cms::Candidate c = cms::candidate_at(v, ranked[i].index);
    Datum values[2];
    bool nulls[2] = {false, false};
    values[0] = read_item(&reader, c.text, c.len, c.clipped, cms::kMaxValueBytes, "cms_topk");
    values[1] = Int64GetDatum(static_cast<int64>(ranked[i].estimate));
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
  }
  return (Datum)0;
}

// cms_scale(sketch, factor): every counter and N times factor (0 < factor
// <= 1), rounded down: aging for "trending" counts (docs/rollups.md).
extern "C" Datum cms_scale(PG_FUNCTION_ARGS) {
  const double factor = PG_GETARG_FLOAT8(1);
  cms::View v = cms_arg(fcinfo, 0);
  if (v.encoding != cms::Encoding::kStored) {
    v = cms_view(cms_canonical(v));
  }
  if (Status st = cms::check_scalable(v, factor); !st.is_ok())
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("cms_scale: %s", st.message()),
                    errhint("Halving every period (factor 0.5) keeps a decaying window.")));
  struct varlena* out = new_sketch(v.size);
  SET_VARSIZE(out, VARHDRSZ + cms::write_scaled(v, factor, payload(out)));
  PG_RETURN_POINTER(out);
}

extern "C" Datum cms_info(PG_FUNCTION_ARGS) {
  const cms::View v = cms_arg(fcinfo, 0);
  JsonObject json("cms");
  json.integer("width", v.params.width);
  json.integer("depth", v.params.depth);
  json.number("epsilon", cms::epsilon_of(v.params.width), Digits::kSix);
  json.number("delta", cms::delta_of(v.params.depth), Digits::kSix);
  json.boolean("conservative", v.params.conservative);
  json.integer("total", v.total);
  json.integer("error_bound", cms::error_bound(v.params.width, v.total));
  json.integer("k", v.params.candidates);
  json.integer("candidates", v.count);
  json.sketch_fields(cms::stored_size(v) + VARHDRSZ, cms::kFormatVersion, "xxh3_64", v.data);
  return json.finish();
}

// Stored sketches are canonical: equal parameters, counters and candidate
// lists give equal bytes.
extern "C" Datum cms_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }

extern "C" Datum cms_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }
