// counting_bloom values and aggregate states as varlena datums.
//
// Values are in the stored encoding: every input path refuses anything else.
// Large counting_bloom_agg states use the working encoding
// (core/counting_bloom/counting_bloom.h); every state goes through the shared
// mechanism (aggregate_state.h) with counting_bloom's traits
// (core/counting_bloom/counting_bloom_family.h); the final function, output
// and send turn them into the stored form.
#pragma once

#include "core/counting_bloom/counting_bloom_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

inline constexpr char kCountingBloomTypeName[] = "counting_bloom";

inline constexpr Hints kCountingBloomHints{{
    {StatusCode::kMismatch,
     "Counting filters combine only when they have the same cells and hashes, for example "
     "when built with the same n and p.",
     0},
}};

using CountingBloomStates =
    SketchStates<counting_bloom::Family, kCountingBloomTypeName, kCountingBloomHints>;

// A stored-encoding view of a counting_bloom value (detoasted; a working
// state is converted), and of argument n; errors on corrupt data.
inline counting_bloom::View counting_bloom_view(const struct varlena* v) {
  return CountingBloomStates::stored_view_of(v);
}
inline counting_bloom::View counting_bloom_arg(FunctionCallInfo fcinfo, int n) {
  return CountingBloomStates::stored_view_arg(fcinfo, n);
}

// Sizing by (n, p), raising 22023 with a hint when out of range.
counting_bloom::Params counting_bloom_sized(int64 n, double p);

// A new empty filter (of no element kind yet).
struct varlena* counting_bloom_new(const counting_bloom::Params& params);

// The bloom filter of a view's non-zero cells, as a new bloom value
// (palloc'd), and bloom's view of it.
struct varlena* counting_bloom_to_bloom_value(const counting_bloom::View& v);
bloom::View counting_bloom_bloom_view(const counting_bloom::View& v);

}  // namespace sketch::pg
