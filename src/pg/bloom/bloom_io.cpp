// bloom type input/output: text, binary and the bytea cast, the shared
// template of pg/common/type_io.h; input checks every byte
// (bloom::parse in kCanonical mode).
#include "pg/bloom/bloom_datum.h"
#include "pg/common/type_io.h"

using namespace sketch;
using namespace sketch::pg;

SKETCH_TYPE_IO(bloom, TypeIO<BloomStates, parse_canonical<bloom::View>>)
