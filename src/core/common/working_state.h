// One mechanism for the aggregate states of every sketch family.
//
// Each family has two kinds of encodings: the *stored* form (canonical: a
// function of the parameters and of the set of hashes added, what tables,
// output and send hold) and a *working* form that an aggregate updates in
// place, row after row, without allocating. Working forms are made only by
// this code: every input path (text, recv, bytea cast) refuses them.
//
// A state can reach a transition or combine function by many routes: the
// executor's own state, an INITCOND of a user-defined aggregate (any valid
// stored value), a direct call, a parallel worker's or a distributed engine's
// partial state. The rule, enforced here once for all families:
//
//   a buffer is written in place only if the caller owns it and the family's
//   constant-time shape check says it already is a working state; any other
//   value is parsed with the family's structure checks and copied into a
//   fresh working state first, or refused with a Status.
//
// A family plugs in with a traits type (hll_family.h, cms_family.h, ...):
// View, parse, is_working, the working and stored writers, add, growth and
// merge planning. The members, their signatures and the optional hooks are
// listed in family_contract.h, whose check_family<F>() ends every family
// header and refuses to compile one that misses a member or whose flags and
// hooks disagree. plan_growth and plan_merge may refuse (a family limit:
// kOverflow; mismatched parameters: kMismatch); the loops below hand that
// Status back unchanged and never call grow or merge then.
//
// The element kind (header byte 7, element_kind.h) is the mechanism's: the
// family writers take it as a required argument of write_header (a new
// sketch holds kNone, a copy its source's), and only the functions here
// rewrite it afterwards: carry_kind on every buffer made from another,
// accept_kind for a value, the combined kind after a merge.
//
// `alloc(len)` is the caller's allocator: it returns `len` zeroed bytes the
// state may live in (palloc in the server, a test arena in unit tests and
// fuzzers, which drive this very code). It may refuse sizes by not returning
// (the server raises an ERROR, a longjmp); nothing here holds a resource
// across it, and family_contract.h asserts the trivial destructors that
// make that jump legal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/status.h"

