// ddsketch scalar functions: building, combining and reading sketches.
//
// NULL sketches mean "no data": every reader treats them as empty (count 0,
// sum 0, NULL quantiles, ranks, mean, min and max) and the union ignores
// them, so rollups over no rows read as empty instead of failing.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "pg/common/float8_array.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/ddsketch/ddsketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(ddsketch_empty);
PG_FUNCTION_INFO_V1(ddsketch_add);
PG_FUNCTION_INFO_V1(ddsketch_add_count);
PG_FUNCTION_INFO_V1(ddsketch_union2);
PG_FUNCTION_INFO_V1(ddsketch_quantile);
PG_FUNCTION_INFO_V1(ddsketch_quantiles);
PG_FUNCTION_INFO_V1(ddsketch_rank);
PG_FUNCTION_INFO_V1(ddsketch_count);
PG_FUNCTION_INFO_V1(ddsketch_sum);
PG_FUNCTION_INFO_V1(ddsketch_mean);
PG_FUNCTION_INFO_V1(ddsketch_min);
PG_FUNCTION_INFO_V1(ddsketch_max);
PG_FUNCTION_INFO_V1(ddsketch_relative_accuracy);
PG_FUNCTION_INFO_V1(ddsketch_info);
PG_FUNCTION_INFO_V1(ddsketch_eq);
PG_FUNCTION_INFO_V1(ddsketch_ne);
}

using namespace sketch;
using namespace sketch::pg;

// ddsketch_empty(relative_accuracy float8, max_buckets integer): both have
// SQL defaults.
extern "C" Datum ddsketch_empty(PG_FUNCTION_ARGS) {
  const ddsketch::Params params = ddsketch_params(PG_GETARG_FLOAT8(0), PG_GETARG_INT32(1));
  struct varlena* out = new_sketch(ddsketch::empty_size());
  ddsketch::write_empty(params, payload(out));
  PG_RETURN_POINTER(out);
}

// ddsketch_add(sketch, value): NULL sketch -> NULL; NULL value -> the sketch
// unchanged; NaN or an infinity -> ERROR.
extern "C" Datum ddsketch_add(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  const double value = PG_GETARG_FLOAT8(1);
  ddsketch_check_value(value);
  ddsketch::Family::Element element{value};
  uint8_t* state = DdsketchStates::add(DdsketchStates::take(fcinfo, false), element);
  return DdsketchStates::give(fcinfo, state, false);
}

// ddsketch_add(sketch, value, count): the value `count` times at once, with
// the bytes of that many ddsketch_add calls. NULL sketch -> NULL; NULL
// value, NULL or 0 count -> the sketch unchanged; a negative count 22023;
// beyond 2^64 - 1 values 22003.
extern "C" Datum ddsketch_add_count(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  uint64 weight = 0;
  if (PG_ARGISNULL(1) || !ddsketch_weight_arg(fcinfo, 2, &weight)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  const double value = PG_GETARG_FLOAT8(1);
  ddsketch_check_value(value);
  uint8_t* state = DdsketchStates::take(fcinfo, false);
  ddsketch_check_fits(state, weight);
  ddsketch::Family::Element element{value, weight};
  return DdsketchStates::give(fcinfo, DdsketchStates::add(state, element), false);
}

extern "C" Datum ddsketch_union2(PG_FUNCTION_ARGS) { return DdsketchStates::union2(fcinfo); }

// ddsketch_quantile(sketch, q): NULL for a NULL or empty sketch or a NULL q.
extern "C" Datum ddsketch_quantile(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  const double q = PG_GETARG_FLOAT8(1);
  ddsketch_check_fraction(q);
  ddsketch::View v;
  if (!ddsketch_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ddsketch::quantile(v, q));
}

// ddsketch_quantiles(sketch, qs float8[]) -> float8[]: one answer per q, NULL
// where q is NULL; every answer NULL for a NULL or empty sketch.
extern "C" Datum ddsketch_quantiles(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  const Float8Array qs =
      float8_array_arg(fcinfo, 1, "ddsketch_quantiles", "a one-dimensional array of fractions");
  ddsketch::View v;
  const bool nonempty = ddsketch_nonempty_arg(fcinfo, 0, &v);
  auto* out = static_cast<double*>(palloc(sizeof(double) * (qs.n > 0 ? qs.n : 1)));
  auto* out_nulls = static_cast<bool*>(palloc(sizeof(bool) * (qs.n > 0 ? qs.n : 1)));
  for (int i = 0; i < qs.n; i++) {
    out_nulls[i] = qs.nulls[i] || !nonempty;
    out[i] = 0.0;
    if (qs.nulls[i]) continue;
    const double q = qs.at(i);
    ddsketch_check_fraction(q);
    if (nonempty) out[i] = ddsketch::quantile(v, q);
  }
  return float8_array_result(out, out_nulls, qs.n, qs.lbound);
}

// ddsketch_rank(sketch, value): the fraction of values <= value; NULL for a
// NULL or empty sketch or a NULL value.
extern "C" Datum ddsketch_rank(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  const double x = PG_GETARG_FLOAT8(1);
  if (std::isnan(x))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("ddsketch_rank of NaN is undefined")));
  ddsketch::View v;
  if (!ddsketch_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ddsketch::rank(v, x));
}

