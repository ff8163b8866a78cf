// The ddsketch readers dashboards draw: ranks of many values, the CDF and
// PMF over split points (DataSketches' convention), the trimmed mean. All
// count by ddsketch_rank's rule (core/ddsketch/ddsketch_ranks.cpp). Like
// the other readers they are not strict: a NULL sketch is the rollup of no
// rows and reads as empty, whose answers are NULL.
#include <cmath>

#include "pg/common/float8_array.h"
#include "pg/common/report.h"
#include "pg/ddsketch/ddsketch_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(ddsketch_ranks);
PG_FUNCTION_INFO_V1(ddsketch_cdf);
PG_FUNCTION_INFO_V1(ddsketch_pmf);
PG_FUNCTION_INFO_V1(ddsketch_trimmed_mean);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

template <class T>
T* array_of(int n) {
  return static_cast<T*>(palloc(sizeof(T) * (n > 0 ? n : 1)));
}

// The splits argument of ddsketch_cdf and ddsketch_pmf, checked whatever
// the sketch holds: finite, strictly increasing, no NULL (22023).
double* splits_arg(FunctionCallInfo fcinfo, const char* function, int* m) {
  const Float8Array a = float8_array_arg(fcinfo, 1, function,
                                         "a one-dimensional array of split points");
  double* splits = array_of<double>(a.n);
  for (int i = 0; i < a.n; i++) {
    if (a.nulls[i])
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("%s split point %d is NULL", function, i + 1)));
    splits[i] = a.at(i);
  }
  check_parameter(ddsketch::check_splits(splits, a.n),
                  "Split points are finite and strictly increasing: '{100, 300, 1000}'.");
  *m = a.n;
  return splits;
}

using Distribution = void (*)(const ddsketch::View&, const double*, size_t, uint64_t*, double*);

Datum over_splits(FunctionCallInfo fcinfo, const char* function, Distribution distribution) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  int m;
  const double* splits = splits_arg(fcinfo, function, &m);
  ddsketch::View v;
  if (!ddsketch_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  double* out = array_of<double>(m + 1);
  distribution(v, splits, m, array_of<uint64_t>(m), out);
  return float8_array_result(out, nullptr, m + 1, 1);
}

}  // namespace

// ddsketch_ranks(sketch, values float8[]) -> float8[]: ddsketch_rank of each
// value, in one pass over the buckets; NULL where the value is NULL, all
// NULL for a NULL or empty sketch; NaN 22023.
extern "C" Datum ddsketch_ranks(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  const Float8Array a =
      float8_array_arg(fcinfo, 1, "ddsketch_ranks", "a one-dimensional array of values");
  double* xs = array_of<double>(a.n);
  int m = 0;  // the non-NULL values, in order
  for (int i = 0; i < a.n; i++) {
    if (a.nulls[i]) continue;
    xs[m] = a.at(i);
    if (std::isnan(xs[m]))
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("ddsketch_ranks of NaN is undefined (element %d)", i + 1)));
    m++;
  }
  ddsketch::View v;
  const bool nonempty = ddsketch_nonempty_arg(fcinfo, 0, &v);
  double* answers = array_of<double>(m);
  if (nonempty)
    ddsketch::ranks(v, xs, m, array_of<uint32_t>(m), array_of<uint64_t>(m), answers);
  double* out = array_of<double>(a.n);
  bool* nulls = array_of<bool>(a.n);
  for (int i = 0, k = 0; i < a.n; i++) {
    nulls[i] = a.nulls[i] || !nonempty;
    out[i] = a.nulls[i] ? 0.0 : answers[k++];
  }
  return float8_array_result(out, nulls, a.n, a.lbound);
}

// ddsketch_cdf(sketch, splits float8[]) -> float8[]: for m strictly
// increasing finite splits, m + 1 cumulative fractions (ddsketch_rank of
// each split, then 1). NULL for a NULL or empty sketch.
extern "C" Datum ddsketch_cdf(PG_FUNCTION_ARGS) {
  return over_splits(fcinfo, "ddsketch_cdf", ddsketch::cdf);
}

// ddsketch_pmf(sketch, splits float8[]) -> float8[]: the m + 1 masses
// between the splits (below the first, between each two, from the last
// on), from integer counts: they add up to 1.
extern "C" Datum ddsketch_pmf(PG_FUNCTION_ARGS) {
  return over_splits(fcinfo, "ddsketch_pmf", ddsketch::pmf);
}

// ddsketch_trimmed_mean(sketch, lo, hi): the mean of the values whose rank
// lies in [lo, hi], 0 <= lo < hi <= 1 (else 22023); NULL for a NULL or
// empty sketch or a NULL bound.
extern "C" Datum ddsketch_trimmed_mean(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1) || PG_ARGISNULL(2)) PG_RETURN_NULL();
  const double lo = PG_GETARG_FLOAT8(1), hi = PG_GETARG_FLOAT8(2);
  check_parameter(ddsketch::check_trim(lo, hi),
                  "The interquartile mean is ddsketch_trimmed_mean(s, 0.25, 0.75).");
  ddsketch::View v;
  if (!ddsketch_nonempty_arg(fcinfo, 0, &v)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ddsketch::trimmed_mean(v, lo, hi));
}
