// kll scalar functions: building, combining and describing sketches.
//
// NULL sketches mean "no data": readers treat them as empty (count 0, NULL
// quantiles, ranks, min and max) and the union ignores them.
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/kll/kll_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(kll_empty);
PG_FUNCTION_INFO_V1(kll_union2);
PG_FUNCTION_INFO_V1(kll_count);
PG_FUNCTION_INFO_V1(kll_rank_error);
PG_FUNCTION_INFO_V1(kll_info);
PG_FUNCTION_INFO_V1(kll_eq);
PG_FUNCTION_INFO_V1(kll_ne);
}

using namespace sketch;
using namespace sketch::pg;

// kll_empty(k integer DEFAULT 200)
extern "C" Datum kll_empty(PG_FUNCTION_ARGS) {
  const uint32_t k = kll_k_arg(PG_GETARG_INT32(0));
  struct varlena* out = new_sketch(kll::empty_size(kll::Encoding::kStored, k));
  kll::write_empty(payload(out), k, kll::Encoding::kStored);
  PG_RETURN_POINTER(out);
}

namespace {

// kll_add(sketch, value): NULL sketch -> NULL; NULL value -> the sketch
// unchanged; a value of another type than the sketch's -> 22023.
template <KllType kType>
Datum add_value(FunctionCallInfo fcinfo) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  kll::Family::Element element{kll_key_arg(fcinfo, 1, kType)};
  uint8_t* state = KllStates::take(fcinfo, false);
  const ElementKind kind = kll_kind_of(kType);
  if (element_kind_of(state) != kind) {
    kll::View v;
    KllStates::raise_if(kll::Family::parse(state, KllStates::length_of(state), &v));
    if (v.kind != ElementKind::kNone)
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("kll_add: the kll holds %s values, not %s", kll_type_name(v.kind),
                             kll_type_name(kind)),
                      errhint("Add values of the sketch's type, e.g. value::%s.",
                              kll_type_name(v.kind))));
    KllStates::raise_if(state::accept_kind(state, kind));
  }
  return KllStates::give(fcinfo, KllStates::add(state, element), false);
}

}  // namespace

#define KLL_ADD(suffix, type)                                                            \
  extern "C" {                                                                           \
  PG_FUNCTION_INFO_V1(kll_add_##suffix);                                                 \
  }                                                                                      \
  extern "C" Datum kll_add_##suffix(PG_FUNCTION_ARGS) { return add_value<type>(fcinfo); }

KLL_ADD(float8, KllType::kFloat8)
KLL_ADD(int8, KllType::kInt8)
KLL_ADD(timestamp, KllType::kTimestamp)
KLL_ADD(timestamptz, KllType::kTimestampTz)
KLL_ADD(date, KllType::kDate)

extern "C" Datum kll_union2(PG_FUNCTION_ARGS) { return KllStates::union2(fcinfo); }

extern "C" Datum kll_count(PG_FUNCTION_ARGS) {
  kll::View v;
  if (!kll_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_INT64(0);
  if (v.n > static_cast<uint64>(PG_INT64_MAX))
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("kll count %llu is out of range for type bigint",
                           static_cast<unsigned long long>(v.n)),
                    errhint("kll_info(sketch)->'n' shows it as a number.")));
  PG_RETURN_INT64(static_cast<int64>(v.n));
}

// kll_rank_error(sketch [, confidence]): the single-sided normalized rank
// error at 99% (or the confidence given, in (0, 1)); 0 while exact.
extern "C" Datum kll_rank_error(PG_FUNCTION_ARGS) {
  const kll::View v = KllStates::view_arg(fcinfo, 0);
  if (PG_NARGS() < 2) PG_RETURN_FLOAT8(kll::rank_error(v, false));
  const double c = PG_GETARG_FLOAT8(1);
  if (!(c > 0.0 && c < 1.0))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("kll_rank_error confidence %g is outside (0, 1)", c),
                    errhint("The default, 0.99, is the confidence DataSketches' bound is "
                            "fitted at.")));
  PG_RETURN_FLOAT8(kll::rank_error_at(v, false, c));
}

// Values of a bigint sketch as integers, of a timestamp sketch as
// microseconds and of a date sketch as days since 2000-01-01 (the server's
// own epoch): text in the session's DateStyle and TimeZone would make
// kll_info depend on settings.
extern "C" Datum kll_info(PG_FUNCTION_ARGS) {
  const kll::View v = KllStates::stored_view_arg(fcinfo, 0);
  JsonObject json("kll");
  json.integer("k", v.k);
  json.string("element_type", kll_type_name(v.kind));
  json.integer("n", v.n);
  json.integer("retained", v.retained());
  json.integer("levels", v.levels);
  json.boolean("exact", kll::is_exact(v));
  json.number("rank_error", kll::rank_error(v, false), Digits::kSix);
  json.number("pmf_rank_error", kll::rank_error(v, true), Digits::kSix);
  if (v.n == 0) {
    json.null("min");
    json.null("max");
  } else if (kll::is_float_kind(v.kind)) {
    json.number("min", kll::double_of_key(v.min_key), Digits::kShortest);
    json.number("max", kll::double_of_key(v.max_key), Digits::kShortest);
  } else {
    json.integer("min", kll::int64_of_key(v.min_key));
    json.integer("max", kll::int64_of_key(v.max_key));
  }
  json.integer("bytes", kll::stored_size(v) + VARHDRSZ);
  json.integer("format_version", kll::kFormatVersion);
  return json.finish();
}

extern "C" Datum kll_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }
extern "C" Datum kll_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }
