// Text forms of values that do not depend on session settings.
//
// cms keeps its heavy-hitter candidates as text (what cms_topk returns and
// parses back). The output and input functions of many types follow
// settings: DateStyle and TimeZone for dates and timestamps, IntervalStyle,
// extra_float_digits, bytea_output, lc_monetary. Text taken under whatever
// the session has would make the same rows give different bytes in
// different sessions, and would make functions declared IMMUTABLE depend on
// settings. So texts are made and read under one fixed set of values (ISO
// dates, UTC, postgres interval style, shortest exact floats, hex bytea, C
// monetary), set for the duration of the call only (GUC_ACTION_SAVE, which
// parallel workers allow too) and only for types whose text can depend on
// them; the built-in types whose text never does are called directly.
#pragma once

#include "pg/common/postgres_headers.h"

namespace sketch::pg {

// Whether values of `type` need the fixed settings around their output and
// input functions: decided once per call site.
bool text_depends_on_settings(Oid type);

// The value's text under the fixed settings (palloc'd).
char* output_with_fixed_settings(FmgrInfo* output, Datum value, bool depends_on_settings);

// The value for a text under the fixed settings.
Datum input_with_fixed_settings(FmgrInfo* input, char* text, Oid ioparam, int32 typmod,
                                bool depends_on_settings);

}  // namespace sketch::pg
