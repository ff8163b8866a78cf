// kll type input/output: text, binary and the bytea cast, the shared
// template of pg/common/type_io.h; input checks every byte (kll::parse in
// kCanonical mode).
#include "pg/common/type_io.h"
#include "pg/kll/kll_datum.h"

using namespace sketch;
using namespace sketch::pg;

SKETCH_TYPE_IO(kll, TypeIO<KllStates, parse_canonical<kll::View>>)