extern "C" Datum ddsketch_count(PG_FUNCTION_ARGS) {
  ddsketch::View v;
  if (!ddsketch_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_INT64(0);
  // A count is exact up to 2^64 - 1 (unions refuse beyond); bigint ends at
  // 2^63 - 1, which only unions of a sketch with itself reach. Say so
  // rather than answer a wrong count.
  if (v.count > static_cast<uint64>(PG_INT64_MAX))
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("ddsketch count %llu is out of range for type bigint",
                           static_cast<unsigned long long>(v.count)),
                    errhint("ddsketch_info(sketch)->'count' shows it as a number.")));
  PG_RETURN_INT64(static_cast<int64>(v.count));
}

extern "C" Datum ddsketch_sum(PG_FUNCTION_ARGS) {
  ddsketch::View v;
  if (!ddsketch_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_FLOAT8(0.0);
  PG_RETURN_FLOAT8(ddsketch::sum(v));
}

extern "C" Datum ddsketch_mean(PG_FUNCTION_ARGS) {
  ddsketch::View v;
  if (!ddsketch_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ddsketch::sum(v) / static_cast<double>(v.count));
}

extern "C" Datum ddsketch_min(PG_FUNCTION_ARGS) {
  ddsketch::View v;
  if (!ddsketch_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(v.min);
}

extern "C" Datum ddsketch_max(PG_FUNCTION_ARGS) {
  ddsketch::View v;
  if (!ddsketch_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(v.max);
}

// The guaranteed relative accuracy alpha of the sketch's scale (strict).
extern "C" Datum ddsketch_relative_accuracy(PG_FUNCTION_ARGS) {
  const ddsketch::View v = ddsketch_arg(fcinfo, 0);
  PG_RETURN_FLOAT8(ddsketch::relative_accuracy(v.scale));
}

// Every double as the shortest decimal that reads back as exactly it: the
// same in every session, unlike float8 output under extra_float_digits. A
// sum beyond double precision (two values near 1.8e308) is "Infinity".
extern "C" Datum ddsketch_info(PG_FUNCTION_ARGS) {
  const ddsketch::View v = ddsketch_arg(fcinfo, 0);
  const ddsketch::Guarantee g = ddsketch::unguaranteed_ranks(v);
  JsonObject json("ddsketch");
  json.integer("scale", v.scale);
  json.number("relative_accuracy", ddsketch::relative_accuracy(v.scale), Digits::kShortest);
  json.integer("max_buckets", v.max_buckets);
  json.integer("count", v.count);
  json.integer("zero_count", v.zero_count);
  if (v.count == 0) {
    json.null("min");
    json.null("max");
  } else {
    json.number("min", v.min, Digits::kShortest);
    json.number("max", v.max, Digits::kShortest);
  }
  json.number("sum", ddsketch::sum(v), Digits::kShortest);
  json.integer("positive_buckets", v.positive.buckets);
  json.integer("negative_buckets", v.negative.buckets);
  json.boolean("collapsed", v.positive.collapsed || v.negative.collapsed);
  if (g.from > g.to) json.null("unguaranteed_ranks");
  else json.integer_pair("unguaranteed_ranks", g.from, g.to);
  json.integer("bytes", ddsketch::stored_size(v) + VARHDRSZ);
  json.integer("format_version", ddsketch::kFormatVersion);
  return json.finish();
}

extern "C" Datum ddsketch_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }
extern "C" Datum ddsketch_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }
