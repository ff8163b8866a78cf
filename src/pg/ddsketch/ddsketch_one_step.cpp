// approx_percentile(v, q) and approx_percentiles(v, qs): the one-step
// quantile aggregates other engines name so, answered by the ddsketch that
// ddsketch_agg(v) builds (default relative accuracy 0.01, 2048 buckets).
//
// A final function sees only the state, so the state carries the question:
// an approx_percentile_state is a ddsketch followed by the fractions asked
// (core/common/with_request.h), built, grown, merged, shipped between
// parallel workers and Citus nodes (as text) by the shared mechanism like
// any sketch state. Every row of a group must ask the same fractions, as in
// the engines whose name this borrows (their q is a constant); a row that
// asks others is refused rather than answered for the first row's question.
#include <cstring>

#include "core/common/with_request.h"
#include "pg/common/fn_extra.h"
#include "pg/common/type_io.h"
#include "pg/ddsketch/ddsketch_datum.h"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/array.h"

PG_FUNCTION_INFO_V1(ddsketch_approx_percentile_trans);
PG_FUNCTION_INFO_V1(ddsketch_approx_percentiles_trans);
PG_FUNCTION_INFO_V1(ddsketch_approx_percentile_combine);
PG_FUNCTION_INFO_V1(ddsketch_approx_percentile_final);
PG_FUNCTION_INFO_V1(ddsketch_approx_percentiles_final);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

using PercentileFamily = state::WithRequest<ddsketch::Family>;
static_assert(state::check_family<PercentileFamily>());

constexpr char kPercentileStateName[] = "approx_percentile_state";
using PercentileStates = SketchStates<PercentileFamily, kPercentileStateName, kNoHints>;

Status validate_ddsketch(const uint8_t* data, size_t len) {
  return parse_canonical<ddsketch::View>(data, len);
}

// The fractions a row asks, as the request tail a state holds (one or more
// fractions, each checked: 0 <= q <= 1, never -0).
struct RowRequest {
  const uint8_t* bytes;
  size_t size;
};

double as_request_fraction(double q) {
  ddsketch_check_fraction(q);
  return q + 0.0;  // -0 -> +0: equal requests are equal bytes
}

// approx_percentiles' qs argument, decoded once per distinct array: a
// constant array (the usual case) costs one memcmp of its bytes per row.
struct ArrayRequestCache {
  struct varlena* array;  // the last array decoded, copied into fn_mcxt
  uint8_t* request;       // its request tail, in fn_mcxt
  size_t request_size;
};

pg_noinline RowRequest decode_array_request(FunctionCallInfo fcinfo, ArrayRequestCache* cache,
                                            struct varlena* raw) {
  ArrayType* qs = reinterpret_cast<ArrayType*>(raw);
  if (ARR_NDIM(qs) > 1)
    ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
                    errmsg("approx_percentiles takes a one-dimensional array of fractions")));
  Datum* elements;
  bool* nulls;
  int n;
  deconstruct_array(qs, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &elements,
                    &nulls, &n);
  if (n < 1 || static_cast<uint32>(n) > state::kMaxRequested)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("approx_percentiles asks for 1 to %u fractions, not %d",
                           state::kMaxRequested, n)));
  auto* fractions = static_cast<double*>(palloc(sizeof(double) * n));
  for (int i = 0; i < n; i++) {
    if (nulls[i])
      ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                      errmsg("approx_percentiles fractions must not be NULL")));
    fractions[i] = as_request_fraction(DatumGetFloat8(elements[i]));
  }
  MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
  if (cache->array != nullptr) pfree(cache->array);
  if (cache->request != nullptr) pfree(cache->request);
  cache->array = static_cast<struct varlena*>(palloc(VARSIZE(raw)));
  std::memcpy(cache->array, raw, VARSIZE(raw));
  cache->request_size = state::request_size(static_cast<uint32>(n));
  cache->request = static_cast<uint8_t*>(palloc(cache->request_size));
  MemoryContextSwitchTo(old);
  state::write_request(fractions, static_cast<uint32>(n), cache->request);
  pfree(fractions);
  return RowRequest{cache->request, cache->request_size};
}

pg_noinline void report_other_request() {
  ereport(ERROR,
          (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
           errmsg("approx_percentile fractions must be the same for every row of a group"),
           errhint("Pass q as a constant; for quantiles of several fractions use "
                   "approx_percentiles(v, ARRAY[...]) or ddsketch_quantile(ddsketch_agg(v), q).")));
}

