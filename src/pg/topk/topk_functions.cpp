// topk scalar functions: building, combining, aging and reading summaries.
//
// NULL summaries mean "no data": the readers (total, max_error, estimate)
// treat them as empty and the union ignores them, so rollup queries over no
// rows read 0 instead of NULL.
#include "core/common/scale.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/result_row.h"
#include "pg/common/sketch_datum.h"
#include "pg/topk/topk_datum.h"

extern "C" {
#include "funcapi.h"

PG_FUNCTION_INFO_V1(topk_empty);
PG_FUNCTION_INFO_V1(topk_add);
PG_FUNCTION_INFO_V1(topk_add_int4_weight);
PG_FUNCTION_INFO_V1(topk_union2);
PG_FUNCTION_INFO_V1(topk_total);
PG_FUNCTION_INFO_V1(topk_max_error);
PG_FUNCTION_INFO_V1(topk_estimate);
PG_FUNCTION_INFO_V1(topk_scale);
PG_FUNCTION_INFO_V1(topk_info);
PG_FUNCTION_INFO_V1(topk_eq);
PG_FUNCTION_INFO_V1(topk_ne);
}

using namespace sketch;
using namespace sketch::pg;

// topk_empty(k integer DEFAULT 1024)
extern "C" Datum topk_empty(PG_FUNCTION_ARGS) {
  const uint32 k = topk_k(PG_GETARG_INT32(0));
  struct varlena* out = new_sketch(topk::empty_size());
  topk::write_empty(k, payload(out));
  PG_RETURN_POINTER(out);
}

// topk_add(summary, item [, weight]): see add_item (item_text.h).
constexpr auto add_weighted = add_item<TopkStates, topk_weight, topk_state_add>;

extern "C" Datum topk_add(PG_FUNCTION_ARGS) { return add_weighted(fcinfo, false); }

// topk_add(summary, item unknown, weight integer): the literal twin whose
// weight is an integer, so that topk_add(s, 'x', 3) resolves (see
// src/sql/literal_overloads.sql).
extern "C" Datum topk_add_int4_weight(PG_FUNCTION_ARGS) { return add_weighted(fcinfo, true); }

extern "C" Datum topk_union2(PG_FUNCTION_ARGS) { return TopkStates::union2(fcinfo); }

extern "C" Datum topk_total(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  PG_RETURN_INT64(static_cast<int64>(TopkStates::view_arg(fcinfo, 0).total));
}

// Δ: every count is within [lower, lower + Δ]; items not held count at most Δ.
extern "C" Datum topk_max_error(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  PG_RETURN_INT64(static_cast<int64>(TopkStates::stored_view_arg(fcinfo, 0).max_error));
}

// topk_estimate(summary, item) -> (estimate, lower_bound, upper_bound): a
// held item's estimate is its upper bound c + Δ (exact for items held since
// before the first purge); an item not held has estimate 0 within [0, Δ].
// NULL item -> NULL; NULL summary -> (0, 0, 0).
extern "C" Datum topk_estimate(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(1)) PG_RETURN_NULL();
  uint64 estimate = 0, lower = 0, upper = 0;
  if (!PG_ARGISNULL(0)) {
    auto* hasher = element_hasher(fcinfo, 1);
    const topk::View v = TopkStates::stored_view_arg(fcinfo, 0);
    check_value_kind(v.data, hasher);
    topk::Item item;
    upper = v.max_error;
    if (topk::find(v, hash_element64(hasher, PG_GETARG_DATUM(1)), &item)) {
      lower = item.count;
      upper = item.count + v.max_error;
      estimate = upper;
    }
  }
  const Datum values[3] = {Int64GetDatum(static_cast<int64>(estimate)),
                           Int64GetDatum(static_cast<int64>(lower)),
                           Int64GetDatum(static_cast<int64>(upper))};
  return result_row(fcinfo, "topk_estimate", values, 3);
}

// topk_scale(summary, factor): every counter and N times factor (0 < factor
// <= 1), rounded down; Δ rounded up. Aging for "trending" summaries.
extern "C" Datum topk_scale(PG_FUNCTION_ARGS) {
  const double factor = PG_GETARG_FLOAT8(1);
  if (Status st = topk::check_scale_factor(factor); !st.is_ok())
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("topk_scale: %s", st.message()),
                    errhint("Halving every period (factor 0.5) keeps a decaying window.")));
  const topk::View v = TopkStates::stored_view_arg(fcinfo, 0);
  struct varlena* out = new_sketch(topk::scaled_size(v, factor));
  topk::write_scaled(v, factor, payload(out));
  PG_RETURN_POINTER(out);
}

extern "C" Datum topk_info(PG_FUNCTION_ARGS) {
  const topk::View v = TopkStates::stored_view_arg(fcinfo, 0);
  JsonObject json("topk");
  json.integer("k", v.k);
  json.integer("items", v.count);
  json.integer("total", v.total);
  json.integer("max_error", v.max_error);
  json.integer("error_bound", topk::error_bound(v));
  json.sketch_fields(v.size + VARHDRSZ, topk::kFormatVersion, "xxh3_64", v.data);
  return json.finish();
}

// Stored summaries are canonical: equal k, N, Δ and items give equal bytes.
extern "C" Datum topk_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }

extern "C" Datum topk_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }
