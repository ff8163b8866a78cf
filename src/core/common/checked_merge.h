// The merge plan of a family whose union is planned in two steps: a check
// that refuses what cannot be merged (mismatched parameters, a total that
// would overflow), then a plan that cannot fail (in place or into how many
// bytes). cms, ddsketch and topk wrote this glue out each; their traits'
// plan_merge is now this one call.
#pragma once

#include "core/common/status.h"

namespace sketch {

template <class View, class Plan>
inline Status plan_checked_merge(const View& a, const View& b, Plan* plan,
                                 Status (*check)(const View&, const View&),
                                 Plan (*planner)(const View&, const View&)) {
  Status st = check(a, b);
  if (!st.is_ok()) return st;
  *plan = planner(a, b);
  return Status::ok();
}

}  // namespace sketch
