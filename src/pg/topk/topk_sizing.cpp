// topk_sizing(epsilon [, item_bytes]): the k whose guaranteed error is at
// most epsilon·N, and what a full summary of it weighs.
#include <cmath>

#include "core/topk/topk.h"
#include "pg/common/sizing.h"

extern "C" {
PG_FUNCTION_INFO_V1(topk_sizing);
}

using namespace sketch;
using namespace sketch::pg;

extern "C" Datum topk_sizing(PG_FUNCTION_ARGS) {
  const double epsilon = PG_GETARG_FLOAT8(0);
  const int32 item_bytes = PG_GETARG_INT32(1);
  if (!(epsilon > 0.0 && epsilon < 1.0) || item_bytes < 0 ||
      item_bytes > static_cast<int32>(topk::kMaxItemBytes))
    check_parameter(
        Status::error(StatusCode::kInvalidParameter,
                      "topk_sizing: epsilon must be in (0, 1) and item_bytes in 0..%u, got %g "
                      "and %d", topk::kMaxItemBytes, epsilon, item_bytes),
        "epsilon is the largest error as a share of the total N: k = ceil(1/epsilon) - 1 "
        "gives max_error <= N/(k+1).");
  // k + 1 >= 1/epsilon, so N/(k+1) <= epsilon·N; the ceiling of a double
  // beyond 2^62 is clamped (no such k fits anyway).
  const double needed = std::ceil(1.0 / epsilon);
  const int64 k = needed > 4e18 ? int64{4000000000000000000} : std::max<int64>(1, int64(needed) - 1);
  const double full = VARHDRSZ + 32 + static_cast<double>(k) * (20 + item_bytes);
  const int64 bytes = full >= 9.2e18 ? PG_INT64_MAX : static_cast<int64>(full);
  Datum values[4] = {Int64GetDatum(k), Float8GetDatum(1.0 / (static_cast<double>(k) + 1.0)),
                     Int64GetDatum(bytes), BoolGetDatum(k <= topk::kMaxK)};
  return result_row(fcinfo, "topk_sizing", values, 4);
}
