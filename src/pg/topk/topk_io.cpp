// topk type input/output: text, binary and the bytea cast.
#include "pg/topk/topk_datum.h"
#include "pg/common/sketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(topk_in);
PG_FUNCTION_INFO_V1(topk_out);
PG_FUNCTION_INFO_V1(topk_recv);
PG_FUNCTION_INFO_V1(topk_send);
PG_FUNCTION_INFO_V1(topk_from_bytea);
}

using namespace sketch;
using namespace sketch::pg;

extern "C" Datum topk_in(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(sketch_from_text(PG_GETARG_CSTRING(0), topk_validate, kTopkTypeName));
}

extern "C" Datum topk_out(PG_FUNCTION_ARGS) {
  // Aggregate states may reach here (a distributed engine ships partial
  // states as text), so always print the stored form.
  const topk::View v = TopkStates::stored_view_arg(fcinfo, 0);
  PG_RETURN_CSTRING(sketch_to_text(v.data, v.size));
}

extern "C" Datum topk_recv(PG_FUNCTION_ARGS) {
  StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  PG_RETURN_POINTER(sketch_from_recv(buf, topk_validate, kTopkTypeName));
}

extern "C" Datum topk_send(PG_FUNCTION_ARGS) {
  const topk::View v = TopkStates::stored_view_arg(fcinfo, 0);
  PG_RETURN_BYTEA_P(sketch_to_send(v.data, v.size));
}

extern "C" Datum topk_from_bytea(PG_FUNCTION_ARGS) {
  const SketchBytes b = bytes_of(PG_GETARG_BYTEA_PP(0));
  PG_RETURN_POINTER(sketch_from_binary(b.data, b.len, topk_validate, kTopkTypeName));
}
