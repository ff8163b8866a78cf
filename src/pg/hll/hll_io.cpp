// hll type input/output: text, binary, bytea casts and the hll(p) typmod.
#include "pg/hll/hll_datum.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

extern "C" {
#include "utils/array.h"

PG_FUNCTION_INFO_V1(hll_in);
PG_FUNCTION_INFO_V1(hll_out);
PG_FUNCTION_INFO_V1(hll_recv);
PG_FUNCTION_INFO_V1(hll_send);
PG_FUNCTION_INFO_V1(hll_from_bytea);
PG_FUNCTION_INFO_V1(hll_typmod_in);
PG_FUNCTION_INFO_V1(hll_typmod_out);
PG_FUNCTION_INFO_V1(hll_enforce_typmod);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

Status validate_hll(const uint8* data, size_t len) {
  hll::View unused;
  return hll::parse(data, len, hll::Validation::kCanonical, &unused);
}

// Lowers a sketch to the column's precision (exact), or refuses to raise it.
struct varlena* apply_typmod(struct varlena* value, int32 typmod) {
  if (typmod < 0) return value;
  const hll::View v = hll_view(value);
  if (v.p == typmod) return value;
  if (v.p < typmod)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("hll precision %d does not fit hll(%d)", v.p, typmod),
                    errdetail("A sketch's precision can be lowered exactly but never raised."),
                    errhint("Build the sketch with hll_agg(value, %d).", typmod)));
  return hll_canonical(hll_view(HllStates::datum_of(hll_state_fold(v, typmod))));
}

}  // namespace

extern "C" Datum hll_in(PG_FUNCTION_ARGS) {
  const char* text = PG_GETARG_CSTRING(0);
  const int32 typmod = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : -1;
  PG_RETURN_POINTER(apply_typmod(sketch_from_text(text, validate_hll, kHllTypeName), typmod));
}

extern "C" Datum hll_out(PG_FUNCTION_ARGS) {
  const hll::View v = hll_arg(fcinfo, 0);
  // Aggregate states may reach here (a distributed engine ships partial
  // states as text), so always print the canonical form.
  struct varlena* canonical = hll_canonical(v);
  const SketchBytes b = bytes_of(canonical);
  PG_RETURN_CSTRING(sketch_to_text(b.data, b.len));
}

extern "C" Datum hll_recv(PG_FUNCTION_ARGS) {
  StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  const int32 typmod = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : -1;
  PG_RETURN_POINTER(apply_typmod(sketch_from_recv(buf, validate_hll, kHllTypeName), typmod));
}

extern "C" Datum hll_send(PG_FUNCTION_ARGS) {
  struct varlena* canonical = hll_canonical(hll_arg(fcinfo, 0));
  const SketchBytes b = bytes_of(canonical);
  PG_RETURN_BYTEA_P(sketch_to_send(b.data, b.len));
}

extern "C" Datum hll_from_bytea(PG_FUNCTION_ARGS) {
  const SketchBytes b = bytes_of(PG_GETARG_BYTEA_PP(0));
  PG_RETURN_POINTER(sketch_from_binary(b.data, b.len, validate_hll, kHllTypeName));
}

extern "C" Datum hll_typmod_in(PG_FUNCTION_ARGS) {
  ArrayType* modifiers = PG_GETARG_ARRAYTYPE_P(0);
  int count;
  int32* values = ArrayGetIntegerTypmods(modifiers, &count);
  if (count != 1)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("hll takes exactly one modifier, the precision: hll(p)")));
  hll_check_precision(values[0]);
  PG_RETURN_INT32(values[0]);
}

extern "C" Datum hll_typmod_out(PG_FUNCTION_ARGS) {
  const int32 typmod = PG_GETARG_INT32(0);
  PG_RETURN_CSTRING(typmod >= 0 ? psprintf("(%d)", typmod) : pstrdup(""));
}

extern "C" Datum hll_enforce_typmod(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(apply_typmod(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)), PG_GETARG_INT32(1)));
}
