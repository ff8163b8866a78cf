// counting_bloom aggregates: counting_bloom_agg(value, n, p) and
// counting_bloom_union(counting_bloom).
//
// The state type is counting_bloom itself, so parallel workers, window
// frames and distributed engines move states without serial functions.
// Every state goes through the shared mechanism (aggregate_state.h): per row
// one hash and k counter increments, with no allocation. A state of 1 MiB or
// more is a working state (core/counting_bloom/counting_bloom.h) that counts
// each value a few rows after prefetching its cells, as bloom_agg's does;
// the final function returns the stored form.
#include "pg/common/call_site.h"
#include "pg/common/element_hash.h"
#include "pg/counting_bloom/counting_bloom_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(counting_bloom_agg_trans);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of the transition function: the value's hasher and the filter
// parameters of the last (n, p) seen.
using AggSite = CallSite<counting_bloom::Params, 2>;

uint8_t* new_state(const counting_bloom::Params& params, bool in_agg) {
  const bool deferred = in_agg && counting_bloom::defer_adds(params.cells);
  uint8_t* state = CountingBloomStates::allocate(
      deferred ? counting_bloom::working_size(params.cells)
               : counting_bloom::filter_size(params.cells));
  counting_bloom::write_empty(state, params,
                              deferred ? counting_bloom::Encoding::kQueued
                                       : counting_bloom::Encoding::kStored);
  return state;
}

pg_noinline void report_other_params(const uint8* filter, const counting_bloom::Params& params,
                                     double n, double p) {
  raise_parameters_changed(
      "counting_bloom_agg parameters n and p must be the same for every row",
      psprintf("The filter was started with m=%llu cells and k=%d hashes; this row's "
               "n = %.0f and p = %g give m=%llu and k=%d.",
               static_cast<unsigned long long>(counting_bloom::cells_of(filter)),
               counting_bloom::hashes_of(filter), n, p,
               static_cast<unsigned long long>(params.cells), params.hashes));
}

}  // namespace

// counting_bloom_agg_trans(state counting_bloom, value anyelement, n bigint,
// p float8)
extern "C" Datum counting_bloom_agg_trans(PG_FUNCTION_ARGS) {
  require_parameters(fcinfo, 2, "counting_bloom_agg", "n and p");
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  AggSite* site = AggSite::of(fcinfo);
  const counting_bloom::Params& params = site->params_for_n_p(fcinfo, 2, counting_bloom_sized);
  counting_bloom::Family::Element element{hash_element128(&site->value, PG_GETARG_DATUM(1))};
  const bool in_agg = site->in_aggregate;
  uint8_t* state = PG_ARGISNULL(0) ? new_state(params, in_agg)
                                   : CountingBloomStates::take(fcinfo, in_agg);
  if (unlikely(counting_bloom::cells_of(state) != params.cells ||
               counting_bloom::hashes_of(state) != params.hashes))
    report_other_params(state, params, site->args[0], site->args[1]);
  CountingBloomStates::accept_kind(state, &site->value);
  return CountingBloomStates::give(fcinfo, CountingBloomStates::add(state, element), in_agg);
}

SKETCH_UNION_AND_FINAL(counting_bloom, CountingBloomStates)
