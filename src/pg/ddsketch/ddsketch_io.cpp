// ddsketch type input/output: text, binary and the bytea casts, each
// validated in full before anything else reads the bytes.
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/ddsketch/ddsketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(ddsketch_in);
PG_FUNCTION_INFO_V1(ddsketch_out);
PG_FUNCTION_INFO_V1(ddsketch_recv);
PG_FUNCTION_INFO_V1(ddsketch_send);
PG_FUNCTION_INFO_V1(ddsketch_from_bytea);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

Status validate_ddsketch(const uint8* data, size_t len) {
  ddsketch::View unused;
  return ddsketch::parse(data, len, Validation::kCanonical, &unused);
}

// The stored form of argument 0: aggregate states may reach the output
// functions (a distributed engine ships partial states as text).
struct varlena* stored_arg(FunctionCallInfo fcinfo) {
  return DdsketchStates::stored_of(ddsketch_arg(fcinfo, 0));
}

}  // namespace

extern "C" Datum ddsketch_in(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(
      sketch_from_text(PG_GETARG_CSTRING(0), validate_ddsketch, kDdsketchTypeName));
}

extern "C" Datum ddsketch_out(PG_FUNCTION_ARGS) {
  const SketchBytes b = bytes_of(stored_arg(fcinfo));
  PG_RETURN_CSTRING(sketch_to_text(b.data, b.len));
}

extern "C" Datum ddsketch_recv(PG_FUNCTION_ARGS) {
  StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  PG_RETURN_POINTER(sketch_from_recv(buf, validate_ddsketch, kDdsketchTypeName));
}

extern "C" Datum ddsketch_send(PG_FUNCTION_ARGS) {
  const SketchBytes b = bytes_of(stored_arg(fcinfo));
  PG_RETURN_BYTEA_P(sketch_to_send(b.data, b.len));
}

extern "C" Datum ddsketch_from_bytea(PG_FUNCTION_ARGS) {
  const SketchBytes b = bytes_of(PG_GETARG_BYTEA_PP(0));
  PG_RETURN_POINTER(sketch_from_binary(b.data, b.len, validate_ddsketch, kDdsketchTypeName));
}
