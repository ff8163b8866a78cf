// ddsketch aggregates: ddsketch_agg(value [, relative_accuracy [,
// max_buckets]]) and ddsketch_union(sketch), all through the shared state
// mechanism (pg/common/aggregate_state.h): a state is written in place only
// when it is a working state the executor owns, copied into one otherwise.
#include "pg/common/call_site.h"
#include "pg/ddsketch/ddsketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(ddsketch_agg_trans);
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

}  // namespace

// ddsketch_agg_trans(state ddsketch, value float8 [, relative_accuracy float8
// [, max_buckets integer]])
extern "C" Datum ddsketch_agg_trans(PG_FUNCTION_ARGS) {
  require_parameters(fcinfo, 2, "ddsketch_agg", "relative_accuracy and max_buckets");
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  const double value = PG_GETARG_FLOAT8(1);
  ddsketch_check_value(value);
  AggSite* site = AggSite::of(fcinfo);
  const double relative_accuracy =
      PG_NARGS() > 2 ? PG_GETARG_FLOAT8(2) : ddsketch::kDefaultRelativeAccuracy;
  const int32 max_buckets =
      PG_NARGS() > 3 ? PG_GETARG_INT32(3) : static_cast<int32>(ddsketch::kDefaultMaxBuckets);
  const double args[2] = {relative_accuracy, static_cast<double>(max_buckets)};
  const ddsketch::Params& params =
      site->params_for(args, [&] { return ddsketch_params(relative_accuracy, max_buckets); });
  const bool in_agg = site->in_aggregate;
  uint8_t* state =
      PG_ARGISNULL(0) ? ddsketch_new_state(params) : DdsketchStates::take(fcinfo, in_agg);
  if (unlikely(ddsketch::scale_of(state) != params.scale ||
               ddsketch::max_buckets_of(state) != params.max_buckets))
    report_other_params(state, params, relative_accuracy, max_buckets);
  ddsketch::Family::Element element{value};
  return DdsketchStates::give(DdsketchStates::add(state, element), in_agg);
}

SKETCH_UNION_AND_FINAL(ddsketch, DdsketchStates)
