// The cast ell -> hll: the dense hll whose registers are exactly those a
// one-pass hll_agg of the same rows at the same precision has (both hash
// with XXH3 and index by the top p bits; core/ell/ell_hll.cpp), with the
// sketch's element kind. So an hll rollup and an ell rollup of the same
// kind of values merge, as hll.
#include "core/hll/hll.h"
#include "pg/common/sketch_datum.h"
#include "pg/ell/ell_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(ell_to_hll);
}

using namespace sketch;
using namespace sketch::pg;

extern "C" Datum ell_to_hll(PG_FUNCTION_ARGS) {
  const ell::View v = ell_arg(fcinfo, 0);
  struct varlena* out = new_sketch(hll::dense_size(v.p));
  ell::write_hll(v, payload(out));
  PG_RETURN_POINTER(out);
}
