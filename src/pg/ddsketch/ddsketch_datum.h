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

// A sketch argument of a reader, which may be NULL (the rollup of no rows,
// read as empty): false when it is NULL or holds no value, else *v.
inline bool ddsketch_nonempty_arg(FunctionCallInfo fcinfo, int n, ddsketch::View* v) {
  if (PG_ARGISNULL(n)) return false;
  *v = ddsketch_arg(fcinfo, n);
  return v->count > 0;
}

// The parameters for a requested relative accuracy and bucket limit, or an
// ERROR (22023) naming the ranges, with `hint` (by default: the default
// parameters and what they cover).
ddsketch::Params ddsketch_params(double relative_accuracy, int64 max_buckets,
                                 const char* hint = nullptr);

// A value as the sketch takes it: ERROR 22023 for NaN and infinities.
void ddsketch_check_value(double value);

// A quantile's fraction: ERROR 22023 unless 0 <= q <= 1.
void ddsketch_check_fraction(double q);

// The count argument of a weighted row (ddsketch_agg(value, count),
// ddsketch_add(sketch, value, count)): false for NULL and 0, which add
// nothing; ERROR 22023 when negative.
bool ddsketch_weight_arg(FunctionCallInfo fcinfo, int argno, uint64* weight);

// ERROR 22003 unless `weight` more values fit the count of the state (at
// most 2^64 - 1, kMaxCount), the one limit of a weighted add: within it the
// exact sum cannot overflow. Checked before anything is added.
void ddsketch_check_fits(const uint8_t* state, uint64 weight);

// A new empty working state.
uint8_t* ddsketch_new_state(const ddsketch::Params& params);

}  // namespace sketch::pg
