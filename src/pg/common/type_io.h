// The five type I/O functions of every sketch type, written once: text input
// and output ("\x<hex>"), binary recv and send, and the cast from bytea.
//
// Input (text, recv, bytea) validates the whole buffer with the type's
// Validator, which accepts the stored form only. Output (text, send) is
// always the stored form, also of an aggregate state: a distributed engine
// ships partial states as text, and the input functions refuse working
// forms. A family declares its five fmgr entry points with one line,
//
//   SKETCH_TYPE_IO(bloom, TypeIO<BloomStates, parse_canonical<bloom::View>>)
//
// which defines bloom_in, bloom_out, bloom_recv, bloom_send and
// bloom_from_bytea, the C symbols its SQL script names.
#pragma once

#include "core/common/validation.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/postgres_headers.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

// The Validator of a family whose stored values need no check beyond its
// core parser in kCanonical mode: `parse` of the View's own namespace
// (found by argument-dependent lookup, e.g. bloom::parse for bloom::View).
template <class View>
Status parse_canonical(const uint8* data, size_t len) {
  View unused;
  return parse(data, len, Validation::kCanonical, &unused);
}

// What text input and recv do with a validated value and the column's
// typmod (-1 when none): by default nothing; hll lowers the precision.
using TypmodRule = struct varlena* (*)(struct varlena* value, int32 typmod);

inline struct varlena* ignore_typmod(struct varlena* value, int32) { return value; }

template <class States, Validator kValidate, TypmodRule kApplyTypmod = ignore_typmod>
struct TypeIO {
  // Input and recv functions are always called with (value, typioparam,
  // typmod).
  static int32 typmod_arg(FunctionCallInfo fcinfo) {
    return PG_NARGS() > 2 ? PG_GETARG_INT32(2) : -1;
  }

  static Datum in(FunctionCallInfo fcinfo) {
    struct varlena* v = sketch_from_text(PG_GETARG_CSTRING(0), kValidate, States::type_name);
    PG_RETURN_POINTER(kApplyTypmod(v, typmod_arg(fcinfo)));
  }

  static Datum out(FunctionCallInfo fcinfo) {
    const typename States::View v = States::stored_view_arg(fcinfo, 0);
    PG_RETURN_CSTRING(sketch_to_text(States::Traits::bytes_of(v), v.size));
  }

  static Datum recv(FunctionCallInfo fcinfo) {
    StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
    struct varlena* v = sketch_from_recv(buf, kValidate, States::type_name);
    PG_RETURN_POINTER(kApplyTypmod(v, typmod_arg(fcinfo)));
  }

  static Datum send(FunctionCallInfo fcinfo) {
    const typename States::View v = States::stored_view_arg(fcinfo, 0);
    PG_RETURN_BYTEA_P(sketch_to_send(States::Traits::bytes_of(v), v.size));
  }

  // The bytea cast: a plain copy once validated (no typmod: a cast to
  // hll(p) runs hll_enforce_typmod after it).
  static Datum from_bytea(FunctionCallInfo fcinfo) {
    const SketchBytes b = bytes_of(PG_GETARG_BYTEA_PP(0));
    PG_RETURN_POINTER(sketch_from_binary(b.data, b.len, kValidate, States::type_name));
  }
};

}  // namespace sketch::pg

// The fmgr entry points <prefix>_in, _out, _recv, _send and _from_bytea of
// a TypeIO instantiation (variadic: its template arguments hold commas).
#define SKETCH_TYPE_IO(prefix, ...)                                                                \
  extern "C" {                                                                                     \
  PG_FUNCTION_INFO_V1(prefix##_in);                                                                \
  PG_FUNCTION_INFO_V1(prefix##_out);                                                               \
  PG_FUNCTION_INFO_V1(prefix##_recv);                                                              \
  PG_FUNCTION_INFO_V1(prefix##_send);                                                              \
  PG_FUNCTION_INFO_V1(prefix##_from_bytea);                                                        \
  }                                                                                                \
  extern "C" Datum prefix##_in(PG_FUNCTION_ARGS) { return __VA_ARGS__::in(fcinfo); }               \
  extern "C" Datum prefix##_out(PG_FUNCTION_ARGS) { return __VA_ARGS__::out(fcinfo); }             \
  extern "C" Datum prefix##_recv(PG_FUNCTION_ARGS) { return __VA_ARGS__::recv(fcinfo); }           \
  extern "C" Datum prefix##_send(PG_FUNCTION_ARGS) { return __VA_ARGS__::send(fcinfo); }           \
  extern "C" Datum prefix##_from_bytea(PG_FUNCTION_ARGS) { return __VA_ARGS__::from_bytea(fcinfo); }
