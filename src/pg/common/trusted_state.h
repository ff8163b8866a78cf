// A transition function's memory of the one state it last handed back in
// place, so that the next row may skip the family's O(1) shape check
// (is_working: the header, the layout's lengths and bounds; 60 to 100
// instructions a row in bloom and ddsketch, a quarter of ddsketch_agg's).
//
// Why it is sound. The check exists because argument 0 of a transition
// function may be bytes no code of ours wrote: a user-defined aggregate's
// INITCOND, a partial state that went through text, a direct call. A state
// we handed back in place, unchanged pointer and all, is bytes we wrote and
// still own, for as long as that memory is not freed. In a plain Agg node
// (never a WindowAgg, which restarts a frame's state by pfree and a fresh
// copy of INITCOND without a reset) the executor frees a transition value
// only
//   - when the transition function returns another pointer (the state grew,
//     or a new one was made): give() then forgets the state, before the
//     executor frees it;
//   - when it resets the aggregate context the state lives in (a new group of
//     a sorted aggregate, a rescan, the next batch of a spilled hash
//     aggregate, the end of the query): ReScanExprContext calls the callback
//     registered here (AggRegisterCallback), which forgets it.
// So a pointer equal to the remembered one is that same allocation, still
// holding what we wrote, and nothing else can land at its address while we
// remember it. The callback is registered in one aggregate context only
// (the first the state was remembered in); a state of another context (the
// grouping sets of one Agg each have their own) is never remembered, so it
// keeps the full check on every row.
#pragma once

#include "pg/common/postgres_headers.h"

namespace sketch::pg {

struct TrustedState {
  const struct varlena* state;  // handed back in place by this call site, or nullptr
  uint32 size;                  // its VARSIZE then
  struct ExprContext* armed;    // where the forgetting callback is registered, or nullptr
};

// The call site's TrustedState: the head of every fn_extra of ours
// (fn_extra.h), nullptr before the site's first call made one.
inline TrustedState* trusted_state_of(FunctionCallInfo fcinfo) {
  return static_cast<TrustedState*>(fcinfo->flinfo->fn_extra);
}

// True when `raw`, argument 0, is the state this call site last handed
// back in place (and still remembers).
inline bool is_trusted_state(FunctionCallInfo fcinfo, const struct varlena* raw) {
  const TrustedState* t = trusted_state_of(fcinfo);
  return t != nullptr && t->state == raw && VARSIZE(raw) == t->size;
}

void remember_new_result_state(FunctionCallInfo fcinfo, TrustedState* t,
                               const struct varlena* result);

// Called by give() for the result of a transition inside an aggregate:
// remembers it when it is argument 0 handed back in place in a plain Agg,
// forgets any remembered state otherwise. The per-row case is the state
// remembered already: a remembered state is live memory, so no other
// allocation can have its address, and we hand it back only when it came
// in as argument 0.
inline void remember_result_state(FunctionCallInfo fcinfo, const struct varlena* result) {
  TrustedState* t = trusted_state_of(fcinfo);
  if (t == nullptr || likely(t->state == result)) return;
  remember_new_result_state(fcinfo, t, result);
}

}  // namespace sketch::pg
