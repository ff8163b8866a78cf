// hll scalar functions: building, combining and reading sketches.
//
// NULL sketches mean "no data": the readers (cardinality, bounds,
// intersection) treat them as empty and answer 0, and the union ignores
// them, so rollup queries over no rows read 0 distinct instead of NULL.
#include <cmath>
#include <cstring>

#include "core/common/saturate.h"
#include "pg/common/element_hash.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/result_row.h"
#include "pg/common/sketch_datum.h"
#include "pg/hll/hll_datum.h"
#include "core/hll/dshll.h"
#include "core/hll/pghll.h"

extern "C" {
PG_FUNCTION_INFO_V1(hll_empty);
PG_FUNCTION_INFO_V1(hll_add);
PG_FUNCTION_INFO_V1(hll_union2);
PG_FUNCTION_INFO_V1(hll_cardinality);
PG_FUNCTION_INFO_V1(hll_cardinality_bounds);
PG_FUNCTION_INFO_V1(hll_intersect_cardinality);
PG_FUNCTION_INFO_V1(hll_info);
PG_FUNCTION_INFO_V1(hll_eq);
PG_FUNCTION_INFO_V1(hll_ne);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// Estimates can exceed bigint only for crafted sketches (the estimate is
// capped at 2^64): the shared saturating conversion (core/common/saturate.h)
// answers INT64_MAX there instead of overflowing.
int64 rounded(double estimate) { return saturating_int64(estimate); }

// a ∪ b as a view of a new working state (never modifying a or b).
hll::View union_view(const hll::View& a, const hll::View& b) {
  uint8_t* state = HllStates::merge(HllStates::copy(a), b);
  return hll_view(HllStates::datum_of(state));
}

hll::View fold_view(const hll::View& v, int p) {
  return hll_view(HllStates::datum_of(hll_state_fold(v, p)));
}

}  // namespace

extern "C" Datum hll_empty(PG_FUNCTION_ARGS) {
  const int32 p = PG_GETARG_INT32(0);
  hll_check_precision(p);
  struct varlena* out = new_sketch(hll::sparse_size(0));
  hll::write_empty(payload(out), p);
  PG_RETURN_POINTER(out);
}

extern "C" Datum hll_add(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  const ElementHasher* hasher = element_hasher(fcinfo, 1);
  hll::Family::Element element{hash_element64(hasher, PG_GETARG_DATUM(1))};
  uint8_t* state = HllStates::take(fcinfo, false);
  HllStates::accept_kind(state, hasher);
  return HllStates::give(fcinfo, HllStates::add(state, element), false);
}

extern "C" Datum hll_union2(PG_FUNCTION_ARGS) { return HllStates::union2(fcinfo); }

extern "C" Datum hll_cardinality(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  PG_RETURN_INT64(rounded(hll::estimate(hll_arg(fcinfo, 0))));
}

extern "C" Datum hll_cardinality_bounds(PG_FUNCTION_ARGS) {
  return count_bounds<HllStates>(fcinfo, "hll_cardinality_bounds", hll::bounds, hll::estimate);
}

// |A ∩ B| = |A| + |B| - |A ∪ B|, all three estimated at the common (smaller)
// precision so that their errors are correlated. The error of the result is
// still that of |A ∪ B|, so small intersections of large sets are noise.
extern "C" Datum hll_intersect_cardinality(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_INT64(0);
  const hll::View a = hll_arg(fcinfo, 0);
  const hll::View b = hll_arg(fcinfo, 1);
  const int p = a.p < b.p ? a.p : b.p;
  // Only identity 1 folds; postgresql-hll sketches (which the union below
  // requires to have equal parameters) are read as they are.
  const double na = hll::estimate(a.p == p ? a : fold_view(a, p));
  const double nb = hll::estimate(b.p == p ? b : fold_view(b, p));
  const double nu = hll::estimate(union_view(a, b));
  double n = na + nb - nu;
  if (n < 0) n = 0;
  if (n > na) n = na;
  if (n > nb) n = nb;
  PG_RETURN_INT64(rounded(n));
}

// postgresql-hll's sketches: their parameters, the representation the peer
// would store, and the identity with its seed.
Datum pghll_info(const hll::View& v) {
  namespace pghll = hll::pghll;
  const pghll::Params params = pghll::params_of(v);
  JsonObject json("hll");
  json.integer("precision", v.p);
  json.integer("registers", hll::register_count(v.p));
  json.string("representation", psprintf("postgresql-hll %s",
                                         pghll::peer_type_name(pghll::representation(v))));
  json.integer("entries", pghll::filled(v));
  json.number("estimate", hll::estimate(v), Digits::kOneDecimal);
  json.number("standard_error", hll::standard_error(v), Digits::kSix);
  json.integer("regwidth", params.regwidth);
  json.integer("expthresh", params.expthresh());
  json.integer("sparseon", params.sparse ? 1 : 0);
  json.integer("bytes", hll::stored_size(v) + VARHDRSZ);
  json.integer("format_version", hll::kFormatVersion);
  json.integer("hash_identity", pghll::kIdentity);
  json.string("hash", psprintf("murmur3_x64_128 seed %d (postgresql-hll)", params.seed));
  json.string("element_kind", element_kind_label(element_kind_of(hll::Family::bytes_of(v))));
  return json.finish();
}

// DataSketches sketches: lgK, the library's mode and target type, and
// whether the estimate is the stored HIP one (core/hll/dshll.h).
Datum dshll_info(const hll::View& v) {
  namespace dshll = hll::dshll;
  JsonObject json("hll");
  json.integer("precision", v.p);
  json.integer("registers", hll::register_count(v.p));
  json.string("representation", psprintf("datasketches %s", dshll::mode_name(dshll::mode(v))));
  json.integer("entries", dshll::filled(v));
  json.number("estimate", hll::estimate(v), Digits::kOneDecimal);
  json.number("standard_error", hll::standard_error(v), Digits::kSix);
  json.string("type", dshll::tgt_type_name(dshll::tgt_type(v)));
  json.string("estimator", dshll::answers_hip(v) ? "hip (stored)" : "sketch");
  static_assert(dshll::kIdentity == kDatasketchesIdentity);
  json.datasketches_fields(hll::stored_size(v) + VARHDRSZ, hll::kFormatVersion,
                           hll::Family::bytes_of(v));
  return json.finish();
}

extern "C" Datum hll_info(PG_FUNCTION_ARGS) {
  const hll::View v = hll_view(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
  if (hll::is_pghll(v.encoding)) return pghll_info(v);
  if (hll::is_dshll(v.encoding)) return dshll_info(v);
  JsonObject json("hll");
  json.integer("precision", v.p);
  json.integer("registers", hll::register_count(v.p));
  json.string("representation", hll::encoding_name(v.encoding));
  if (v.encoding == hll::Encoding::kDense) json.null("entries");
  else json.integer("entries", v.count);
  json.number("estimate", hll::estimate(v), Digits::kOneDecimal);
  json.number("standard_error", hll::standard_error(v), Digits::kSix);
  json.sketch_fields(hll::stored_size(v) + VARHDRSZ, hll::kFormatVersion, "xxh3_64",
                     hll::Family::bytes_of(v));
  return json.finish();
}

// Stored sketches are canonical (see sketch_args_equal).
extern "C" Datum hll_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }

extern "C" Datum hll_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }
