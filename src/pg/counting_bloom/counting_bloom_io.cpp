// counting_bloom type input/output: text, binary and the bytea casts.
#include "pg/counting_bloom/counting_bloom_datum.h"
#include "pg/common/sketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(counting_bloom_in);
PG_FUNCTION_INFO_V1(counting_bloom_out);
PG_FUNCTION_INFO_V1(counting_bloom_recv);
PG_FUNCTION_INFO_V1(counting_bloom_send);
PG_FUNCTION_INFO_V1(counting_bloom_from_bytea);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

Status validate_counting_bloom(const uint8* data, size_t len) {
  counting_bloom::View unused;
  return counting_bloom::parse(data, len, Validation::kCanonical, &unused);
}

}  // namespace

extern "C" Datum counting_bloom_in(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(sketch_from_text(PG_GETARG_CSTRING(0), validate_counting_bloom,
                                     kCountingBloomTypeName));
}

// Output is always the stored form, also of an aggregate state (a
// distributed engine ships partial states as text).
extern "C" Datum counting_bloom_out(PG_FUNCTION_ARGS) {
  const counting_bloom::View v = counting_bloom_arg(fcinfo, 0);
  PG_RETURN_CSTRING(sketch_to_text(v.data, v.size));
}

extern "C" Datum counting_bloom_recv(PG_FUNCTION_ARGS) {
  StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  PG_RETURN_POINTER(sketch_from_recv(buf, validate_counting_bloom, kCountingBloomTypeName));
}

extern "C" Datum counting_bloom_send(PG_FUNCTION_ARGS) {
  const counting_bloom::View v = counting_bloom_arg(fcinfo, 0);
  PG_RETURN_BYTEA_P(sketch_to_send(v.data, v.size));
}

extern "C" Datum counting_bloom_from_bytea(PG_FUNCTION_ARGS) {
  const SketchBytes b = bytes_of(PG_GETARG_BYTEA_PP(0));
  PG_RETURN_POINTER(
      sketch_from_binary(b.data, b.len, validate_counting_bloom, kCountingBloomTypeName));
}
