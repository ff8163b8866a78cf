#include "pg/kll/kll_datum.h"

#include <cmath>

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

#include "utils/date.h"
#include "utils/timestamp.h"

namespace sketch::pg {

ElementKind kll_kind_of(KllType type) {
  switch (type) {
    case KllType::kFloat8: return ElementKind::kFloat;
    case KllType::kInt8: return ElementKind::kNumber;
    case KllType::kTimestamp: return ElementKind::kTimestamp;
    case KllType::kTimestampTz: return ElementKind::kTimestampTz;
    case KllType::kDate: return ElementKind::kDate;
  }
  return ElementKind::kNone;
}

const char* kll_type_name(ElementKind kind) {
  switch (kind) {
    case ElementKind::kFloat: return "double precision";
    case ElementKind::kNumber: return "bigint";
    case ElementKind::kTimestamp: return "timestamp";
    case ElementKind::kTimestampTz: return "timestamptz";
    case ElementKind::kDate: return "date";
    default: return "none";
  }
}

uint64_t kll_key_arg(FunctionCallInfo fcinfo, int argno, KllType type) {
  return kll_key_of(PG_GETARG_DATUM(argno), type);
}

uint64_t kll_key_of(Datum d, KllType type) {
  switch (type) {
    case KllType::kFloat8: {
      const double v = DatumGetFloat8(d);
      if (unlikely(std::isnan(v)))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("kll does not take NaN: it has no place in the order of values"),
                        errhint("Filter it out (WHERE v = v) or map it to a number first.")));
      return kll::key_of_double(v);
    }
    case KllType::kInt8:
      return kll::key_of_int64(DatumGetInt64(d));
    case KllType::kTimestamp:
      return kll::key_of_int64(DatumGetTimestamp(d));
    case KllType::kTimestampTz:
      return kll::key_of_int64(DatumGetTimestampTz(d));
    case KllType::kDate:
      return kll::key_of_int64(DatumGetDateADT(d));
  }
  return 0;
}

Datum kll_datum_of_key(uint64_t key, KllType type) {
  switch (type) {
    case KllType::kFloat8: return Float8GetDatum(kll::double_of_key(key));
    case KllType::kInt8: return Int64GetDatum(kll::int64_of_key(key));
    case KllType::kTimestamp: return TimestampGetDatum(kll::int64_of_key(key));
    case KllType::kTimestampTz: return TimestampTzGetDatum(kll::int64_of_key(key));
    case KllType::kDate:
      return DateADTGetDatum(static_cast<DateADT>(kll::int64_of_key(key)));
  }
  return 0;
}

KllArrayType kll_array_type(KllType type) {
  switch (type) {
    case KllType::kFloat8: return {FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE};
    case KllType::kInt8: return {INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE};
    case KllType::kTimestamp: return {TIMESTAMPOID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE};
    case KllType::kTimestampTz: return {TIMESTAMPTZOID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE};
    case KllType::kDate: return {DATEOID, 4, true, TYPALIGN_INT};
  }
  return {FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE};
}

namespace {

bool is_number(ElementKind kind) {
  return kind == ElementKind::kFloat || kind == ElementKind::kNumber;
}

}  // namespace

void kll_check_probe(const kll::View& v, KllType type, const char* function) {
  const ElementKind kind = kll_kind_of(type);
  if (v.kind == kind || v.kind == ElementKind::kNone) return;
  if (is_number(v.kind) && is_number(kind)) return;
  ereport(ERROR,
          (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
           errmsg("%s: the kll holds %s values, not %s", function, kll_type_name(v.kind),
                  kll_type_name(kind)),
           errhint("Pass a value of the sketch's type, e.g. value::%s.", kll_type_name(v.kind))));
}

uint64_t kll_probe_key(const kll::View& v, FunctionCallInfo fcinfo, int argno, KllType type) {
  return kll_probe_key_of(v, PG_GETARG_DATUM(argno), type);
}

uint64_t kll_probe_key_of(const kll::View& v, Datum d, KllType type) {
  if (v.kind == ElementKind::kNumber && type == KllType::kFloat8) {
    const double x = std::floor(DatumGetFloat8(d));
    if (std::isnan(x)) return kll_key_of(d, type);  // raises
    // Beyond the int64 range every item is below or above.
    if (x < -9223372036854775808.0) return 0;
    if (x >= 9223372036854775808.0) return UINT64_MAX;
    return kll::key_of_int64(static_cast<int64_t>(x));
  }
  if (v.kind == ElementKind::kFloat && type == KllType::kInt8)
    return kll::key_of_double(static_cast<double>(DatumGetInt64(d)));
  return kll_key_of(d, type);
}

uint32_t kll_k_arg(int32 k) {
  check_parameter(kll::check_k(k), "The default k = 200 keeps ranks within 1.33%% at 99%% "
                                   "confidence; k = 800 within 0.35%%.");
  return static_cast<uint32_t>(k);
}

uint8_t* kll_new_state(uint32_t k) {
  uint8_t* state = KllStates::allocate(kll::empty_size(kll::Encoding::kWorking, k));
  kll::write_empty(state, k, kll::Encoding::kWorking);
  return state;
}

void kll_check_fits(const uint8_t* state, uint64 weight) {
  if (likely(kll::fits_count(state, weight))) return;
  ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                  errmsg("kll count would exceed 2^64 - 1 values"),
                  errhint("A sketch counts at most 18446744073709551615 values; check the weights.")));
}

bool kll_nonempty_arg(FunctionCallInfo fcinfo, int n, kll::View* v) {
  if (PG_ARGISNULL(n)) return false;
  *v = KllStates::stored_view_arg(fcinfo, n);
  return v->n > 0;
}

kll::Sorted kll_sorted(const kll::View& v) {
  auto* scratch = static_cast<uint8_t*>(palloc(kll::query_scratch_size(v) + 16));
  return kll::sort_items(v, scratch);
}

void kll_check_fraction(double q) {
  if (!(q >= 0.0 && q <= 1.0))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("kll quantile %g is outside 0..1", q),
                    errhint("Ask for the median with 0.5 and the 99th percentile with 0.99.")));
}

}  // namespace sketch::pg
