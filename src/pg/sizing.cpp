// Sizing questions, answered before anything is built: bloom_sizing(n, p),
// cms_sizing(epsilon, delta [, k]) and hll_sizing(p). Each answers for any
// valid parameters, also when the sketch would be too large to build or to
// dump (`fits` says which), so that a user sizing a billion-value filter
// learns how large it is and that it must be sharded.
#include <cmath>

#include "core/bloom.h"
#include "core/cms.h"
#include "core/hll.h"
#include "pg/bloom_datum.h"
#include "pg/cms_datum.h"
#include "pg/hll_datum.h"
#include "pg/report.h"

extern "C" {
PG_FUNCTION_INFO_V1(bloom_sizing);
PG_FUNCTION_INFO_V1(cms_sizing);
PG_FUNCTION_INFO_V1(hll_sizing);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

Datum result_row(FunctionCallInfo fcinfo, const char* name, Datum* values, int count) {
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE)
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("%s must be called where a record is expected", name)));
  desc = BlessTupleDesc(desc);
  bool nulls[8] = {false, false, false, false, false, false, false, false};
  Assert(count <= 8);
  (void)count;
  PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

void raise_parameter(const Status& status, const char* hint) {
  if (status.is_ok()) return;
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", status.message()),
                  errhint("%s", hint)));
}

}  // namespace

// bloom_sizing(n, p) -> (bits, hashes, bytes, fits)
extern "C" Datum bloom_sizing(PG_FUNCTION_ARGS) {
  bloom::Params params;
  raise_parameter(bloom::plan_size(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), &params),
                  "Size a filter by n >= 1, the number of distinct values it should hold, and "
                  "0 < p < 1, the false-positive probability wanted at that size.");
  Datum values[4] = {Int64GetDatum(static_cast<int64>(params.bits)), Int32GetDatum(params.hashes),
                     Int64GetDatum(static_cast<int64>(bloom::filter_size(params.bits) + VARHDRSZ)),
                     BoolGetDatum(params.bits <= bloom::kMaxBits)};
  return result_row(fcinfo, "bloom_sizing", values, 4);
}

// cms_sizing(epsilon, delta, k) -> (width, depth, bytes, fits): bytes of the
// stored sketch before any candidate (each candidate adds 12 bytes and its
// text).
extern "C" Datum cms_sizing(PG_FUNCTION_ARGS) {
  cms::Sizing sizing;
  raise_parameter(
      cms::plan_accuracy(PG_GETARG_FLOAT8(0), PG_GETARG_FLOAT8(1), PG_GETARG_INT32(2), &sizing),
      "Use 0 < epsilon < 1 (the additive error as a share of all counts), 0 < delta < 1 (the "
      "chance of exceeding it) and a candidate list size k of 0..10000.");
  Datum values[4] = {Int64GetDatum(static_cast<int64>(sizing.width)),
                     Int32GetDatum(static_cast<int32>(sizing.depth)),
                     Int64GetDatum(static_cast<int64>(sizing.bytes + VARHDRSZ)),
                     BoolGetDatum(sizing.fits)};
  return result_row(fcinfo, "cms_sizing", values, 4);
}

// hll_sizing(p) -> (registers, bytes, standard_error): the dense form, the
// largest an hll of precision p gets; sparse sketches of few values are
// smaller (4 bytes per distinct value).
extern "C" Datum hll_sizing(PG_FUNCTION_ARGS) {
  const int32 p = PG_GETARG_INT32(0);
  hll_check_precision(p);
  Datum values[3] = {Int64GetDatum(static_cast<int64>(hll::register_count(p))),
                     Int64GetDatum(static_cast<int64>(hll::dense_size(p) + VARHDRSZ)),
                     Float8GetDatum(1.04 / std::sqrt(static_cast<double>(hll::register_count(p))))};
  return result_row(fcinfo, "hll_sizing", values, 3);
}
