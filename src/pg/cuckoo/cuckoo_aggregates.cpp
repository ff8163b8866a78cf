// cuckoo aggregates: cuckoo_agg(value, n, p) and cuckoo_union(cuckoo).
//
// The state type is cuckoo itself. Every state goes through the shared
// mechanism (aggregate_state.h): per row one hash, a probe of the state's
// seen set of 128-bit hashes (a value seen before is not added again) and,
// for a new value, a fingerprint copy in its buckets and its hash in the set,
// with no allocation (core/cuckoo/cuckoo.h: one copy per distinct value).
// A state that fills up grows by a sub-filter (core/cuckoo/cuckoo.h).
#include "pg/common/call_site.h"
#include "pg/common/element_hash.h"
#include "pg/cuckoo/cuckoo_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(cuckoo_agg_trans);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of the transition function: the value's hasher and the filter
// parameters of the last (n, p) seen.
using AggSite = CallSite<cuckoo::Params, 2>;

pg_noinline void report_other_params(const uint8* filter, const cuckoo::Params& params, double n,
                                     double p) {
  raise_parameters_changed(
      "cuckoo_agg parameters n and p must be the same for every row",
      psprintf("The filter was started with fingerprint_bits=%d and %llu buckets; this row's "
               "n = %.0f and p = %g give fingerprint_bits=%d and %llu buckets.",
               cuckoo::fingerprint_bits_of(filter),
               static_cast<unsigned long long>(load_le64(filter + cuckoo::kFirstSubfilterOffset)),
               n, p, params.fingerprint_bits, static_cast<unsigned long long>(params.buckets)));
}

}  // namespace

// cuckoo_agg_trans(state cuckoo, value anyelement, n bigint, p float8)
extern "C" Datum cuckoo_agg_trans(PG_FUNCTION_ARGS) {
  require_parameters(fcinfo, 2, "cuckoo_agg", "n and p");
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  AggSite* site = AggSite::of(fcinfo);
  const cuckoo::Params& params =
      site->params_for_n_p(fcinfo, 2, [](int64 n, double p) { return cuckoo_sized(n, p, 4); });
  // One copy per distinct value (duplicates removed by the 128-bit hash in
  // the state's seen set, never by fingerprint: core/cuckoo/cuckoo.h).
  cuckoo::Family::Element element{hash_element128(&site->value, PG_GETARG_DATUM(1)), false,
                                  true};
  const bool in_agg = site->in_aggregate;
  uint8_t* state;
  if (PG_ARGISNULL(0)) {
    state = cuckoo_new_state(params, in_agg);
  } else {
    state = CuckooStates::take(fcinfo, in_agg);
    if (unlikely(in_agg && !cuckoo::has_seen_set(cuckoo::encoding_of(state))))
      state = cuckoo_distinct_state(state);
  }
  // The first sub-filter and f say which (n, p) started the filter.
  if (unlikely(cuckoo::fingerprint_bits_of(state) != params.fingerprint_bits ||
               cuckoo::bucket_size_of(state) != params.bucket_size ||
               load_le64(state + cuckoo::kFirstSubfilterOffset) != params.buckets))
    report_other_params(state, params, site->args[0], site->args[1]);
  CuckooStates::accept_kind(state, &site->value);
  return CuckooStates::give(fcinfo, cuckoo_add_element(state, element), in_agg);
}

SKETCH_UNION_AND_FINAL(cuckoo, CuckooStates)
