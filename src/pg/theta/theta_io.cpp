// theta type input/output: text, binary and the bytea cast, the shared
// template of pg/common/type_io.h; input checks every byte
// (theta::parse in kCanonical mode).
#include "pg/common/type_io.h"
#include "pg/theta/theta_datum.h"

using namespace sketch;
using namespace sketch::pg;

SKETCH_TYPE_IO(theta, TypeIO<ThetaStates, parse_canonical<theta::View>>)