namespace sketch::state {

// Every family keeps the element kind (element_kind.h) in header byte 7.
// Its writers already copy a source's kind; the mechanism carries it over to
// every buffer it makes from another all the same, so that the kind of a
// state never depends on a family getting this right.
inline void carry_kind(const uint8_t* from, uint8_t* to) {
  to[kElementKindOffset] = from[kElementKindOffset];
}

// Makes a working state ready for a value of `kind`: an empty state takes
// the kind, an equal kind passes, anything else is refused (naming both)
// before the value is hashed into the state. One byte compare per row.
inline Status accept_kind(uint8_t* state, ElementKind kind) {
  const ElementKind current = element_kind_of(state);
  if (current == kind) return Status::ok();
  ElementKind combined;
  Status st = combine_element_kinds(current, kind, &combined);
  if (!st.is_ok()) return st;
  state[kElementKindOffset] = static_cast<uint8_t>(combined);
  return Status::ok();
}

// A new working state made from any valid sketch bytes, or a refusal.
template <class Family, class Alloc>
Status copy_to_working(const uint8_t* data, size_t len, Alloc&& alloc, uint8_t** out) {
  typename Family::View v;
  Status st = Family::parse(data, len, &v);
  if (!st.is_ok()) return st;
  uint8_t* copy = alloc(Family::working_size(v));
  Family::write_working(v, copy);
  carry_kind(data, copy);
  *out = copy;
  return Status::ok();
}

// A working state the caller may write, made from any valid sketch bytes:
// the bytes themselves when `owned` and already working (the per-row case,
// inlined), else a new copy.
template <class Family, class Alloc>
__attribute__((always_inline)) inline Status to_working(uint8_t* data, size_t len, bool owned,
                                                        Alloc&& alloc, uint8_t** out) {
  if (__builtin_expect(owned && Family::is_working(data, len), 1)) {
    *out = data;
    return Status::ok();
  }
  return copy_to_working<Family>(data, len, alloc, out);
}

// One growth step: the state parsed, its growth planned (or refused with
// plan_growth's Status, nothing written) and the grown copy written into a
// new buffer, which replaces *state (*len its size). kInvalidFormat, naming
// `what`, if the state stopped parsing (a broken invariant, never a wild
// write).
template <class Family, class Alloc>
Status grow_once(uint8_t** state, size_t* len, typename Family::Growth* growth, Alloc&& alloc,
                 const char* what) {
  typename Family::View v;
  if (!Family::parse(*state, *len, &v).is_ok())
    return Status::error(StatusCode::kInvalidFormat, "%s stopped parsing", what);
  Status st = Family::plan_growth(v, growth);
  if (!st.is_ok()) return st;
  uint8_t* grown = alloc(growth->size);
  Family::grow(v, *growth, grown);
  carry_kind(*state, grown);
  *state = grown;
  *len = growth->size;
  return Status::ok();
}

// Adds one element to a working state, growing it as often as the family
// asks (a larger hash set, dense registers, a larger text arena). *out is the
// state, or the buffer that replaced it. Refused with plan_growth's Status
// when growth would pass a family limit (nothing written: the family's add
// left the state as it was), kInvalidFormat if the state stopped parsing (a
// broken invariant, never a wild write).
template <class Family, class Alloc>
Status add_growing(uint8_t* state, size_t len, typename Family::Element& element,
                   typename Family::Growth growth, Alloc&& alloc, uint8_t** out) {
  static_assert(Family::kAddsElements, "this family only combines sketches");
  do {
    Status st = grow_once<Family>(&state, &len, &growth, alloc, "an aggregate state");
    if (!st.is_ok()) return st;
  } while (!Family::add(state, element, &growth));
  *out = state;
  return Status::ok();
}

// The per-row path: the family's in-place add, inlined into the transition
// function; growth is the rare case. *out as for add_growing.
template <class Family, class Alloc>
__attribute__((always_inline)) inline Status add(uint8_t* state, size_t len,
                                                 typename Family::Element& element,
                                                 Alloc&& alloc, uint8_t** out) {
  typename Family::Growth growth;
  if (__builtin_expect(Family::add(state, element, &growth), 1)) {
    *out = state;
    return Status::ok();
  }
  return add_growing<Family>(state, len, element, growth, alloc, out);
}

// state ∪ other into the working state `state` (len bytes). *out is the
// state, or a new buffer of *out_len bytes when the state could not absorb
// other in place. Mismatched parameters are refused before anything is
// written.
// Families whose parse() of a working state is O(capacity) (topk and theta
// check their whole table) set kHasWorkingView and offer working_view(): the
// view of a state is_working() accepted, in O(1). A state reaching merge()
// was made by this code (to_working copied anything else after a full
// parse), so a union aggregate does not re-check its own table on every row.
//
// Families that defer part of an add (cuckoo's deferred encoding queues a
// value behind a prefetch and adds it some rows later) set kDefersAdds and
// offer
//   bool has_pending(data, len)      queued values remain
//   bool settle(state, Growth*)      adds them in order; false when one needs
//                                    room (the state is then grown, as for
//                                    add, and settle called again)
// and every state is settled before its stored form or a merge reads it.
// family_contract.h refuses to compile a family whose flags and hooks
// disagree.

// The state with its queued values added, grown as often as needed: *out is
// the state itself or the buffer that replaced it (*len updated). Refused as
// add_growing refuses.
template <class Family, class Alloc>
Status settle(uint8_t* state, size_t* len, Alloc&& alloc, uint8_t** out) {
  if constexpr (Family::kDefersAdds) {
    typename Family::Growth growth;
    while (!Family::settle(state, &growth)) {
      Status st = grow_once<Family>(&state, len, &growth, alloc, "a deferred state");
      if (!st.is_ok()) return st;
    }
  }
  *out = state;
  return Status::ok();
}

// A settled copy of `data` when it has queued values (a new buffer from
// alloc), else `data` itself.
template <class Family, class Alloc>
Status settled(const uint8_t* data, size_t* len, Alloc&& alloc, const uint8_t** out) {
  *out = data;
  if constexpr (Family::kDefersAdds) {
    if (!Family::has_pending(data, *len)) return Status::ok();
    uint8_t* copy = alloc(*len);
    std::memcpy(copy, data, *len);
    uint8_t* settled_copy = nullptr;
    Status st = settle<Family>(copy, len, alloc, &settled_copy);
    if (!st.is_ok()) return st;
    *out = settled_copy;
  }
  return Status::ok();
}

template <class Family>
Status view_of_state(const uint8_t* state, size_t len, typename Family::View* out) {
  if constexpr (Family::kHasWorkingView) {
    if (Family::is_working(state, len)) {
      *out = Family::working_view(state, len);
      return Status::ok();
    }
  }
  return Family::parse(state, len, out);
}

template <class Family, class Alloc>
Status merge(uint8_t* state, size_t len, const typename Family::View& other_in, Alloc&& alloc,
             uint8_t** out, size_t* out_len) {
  typename Family::View other = other_in;
  if constexpr (Family::kDefersAdds) {
    Status settle_st = settle<Family>(state, &len, alloc, &state);
    if (!settle_st.is_ok()) return settle_st;
    size_t other_len = other.size;
    const uint8_t* other_bytes = nullptr;
    Status settled_st = settled<Family>(Family::bytes_of(other), &other_len, alloc, &other_bytes);
    if (!settled_st.is_ok()) return settled_st;
    if (other_bytes != Family::bytes_of(other)) {
      settled_st = Family::parse(other_bytes, other_len, &other);
      if (!settled_st.is_ok()) return settled_st;
    }
  }
  typename Family::View a;
  Status st = view_of_state<Family>(state, len, &a);
  if (!st.is_ok()) return st;
  ElementKind kind;
  st = combine_element_kinds(element_kind_of(state), element_kind_of(Family::bytes_of(other)), &kind);
  if (!st.is_ok()) return st;
  typename Family::MergePlan plan{};
  st = Family::plan_merge(a, other, &plan);
  if (!st.is_ok()) return st;
  uint8_t* dst = plan.in_place ? nullptr : alloc(plan.size);
  Family::merge(state, a, other, plan, dst);
  *out = plan.in_place ? state : dst;
  (*out)[kElementKindOffset] = static_cast<uint8_t>(kind);
  *out_len = plan.in_place ? len : plan.size;
  return Status::ok();
}

// The stored form of any valid sketch bytes, in a new buffer of *out_len.
template <class Family, class Alloc>
Status to_stored(const uint8_t* data, size_t len, Alloc&& alloc, uint8_t** out,
                 size_t* out_len) {
  typename Family::View v;
  Status st = Family::parse(data, len, &v);
  if (!st.is_ok()) return st;
  const uint8_t* original = data;
  st = settled<Family>(data, &len, alloc, &data);
  if (!st.is_ok()) return st;
  if (data != original) st = Family::parse(data, len, &v);
  if (!st.is_ok()) return st;
  *out_len = Family::stored_size(v);
  *out = alloc(*out_len);
  Family::write_stored(v, *out);
  carry_kind(data, *out);
  return Status::ok();
}

}  // namespace sketch::state
