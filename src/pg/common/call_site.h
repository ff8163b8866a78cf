// What a transition function keeps in fn_extra between the rows of one call
// site: the value's hasher (or item source), whether the site runs inside an
// aggregate, and the parameters its parameter arguments resolved to.
//
// Parameter arguments (n and p, epsilon and delta, k, ...) are almost always
// constants, so they are checked and sized once per query and then only
// compared: a row whose arguments differ from the previous row's resolves
// them again (and its state then refuses them if they do not fit it). They
// are compared as values converted to double exactly, never as Datums:
// float8 and int8 may be passed by reference.
#pragma once

#include "pg/common/aggregate_state.h"
#include "pg/common/element_hash.h"
#include "pg/common/fn_extra.h"
#include "pg/common/item_text.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

// A call site whose values need no per-type setup (ddsketch takes float8).
struct NoValue {};

// The value at argument 1, set up once per call site.
inline void init_call_site_value(FunctionCallInfo fcinfo, ElementHasher* hasher) {
  init_element_hasher(fcinfo, 1, hasher);
}
inline void init_call_site_value(FunctionCallInfo fcinfo, ItemSource* source) {
  init_item_source(fcinfo, 1, source);
}
inline void init_call_site_value(FunctionCallInfo, NoValue*) {}

template <class Params, int kArgs, class Value = ElementHasher>
struct CallSite {
  Value value;
  bool in_aggregate;  // a call site is in an aggregate or never is
  bool resolved;
  double args[kArgs];  // the arguments `params` came from
  Params params;

  // The call site's cache, made (zeroed, in fn_mcxt) on its first row.
  static CallSite* of(FunctionCallInfo fcinfo) {
    return fn_extra_of<CallSite>(fcinfo, [fcinfo](CallSite* site) {
      init_call_site_value(fcinfo, &site->value);
      site->in_aggregate = sketch::pg::in_aggregate(fcinfo);
    });
  }

  // The parameters of a row whose parameter arguments are `row`:
  // `resolve()` (which checks them and raises on bad ones) runs only when
  // they differ from the last row's.
  template <class Resolve>
  pg_attribute_always_inline const Params& params_for(const double (&row)[kArgs],
                                                      Resolve resolve) {
    bool same = resolved;
    for (int i = 0; i < kArgs; i++) same = same && row[i] == args[i];
    if (likely(same)) return params;
    params = resolve();
    for (int i = 0; i < kArgs; i++) args[i] = row[i];
    resolved = true;
    return params;
  }

  // params_for a filter's (n bigint, p float8) at arguments `first` and
  // first + 1, sized by `sized(n, p)` (which raises on bad ones). args then
  // holds the row's n and p.
  template <class Sized>
  pg_attribute_always_inline const Params& params_for_n_p(FunctionCallInfo fcinfo, int first,
                                                          Sized sized) {
    static_assert(kArgs == 2, "a call site of (n, p)");
    const double row[2] = {static_cast<double>(PG_GETARG_INT64(first)),
                           PG_GETARG_FLOAT8(first + 1)};
    return params_for(row,
                      [&] { return sized(PG_GETARG_INT64(first), PG_GETARG_FLOAT8(first + 1)); });
  }
};

// ERROR 22004 unless every argument from `first` on is given: an aggregate's
// parameters (n and p, ...) have no meaning as NULL. `aggregate` and
// `names` name them ("bloom_agg", "n and p").
// Inline: it runs on every row of every parameterised transition function,
// and out of line it cost ~32 instructions a row (cuckoo_agg, counting_bloom_agg).
SKETCH_NORETURN void raise_null_parameters(const char* aggregate, const char* names);
inline void require_parameters(FunctionCallInfo fcinfo, int first, const char* aggregate,
                               const char* names) {
  for (int i = first; i < PG_NARGS(); i++)
    if (unlikely(PG_ARGISNULL(i))) raise_null_parameters(aggregate, names);
}

// A weight argument (bigint, or integer when `int4`): false for NULL and 0
// (the row adds nothing), ERROR 22023 when negative, naming it as `what`
// ("cms count") with `hint`.
bool weight_arg(FunctionCallInfo fcinfo, int argno, bool int4, const char* what,
                const char* hint, uint64* weight);

// ERROR 22023 for a row whose parameters differ from those its state was
// started with: a state keeps its first row's parameters, and ignoring
// another row's would be silent. `message` and `detail` are complete texts.
SKETCH_NORETURN void raise_parameters_changed(const char* message, const char* detail);

}  // namespace sketch::pg
