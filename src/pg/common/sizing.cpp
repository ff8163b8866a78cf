#include "pg/common/sizing.h"

namespace sketch::pg {

void raise_sizing_parameter(const Status& status, const char* hint) {
  if (status.is_ok()) return;
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", status.message()),
                  errhint("%s", hint)));
}

}  // namespace sketch::pg
