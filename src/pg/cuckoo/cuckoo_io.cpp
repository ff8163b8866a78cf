// cuckoo type input/output: text, binary and the bytea cast, the shared
// template of pg/common/type_io.h; input checks every byte
// (cuckoo::parse in kCanonical mode).
#include "pg/common/type_io.h"
#include "pg/cuckoo/cuckoo_datum.h"

using namespace sketch;
using namespace sketch::pg;

SKETCH_TYPE_IO(cuckoo, TypeIO<CuckooStates, parse_canonical<cuckoo::View>>)
