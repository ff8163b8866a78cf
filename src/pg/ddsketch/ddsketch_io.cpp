// ddsketch type input/output: text, binary and the bytea cast, the shared
// template of pg/common/type_io.h; input checks every byte
// (ddsketch::parse in kCanonical mode).
#include "pg/common/type_io.h"
#include "pg/ddsketch/ddsketch_datum.h"

using namespace sketch;
using namespace sketch::pg;

SKETCH_TYPE_IO(ddsketch, TypeIO<DdsketchStates, parse_canonical<ddsketch::View>>)
