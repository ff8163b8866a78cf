// What the two distinct counters hll and ell share in SQL: one hashed value
// per row into a sketch of precision p, given as the aggregate's optional
// last argument (the same for every row) or as the <type>(p) typmod.
//
// A family describes itself with a PrecisionFamily and gets its
// <type>_agg transition function and its typmod functions from here.
#pragma once

#include "core/common/saturate.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/call_site.h"
#include "pg/common/element_hash.h"
#include "pg/common/postgres_headers.h"
#include "pg/common/result_row.h"

namespace sketch::pg {

struct PrecisionFamily {
  const char* type_name;
  int default_precision;
  void (*check_precision)(int p);  // ERROR 22023 naming the range
  uint8_t* (*new_state)(int p);    // an empty working state
  int (*precision_of)(const uint8_t* state);
};

// <type>_typmod_in: exactly one modifier, a valid precision.
int32 precision_typmod_in(FunctionCallInfo fcinfo, const PrecisionFamily& family);
// <type>_typmod_out: "(p)", or nothing for no modifier.
Datum precision_typmod_out(FunctionCallInfo fcinfo);

// ERROR 22023 for a value of precision p stored into a <type>(typmod)
// column with typmod > p: precision is lowered, never raised (`detail`
// says how the family lowers it).
SKETCH_NORETURN void raise_precision_not_raised(const PrecisionFamily& family, int p,
                                                int32 typmod, const char* detail);

// <type>_agg_trans(state, value anyelement [, p integer]): NULL values are
// skipped, the first row makes the state at p (default when absent), a
// later row with another p is an ERROR, a value of another element kind
// than the state's is an ERROR.
template <class States, const PrecisionFamily& kFamily>
Datum precision_agg_trans(FunctionCallInfo fcinfo) {
  const bool has_precision = PG_NARGS() > 2;
  if (has_precision && PG_ARGISNULL(2))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("%s precision must not be NULL", kFamily.type_name)));
  const int p = has_precision ? PG_GETARG_INT32(2) : kFamily.default_precision;
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  // The state's header is read right after hashing, and in a GROUP BY over
  // many groups it is a cache miss on nearly every row: ask for it now so
  // that the miss overlaps the hashing (a prefetch never faults, whatever
  // the pointer).
  if (!PG_ARGISNULL(0)) __builtin_prefetch(DatumGetPointer(PG_GETARG_DATUM(0)));
  const bool in_agg = in_aggregate(fcinfo);
  const ElementHasher* hasher = element_hasher(fcinfo, 1);
  typename States::Traits::Element element{hash_element64(hasher, PG_GETARG_DATUM(1))};
  uint8_t* state;
  if (PG_ARGISNULL(0)) {
    kFamily.check_precision(p);
    state = kFamily.new_state(p);
  } else {
    state = States::take(fcinfo, in_agg);
    // The state was created at its precision by the first row; a precision
    // that changes between rows would silently be ignored otherwise.
    const int state_p = kFamily.precision_of(state);
    if (has_precision && state_p != p)
      raise_parameters_changed(
          psprintf("%s precision must be the same for every row of %s_agg", kFamily.type_name,
                   kFamily.type_name),
          psprintf("The aggregate started with p = %d and now got p = %d.", state_p, p));
  }
  States::accept_kind(state, hasher);
  return States::give(fcinfo, States::add(state, element), in_agg);
}

// <type>_cardinality_bounds(sketch, confidence): ERROR 22023 unless
// 0 < confidence < 1, NULL for a NULL confidence, (0, 0) for a NULL sketch
// (the rollup of no rows). `bounds(view, confidence)` is the family's
// interval around `estimate(view)`; the answer is rounded outwards,
// saturating, never below 0 nor on the wrong side of the estimate
// <type>_cardinality answers.
template <class States, class BoundsFn, class EstimateFn>
Datum count_bounds(FunctionCallInfo fcinfo, const char* function, BoundsFn bounds,
                   EstimateFn estimate) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  const double confidence = PG_GETARG_FLOAT8(1);
  if (!(confidence > 0.0 && confidence < 1.0))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("confidence must be between 0 and 1 (exclusive), got %g", confidence)));
  double lower = 0.0, upper = 0.0, n = 0.0;
  if (!PG_ARGISNULL(0)) {
    const typename States::View v = States::view_arg(fcinfo, 0);
    const auto b = bounds(v, confidence);
    lower = b.lower;
    upper = b.upper;
    n = estimate(v);
  }
  const Int64Bounds b = count_bounds_int64(lower, upper, saturating_int64(n));
  const Datum values[2] = {Int64GetDatum(b.lower), Int64GetDatum(b.upper)};
  return result_row(fcinfo, function, values, 2);
}

}  // namespace sketch::pg

// <prefix>_typmod_in, <prefix>_typmod_out and <prefix>_enforce_typmod (the
// <type>(p) length coercion) of a family, from its PrecisionFamily and its
// rule `apply(value, typmod)`, which text input and recv apply too.
#define SKETCH_PRECISION_TYPMOD(prefix, kFamily, apply)                                  \
  extern "C" {                                                                           \
  PG_FUNCTION_INFO_V1(prefix##_typmod_in);                                               \
  PG_FUNCTION_INFO_V1(prefix##_typmod_out);                                              \
  PG_FUNCTION_INFO_V1(prefix##_enforce_typmod);                                          \
  }                                                                                      \
  extern "C" Datum prefix##_typmod_in(PG_FUNCTION_ARGS) {                                \
    PG_RETURN_INT32(sketch::pg::precision_typmod_in(fcinfo, kFamily));                   \
  }                                                                                      \
  extern "C" Datum prefix##_typmod_out(PG_FUNCTION_ARGS) {                               \
    return sketch::pg::precision_typmod_out(fcinfo);                                     \
  }                                                                                      \
  extern "C" Datum prefix##_enforce_typmod(PG_FUNCTION_ARGS) {                           \
    PG_RETURN_POINTER(apply(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)), PG_GETARG_INT32(1)));  \
  }
