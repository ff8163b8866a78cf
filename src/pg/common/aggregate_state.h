// The fmgr side of the shared aggregate-state mechanism (core/common/working_state.h):
// every transition, combine and final function of every family takes its
// state, updates it and hands it back through these few functions.
//
// Inside an aggregate (or window aggregate) the executor owns the transition
// state, argument 0, and lets the transition and combine functions update it
// in place and return it: that is what makes a sketch state cost nothing per
// row. A function that returns another pointer has it copied into the
// aggregate's memory by the executor, which then frees the old state, so a
// state that must grow is allocated in CurrentMemoryContext (never
// repalloc'd: the executor would free the old pointer a second time).
//
// What arrives as argument 0 is not always a state this code made: a
// user-defined aggregate over our transition function may start from any
// stored value (INITCOND), a distributed engine passes partial states that
// went through text, and a direct call passes whatever it likes. So argument
// 0 is written in place only when the executor owns it and the family's O(1)
// shape check says it is a working state; anything else is parsed and copied
// into a fresh working state, or refused with an ERROR. Outside an
// aggregate nothing is ever written in place (arguments may point into a
// table's buffers) and the result is always the stored form.
#pragma once

#include "core/common/working_state.h"
#include "pg/common/element_hash.h"
#include "pg/common/postgres_headers.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/common/trusted_state.h"

namespace sketch::pg {

// AggCheckCallContext(fcinfo, NULL) != 0, inline: it is asked on every row.
inline bool in_aggregate(FunctionCallInfo fcinfo) {
  return fcinfo->context != nullptr &&
         (IsA(fcinfo->context, AggState) || IsA(fcinfo->context, WindowAggState));
}

// A family's bytes inside varlenas. `Family` is the core traits type;
// `kTypeName` names the SQL type in size errors; `kHints` are the family's
// hints for a failed Status (report.h: mismatched merges, parameters out of
// range).
template <class Family, const char* kTypeName, const Hints& kHints>
struct SketchStates {
  using Traits = Family;
  using View = typename Family::View;
  static constexpr const char* type_name = kTypeName;

  // A failed Status as an ERROR, with the family's hint for its code.
  SKETCH_NORETURN static void raise(const Status& status) { raise_error(status, kHints); }

  // The allocator the core mechanism grows states with: a new zeroed varlena
  // in CurrentMemoryContext, refusing sizes PostgreSQL cannot store.
  static uint8_t* allocate(size_t len) {
    check_sketch_size(len, kTypeName);
    return payload(new_sketch(len));
  }

  // The varlena around a payload made by allocate() or taken in place.
  static struct varlena* datum_of(uint8_t* state) {
    return reinterpret_cast<struct varlena*>(state - VARHDRSZ);
  }

  static size_t length_of(uint8_t* state) { return VARSIZE(datum_of(state)) - VARHDRSZ; }

  static void raise_if(const Status& status) {
    if (!status.is_ok()) raise(status);
  }

  // A detoasted value as a view of any valid encoding (read-only).
  static View view_of(const struct varlena* value) {
    const SketchBytes b = bytes_of(value);
    View v;
    raise_if(Family::parse(b.data, b.len, &v));
    return v;
  }

  // A detoasted value as a view of its stored form, for readers: a working
  // state (the result of a user's aggregate over our transition function
  // without our final function) is converted first.
  static View stored_view_of(const struct varlena* value) {
    const View v = view_of(value);
    if (Family::is_stored(v)) return v;
    return view_of(stored_of(v));
  }

  static View view_arg(FunctionCallInfo fcinfo, int n) {
    return view_of(PG_DETOAST_DATUM(PG_GETARG_DATUM(n)));
  }

  static View stored_view_arg(FunctionCallInfo fcinfo, int n) {
    return stored_view_of(PG_DETOAST_DATUM(PG_GETARG_DATUM(n)));
  }

