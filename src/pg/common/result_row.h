// The composite result of a function with OUT parameters (or RETURNS a row
// type): one row from its values, the shape taken from the call.
#pragma once

#include "core/common/status.h"  // before the server headers: port.h renames printf
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

// The function's result row from `count` values; `nulls` (may be omitted:
// none NULL) marks the NULL ones. `name` names the function in the error of
// a call where no row type is expected.
Datum result_row(FunctionCallInfo fcinfo, const char* name, const Datum* values, int count,
                 const bool* nulls = nullptr);

}  // namespace sketch::pg
