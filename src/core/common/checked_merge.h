// The merge of a family whose union is planned in two steps: a check that
// refuses what cannot be merged (mismatched parameters, a total that would
// overflow), then a plan that cannot fail (in place or into how many
// bytes), and a writer with the mechanism's own signature.
//
// cms, ddsketch, theta and topk each wrote the same three wrappers around
// their core functions in their traits; a family now inherits them:
//
//   struct Family : state::FamilyDefaults,
//                   state::CheckedMerge<View, MergePlan, check_mergeable, plan_merge, merge> {
//
// The function pointers are template arguments, so the calls are direct
// (and inline where the compiler sees the callee). A family whose sketches
// always merge (theta) passes nullptr as the check.
#pragma once

#include <cstdint>

#include "core/common/status.h"

namespace sketch {

template <class View, class Plan>
inline Status plan_checked_merge(const View& a, const View& b, Plan* plan,
                                 Status (*check)(const View&, const View&),
                                 Plan (*planner)(const View&, const View&)) {
  if (check != nullptr) {
    Status st = check(a, b);
    if (!st.is_ok()) return st;
  }
  *plan = planner(a, b);
  return Status::ok();
}

namespace state {

template <class View, class Plan, Status (*kCheck)(const View&, const View&),
          Plan (*kPlan)(const View&, const View&),
          void (*kMerge)(uint8_t*, const View&, const View&, const Plan&, uint8_t*)>
struct CheckedMerge {
  using MergePlan = Plan;

  static Status plan_merge(const View& a, const View& b, MergePlan* plan) {
    return plan_checked_merge(a, b, plan, kCheck, kPlan);
  }

  static void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan,
                    uint8_t* dst) {
    kMerge(a_buffer, a, b, plan, dst);
  }
};

}  // namespace state
}  // namespace sketch