  // Argument 0 as a working state this call may write (see the top).
  static pg_attribute_always_inline uint8_t* take(FunctionCallInfo fcinfo, bool in_agg) {
    auto* raw = reinterpret_cast<struct varlena*>(DatumGetPointer(PG_GETARG_DATUM(0)));
    // A plain 4-byte-header value of the executor's own; anything compressed,
    // short-headered or external is read through a detoasted copy.
    const bool owned = in_agg && !VARATT_IS_EXTENDED(raw);
    // The state this call site handed back in place on an earlier row
    // needs no shape check (trusted_state.h says why that is sound).
    if (likely(owned) && is_trusted_state(fcinfo, raw)) return payload(raw);
    struct varlena* v = owned ? raw : PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
    uint8_t* state = nullptr;
    raise_if(state::to_working<Family>(payload(v), VARSIZE(v) - VARHDRSZ, owned, allocate,
                                       &state));
    return state;
  }

  // The state a row of a parameterised aggregate adds to: a new one from
  // `make()` on the group's first row, else argument 0 taken as above and
  // handed to `check(state)`, which raises when the state's parameters are
  // not the row's (a state keeps its first row's parameters).
  template <class Make, class Check>
  static pg_attribute_always_inline uint8_t* take_or_make(FunctionCallInfo fcinfo, bool in_agg,
                                                           Make make, Check check) {
    if (PG_ARGISNULL(0)) return make();
    uint8_t* state = take(fcinfo, in_agg);
    check(state);
    return state;
  }

  // Readies a working state for values of the hasher's kind: an empty state
  // takes the kind, another kind is refused naming both (one byte compare
  // per row).
  static void accept_kind(uint8_t* state, const ElementHasher* hasher) {
    if (element_kind_of(state) == hasher->kind) return;
    check_value_kind(state, hasher);
    raise_if(state::accept_kind(state, hasher->kind));
  }

  // The stored form of a view, as a new varlena.
  static struct varlena* stored_of(const View& v) {
    return reinterpret_cast<struct varlena*>(DatumGetPointer(stored(Family::bytes_of(v), v.size)));
  }

  // A working state made from a view (the first input of a union).
  static uint8_t* copy(const View& v) {
    uint8_t* state = allocate(Family::working_size(v));
    Family::write_working(v, state);
    state::carry_kind(Family::bytes_of(v), state);
    return state;
  }

  // A template so that a family without elements (kAddsElements false)
  // instantiates the rest of this struct.
  template <class Element>
  static pg_attribute_always_inline uint8_t* add(uint8_t* state, Element& element) {
    uint8_t* out = nullptr;
    const Status st = state::add<Family>(state, length_of(state), element, allocate, &out);
    if (unlikely(!st.is_ok())) raise_grow_error(st);
    return out;
  }

  // The scalar add of a family that hashes its values (theta_add,
  // counting_bloom_add, cuckoo_add, ...): (sketch, value), a NULL sketch
  // -> NULL, a NULL value -> the sketch unchanged, else the stored form of
  // a private copy with the value added. `element(hasher, value)` makes
  // the family's Element; `adder(state, element)` adds it (by default the
  // mechanism's add).
  template <class MakeElement>
  static Datum add_value(FunctionCallInfo fcinfo, MakeElement element) {
    return add_value(fcinfo, element, [](uint8_t* state, auto& e) { return add(state, e); });
  }

  template <class MakeElement, class Adder>
  static Datum add_value(FunctionCallInfo fcinfo, MakeElement element, Adder adder) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    const ElementHasher* hasher = element_hasher(fcinfo, 1);
    auto e = element(hasher, PG_GETARG_DATUM(1));
    uint8_t* state = take(fcinfo, false);
    accept_kind(state, hasher);
    return give(fcinfo, adder(state, e), false);
  }

