// ell scalar functions: building, combining and reading sketches.
//
// NULL sketches mean "no data": the readers (cardinality, bounds) treat
// them as empty and answer 0, and the union ignores them, so rollup queries
// over no rows read 0 distinct instead of NULL.
#include "core/common/saturate.h"
#include "pg/common/json_object.h"
#include "pg/common/sketch_datum.h"
#include "pg/ell/ell_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(ell_empty);
PG_FUNCTION_INFO_V1(ell_add);
PG_FUNCTION_INFO_V1(ell_union2);
PG_FUNCTION_INFO_V1(ell_cardinality);
PG_FUNCTION_INFO_V1(ell_cardinality_bounds);
PG_FUNCTION_INFO_V1(ell_info);
PG_FUNCTION_INFO_V1(ell_eq);
PG_FUNCTION_INFO_V1(ell_ne);
}

using namespace sketch;
using namespace sketch::pg;

extern "C" Datum ell_empty(PG_FUNCTION_ARGS) {
  const int32 p = PG_GETARG_INT32(0);
  ell_check_precision(p);
  struct varlena* out = new_sketch(ell::sparse_size(0));
  ell::write_empty(payload(out), p);
  PG_RETURN_POINTER(out);
}

// One value into a private copy: a sketch that was never merged stays so,
// and once dense keeps its martingale estimate up to date.
extern "C" Datum ell_add(PG_FUNCTION_ARGS) {
  return EllStates::add_value(fcinfo, [](const ElementHasher* hasher, Datum value) {
    return ell::Family::Element{hash_element64(hasher, value)};
  });
}

extern "C" Datum ell_union2(PG_FUNCTION_ARGS) { return EllStates::union2(fcinfo); }

// Estimates can exceed bigint only for crafted sketches: saturated.
extern "C" Datum ell_cardinality(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  PG_RETURN_INT64(saturating_int64(ell::estimate(ell_arg(fcinfo, 0))));
}

extern "C" Datum ell_cardinality_bounds(PG_FUNCTION_ARGS) {
  return count_bounds<EllStates>(fcinfo, "ell_cardinality_bounds", ell::bounds, ell::estimate);
}

namespace {

// Which estimate ell_cardinality answers (ell::estimate's choice).
const char* estimator_name(const ell::View& v) {
  if (v.encoding != ell::Encoding::kDense) return "sparse";
  return ell::is_unmerged(v) ? "martingale" : "maximum likelihood";
}

}  // namespace

extern "C" Datum ell_info(PG_FUNCTION_ARGS) {
  const ell::View v = EllStates::stored_view_arg(fcinfo, 0);
  JsonObject json("ell");
  json.integer("precision", v.p);
  json.integer("registers", ell::register_count(v.p));
  json.string("representation", ell::encoding_name(v.encoding));
  if (v.encoding == ell::Encoding::kDense) json.null("entries");
  else json.integer("entries", v.count);
  json.number("estimate", ell::estimate(v), Digits::kOneDecimal);
  json.number("standard_error", ell::standard_error(v), Digits::kSix);
  json.string("estimator", estimator_name(v));
  json.boolean("unmerged", ell::is_unmerged(v));
  json.number("ml_estimate", ell::ml_estimate(v), Digits::kOneDecimal);
  bool available = false;
  const double martingale = ell::martingale_estimate(v, &available);
  if (available) json.number("martingale_estimate", martingale, Digits::kOneDecimal);
  else json.null("martingale_estimate");
  json.integer("t", ell::kT);
  json.integer("d", ell::kD);
  json.sketch_fields(ell::stored_size(v) + VARHDRSZ, ell::kFormatVersion, "xxh3_64",
                     ell::Family::bytes_of(v));
  return json.finish();
}

// Stored sketches are canonical (see sketch_args_equal).
extern "C" Datum ell_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }

extern "C" Datum ell_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }
