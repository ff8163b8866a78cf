// ddsketch values and aggregate states as varlena datums.
//
// Stored values are always in the stored encoding. Aggregate states are
// working states (a dense window per store) handled by the shared mechanism
// (aggregate_state.h) with ddsketch's traits (core/ddsketch/ddsketch_family.h).
#pragma once

#include "core/ddsketch/ddsketch_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

inline constexpr char kDdsketchTypeName[] = "ddsketch";

using DdsketchStates = SketchStates<ddsketch::Family, kDdsketchTypeName, kNoHints>;

// A view of a ddsketch value or state (detoasted; any encoding), and of
// argument n; errors on structurally corrupt data.
inline ddsketch::View ddsketch_view(const struct varlena* v) { return DdsketchStates::view_of(v); }
inline ddsketch::View ddsketch_arg(FunctionCallInfo fcinfo, int n) {
  return DdsketchStates::view_arg(fcinfo, n);
}

// The parameters for a requested relative accuracy and bucket limit, or an
// ERROR (22023) naming the ranges.
ddsketch::Params ddsketch_params(double relative_accuracy, int64 max_buckets);

// A value as the sketch takes it: ERROR 22023 for NaN and infinities.
void ddsketch_check_value(double value);

// A quantile's fraction: ERROR 22023 unless 0 <= q <= 1.
void ddsketch_check_fraction(double q);

// A new empty working state.
uint8_t* ddsketch_new_state(const ddsketch::Params& params);

}  // namespace sketch::pg
