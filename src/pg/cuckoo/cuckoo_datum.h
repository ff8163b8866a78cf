// cuckoo values and aggregate states as varlena datums.
//
// Values are in the stored encoding: every input path refuses anything else.
// Aggregate states may be in the working encoding (a zero tail a union
// appends sub-filters into, core/cuckoo/cuckoo.h); every state goes through
// the shared mechanism (aggregate_state.h) with cuckoo's traits
// (core/cuckoo/cuckoo_family.h).
#pragma once

#include "core/cuckoo/cuckoo_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

inline constexpr char kCuckooTypeName[] = "cuckoo";

// A limit (kOverflow: the chain of sub-filters or the size cap) is 54000,
// not the 22003 of a count out of range.
inline constexpr Hints kCuckooHints{{
    {StatusCode::kOverflow,
     "Size the filter for more values (cuckoo_empty(n, p) or cuckoo_agg(value, n, p) with a "
     "larger n), or split the set.",
     ERRCODE_PROGRAM_LIMIT_EXCEEDED},
    {StatusCode::kMismatch,
     "Cuckoo filters combine only when they have the same fingerprint bits and bucket size, "
     "for example when built with the same p and bucket size (n may differ).",
     0},
}};

using CuckooStates = SketchStates<cuckoo::Family, kCuckooTypeName, kCuckooHints>;

// A stored-encoding view of a cuckoo value (detoasted; a working state is
// converted), and of argument n; errors on corrupt data.
inline cuckoo::View cuckoo_view(const struct varlena* v) { return CuckooStates::stored_view_of(v); }
inline cuckoo::View cuckoo_arg(FunctionCallInfo fcinfo, int n) {
  return CuckooStates::stored_view_arg(fcinfo, n);
}

// Sizing by (n, p, b), raising 22023 (54000 past the size cap) with a hint.
cuckoo::Params cuckoo_sized(int64 n, double p, int64 bucket_size);

// A new empty filter of no element kind yet.
struct varlena* cuckoo_new(const cuckoo::Params& params);

// A new empty state of no element kind yet for cuckoo_agg: in an aggregate
// the distinct encoding, whose seen set keeps each value's 128-bit hash so
// that a repeated row adds nothing (core/cuckoo/cuckoo.h); outside one the
// stored form.
uint8_t* cuckoo_new_state(const cuckoo::Params& params, bool in_aggregate);

// A working state in the distinct encoding: itself when it is one, else a
// copy with an empty seen set (an INITCOND or another working state).
uint8_t* cuckoo_distinct_state(uint8_t* state);

// A working state with its queued values added (itself, or a grown copy).
uint8_t* cuckoo_settle_state(uint8_t* state);

// Adds one value to a working state through the mechanism, first raising
// 54000 when the filter would have to grow past a limit.
uint8_t* cuckoo_add_element(uint8_t* state, cuckoo::Family::Element& element);

}  // namespace sketch::pg
