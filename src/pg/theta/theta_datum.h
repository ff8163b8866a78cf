// theta values and aggregate states as varlena datums.
//
// Stored values are always in the stored (canonical) encoding. Aggregate
// states of theta_agg and theta_union are working states handled by the
// shared mechanism (aggregate_state.h) with theta's traits
// (core/theta/theta_family.h); theta_intersect's, a stored sketch, by the
// same mechanism with core/theta/theta_intersect_family.h.
#pragma once

#include "core/theta/theta_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

inline constexpr char kThetaTypeName[] = "theta";

// The numbers in the hint are the core's limits.
static_assert(theta::kMinLgK == 4 && theta::kMaxLgK == 24 && theta::kDefaultLgK == 12);
inline constexpr Hints kThetaHints{{
    {StatusCode::kInvalidParameter,
     "lg_k is 4..24 (default 12: k = 4096 hashes, relative standard error 1.6%); a "
     "confidence is between 0 and 1, e.g. 0.95.",
     0},
}};

using ThetaStates = SketchStates<theta::Family, kThetaTypeName, kThetaHints>;

// Raises a failed core Status with theta's hints.
inline void theta_check(const Status& status) { ThetaStates::raise_if(status); }

// lg_k from an SQL argument, or 22023.
int theta_lg_k(int64 lg_k);

// A new empty working state.
uint8_t* theta_new_state(int lg_k);

// A new stored sketch of `size` bytes written by `write(dst)` (a set
// operation, which writes the kind both inputs hold), refused with 22023
// before anything is allocated when the inputs hold different kinds.
template <class Write>
struct varlena* theta_combined(const theta::View& a, const theta::View& b, size_t size,
                               Write write) {
  theta_check(theta::check_combinable(a, b));
  uint8_t* out = ThetaStates::allocate(size);
  write(out);
  return ThetaStates::datum_of(out);
}

}  // namespace sketch::pg
