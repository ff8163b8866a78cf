// kll readers: quantiles (as each value type), ranks, CDF and PMF.
//
// A NULL or empty sketch answers NULL (its count is 0 in kll_count). A
// probe of another value type than the sketch's is 22023, but double
// precision and bigint probe each other's sketches (kll_probe_key).
#include <cmath>

#include "pg/common/float8_array.h"
#include "pg/kll/kll_datum.h"

extern "C" {
#include "utils/array.h"
}

using namespace sketch;
using namespace sketch::pg;

namespace {

bool is_number(ElementKind kind) {
  return kind == ElementKind::kFloat || kind == ElementKind::kNumber;
}

// A quantile answered as `type`: the sketch's own type; double precision
// also for a bigint sketch (converted).
void check_result_type(const kll::View& v, KllType type, const char* function) {
  if (type == KllType::kFloat8 && is_number(v.kind)) return;
  if (v.kind == kll_kind_of(type)) return;
  const char* suffix = v.kind == ElementKind::kNumber        ? "_bigint"
                       : v.kind == ElementKind::kTimestamp   ? "_timestamp"
                       : v.kind == ElementKind::kTimestampTz ? "_timestamptz"
                       : v.kind == ElementKind::kDate        ? "_date"
                                                             : "";
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("%s: the kll holds %s values, not %s", function,
                         kll_type_name(v.kind), kll_type_name(kll_kind_of(type))),
                  errhint("Read it with kll_quantile%s.", suffix)));
}

Datum answer(const kll::View& v, uint64_t key, KllType type) {
  if (type == KllType::kFloat8 && v.kind == ElementKind::kNumber)
    return Float8GetDatum(static_cast<double>(kll::int64_of_key(key)));
  return kll_datum_of_key(key, type);
}

template <KllType kType>
Datum quantile(FunctionCallInfo fcinfo, const char* function) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  const double q = PG_GETARG_FLOAT8(1);
  kll_check_fraction(q);
  kll::View v;
  if (!kll_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  check_result_type(v, kType, function);
  PG_RETURN_DATUM(answer(v, kll::quantile_key(v, kll_sorted(v), q), kType));
}

// kll_min / kll_max as double precision: the exact extremes.
Datum extreme(FunctionCallInfo fcinfo, bool max, const char* function) {
  kll::View v;
  if (!kll_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  check_result_type(v, KllType::kFloat8, function);
  PG_RETURN_DATUM(answer(v, max ? v.max_key : v.min_key, KllType::kFloat8));
}

template <KllType kType>
Datum rank(FunctionCallInfo fcinfo) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  kll::View v;
  if (!kll_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  kll_check_probe(v, kType, "kll_rank");
  const uint64_t key = kll_probe_key(v, fcinfo, 1, kType);
  PG_RETURN_FLOAT8(kll::rank_of_key(v, kll_sorted(v), key));
}

// The ranks at the split points (non-NULL, strictly increasing) and 1:
// m + 1 values, CDF; or the masses between them, PMF.
template <KllType kType>
Datum distribution(FunctionCallInfo fcinfo, bool pmf, const char* function) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  ArrayType* array = PG_GETARG_ARRAYTYPE_P(1);
  if (ARR_NDIM(array) > 1)
    ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
                    errmsg("%s takes a one-dimensional array of split points", function)));
  const KllArrayType t = kll_array_type(kType);
  Datum* elements;
  bool* nulls;
  int m;
  deconstruct_array(array, t.oid, t.len, t.byval, t.align, &elements, &nulls, &m);
  kll::View v;
  if (!kll_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  kll_check_probe(v, kType, function);
  const kll::Sorted sorted = kll_sorted(v);
  auto* out = static_cast<double*>(palloc(sizeof(double) * (m + 1)));
  uint64_t previous = 0;
  for (int i = 0; i < m; i++) {
    if (nulls[i])
      ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                      errmsg("%s split points must not be NULL", function)));
    // Ordered by the value type's own order (a double split of a bigint
    // sketch by its floor, which may tie: refused as not increasing).
    const uint64_t own = kll_key_of(elements[i], kType);
    if (i > 0 && own <= previous)
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("%s split points must be strictly increasing", function)));
    previous = own;
    out[i] = kll::rank_of_key(v, sorted, kll_probe_key_of(v, elements[i], kType));
  }
  out[m] = 1.0;
  if (pmf)
    for (int i = m; i > 0; i--) out[i] -= out[i - 1];
  return float8_array_result(out, nullptr, m + 1, 1);
}

}  // namespace

