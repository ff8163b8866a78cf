// ell values and aggregate states as varlena datums.
//
// Stored values are always canonical (sparse tokens or dense registers).
// Aggregate states are working states (token set or dense) handled by the
// shared mechanism (aggregate_state.h) with ell's traits
// (core/ell/ell_family.h).
#pragma once

#include "core/ell/ell_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/postgres_headers.h"
#include "pg/common/precision_sketch.h"

namespace sketch::pg {

inline constexpr char kEllTypeName[] = "ell";

using EllStates = SketchStates<ell::Family, kEllTypeName, kNoHints>;

// A view of an ell value or state (detoasted; any encoding), and of
// argument n; errors on structurally corrupt data.
inline ell::View ell_view(const struct varlena* v) { return EllStates::view_of(v); }
inline ell::View ell_arg(FunctionCallInfo fcinfo, int n) { return EllStates::view_arg(fcinfo, n); }

// The stored form of a view, as a new datum.
inline struct varlena* ell_canonical(const ell::View& v) { return EllStates::stored_of(v); }

// A new empty working state.
uint8_t* ell_new_state(int p);

// A working copy of v at the lower precision p (ell::fold_exact says when
// the fold is exact; a sparse sketch always folds exactly).
uint8_t* ell_state_fold(const ell::View& v, int p);

// Raises an error naming the range if p is not a valid precision.
void ell_check_precision(int p);

// ell_agg's precision and typmod (pg/common/precision_sketch.h); constexpr,
// so that ell_agg's per-row reads inline.
inline constexpr PrecisionFamily kEllPrecision{kEllTypeName, ell::kDefaultPrecision,
                                               ell_check_precision, ell_new_state,
                                               ell::precision_of};

}  // namespace sketch::pg
