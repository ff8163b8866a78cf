// cuckoo type input/output: text, binary and the bytea casts.
#include "pg/common/sketch_datum.h"
#include "pg/cuckoo/cuckoo_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(cuckoo_in);
PG_FUNCTION_INFO_V1(cuckoo_out);
PG_FUNCTION_INFO_V1(cuckoo_recv);
PG_FUNCTION_INFO_V1(cuckoo_send);
PG_FUNCTION_INFO_V1(cuckoo_from_bytea);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

Status validate_cuckoo(const uint8* data, size_t len) {
  cuckoo::View unused;
  return cuckoo::parse(data, len, cuckoo::Validation::kCanonical, &unused);
}

}  // namespace

extern "C" Datum cuckoo_in(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(sketch_from_text(PG_GETARG_CSTRING(0), validate_cuckoo, kCuckooTypeName));
}

// Output is always the stored form, also of an aggregate state.
extern "C" Datum cuckoo_out(PG_FUNCTION_ARGS) {
  const cuckoo::View v = cuckoo_arg(fcinfo, 0);
  PG_RETURN_CSTRING(sketch_to_text(v.data, v.size));
}

extern "C" Datum cuckoo_recv(PG_FUNCTION_ARGS) {
  StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  PG_RETURN_POINTER(sketch_from_recv(buf, validate_cuckoo, kCuckooTypeName));
}

extern "C" Datum cuckoo_send(PG_FUNCTION_ARGS) {
  const cuckoo::View v = cuckoo_arg(fcinfo, 0);
  PG_RETURN_BYTEA_P(sketch_to_send(v.data, v.size));
}

extern "C" Datum cuckoo_from_bytea(PG_FUNCTION_ARGS) {
  const SketchBytes b = bytes_of(PG_GETARG_BYTEA_PP(0));
  PG_RETURN_POINTER(sketch_from_binary(b.data, b.len, validate_cuckoo, kCuckooTypeName));
}
