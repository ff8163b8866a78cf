// What every sketch aggregate needs from the executor.
//
// Inside an aggregate (or window aggregate) the executor owns the transition
// state and allows the transition and combine functions to update it in place
// and return it: that is what makes a sketch state cost nothing per row. A
// function that returns a different pointer has it copied into the
// aggregate's memory context by the executor, which then frees the old state,
// so a state that must grow is allocated in CurrentMemoryContext (never
// repalloc'd: the executor would free the old pointer a second time).
//
// Called as plain functions (SELECT hll_union_trans(a, b)), the same C
// functions must never modify their arguments: those may point into a table's
// buffers.
#pragma once

#include "pg/postgres_headers.h"

namespace sketch::pg {

inline bool in_aggregate(FunctionCallInfo fcinfo) {
  return AggCheckCallContext(fcinfo, nullptr) != 0;
}

// Argument n as a varlena the caller may modify: the state itself inside an
// aggregate, a private detoasted copy otherwise.
inline struct varlena* modifiable_arg(FunctionCallInfo fcinfo, int n) {
  if (in_aggregate(fcinfo)) return reinterpret_cast<struct varlena*>(PG_GETARG_POINTER(n));
  return PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(n));
}

}  // namespace sketch::pg