extern "C" {
PG_FUNCTION_INFO_V1(kll_quantiles);
PG_FUNCTION_INFO_V1(kll_min);
PG_FUNCTION_INFO_V1(kll_max);
}

#define KLL_READERS(suffix, type, sql_quantile)                                              \
  extern "C" {                                                                               \
  PG_FUNCTION_INFO_V1(kll_quantile_##suffix);                                                \
  PG_FUNCTION_INFO_V1(kll_rank_##suffix);                                                    \
  PG_FUNCTION_INFO_V1(kll_cdf_##suffix);                                                     \
  PG_FUNCTION_INFO_V1(kll_pmf_##suffix);                                                     \
  }                                                                                          \
  extern "C" Datum kll_quantile_##suffix(PG_FUNCTION_ARGS) {                                 \
    return quantile<type>(fcinfo, sql_quantile);                                             \
  }                                                                                          \
  extern "C" Datum kll_rank_##suffix(PG_FUNCTION_ARGS) { return rank<type>(fcinfo); }        \
  extern "C" Datum kll_cdf_##suffix(PG_FUNCTION_ARGS) {                                      \
    return distribution<type>(fcinfo, false, "kll_cdf");                                     \
  }                                                                                          \
  extern "C" Datum kll_pmf_##suffix(PG_FUNCTION_ARGS) {                                      \
    return distribution<type>(fcinfo, true, "kll_pmf");                                      \
  }

KLL_READERS(float8, KllType::kFloat8, "kll_quantile")
KLL_READERS(int8, KllType::kInt8, "kll_quantile_bigint")
KLL_READERS(timestamp, KllType::kTimestamp, "kll_quantile_timestamp")
KLL_READERS(timestamptz, KllType::kTimestampTz, "kll_quantile_timestamptz")
KLL_READERS(date, KllType::kDate, "kll_quantile_date")

// kll_quantiles(sketch, qs float8[]) -> float8[]: one answer per q, NULL
// where q is NULL; every answer NULL for a NULL or empty sketch.
extern "C" Datum kll_quantiles(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  const Float8Array qs =
      float8_array_arg(fcinfo, 1, "kll_quantiles", "a one-dimensional array of fractions");
  kll::View v;
  const bool nonempty = kll_nonempty_arg(fcinfo, 0, &v);
  if (nonempty) check_result_type(v, KllType::kFloat8, "kll_quantiles");
  const kll::Sorted sorted = nonempty ? kll_sorted(v) : kll::Sorted{};
  auto* out = static_cast<double*>(palloc(sizeof(double) * (qs.n > 0 ? qs.n : 1)));
  auto* out_nulls = static_cast<bool*>(palloc(sizeof(bool) * (qs.n > 0 ? qs.n : 1)));
  for (int i = 0; i < qs.n; i++) {
    out_nulls[i] = qs.nulls[i] || !nonempty;
    out[i] = 0.0;
    if (qs.nulls[i]) continue;
    const double q = qs.at(i);
    kll_check_fraction(q);
    if (nonempty) out[i] = DatumGetFloat8(answer(v, kll::quantile_key(v, sorted, q), KllType::kFloat8));
  }
  return float8_array_result(out, out_nulls, qs.n, qs.lbound);
}

extern "C" Datum kll_min(PG_FUNCTION_ARGS) { return extreme(fcinfo, false, "kll_min"); }
extern "C" Datum kll_max(PG_FUNCTION_ARGS) { return extreme(fcinfo, true, "kll_max"); }
