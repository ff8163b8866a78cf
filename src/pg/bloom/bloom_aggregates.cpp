// bloom aggregates: bloom_agg(value, n, p), bloom_agg_bits(value, bits,
// hashes) and bloom_union(bloom).
//
// The state type is bloom itself, so parallel workers, window frames and
// distributed engines move states without serial functions. Every state goes
// through the shared mechanism (aggregate_state.h): per row one hash and k
// bit sets, with no allocation and no type dispatch beyond the cached hasher. A bloom_agg
// state of 1 MiB or more is a working state (core/bloom/bloom.h) that sets each
// value's bits a few rows after prefetching them; the final function returns
// the stored form. Smaller states, and bloom_union's, are stored filters.
#include "pg/bloom/bloom_datum.h"
#include "pg/common/call_site.h"
#include "pg/common/element_hash.h"

extern "C" {
PG_FUNCTION_INFO_V1(bloom_agg_trans);
PG_FUNCTION_INFO_V1(bloom_agg_bits_trans);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of the bloom_agg transition functions: the value's hasher and
// the filter parameters of the last (n, p) or (bits, hashes) seen.
using AggSite = CallSite<bloom::Params, 2>;

// A sizing by the two arguments after the value: (n bigint, p float8) or
// (bits bigint, hashes integer). Template arguments of agg_trans, so that
// reading them inlines into the per-row path.
struct ByNAndP {
  static bloom::Params size(FunctionCallInfo fcinfo) {
    return bloom_sized(PG_GETARG_INT64(2), PG_GETARG_FLOAT8(3));
  }
  static double arg3(FunctionCallInfo fcinfo) { return PG_GETARG_FLOAT8(3); }  // exactly
  static constexpr const char* kName = "bloom_agg";
  static constexpr const char* kArgs = "n and p";
  static constexpr const char* kArgNames[2] = {"n", "p"};
};

struct ByBitsAndHashes {
  static bloom::Params size(FunctionCallInfo fcinfo) {
    return bloom_params(PG_GETARG_INT64(2), PG_GETARG_INT32(3));
  }
  static double arg3(FunctionCallInfo fcinfo) { return PG_GETARG_INT32(3); }
  static constexpr const char* kName = "bloom_agg_bits";
  static constexpr const char* kArgs = "bits and hashes";
  static constexpr const char* kArgNames[2] = {"bits", "hashes"};
};

// The detail names the row's own arguments (n and p, or bits and hashes)
// beside the filter parameters they give, since that is what the user wrote.
template <class Sizing>
pg_noinline void report_other_params(const uint8* filter, const bloom::Params& params,
                                     const double (&args)[2]) {
  raise_parameters_changed(
      psprintf("%s parameters %s must be the same for every row", Sizing::kName, Sizing::kArgs),
      psprintf("The filter was started with m=%llu bits and k=%d hashes; this row's "
               "%s = %.0f and %s = %g give m=%llu and k=%d.",
               static_cast<unsigned long long>(bloom::bits_of(filter)), bloom::hashes_of(filter),
               Sizing::kArgNames[0], args[0], Sizing::kArgNames[1], args[1],
               static_cast<unsigned long long>(params.bits), params.hashes));
}

// (state bloom, value anyelement, a, b): adds the value to the state, sized
// by Sizing from (a, b) when the state is new. Parameters may differ between
// groups but not between the rows of one group.
template <class Sizing>
Datum agg_trans(FunctionCallInfo fcinfo) {
  require_parameters(fcinfo, 2, Sizing::kName, Sizing::kArgs);
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  AggSite* site = AggSite::of(fcinfo);
  const double args[2] = {static_cast<double>(PG_GETARG_INT64(2)), Sizing::arg3(fcinfo)};
  const bloom::Params& params = site->params_for(args, [&] { return Sizing::size(fcinfo); });
  bloom::Family::Element element{hash_element128(&site->value, PG_GETARG_DATUM(1))};
  const bool in_agg = site->in_aggregate;
  uint8_t* state =
      PG_ARGISNULL(0) ? bloom_new_state(params, in_agg) : BloomStates::take(fcinfo, in_agg);
  if (unlikely(bloom::bits_of(state) != params.bits || bloom::hashes_of(state) != params.hashes))
    report_other_params<Sizing>(state, params, args);
  BloomStates::accept_kind(state, &site->value);
  return BloomStates::give(fcinfo, BloomStates::add(state, element), in_agg);
}

}  // namespace

// bloom_agg_trans(state bloom, value anyelement, n bigint, p float8)
extern "C" Datum bloom_agg_trans(PG_FUNCTION_ARGS) {
  return agg_trans<ByNAndP>(fcinfo);
}

// bloom_agg_bits_trans(state bloom, value anyelement, bits bigint, hashes integer)
extern "C" Datum bloom_agg_bits_trans(PG_FUNCTION_ARGS) {
  return agg_trans<ByBitsAndHashes>(fcinfo);
}

SKETCH_UNION_AND_FINAL(bloom, BloomStates)
