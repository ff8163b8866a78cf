// cms_sizing: how large a cms gets, answered before it is built
// (pg/common/sizing.h).
#include "core/cms/cms.h"
#include "pg/common/sizing.h"

extern "C" {
PG_FUNCTION_INFO_V1(cms_sizing);
}

using namespace sketch;
using namespace sketch::pg;

// cms_sizing(epsilon, delta, k) -> (width, depth, bytes, fits): bytes of the
// stored sketch before any candidate (each candidate adds 12 bytes and its
// text).
extern "C" Datum cms_sizing(PG_FUNCTION_ARGS) {
  cms::Sizing sizing;
  check_parameter(
      cms::plan_accuracy(PG_GETARG_FLOAT8(0), PG_GETARG_FLOAT8(1), PG_GETARG_INT32(2), &sizing),
      "Use 0 < epsilon < 1 (the additive error as a share of all counts), 0 < delta < 1 (the "
      "chance of exceeding it) and a candidate list size k of 0..10000.");
  Datum values[4] = {Int64GetDatum(static_cast<int64>(sizing.width)),
                     Int32GetDatum(static_cast<int32>(sizing.depth)),
                     Int64GetDatum(static_cast<int64>(sizing.bytes + VARHDRSZ)),
                     BoolGetDatum(sizing.fits)};
  return result_row(fcinfo, "cms_sizing", values, 4);
}
