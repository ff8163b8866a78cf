// ell type input/output: text, binary and the bytea cast (the shared
// template of pg/common/type_io.h; input checks every byte, ell::parse in
// kCanonical mode), and the ell(p) typmod, which text input and recv apply
// too.
#include "pg/common/type_io.h"
#include "pg/ell/ell_datum.h"

using namespace sketch;
using namespace sketch::pg;

namespace {

// Folds a sketch down to the column's precision, or refuses to raise it.
struct varlena* apply_typmod(struct varlena* value, int32 typmod) {
  if (typmod < 0) return value;
  const ell::View v = ell_view(value);
  if (v.p == typmod) return value;
  if (v.p < typmod)
    raise_precision_not_raised(kEllPrecision, v.p, typmod,
                               "An ell's precision can be lowered (its registers folded) but "
                               "never raised.");
  return ell_canonical(ell_view(EllStates::datum_of(ell_state_fold(v, typmod))));
}

}  // namespace

SKETCH_TYPE_IO(ell, TypeIO<EllStates, parse_canonical<ell::View>, apply_typmod>)

SKETCH_PRECISION_TYPMOD(ell, kEllPrecision, apply_typmod)
