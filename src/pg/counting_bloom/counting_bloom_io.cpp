// counting_bloom type input/output: text, binary and the bytea cast, the shared
// template of pg/common/type_io.h; input checks every
// byte (counting_bloom::parse in kCanonical mode).
#include "pg/common/type_io.h"
#include "pg/counting_bloom/counting_bloom_datum.h"

using namespace sketch;
using namespace sketch::pg;

SKETCH_TYPE_IO(counting_bloom, TypeIO<CountingBloomStates, parse_canonical<counting_bloom::View>>)
