// The forgetting half of trusted_state.h: what give() records and the reset
// callback that clears it.
#include "pg/common/trusted_state.h"

extern "C" {
#include "executor/nodeAgg.h"
#include "nodes/execnodes.h"
}

namespace sketch::pg {

namespace {

// The aggregate context of the remembered state was reset or shut down: its
// memory is gone (ShutdownExprContext drops the callback after this call).
void forget_state(Datum arg) {
  auto* t = reinterpret_cast<TrustedState*>(DatumGetPointer(arg));
  t->state = nullptr;
  t->armed = nullptr;
}

}  // namespace

void remember_new_result_state(FunctionCallInfo fcinfo, TrustedState* t,
                               const struct varlena* result) {
  t->state = nullptr;
  if (PG_ARGISNULL(0) || fcinfo->context == nullptr || !IsA(fcinfo->context, AggState)) return;
  if (reinterpret_cast<const struct varlena*>(DatumGetPointer(PG_GETARG_DATUM(0))) != result)
    return;
  const AggState* agg = reinterpret_cast<const AggState*>(fcinfo->context);
  // Only the Agg node's own call, through the FmgrInfo of the transition it
  // is running: its fn_extra lives in the query's memory, which outlives
  // every reset callback. Code that calls us with the node as context but
  // through an FmgrInfo of its own (Citus's worker_partial_agg makes one a
  // row, in shorter-lived memory) never gets a state remembered, nor a
  // callback that would outlive its fn_extra.
  if (agg->curpertrans == nullptr || fcinfo->flinfo != &agg->curpertrans->transfn) return;
  struct ExprContext* context = agg->curaggcontext;
  if (t->armed == nullptr) {
    AggRegisterCallback(fcinfo, forget_state, PointerGetDatum(t));
    t->armed = context;
  } else if (t->armed != context) {
    return;
  }
  t->state = result;
  t->size = VARSIZE(result);
}

}  // namespace sketch::pg