// A new working state asking `request`: an empty ddsketch at the default
// parameters followed by the tail.
uint8_t* new_percentile_state(const RowRequest& request) {
  static const ddsketch::Params params =
      ddsketch_params(ddsketch::kDefaultRelativeAccuracy, ddsketch::kDefaultMaxBuckets);
  const size_t inner = ddsketch::empty_working_size(params);
  uint8_t* state = PercentileStates::allocate(inner + request.size);
  ddsketch::write_empty_working(params, state);
  std::memcpy(state + inner, request.bytes, request.size);
  return state;
}

// One row of either aggregate: the value added to the group's state, which
// must ask what this row asks.
Datum add_asked(FunctionCallInfo fcinfo, const RowRequest& request) {
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  const double value = PG_GETARG_FLOAT8(1);
  ddsketch_check_value(value);
  const bool in_agg = in_aggregate(fcinfo);
  uint8_t* state =
      PG_ARGISNULL(0) ? new_percentile_state(request) : PercentileStates::take(fcinfo, in_agg);
  state::Request asked{};
  // take() returned a working state (is_working found its tail) or refused.
  const state::Request row{request.bytes, 0, request.size};
  if (!state::find_request(state, PercentileStates::length_of(state), &asked) ||
      !state::same_request(asked, row))
    report_other_request();
  ddsketch::Family::Element element{value};
  return PercentileStates::give(fcinfo, PercentileStates::add(state, element), in_agg);
}

void require_fractions(FunctionCallInfo fcinfo, const char* what) {
  if (PG_ARGISNULL(2))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not be NULL", what)));
}

// The state's sketch and fractions, or NULL (false) when it holds no value.
bool asked_state(FunctionCallInfo fcinfo, PercentileFamily::View* v) {
  *v = PercentileStates::view_arg(fcinfo, 0);
  return v->inner.count > 0;
}

}  // namespace

// approx_percentile_state_in, _out, _recv, _send (and _from_bytea, which no
// cast uses): the stored ddsketch followed by its request, validated.
SKETCH_TYPE_IO(approx_percentile_state,
               TypeIO<PercentileStates, state::validate_with_request<validate_ddsketch>>)

// ddsketch_approx_percentile_trans(state, value float8, q float8)
extern "C" Datum ddsketch_approx_percentile_trans(PG_FUNCTION_ARGS) {
  require_fractions(fcinfo, "approx_percentile q");
  const double q = as_request_fraction(PG_GETARG_FLOAT8(2));
  uint8_t tail[state::request_size(1)];
  state::write_request(&q, 1, tail);
  return add_asked(fcinfo, RowRequest{tail, sizeof tail});
}

// ddsketch_approx_percentiles_trans(state, value float8, qs float8[])
extern "C" Datum ddsketch_approx_percentiles_trans(PG_FUNCTION_ARGS) {
  require_fractions(fcinfo, "approx_percentiles qs");
  auto* cache = fn_extra_of<ArrayRequestCache>(fcinfo);
  struct varlena* raw = PG_DETOAST_DATUM(PG_GETARG_DATUM(2));
  RowRequest request{cache->request, cache->request_size};
  if (cache->array == nullptr || VARSIZE(cache->array) != VARSIZE(raw) ||
      std::memcmp(cache->array, raw, VARSIZE(raw)) != 0)
    request = decode_array_request(fcinfo, cache, raw);
  return add_asked(fcinfo, request);
}

// The combine function of both: states of one aggregate call ask the same
// fractions; states that do not are refused (22023) by the merge.
extern "C" Datum ddsketch_approx_percentile_combine(PG_FUNCTION_ARGS) {
  return PercentileStates::union_trans(fcinfo);
}

// approx_percentile's answer: ddsketch_quantile of the state's sketch at its
// one fraction.
extern "C" Datum ddsketch_approx_percentile_final(PG_FUNCTION_ARGS) {
  PercentileFamily::View v;
  if (!asked_state(fcinfo, &v)) PG_RETURN_NULL();
  if (v.request.count != 1)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("approx_percentile's state asks for %u fractions, not one",
                           v.request.count)));
  PG_RETURN_FLOAT8(ddsketch::quantile(v.inner, state::request_fraction(v.request, 0)));
}

// approx_percentiles' answer: one quantile per fraction, in the order asked.
extern "C" Datum ddsketch_approx_percentiles_final(PG_FUNCTION_ARGS) {
  PercentileFamily::View v;
  if (!asked_state(fcinfo, &v)) PG_RETURN_NULL();
  auto* out = static_cast<Datum*>(palloc(sizeof(Datum) * v.request.count));
  for (uint32 i = 0; i < v.request.count; i++)
    out[i] = Float8GetDatum(ddsketch::quantile(v.inner, state::request_fraction(v.request, i)));
  ArrayType* result = construct_array(out, static_cast<int>(v.request.count), FLOAT8OID,
                                      sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
  PG_RETURN_ARRAYTYPE_P(result);
}
