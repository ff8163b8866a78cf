// hll_sizing: how large a hll gets, answered before it is built
// (pg/common/sizing.h).
#include <cmath>

#include "core/hll/hll.h"
#include "pg/common/sizing.h"
#include "pg/hll/hll_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(hll_sizing);
}

using namespace sketch;
using namespace sketch::pg;

// hll_sizing(p) -> (registers, bytes, standard_error): the dense form, the
// largest an hll of precision p gets; sparse sketches of few values are
// smaller (4 bytes per distinct value).
extern "C" Datum hll_sizing(PG_FUNCTION_ARGS) {
  const int32 p = PG_GETARG_INT32(0);
  hll_check_precision(p);
  Datum values[3] = {Int64GetDatum(static_cast<int64>(hll::register_count(p))),
                     Int64GetDatum(static_cast<int64>(hll::dense_size(p) + VARHDRSZ)),
                     Float8GetDatum(1.04 / std::sqrt(static_cast<double>(hll::register_count(p))))};
  return result_row(fcinfo, "hll_sizing", values, 3);
}
