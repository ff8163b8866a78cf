// topk values and aggregate states as varlena datums.
//
// Stored values are always in the stored (canonical) encoding. Aggregate
// states are working states handled by the shared mechanism
// (aggregate_state.h) with topk's traits (core/topk/topk_family.h).
#pragma once

#include "core/topk/topk_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/item_text.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

inline constexpr char kTopkTypeName[] = "topk";

// The numbers in the hint are the core's limits (a union past the largest
// total is 22003, without a hint).
static_assert(topk::kMaxK == 65536 && topk::kDefaultK == 1024);
inline constexpr Hints kTopkHints{{
    {StatusCode::kInvalidParameter,
     "k is the number of items a topk keeps, 1..65536 (default 1024); every count is then "
     "within N/(k+1) of the truth.",
     0},
}};

using TopkStates = SketchStates<topk::Family, kTopkTypeName, kTopkHints>;

// k from an SQL argument, or 22023.
uint32 topk_k(int64 k);

// Checks bytes as a stored topk from outside: every byte, and every item
// text valid in the server encoding. The Validator of text and binary input.
Status topk_validate(const uint8* data, size_t len);

// A new empty working state.
uint8_t* topk_new_state(uint32 k);

// Adds `weight` (>= 1) occurrences of `value` (whose hash is `hash`) to a
// working state the caller may write; returns the state or its replacement.
// The value's text is made only if it enters the table. 22003 if the total
// would pass 2^63 - 1.
uint8_t* topk_state_add(uint8_t* state, uint64 hash, uint64 weight, const ItemSource* source,
                        Datum value);

// A weight argument (bigint, or integer when int4): NULL and 0 mean "skip"
// (returns false), negative is an
// ERROR (22023).
bool topk_weight(FunctionCallInfo fcinfo, int argno, bool int4, uint64* weight);

}  // namespace sketch::pg
