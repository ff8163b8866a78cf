// ell_sizing: how large an ell gets, answered before it is built
// (pg/common/sizing.h).
#include "pg/common/sizing.h"
#include "pg/ell/ell_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(ell_sizing);
}

using namespace sketch;
using namespace sketch::pg;

// ell_sizing(p) -> (registers, bytes, standard_error): the dense form, the
// largest an ell of precision p gets, and the error of its maximum-likelihood
// estimate; sparse sketches of few values are smaller (4 bytes per token).
extern "C" Datum ell_sizing(PG_FUNCTION_ARGS) {
  const int32 p = PG_GETARG_INT32(0);
  ell_check_precision(p);
  Datum values[3] = {Int64GetDatum(static_cast<int64>(ell::register_count(p))),
                     Int64GetDatum(static_cast<int64>(ell::dense_size(p) + VARHDRSZ)),
                     Float8GetDatum(ell::ml_standard_error(p))};
  return result_row(fcinfo, "ell_sizing", values, 3);
}
