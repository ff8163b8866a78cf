// cms aggregates: cms_agg, cms_agg_weighted, cms_agg_sized,
// cms_agg_weighted_sized and cms_union.
//
// The state type is cms itself, in its working encoding, so parallel query,
// window use and distributed engines can move states without serial
// functions. Every state goes through the shared mechanism
// (aggregate_state.h); a new state is returned only when the candidate texts
// outgrow their arena or a merge needs a longer list.
//
// Per row the work is: compare the parameter arguments with the previous
// row's (a memo in fn_extra, so epsilon and delta are turned into width and
// depth once), hash the value, d counter updates and, for values at or above
// the weakest candidate, an index probe (and a heap step only when the list
// changes or its weakest entry must be refreshed). All of it is inlined
// here (cms_state_add and the core's inline add). Nothing is
// allocated unless a value enters the candidate list, which is when its
// output function runs.

#include "pg/cms/cms_datum.h"
#include "pg/common/call_site.h"


extern "C" {
PG_FUNCTION_INFO_V1(cms_agg_trans);
PG_FUNCTION_INFO_V1(cms_agg_weighted_trans);
PG_FUNCTION_INFO_V1(cms_agg_sized_trans);
PG_FUNCTION_INFO_V1(cms_agg_weighted_sized_trans);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// How a transition function reads its arguments: (state, value [, count],
// p0, p1 [, conservative [, k]]) where p0, p1 are epsilon and delta, or
// width and depth.
struct AggSpec {
  bool weighted;
  bool sized;
};

constexpr int kMaxParams = 4;

// fn_extra of the transition functions: the value's hasher and output
// function, and the parameters of the last row's parameter arguments (those
// a call site does not pass count as 0).
using AggSite = CallSite<cms::Params, kMaxParams, ItemSource>;

const char* param_name(const AggSpec& spec, int i) {
  static const char* const accuracy[] = {"epsilon", "delta", "conservative", "k"};
  static const char* const size[] = {"width", "depth", "conservative", "k"};
  return spec.sized ? size[i] : accuracy[i];
}

// Parameter i of a row as a number: epsilon/delta (float8) or width/depth
// (int4), then conservative (bool) and k (int4). Each converts to double
// exactly.
double param_value(FunctionCallInfo fcinfo, const AggSpec& spec, int first, int i) {
  const int arg = first + i;
  if (i == 2) return PG_GETARG_BOOL(arg) ? 1.0 : 0.0;
  if (i == 3 || spec.sized) return PG_GETARG_INT32(arg);
  return PG_GETARG_FLOAT8(arg);
}

// The parameters of this row. Parameter arguments are almost always
// constants, so they are resolved (and validated) once and then only compared.
const cms::Params& agg_params(FunctionCallInfo fcinfo, AggSite* site, const AggSpec& spec) {
  const int first = spec.weighted ? 3 : 2;
  const int count = PG_NARGS() - first;
  // cms_agg(v), the common call: no parameter arguments to read or compare
  // once the first row has resolved the defaults (a call site's argument
  // count never changes). Without this each row paid ~50 instructions
  // zeroing and comparing four unused arguments (+14% per row over 0.2.0).
  if (count == 0 && likely(site->resolved)) return site->params;
  double args[kMaxParams] = {0, 0, 0, 0};
  for (int i = 0; i < count; i++) {
    if (PG_ARGISNULL(first + i))
      ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                      errmsg("cms %s must not be NULL", param_name(spec, i))));
    args[i] = param_value(fcinfo, spec, first, i);
  }
  return site->params_for(args, [&] {
    if (count == 0) return cms::default_params();
    const bool conservative = count > 2 && PG_GETARG_BOOL(first + 2);
    // Both sides int64: a uint32 default would turn a negative k into 4294967295.
    const int64 k = count > 3 ? int64{PG_GETARG_INT32(first + 3)} : int64{cms::kDefaultCandidates};
    return spec.sized ? cms_params_for_size(PG_GETARG_INT32(first), PG_GETARG_INT32(first + 1),
                                            conservative, k)
                      : cms_params_for_accuracy(PG_GETARG_FLOAT8(first),
                                                PG_GETARG_FLOAT8(first + 1), conservative, k);
  });
}

const char* mode_name(bool conservative) { return conservative ? "conservative" : "plain"; }

// The state was created from the first row's parameters; parameters that
// change between rows would silently be ignored otherwise.
void check_state_params(const uint8_t* state, const cms::Params& p) {
  const cms::Params s = cms::params_of(state);
  if (s.width == p.width && s.depth == p.depth && s.candidates == p.candidates &&
      s.conservative == p.conservative)
    return;
  raise_parameters_changed(
      "cms aggregate parameters must be the same for every row",
      psprintf("The aggregate started with width %u, depth %u, k %u, %s update and now got "
               "width %u, depth %u, k %u, %s update.",
               s.width, s.depth, s.candidates, mode_name(s.conservative), p.width, p.depth,
               p.candidates, mode_name(p.conservative)));
}

Datum agg_trans(FunctionCallInfo fcinfo, const AggSpec& spec) {
  AggSite* site = AggSite::of(fcinfo);
  const cms::Params& params = agg_params(fcinfo, site, spec);
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  uint64 count = 1;
  if (spec.weighted && !cms_weight(fcinfo, 2, false, &count)) return keep_state(fcinfo);
  const Datum value = PG_GETARG_DATUM(1);
  const uint64 hash = hash_element64(&site->value.hasher, value);
  uint8_t* state = CmsStates::take_or_make(
      fcinfo, site->in_aggregate, [&] { return cms_new_state(params); },
      [&](const uint8_t* s) { check_state_params(s, params); });
  return CmsStates::give(fcinfo, cms_state_add(state, hash, count, &site->value, value),
                         site->in_aggregate);
}

}  // namespace

// cms_agg_trans(state cms, value anyelement [, epsilon, delta [, conservative [, k]]])
extern "C" Datum cms_agg_trans(PG_FUNCTION_ARGS) { return agg_trans(fcinfo, {false, false}); }

// cms_agg_weighted_trans(state cms, value anyelement, count bigint
//                        [, epsilon, delta [, conservative [, k]]])
extern "C" Datum cms_agg_weighted_trans(PG_FUNCTION_ARGS) {
  return agg_trans(fcinfo, {true, false});
}

// cms_agg_sized_trans(state cms, value anyelement, width, depth [, conservative [, k]])
extern "C" Datum cms_agg_sized_trans(PG_FUNCTION_ARGS) { return agg_trans(fcinfo, {false, true}); }

// cms_agg_weighted_sized_trans(state cms, value anyelement, count bigint,
//                              width, depth [, conservative [, k]])
extern "C" Datum cms_agg_weighted_sized_trans(PG_FUNCTION_ARGS) {
  return agg_trans(fcinfo, {true, true});
}

SKETCH_UNION_AND_FINAL(cms, CmsStates)
