// hll type input/output: text, binary and the bytea cast (the shared
// template of pg/common/type_io.h), and the hll(p) typmod, which text input
// and recv apply too.
#include "pg/common/report.h"
#include "pg/common/type_io.h"
#include "pg/hll/hll_datum.h"

using namespace sketch;
using namespace sketch::pg;

namespace {

// Lowers a sketch to the column's precision (exact), or refuses to raise it.
struct varlena* apply_typmod(struct varlena* value, int32 typmod) {
  if (typmod < 0) return value;
  const hll::View v = hll_view(value);
  if (v.p == typmod) return value;
  // postgresql-hll's registers are indexed by the hash's low bits, and this
  // project does not fold them (their log2m is a parameter of their identity).
  if (hll::is_dshll(v.encoding))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("DataSketches sketch of lgK %d does not fit hll(%d)", v.p, typmod),
                    errdetail("A DataSketches sketch keeps its lgK as its precision; it is not "
                              "folded by a column's type.")));
  if (hll::is_pghll(v.encoding))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("postgresql-hll sketch of log2m %d does not fit hll(%d)", v.p, typmod),
                    errdetail("A postgresql-hll sketch keeps the peer's log2m as its precision; "
                              "it is not folded.")));
  if (v.p < typmod)
    raise_precision_not_raised(kHllPrecision, v.p, typmod,
                               "A sketch's precision can be lowered exactly but never raised.");
  return hll_canonical(hll_view(HllStates::datum_of(hll_state_fold(v, typmod))));
}

}  // namespace

SKETCH_TYPE_IO(hll, TypeIO<HllStates, parse_canonical<hll::View>, apply_typmod>)

SKETCH_PRECISION_TYPMOD(hll, kHllPrecision, apply_typmod)
