// ddsketch aggregates: ddsketch_agg(value [, relative_accuracy [,
// max_buckets]]), its weighted form ddsketch_agg(value, count [,
// relative_accuracy [, max_buckets]]) and ddsketch_union(sketch), all
// through the shared state
// mechanism (pg/common/aggregate_state.h): a state is written in place only
// when it is a working state the executor owns, copied into one otherwise.
#include <cmath>

#include "pg/common/call_site.h"
#include "pg/ddsketch/ddsketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(ddsketch_agg_trans);
PG_FUNCTION_INFO_V1(ddsketch_agg_weighted_trans);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of ddsketch_agg_trans: the parameters of the last
// (relative_accuracy, max_buckets) seen; values are float8, hashed by none.
using AggSite = CallSite<ddsketch::Params, 2, NoValue>;

pg_noinline void report_other_params(const uint8_t* state, const ddsketch::Params& params,
                                     double relative_accuracy, int32 max_buckets) {
  const int scale = ddsketch::scale_of(state);
  raise_parameters_changed(
      "ddsketch_agg parameters relative_accuracy and max_buckets must be the same for every row",
      psprintf("The sketch was started at scale %d (relative accuracy %g) with %u buckets; this "
               "row's relative_accuracy = %g and max_buckets = %d give scale %d with %u buckets.",
               scale, ddsketch::relative_accuracy(scale), ddsketch::max_buckets_of(state),
               relative_accuracy, max_buckets, params.scale, params.max_buckets));
}

// ddsketch_agg(value, n) with an integer n resolves to (value,
// relative_accuracy): PostgreSQL prefers double precision, the numeric
// category's preferred type, over bigint. No integer is a valid accuracy
// (0 < alpha < 1), so such a call is refused anyway; its hint says how to
// mean a count.
ddsketch::Params accuracy_params(FunctionCallInfo fcinfo, int first, double relative_accuracy,
                                 int32 max_buckets) {
  if (first == 2 && relative_accuracy >= 1 &&
      relative_accuracy == std::floor(relative_accuracy))
    return ddsketch_params(relative_accuracy, max_buckets,
                           "For a weighted row pass the count as bigint: ddsketch_agg(value, "
                           "count::bigint); an integer second argument is read as the relative "
                           "accuracy.");
  return ddsketch_params(relative_accuracy, max_buckets);
}

// The state a row adds to, its parameters at arguments `first` (relative
// accuracy) and `first` + 1 (max_buckets) when given: a new one on the
// group's first row, else argument 0 taken as a working state, whose
// parameters must be the row's.
// (The caller has checked that none is NULL: require_parameters.)
pg_attribute_always_inline uint8_t* state_for_row(FunctionCallInfo fcinfo, int first,
                                                  bool* in_agg) {
  AggSite* site = AggSite::of(fcinfo);
  const double relative_accuracy =
      PG_NARGS() > first ? PG_GETARG_FLOAT8(first) : ddsketch::kDefaultRelativeAccuracy;
  const int32 max_buckets = PG_NARGS() > first + 1
                                ? PG_GETARG_INT32(first + 1)
                                : static_cast<int32>(ddsketch::kDefaultMaxBuckets);
  const double args[2] = {relative_accuracy, static_cast<double>(max_buckets)};
  const ddsketch::Params& params = site->params_for(
      args, [&] { return accuracy_params(fcinfo, first, relative_accuracy, max_buckets); });
  *in_agg = site->in_aggregate;
  uint8_t* state =
      PG_ARGISNULL(0) ? ddsketch_new_state(params) : DdsketchStates::take(fcinfo, *in_agg);
  if (unlikely(ddsketch::scale_of(state) != params.scale ||
               ddsketch::max_buckets_of(state) != params.max_buckets))
    report_other_params(state, params, relative_accuracy, max_buckets);
  return state;
}

}  // namespace

// ddsketch_agg_trans(state ddsketch, value float8 [, relative_accuracy float8
// [, max_buckets integer]])
extern "C" Datum ddsketch_agg_trans(PG_FUNCTION_ARGS) {
  require_parameters(fcinfo, 2, "ddsketch_agg", "relative_accuracy and max_buckets");
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  const double value = PG_GETARG_FLOAT8(1);
  ddsketch_check_value(value);
  bool in_agg;
  uint8_t* state = state_for_row(fcinfo, 2, &in_agg);
  ddsketch::Family::Element element{value};
  return DdsketchStates::give(fcinfo, DdsketchStates::add(state, element), in_agg);
}

// ddsketch_agg_weighted_trans(state ddsketch, value float8, count bigint [,
// relative_accuracy float8 [, max_buckets integer]]): the value `count`
// times in one step, the same bytes as that many rows. A NULL value or a
// NULL or 0 count adds nothing; a negative count is 22023, a total beyond
// 2^64 - 1 values 22003 (checked before anything is added).
extern "C" Datum ddsketch_agg_weighted_trans(PG_FUNCTION_ARGS) {
  require_parameters(fcinfo, 3, "ddsketch_agg", "relative_accuracy and max_buckets");
  uint64 weight = 0;
  if (PG_ARGISNULL(1) || !ddsketch_weight_arg(fcinfo, 2, &weight)) return keep_state(fcinfo);
  const double value = PG_GETARG_FLOAT8(1);
  ddsketch_check_value(value);
  bool in_agg;
  uint8_t* state = state_for_row(fcinfo, 3, &in_agg);
  ddsketch_check_fits(state, weight);
  ddsketch::Family::Element element{value, weight};
  return DdsketchStates::give(fcinfo, DdsketchStates::add(state, element), in_agg);
}

SKETCH_UNION_AND_FINAL(ddsketch, DdsketchStates)
