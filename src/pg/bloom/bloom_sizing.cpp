// bloom_sizing: how large a bloom gets, answered before it is built
// (pg/common/sizing.h).
#include "core/bloom/bloom.h"
#include "pg/common/sizing.h"

extern "C" {
PG_FUNCTION_INFO_V1(bloom_sizing);
}

using namespace sketch;
using namespace sketch::pg;

// bloom_sizing(n, p) -> (bits, hashes, bytes, fits)
extern "C" Datum bloom_sizing(PG_FUNCTION_ARGS) {
  bloom::Params params;
  check_parameter(
      bloom::plan_size(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), &params),
      "Size a filter by n >= 1, the number of distinct values it should hold, and "
      "0 < p < 1, the false-positive probability wanted at that size.");
  Datum values[4] = {Int64GetDatum(static_cast<int64>(params.bits)), Int32GetDatum(params.hashes),
                     Int64GetDatum(static_cast<int64>(bloom::filter_size(params.bits) + VARHDRSZ)),
                     BoolGetDatum(params.bits <= bloom::kMaxBits)};
  return result_row(fcinfo, "bloom_sizing", values, 4);
}
