// topk type input/output: text, binary and the bytea cast, the shared
// template of pg/common/type_io.h; input also checks that
// every item text is valid in the server encoding (topk_validate).
#include "pg/common/type_io.h"
#include "pg/topk/topk_datum.h"

using namespace sketch;
using namespace sketch::pg;

SKETCH_TYPE_IO(topk, TypeIO<TopkStates, topk_validate>)
