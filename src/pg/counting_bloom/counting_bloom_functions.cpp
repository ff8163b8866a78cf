// counting_bloom scalar functions: sizing, building, deleting, combining,
// converting and reading filters.
//
// As for bloom, a NULL filter means "no data": the readers (cardinality,
// fpp) answer 0 and the union ignores it. Membership is in
// counting_bloom_probe.cpp.
#include <cmath>
#include <cstring>

#include "core/common/saturate.h"
#include "pg/common/element_hash.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/sizing.h"
#include "pg/common/sketch_datum.h"
#include "pg/counting_bloom/counting_bloom_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(counting_bloom_sizing);
PG_FUNCTION_INFO_V1(counting_bloom_empty);
PG_FUNCTION_INFO_V1(counting_bloom_add);
PG_FUNCTION_INFO_V1(counting_bloom_delete);
PG_FUNCTION_INFO_V1(counting_bloom_union2);
PG_FUNCTION_INFO_V1(counting_bloom_to_bloom);
PG_FUNCTION_INFO_V1(counting_bloom_cardinality);
PG_FUNCTION_INFO_V1(counting_bloom_fpp);
PG_FUNCTION_INFO_V1(counting_bloom_info);
PG_FUNCTION_INFO_V1(counting_bloom_eq);
PG_FUNCTION_INFO_V1(counting_bloom_ne);
}

using namespace sketch;
using namespace sketch::pg;

// counting_bloom_sizing(n, p) -> (cells, hashes, bytes, fits)
extern "C" Datum counting_bloom_sizing(PG_FUNCTION_ARGS) {
  counting_bloom::Params params;
  check_parameter(
      counting_bloom::plan_size(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), &params),
      "Size a filter by n >= 1, the number of distinct values it should hold at once, and "
      "0 < p < 1, the false-positive probability wanted at that size.");
  // The cell count of an unbuildable plan can pass 2^62; its byte count
  // (cells / 2) stays within int64.
  Datum values[4] = {
      Int64GetDatum(static_cast<int64>(params.cells)), Int32GetDatum(params.hashes),
      Int64GetDatum(static_cast<int64>(counting_bloom::kCellsOffset +
                                       8 * counting_bloom::word_count(params.cells) + VARHDRSZ)),
      BoolGetDatum(params.cells <= counting_bloom::kMaxCells)};
  return result_row(fcinfo, "counting_bloom_sizing", values, 4);
}

extern "C" Datum counting_bloom_empty(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(
      counting_bloom_new(counting_bloom_sized(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1))));
}

extern "C" Datum counting_bloom_add(PG_FUNCTION_ARGS) {
  return CountingBloomStates::add_value(fcinfo, [](const ElementHasher* hasher, Datum value) {
    return counting_bloom::Family::Element{hash_element128(hasher, value)};
  });
}

// A private stored copy, decremented in place (delete_hash): nothing when
// one of the value's counters is 0. Deleting a value that was never added
// but tests present (a false positive) removes other members: see
// docs/counting_bloom.md.
extern "C" Datum counting_bloom_delete(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  const ElementHasher* hasher = element_hasher(fcinfo, 1);
  const counting_bloom::View v = counting_bloom_arg(fcinfo, 0);
  check_value_kind(v.data, hasher);
  const Hash128 hash = hash_element128(hasher, PG_GETARG_DATUM(1));
  struct varlena* out = new_sketch(v.size);
  std::memcpy(payload(out), v.data, v.size);
  counting_bloom::delete_hash(payload(out), hash);
  PG_RETURN_POINTER(out);
}

extern "C" Datum counting_bloom_union2(PG_FUNCTION_ARGS) { return CountingBloomStates::union2(fcinfo); }

extern "C" Datum counting_bloom_to_bloom(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(counting_bloom_to_bloom_value(counting_bloom_arg(fcinfo, 0)));
}

extern "C" Datum counting_bloom_cardinality(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  const bloom::View b = counting_bloom_bloom_view(counting_bloom_arg(fcinfo, 0));
  PG_RETURN_INT64(saturating_int64(bloom::estimate_cardinality(b)));
}

extern "C" Datum counting_bloom_fpp(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_FLOAT8(0.0);
  PG_RETURN_FLOAT8(bloom::estimate_fpp(counting_bloom_bloom_view(counting_bloom_arg(fcinfo, 0))));
}

extern "C" Datum counting_bloom_info(PG_FUNCTION_ARGS) {
  const counting_bloom::View v = counting_bloom_arg(fcinfo, 0);
  const counting_bloom::Counts c = counting_bloom::count_cells(v);
  const bloom::View b = counting_bloom_bloom_view(v);
  JsonObject json("counting_bloom");
  json.integer("cells", v.cells);
  json.integer("hashes", v.hashes);
  json.integer("cells_set", c.cells_set);
  json.integer("saturated_cells", c.saturated);
  json.integer("counter_sum", c.sum);
  json.number("fill_ratio", static_cast<double>(c.cells_set) / static_cast<double>(v.cells),
              Digits::kSix);
  json.number("cardinality", bloom::estimate_cardinality(b), Digits::kOneDecimal);
  json.number("fpp", bloom::estimate_fpp(b), Digits::kSix);
  json.sketch_fields(v.size + VARHDRSZ, counting_bloom::kFormatVersion, "xxh3_128", v.data);
  return json.finish();
}

// Filters are canonical: equal parameters and equal multisets of live
// values (while no counter saturates) give equal bytes.
extern "C" Datum counting_bloom_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }

extern "C" Datum counting_bloom_ne(PG_FUNCTION_ARGS) {
  PG_RETURN_BOOL(!sketch_args_equal(fcinfo));
}
