// hll values and aggregate states as varlena datums.
//
// Stored values are always canonical (sparse list or dense). Aggregate
// states are working states (sparse set or dense) handled by the shared
// mechanism (aggregate_state.h) with hll's traits (core/hll/hll_family.h).
#pragma once

#include "core/hll/hll_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/precision_sketch.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

inline constexpr char kHllTypeName[] = "hll";

using HllStates = SketchStates<hll::Family, kHllTypeName, kNoHints>;

// A view of an hll value or state (detoasted; any encoding), and of
// argument n; errors on structurally corrupt data.
inline hll::View hll_view(const struct varlena* v) { return HllStates::view_of(v); }
inline hll::View hll_arg(FunctionCallInfo fcinfo, int n) { return HllStates::view_arg(fcinfo, n); }

// The stored form of a view, as a new datum.
struct varlena* hll_canonical(const hll::View& v);

// A new empty working state.
uint8_t* hll_new_state(int p);

// A working copy of v at the lower precision p (exact fold).
uint8_t* hll_state_fold(const hll::View& v, int p);

// Raises an error naming the range if p is not a valid precision.
void hll_check_precision(int p);

// hll_agg's precision and typmod (pg/common/precision_sketch.h); constexpr,
// so that hll_agg's per-row reads inline.
inline constexpr PrecisionFamily kHllPrecision{kHllTypeName, hll::kDefaultPrecision,
                                               hll_check_precision, hll_new_state,
                                               hll::precision_of};

}  // namespace sketch::pg