  // A refused growth: a family limit (kOverflow) with the family's hint,
  // a state that stopped parsing as an internal error.
  static pg_noinline void raise_grow_error(const Status& st) {
    if (st.code() != StatusCode::kInvalidFormat) raise(st);
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                    errmsg("%s aggregate state is corrupt", kTypeName)));
  }

  static uint8_t* merge(uint8_t* state, const View& other) {
    uint8_t* out = nullptr;
    size_t out_len;
    raise_if(state::merge<Family>(state, length_of(state), other, allocate, &out, &out_len));
    return out;
  }

  // The result of a transition or combine function: the working state inside
  // an aggregate, the stored form anywhere else (working forms never leave
  // an aggregate through our own functions). Inside an aggregate the call
  // site remembers a state handed back in place and forgets any other
  // (trusted_state.h): every function that take()s its state in an
  // aggregate returns it through here.
  static pg_attribute_always_inline Datum give(FunctionCallInfo fcinfo, uint8_t* state,
                                               bool in_agg) {
    if (likely(in_agg)) {
      struct varlena* result = datum_of(state);
      remember_result_state(fcinfo, result);
      return PointerGetDatum(result);
    }
    return give_stored(state);
  }

  // Outside an aggregate the state is a private copy (take never works in
  // place there): one already in its stored form is returned as it is.
  static Datum give_stored(uint8_t* state) {
    View v;
    raise_if(Family::parse(state, length_of(state), &v));
    if (Family::is_stored(v)) return PointerGetDatum(datum_of(state));
    return stored(state, length_of(state));
  }

  static Datum stored(const uint8_t* data, size_t len) {
    uint8_t* out = nullptr;
    size_t out_len;
    raise_if(state::to_stored<Family>(data, len, allocate, &out, &out_len));
    return PointerGetDatum(datum_of(out));
  }

  // Final function: the stored form of argument 0, never modifying it, so
  // the aggregates also work as window aggregates. A state that already is
  // in its stored form is returned as it is.
  static Datum final(FunctionCallInfo fcinfo) {
    const SketchBytes b = bytes_of(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
    View v;
    raise_if(Family::parse(b.data, b.len, &v));
    if (Family::is_stored(v)) return PG_GETARG_DATUM(0);
    return stored(b.data, b.len);
  }

  // The union of two values, outside an aggregate (<f>_union2 and ||): a
  // NULL side is ignored. A family that merges stored views directly
  // (kMergesStored) writes the stored result at once; any other merges b
  // into a scratch working copy of a and returns its stored form.
  static Datum union2(FunctionCallInfo fcinfo) {
    if (PG_ARGISNULL(0) && PG_ARGISNULL(1)) PG_RETURN_NULL();
    if (PG_ARGISNULL(0)) PG_RETURN_DATUM(PG_GETARG_DATUM(1));
    if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    if constexpr (Family::kMergesStored) {
      const View a = stored_view_arg(fcinfo, 0), b = stored_view_arg(fcinfo, 1);
      // Refused before anything is allocated, as the mechanism's merge does.
      raise_if(check_element_kind(element_kind_of(Family::bytes_of(a)),
                                  element_kind_of(Family::bytes_of(b))));
      uint8_t* out = allocate(Family::merged_size(a, b));
      Family::write_merged(a, b, out);
      return PointerGetDatum(datum_of(out));
    }
    const View b = view_arg(fcinfo, 1);
    return give(fcinfo, merge(take(fcinfo, false), b), false);
  }

  // The common shape of a union's transition and combine function:
  // (state, other) with NULL meaning "nothing yet" on either side.
  static Datum union_trans(FunctionCallInfo fcinfo) {
    if (PG_ARGISNULL(1)) {
      if (PG_ARGISNULL(0)) PG_RETURN_NULL();
      PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    }
    const bool in_agg = in_aggregate(fcinfo);
    const View other = view_arg(fcinfo, 1);
    if (PG_ARGISNULL(0)) return give(fcinfo, copy(other), in_agg);
    return give(fcinfo, merge(take(fcinfo, in_agg), other), in_agg);
  }
};

// A transition function's answer to a row it skips (a NULL value, a zero
// weight): the state unchanged, NULL while there is none.
inline Datum keep_state(FunctionCallInfo fcinfo) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

}  // namespace sketch::pg

// <prefix>_union_trans, the transition of <prefix>_union and the combine
// function of every aggregate of the family, and <prefix>_final, the final
// function of those that build a working state: the stored form, the state
// left as it is (FINALFUNC_MODIFY = READ_ONLY), so the aggregates also work
// as window aggregates.
#define SKETCH_UNION_AND_FINAL(prefix, States)                                   \
  extern "C" {                                                                   \
  PG_FUNCTION_INFO_V1(prefix##_union_trans);                                     \
  PG_FUNCTION_INFO_V1(prefix##_final);                                           \
  }                                                                              \
  extern "C" Datum prefix##_union_trans(PG_FUNCTION_ARGS) {                      \
    return States::union_trans(fcinfo);                                          \
  }                                                                              \
  extern "C" Datum prefix##_final(PG_FUNCTION_ARGS) {                            \
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();                                       \
    return States::final(fcinfo);                                                \
  }
