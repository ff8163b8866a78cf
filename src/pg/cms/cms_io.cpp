// cms type input/output: text, binary and the bytea cast, the shared
// template of pg/common/type_io.h; input also checks that
// every candidate text is valid in the server encoding (cms_validate).
#include "pg/cms/cms_datum.h"
#include "pg/common/type_io.h"

using namespace sketch;
using namespace sketch::pg;

SKETCH_TYPE_IO(cms, TypeIO<CmsStates, cms_validate>)
