// topk's set-returning readers: topk_items (the items best first) and
// topk_frequent (the items above a share of N under a chosen guarantee),
// as text or read back as the type of a hint argument.
#include "core/common/scale.h"
#include "pg/topk/topk_datum.h"

extern "C" {
#include "utils/tuplestore.h"

PG_FUNCTION_INFO_V1(topk_items);
PG_FUNCTION_INFO_V1(topk_frequent);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// Emits the rows (item, estimate, lower_bound, upper_bound) of the held
// items best first for which keep(lower, upper) is true, at most `limit`.
template <class Keep>
void emit_items(FunctionCallInfo fcinfo, const topk::View& v, const ItemReader& reader,
                uint32 limit, const char* function, Keep keep) {
  auto* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  uint32* order = static_cast<uint32*>(palloc(sizeof(uint32) * (v.count + 1)));
  topk::best_first(v, order);
  uint32 emitted = 0;
  for (uint32 i = 0; i < v.count && emitted < limit; i++) {
    const topk::Item item = topk::stored_item(v, order[i]);
    const uint64 lower = item.count, upper = item.count + v.max_error;
    if (!keep(lower, upper)) continue;
    Datum values[4] = {
        read_item(&reader, item.text, item.len, item.clipped, topk::kMaxItemBytes, function),
        Int64GetDatum(static_cast<int64>(upper)), Int64GetDatum(static_cast<int64>(lower)),
        Int64GetDatum(static_cast<int64>(upper))};
    bool nulls[4] = {false, false, false, false};
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
    emitted++;
  }
}

}  // namespace

// topk_items(summary [, n [, type_hint]]) -> (item, estimate, lower_bound,
// upper_bound), best first (counter descending, ties by hash). NULL
// summary or n -> no rows; negative n -> ERROR.
extern "C" Datum topk_items(PG_FUNCTION_ARGS) {
  InitMaterializedSRF(fcinfo, 0);
  if (PG_ARGISNULL(0) || (PG_NARGS() > 1 && PG_ARGISNULL(1))) return (Datum)0;
  uint32 limit = topk::kMaxK;
  if (PG_NARGS() > 1) {
    const int32 n = PG_GETARG_INT32(1);
    if (n < 0)
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("topk_items: n must not be negative, got %d", n)));
    limit = static_cast<uint32>(n);
  }
  ItemReader reader;
  init_item_reader(fcinfo, PG_NARGS() > 2 ? 2 : -1, "topk_items", &reader);
  const topk::View v = TopkStates::stored_view_arg(fcinfo, 0);
  emit_items(fcinfo, v, reader, limit, "topk_items", [](uint64, uint64) { return true; });
  return (Datum)0;
}

// topk_frequent(summary, threshold, guarantee [, type_hint]): the items whose
// count exceeds threshold·N, T = floor(threshold·N) computed exactly:
//   'no_false_positives'  lower bound > T: every row truly exceeds it (some
//                         that do may be missing);
//   'no_false_negatives'  upper bound > T: every item that exceeds it is a
//                         row (some rows may not), which needs max_error <= T
//                         (an item not held may count up to max_error), so
//                         a smaller threshold is an ERROR.
extern "C" Datum topk_frequent(PG_FUNCTION_ARGS) {
  InitMaterializedSRF(fcinfo, 0);
  if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("topk_frequent: threshold and guarantee must not be NULL")));
  const double threshold = PG_GETARG_FLOAT8(1);
  if (!(threshold >= 0.0 && threshold <= 1.0))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("topk_frequent: threshold must be between 0 and 1, got %g", threshold),
                    errhint("The threshold is a share of the total: 0.01 means 1%% of N.")));
  const char* guarantee = text_to_cstring(PG_GETARG_TEXT_PP(2));
  const bool no_false_negatives = strcmp(guarantee, "no_false_negatives") == 0;
  if (!no_false_negatives && strcmp(guarantee, "no_false_positives") != 0)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("topk_frequent: unknown guarantee \"%s\"", guarantee),
                    errhint("Use 'no_false_positives' or 'no_false_negatives'.")));
  if (PG_ARGISNULL(0)) return (Datum)0;
  ItemReader reader;
  init_item_reader(fcinfo, PG_NARGS() > 3 ? 3 : -1, "topk_frequent", &reader);
  const topk::View v = TopkStates::stored_view_arg(fcinfo, 0);
  const uint64 t = threshold > 0.0 ? ExactFactor(threshold).floor(v.total) : 0;
  if (no_false_negatives) {
    if (v.max_error > t)
      ereport(ERROR,
              (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
               errmsg("topk_frequent: cannot guarantee no false negatives below a count of "
                      "%llu (max_error), and threshold %g of %llu is %llu",
                      static_cast<unsigned long long>(v.max_error), threshold,
                      static_cast<unsigned long long>(v.total),
                      static_cast<unsigned long long>(t)),
               errhint("Use a threshold of at least max_error/total (%g), or build the "
                       "summary with a larger k.",
                       v.total == 0 ? 0.0
                                    : static_cast<double>(v.max_error) / static_cast<double>(v.total))));
    emit_items(fcinfo, v, reader, topk::kMaxK, "topk_frequent",
               [t](uint64, uint64 upper) { return upper > t; });
  } else {
    emit_items(fcinfo, v, reader, topk::kMaxK, "topk_frequent",
               [t](uint64 lower, uint64) { return lower > t; });
  }
  return (Datum)0;
}
