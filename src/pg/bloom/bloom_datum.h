// bloom values and aggregate states as varlena datums.
//
// Values are in the stored encoding: every input path refuses anything else.
// Large bloom_agg states use the working encoding (core/bloom/bloom.h); every state
// goes through the shared mechanism (aggregate_state.h) with bloom's traits
// (core/bloom/bloom_family.h); the final function, bloom_out
// and bloom_send turn them into the stored form. A working state can only
// reach a reader through a hand-made aggregate over bloom_agg_trans without
// the final function; readers then read its stored form.
#pragma once

#include "core/bloom/bloom_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

inline constexpr char kBloomTypeName[] = "bloom";

inline constexpr Hints kBloomHints{{
    {StatusCode::kMismatch,
     "Filters combine only when they have the same layout, bits and hashes, for example when "
     "built with the same n, p and layout.",
     0},
}};

using BloomStates = SketchStates<bloom::Family, kBloomTypeName, kBloomHints>;

// A stored-encoding view of a bloom value (detoasted; a working state is
// converted), and of argument n; errors on corrupt data.
inline bloom::View bloom_view(const struct varlena* v) { return BloomStates::stored_view_of(v); }
inline bloom::View bloom_arg(FunctionCallInfo fcinfo, int n) {
  return BloomStates::stored_view_arg(fcinfo, n);
}

// A view of an aggregate state, which may be in either encoding.
inline bloom::View bloom_state_view(const struct varlena* v) { return BloomStates::view_of(v); }

// Sizing by (n, p) and direct parameters, raising 22023 with a hint when the
// values are out of range.
bloom::Params bloom_sized(int64 n, double p);
bloom::Params bloom_params(int64 bits, int64 hashes);

// The same for either layout (classic: bloom_sized).
bloom::Params bloom_sized_layout(int64 n, double p, bloom::Layout layout);

// The layout a text argument names: 'classic' or 'split_block'; 22023
// otherwise.
bloom::Layout bloom_layout_arg(const text* name);
const char* bloom_layout_name(bloom::Layout layout);

// A new empty filter (of no element kind yet), and the stored form of a view
// of either encoding as a new value.
struct varlena* bloom_new(const bloom::Params& params);

// The first-row state of bloom_agg, bloom_agg_bits and the layout aggregate:
// in an aggregate, a large filter takes the working encoding that defers its
// bit sets (core/bloom/bloom.h); elsewhere the stored form.
uint8_t* bloom_new_state(const bloom::Params& params, bool in_agg);
struct varlena* bloom_stored(const bloom::View& v);

// Raises 22023 naming both parameter sets unless a and b can be combined.
void bloom_check_compatible(const bloom::View& a, const bloom::View& b);

}  // namespace sketch::pg
