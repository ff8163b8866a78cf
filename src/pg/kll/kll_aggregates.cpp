// kll aggregates: kll_agg(value [, k]) and the weighted kll_agg(value,
// weight, k) for each value type (double precision, bigint, timestamp,
// timestamptz, date), and kll_union(sketch), all through the shared state
// mechanism (pg/common/aggregate_state.h): a state is written in place only
// when it is a working state the executor owns, copied into one otherwise.
#include "pg/common/call_site.h"
#include "pg/kll/kll_datum.h"

using namespace sketch;
using namespace sketch::pg;

namespace {

// fn_extra of the kll_agg transition functions: whether the site is in an
// aggregate, the k of the last row (checked once per query, then compared)
// and the TrustedState every fn_extra starts with, so that a state handed
// back in place skips the O(levels) shape check on the next row
// (trusted_state.h): without a fn_extra that check and AggCheckCallContext
// ran on every row.
using AggSite = CallSite<uint32_t, 1, NoValue>;

pg_noinline void report_other_k(const uint8_t* state, int32 k) {
  raise_parameters_changed("kll_agg parameter k must be the same for every row",
                           psprintf("The sketch was started with k = %u; this row has k = %d.",
                                    kll::k_of(state), k));
}

// The state a row adds to: a new one on the group's first row, else
// argument 0 taken as a working state, whose k must be the row's; the
// value's kind accepted (one byte compare).
pg_attribute_always_inline uint8_t* state_for_row(FunctionCallInfo fcinfo, int k_arg,
                                                  ElementKind kind, bool* in_agg) {
  AggSite* site = AggSite::of(fcinfo);
  const int32 k = PG_NARGS() > k_arg ? PG_GETARG_INT32(k_arg) : static_cast<int32>(kll::kDefaultK);
  const double args[1] = {static_cast<double>(k)};
  const uint32_t checked_k = site->params_for(args, [k] { return kll_k_arg(k); });
  *in_agg = site->in_aggregate;
  uint8_t* state = PG_ARGISNULL(0) ? kll_new_state(checked_k) : KllStates::take(fcinfo, *in_agg);
  if (unlikely(kll::k_of(state) != static_cast<uint32_t>(k))) report_other_k(state, k);
  if (unlikely(element_kind_of(state) != kind))
    KllStates::raise_if(state::accept_kind(state, kind));
  return state;
}

template <KllType kType>
Datum agg_trans(FunctionCallInfo fcinfo) {
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  if (PG_NARGS() > 2 && PG_ARGISNULL(2))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("kll_agg parameter k must not be NULL")));
  kll::Family::Element element{kll_key_arg(fcinfo, 1, kType)};
  bool in_agg;
  uint8_t* state = state_for_row(fcinfo, 2, kll_kind_of(kType), &in_agg);
  return KllStates::give(fcinfo, KllStates::add(state, element), in_agg);
}

// (state, value, weight bigint, k integer): the value `weight` times in one
// step, as its binary digits at their levels. A NULL value or a NULL or 0
// weight adds nothing; a negative weight is 22023, a total beyond 2^64 - 1
// values 22003 (checked before anything is added).
template <KllType kType>
Datum agg_weighted_trans(FunctionCallInfo fcinfo) {
  if (PG_ARGISNULL(3))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("kll_agg parameter k must not be NULL")));
  uint64 weight = 0;
  if (PG_ARGISNULL(1) ||
      !weight_arg(fcinfo, 2, false, "kll weight",
                  "A row's weight says how many times its value occurred: 0 adds nothing.",
                  &weight))
    return keep_state(fcinfo);
  kll::Family::Element element{kll_key_arg(fcinfo, 1, kType), weight};
  bool in_agg;
  uint8_t* state = state_for_row(fcinfo, 3, kll_kind_of(kType), &in_agg);
  kll_check_fits(state, weight);
  return KllStates::give(fcinfo, KllStates::add(state, element), in_agg);
}

}  // namespace

#define KLL_AGG_FUNCTIONS(suffix, type)                                                      \
  extern "C" {                                                                               \
  PG_FUNCTION_INFO_V1(kll_agg_trans_##suffix);                                               \
  PG_FUNCTION_INFO_V1(kll_agg_weighted_trans_##suffix);                                      \
  }                                                                                          \
  extern "C" Datum kll_agg_trans_##suffix(PG_FUNCTION_ARGS) { return agg_trans<type>(fcinfo); } \
  extern "C" Datum kll_agg_weighted_trans_##suffix(PG_FUNCTION_ARGS) {                       \
    return agg_weighted_trans<type>(fcinfo);                                                 \
  }

KLL_AGG_FUNCTIONS(float8, KllType::kFloat8)
KLL_AGG_FUNCTIONS(int8, KllType::kInt8)
KLL_AGG_FUNCTIONS(timestamp, KllType::kTimestamp)
KLL_AGG_FUNCTIONS(timestamptz, KllType::kTimestampTz)
KLL_AGG_FUNCTIONS(date, KllType::kDate)

SKETCH_UNION_AND_FINAL(kll, KllStates)
