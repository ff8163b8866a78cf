// cms values and aggregate states as varlena datums.
//
// Stored values are always in the stored (canonical) encoding. Aggregate
// states use the working encoding and are updated in place; when a state's
// text arena must grow, or a merge needs a larger candidate list, a new state
// is allocated in CurrentMemoryContext and returned (see aggregate_support.h).
#pragma once

#include "core/cms.h"
#include "pg/element_hash.h"
#include "pg/postgres_headers.h"

namespace sketch::pg {

constexpr const char* kCmsTypeName = "cms";

// Raises a failed core Status: bad parameters and mismatched merges as
// invalid_parameter_value with a hint, anything else as report.h does.
void cms_check(const Status& status);

// Parameters from SQL arguments, or an ERROR with a hint.
cms::Params cms_params_for_accuracy(double epsilon, double delta, bool conservative, int64 k);
cms::Params cms_params_for_size(int64 width, int64 depth, bool conservative, int64 k);

// A view of a cms datum (detoasted); errors on structurally corrupt data.
cms::View cms_view(const struct varlena* v);

// Argument n as a cms view, detoasting if needed.
cms::View cms_arg(FunctionCallInfo fcinfo, int n);

// Checks bytes as a stored cms from outside: every byte, and every candidate
// text valid in the server encoding. The Validator of text and binary input.
Status cms_validate(const uint8* data, size_t len);

// The stored form of a view, as a new datum.
struct varlena* cms_canonical(const cms::View& v);

// A new empty working state.
struct varlena* cms_new_state(const cms::Params& params);

// A working copy of a view, holding up to `candidates` (>= v.count).
struct varlena* cms_state_copy(const cms::View& v, uint32 candidates);

inline bool cms_is_working(const struct varlena* v) {
  return cms::is_working(reinterpret_cast<const uint8*>(VARDATA_ANY(v)), VARSIZE_ANY_EXHDR(v));
}

// What adding values needs beyond the state: the element hasher and the
// value type's output function (for candidate texts), built once per call
// site and kept in fn_extra by the callers.
struct CmsValueInfo {
  ElementHasher hasher;
  FmgrInfo output;
};

void cms_init_value_info(FunctionCallInfo fcinfo, int argno, CmsValueInfo* info);

// Adds `count` (>= 1) occurrences of `value` (whose hash is `hash`) to a
// working state the caller may modify; returns the state or its replacement.
// The value's text is computed only if it enters the candidate list.
struct varlena* cms_state_add(struct varlena* state, uint64 hash, uint64 count,
                              const CmsValueInfo* info, Datum value);

// state += other. `state` must be a working state the caller may modify; it
// is updated in place when it can absorb other, else a new state is returned.
// Mismatched parameters are an ERROR naming both sets.
struct varlena* cms_state_union(struct varlena* state, const cms::View& other);

// A weight argument: NULL and 0 mean "skip" (returns false), negative is an
// ERROR.
bool cms_weight(FunctionCallInfo fcinfo, int argno, uint64* count);

}  // namespace sketch::pg
