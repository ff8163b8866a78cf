// approx_count_distinct(value): the one-step aggregate other engines call
// by that name (BigQuery, Spark, DuckDB, Snowflake). Its state is an hll
// built as hll_agg(value) builds it (p = 14, the same transition and
// combine functions, so it is parallel and splits on Citus); this final
// function reads the estimate off that state, which is hll_cardinality's
// answer to the hll_agg of the same rows.
#include "core/common/saturate.h"
#include "pg/hll/hll_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(hll_approx_count_distinct_final);
}

using namespace sketch;
using namespace sketch::pg;

// The state is read, never written (FINALFUNC_MODIFY = READ_ONLY, so the
// aggregate also works as a window aggregate); no rows counts 0 distinct
// values, as count(DISTINCT v) does. hll never defers adds, so every
// encoding of a state answers directly.
extern "C" Datum hll_approx_count_distinct_final(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  PG_RETURN_INT64(saturating_int64(hll::estimate(hll_arg(fcinfo, 0))));
}
