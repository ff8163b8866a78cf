#include "pg/common/call_site.h"

namespace sketch::pg {

void raise_parameters_changed(const char* message, const char* detail) {
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", message),
                  errdetail("%s", detail)));
  pg_unreachable();
}

}  // namespace sketch::pg
