// theta scalar functions: building, set operations and estimates.
//
// NULL sketches: the union ignores them, the estimates read them as empty
// (0), so rollups over no rows read 0; set operations with a NULL side are
// NULL (an unknown set).
#include <cmath>

#include "core/common/saturate.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/result_row.h"
#include "pg/common/sketch_datum.h"
#include "pg/theta/theta_datum.h"

extern "C" {
#include "funcapi.h"

PG_FUNCTION_INFO_V1(theta_empty);
PG_FUNCTION_INFO_V1(theta_add);
PG_FUNCTION_INFO_V1(theta_union2);
PG_FUNCTION_INFO_V1(theta_intersect2);
PG_FUNCTION_INFO_V1(theta_diff);
PG_FUNCTION_INFO_V1(theta_count);
PG_FUNCTION_INFO_V1(theta_bounds);
PG_FUNCTION_INFO_V1(theta_jaccard);
PG_FUNCTION_INFO_V1(theta_info);
PG_FUNCTION_INFO_V1(theta_eq);
PG_FUNCTION_INFO_V1(theta_ne);
PG_FUNCTION_INFO_V1(theta_sizing);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

double confidence_arg(FunctionCallInfo fcinfo, int n) {
  const double confidence = PG_GETARG_FLOAT8(n);
  theta_check(theta::check_confidence(confidence));
  return confidence;
}

}  // namespace

// theta_empty(lg_k integer DEFAULT 12)
extern "C" Datum theta_empty(PG_FUNCTION_ARGS) {
  const int lg_k = theta_lg_k(PG_GETARG_INT32(0));
  struct varlena* out = new_sketch(theta::empty_size());
  theta::write_empty(lg_k, payload(out));
  PG_RETURN_POINTER(out);
}

// theta_add(sketch, value): NULL sketch -> NULL; NULL value -> unchanged.
extern "C" Datum theta_add(PG_FUNCTION_ARGS) {
  return ThetaStates::add_value(fcinfo, [](const ElementHasher* hasher, Datum value) {
    return theta::Family::Element{hash_element64(hasher, value)};
  });
}

// a ∪ b (||): a NULL side is ignored.
extern "C" Datum theta_union2(PG_FUNCTION_ARGS) { return ThetaStates::union2(fcinfo); }

// a ∩ b (&), strict.
extern "C" Datum theta_intersect2(PG_FUNCTION_ARGS) {
  const theta::View a = ThetaStates::stored_view_arg(fcinfo, 0), b = ThetaStates::stored_view_arg(fcinfo, 1);
  PG_RETURN_POINTER(theta_combined(a, b, theta::intersect_size(a, b),
                                   [&](uint8_t* dst) { theta::write_intersect(a, b, dst); }));
}

// a \ b: the values of a not in b, strict.
extern "C" Datum theta_diff(PG_FUNCTION_ARGS) {
  const theta::View a = ThetaStates::stored_view_arg(fcinfo, 0), b = ThetaStates::stored_view_arg(fcinfo, 1);
  PG_RETURN_POINTER(theta_combined(a, b, theta::a_not_b_size(a, b),
                                   [&](uint8_t* dst) { theta::write_a_not_b(a, b, dst); }));
}

// The estimated number of distinct values, rounded; NULL -> 0.
extern "C" Datum theta_count(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  PG_RETURN_INT64(saturating_int64(theta::estimate(ThetaStates::stored_view_arg(fcinfo, 0))));
}

// theta_bounds(sketch, confidence DEFAULT 0.95) -> (lower, upper): the
// interval rounded outwards; NULL sketch -> (0, 0); NULL confidence ->
// (NULL, NULL), as hll_cardinality_bounds.
extern "C" Datum theta_bounds(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) {
    const Datum values[2] = {0, 0};
    const bool nulls[2] = {true, true};
    return result_row(fcinfo, "theta_bounds", values, 2, nulls);
  }
  const double confidence = confidence_arg(fcinfo, 1);
  theta::Bounds b{0, 0};
  int64 estimate = 0, held = 0;
  if (!PG_ARGISNULL(0)) {
    const theta::View v = ThetaStates::stored_view_arg(fcinfo, 0);
    b = theta::bounds(v, confidence);
    estimate = saturating_int64(theta::estimate(v));
    held = static_cast<int64>(v.count);
  }
  // Rounded outwards and saturating (a crafted θ of 1 puts the upper root
  // near 3.5e19, which a cast turned negative): never below the hashes the
  // sketch holds (each is a distinct value), never on the wrong side of
  // the estimate theta_count answers, at most INT64_MAX.
  const Int64Bounds r = count_bounds_int64(b.lower, b.upper, estimate, held);
  const Datum values[2] = {Int64GetDatum(r.lower), Int64GetDatum(r.upper)};
  return result_row(fcinfo, "theta_bounds", values, 2);
}

// theta_jaccard(a, b, confidence DEFAULT 0.95) -> (estimate, lower, upper):
// NULL when the union sample is empty (both sets empty).
extern "C" Datum theta_jaccard(PG_FUNCTION_ARGS) {
  const double confidence = confidence_arg(fcinfo, 2);
  const theta::View a = ThetaStates::stored_view_arg(fcinfo, 0), b = ThetaStates::stored_view_arg(fcinfo, 1);
  theta_check(theta::check_combinable(a, b));
  const theta::Similarity s = theta::jaccard(a, b, confidence);
  if (!s.defined) PG_RETURN_NULL();
  const Datum values[3] = {Float8GetDatum(s.estimate), Float8GetDatum(s.lower),
                           Float8GetDatum(s.upper)};
  return result_row(fcinfo, "theta_jaccard", values, 3);
}

extern "C" Datum theta_info(PG_FUNCTION_ARGS) {
  const theta::View v = ThetaStates::stored_view_arg(fcinfo, 0);
  const theta::Bounds b = theta::bounds(v, 0.95);
  JsonObject json("theta");
  json.integer("lg_k", v.lg_k);
  json.integer("k", v.k);
  json.integer("retained", v.count);
  json.boolean("exact", v.theta == theta::kThetaExact);
  json.number("theta", static_cast<double>(v.theta) / static_cast<double>(theta::kThetaExact),
              Digits::kSeventeen);
  json.number("estimate", theta::estimate(v), Digits::kSeventeen);
  json.number("lower_95", b.lower, Digits::kSeventeen);
  json.number("upper_95", b.upper, Digits::kSeventeen);
  if (v.hash_identity == kDatasketchesIdentity)
    json.datasketches_fields(v.size + VARHDRSZ, theta::kFormatVersion, v.data, ", h1 >> 1");
  else
    json.sketch_fields(v.size + VARHDRSZ, theta::kFormatVersion, "xxh3_64", v.data,
                       ", top 63 bits");
  return json.finish();
}

// Stored sketches are canonical: the same set gives the same bytes.
extern "C" Datum theta_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }

extern "C" Datum theta_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }

// theta_sizing(lg_k DEFAULT 12) -> (k, standard_error, bytes): a full
// sketch's k, its relative standard error 1/sqrt(k - 1) and stored bytes.
extern "C" Datum theta_sizing(PG_FUNCTION_ARGS) {
  const int lg_k = theta_lg_k(PG_GETARG_INT32(0));
  const uint32 k = uint32{1} << lg_k;
  const Datum values[3] = {Int64GetDatum(k), Float8GetDatum(1.0 / std::sqrt(k - 1.0)),
                           Int64GetDatum(static_cast<int64>(theta::stored_size(k) + VARHDRSZ))};
  return result_row(fcinfo, "theta_sizing", values, 3);
}
