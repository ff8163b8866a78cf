// cms values and aggregate states as varlena datums.
//
// Stored values are always in the stored (canonical) encoding. Aggregate
// states are working states handled by the shared mechanism
// (aggregate_state.h) with cms's traits (core/cms/cms_family.h).
#pragma once

#include "core/cms/cms_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/element_hash.h"
#include "pg/common/item_text.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

inline constexpr char kCmsTypeName[] = "cms";

// The numbers in the hints are the core's limits.
static_assert(cms::kMaxDepth == 32 && cms::kMaxCandidates == 10000 &&
              cms::kDefaultCandidates == 100);
inline constexpr Hints kCmsHints{{
    {StatusCode::kInvalidParameter,
     "Use 0 < epsilon < 1 and 0 < delta < 1 (the defaults 0.001 and 0.01 give 2719 x 5 "
     "counters, 106 KiB), or width >= 1 and depth 1..32; the candidate list size k is "
     "0..10000 (default 100).",
     0},
    {StatusCode::kMismatch,
     "Only sketches built with the same epsilon and delta (or width and depth) can be merged.",
     0},
}};

using CmsStates = SketchStates<cms::Family, kCmsTypeName, kCmsHints>;

// Parameters from SQL arguments, or an ERROR with a hint.
cms::Params cms_params_for_accuracy(double epsilon, double delta, bool conservative, int64 k);
cms::Params cms_params_for_size(int64 width, int64 depth, bool conservative, int64 k);

// A view of a cms value or state (detoasted; any encoding), and of argument
// n; errors on structurally corrupt data.
inline cms::View cms_view(const struct varlena* v) { return CmsStates::view_of(v); }
inline cms::View cms_arg(FunctionCallInfo fcinfo, int n) { return CmsStates::view_arg(fcinfo, n); }

// Checks bytes as a stored cms from outside: every byte, and every candidate
// text valid in the server encoding. The Validator of text and binary input.
Status cms_validate(const uint8* data, size_t len);

// The stored form of a view, as a new datum.
struct varlena* cms_canonical(const cms::View& v);

// A new empty working state.
uint8_t* cms_new_state(const cms::Params& params);

// Adds `count` (>= 1) occurrences of `value` (whose hash is `hash`) to a
// working state the caller may write; returns the state or its replacement.
// The value's text (item_text.h) is computed only if it enters the
// candidate list. Inline: it is the per-row path of cms_agg.
__attribute__((always_inline)) inline uint8_t* cms_state_add(uint8_t* state, uint64 hash, uint64 count,
                              const ItemSource* info, Datum value) {
  CmsStates::accept_kind(state, &info->hasher);
  PendingItemText<cms::Family::Text, cms::kMaxValueBytes> pending(info, value);
  cms::Family::Element element = cms::Family::element(hash, count, pending.produce, &pending);
  state = CmsStates::add(state, element);
  pending.release();
  return state;
}

// A weight argument (bigint, or integer when int4): NULL and 0 mean "skip"
// (returns false), negative is an ERROR.
bool cms_weight(FunctionCallInfo fcinfo, int argno, bool int4, uint64* count);

}  // namespace sketch::pg
