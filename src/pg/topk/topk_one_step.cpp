// approx_top_k(value, k): the one-step aggregate BigQuery calls
// APPROX_TOP_COUNT. Its state is the topk that topk_agg(value, k) builds
// (the same transition and combine functions: parallel, splits on Citus),
// a summary of k counters, and k is what the final function needs: the
// summary records it, so no argument has to reach the final function
// (PostgreSQL gives a final function only the state). The result is an
// array of (value, estimate, lower_bound, upper_bound), best first, as
// topk_items(topk_agg(value, k)) gives them as rows.
#include "pg/topk/topk_datum.h"

extern "C" {
#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

PG_FUNCTION_INFO_V1(topk_approx_top_k_final);
}

using namespace sketch;
using namespace sketch::pg;

// approx_top_k_item[] of the held items, best first (count descending, ties
// by hash, as topk_items orders them); values as text, as topk_items gives
// them without a type hint. Strict: no rows give NULL, as array_agg does.
extern "C" Datum topk_approx_top_k_final(PG_FUNCTION_ARGS) {
  const Oid array_type = get_func_rettype(fcinfo->flinfo->fn_oid);
  const Oid item_type = get_element_type(array_type);
  if (!OidIsValid(item_type))
    ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("topk_approx_top_k_final must return an array of approx_top_k_item")));
  TupleDesc desc = lookup_rowtype_tupdesc(item_type, -1);
  if (desc->natts != 4) {
    ReleaseTupleDesc(desc);
    ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("approx_top_k_item must have 4 columns, has %d", desc->natts)));
  }
  ItemReader reader;
  init_item_reader(fcinfo, -1, "approx_top_k", &reader);
  const topk::View v = TopkStates::stored_view_arg(fcinfo, 0);
  uint32* order = static_cast<uint32*>(palloc(sizeof(uint32) * (v.count + 1)));
  topk::best_first(v, order);
  Datum* items = static_cast<Datum*>(palloc(sizeof(Datum) * (v.count + 1)));
  for (uint32 i = 0; i < v.count; i++) {
    const topk::Item item = topk::stored_item(v, order[i]);
    const uint64 lower = item.count, upper = item.count + v.max_error;
    Datum values[4] = {
        read_item(&reader, item.text, item.len, item.clipped, topk::kMaxItemBytes, "approx_top_k"),
        Int64GetDatum(static_cast<int64>(upper)), Int64GetDatum(static_cast<int64>(lower)),
        Int64GetDatum(static_cast<int64>(upper))};
    bool nulls[4] = {false, false, false, false};
    items[i] = HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
  }
  int16 len;
  bool byval;
  char align;
  get_typlenbyvalalign(item_type, &len, &byval, &align);
  ArrayType* result = construct_array(items, static_cast<int>(v.count), item_type, len, byval, align);
  ReleaseTupleDesc(desc);
  PG_RETURN_ARRAYTYPE_P(result);
}
