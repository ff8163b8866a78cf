// hll values and aggregate states as varlena datums.
//
// Stored values are always canonical (sparse list or dense). Aggregate states
// use the working encodings (sparse set or dense) and are updated in place;
// when a state must grow or turn dense, a new state is allocated in
// CurrentMemoryContext and returned, and the executor copies it into the
// aggregate context and frees the old one (it does so for any transition
// result that is not the state pointer it passed in).
#pragma once

#include "core/hll.h"
#include "pg/postgres_headers.h"

namespace sketch::pg {

constexpr const char* kHllTypeName = "hll";

// A view of an hll datum (detoasted); errors on structurally corrupt data.
hll::View hll_view(const struct varlena* v);

// Argument n as an hll view, detoasting if needed.
hll::View hll_arg(FunctionCallInfo fcinfo, int n);

// The stored form of a view, as a new datum.
struct varlena* hll_canonical(const hll::View& v);

// A new empty working state.
struct varlena* hll_new_state(int p);

// A working-form copy of a view (sparse becomes a set with room for one more).
struct varlena* hll_state_copy(const hll::View& v);

// Adds a hash to a working state; returns the state, or its replacement.
struct varlena* hll_state_add(struct varlena* state, uint64 hash);

// state ∪ other. The state is updated in place when it can absorb other;
// otherwise a new working state is returned. `state` must be a working state
// the caller owns (modifiable).
struct varlena* hll_state_union(struct varlena* state, const hll::View& other);

// A working copy of v at the lower precision p (exact fold).
struct varlena* hll_state_fold(const hll::View& v, int p);

// Raises an error naming the range if p is not a valid precision.
void hll_check_precision(int p);

}  // namespace sketch::pg
