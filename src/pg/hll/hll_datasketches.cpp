// DataSketches HLL sketches in hll (hash identity 3, core/hll/dshll.h):
// import from the libraries' bytes, export to the C++ library's compact
// bytes, and an add and an aggregate that hash as the libraries do
// (pg/common/datasketches_value.h), so that new rows merge with imported
// sketches exactly. docs/interop.md.
#include <cstring>

#include "core/hll/dshll.h"
#include "core/hll/dshll_codec.h"
#include "pg/common/call_site.h"
#include "pg/common/datasketches_value.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/hll/hll_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(hll_from_datasketches);
PG_FUNCTION_INFO_V1(hll_to_datasketches);
PG_FUNCTION_INFO_V1(hll_datasketches_add);
PG_FUNCTION_INFO_V1(hll_datasketches_agg_trans);
}

using namespace sketch;
using namespace sketch::pg;
namespace dshll = sketch::hll::dshll;

namespace {

dshll::TgtType type_from_text(const text* t) {
  const char* s = VARDATA_ANY(t);
  const size_t n = VARSIZE_ANY_EXHDR(t);
  for (dshll::TgtType type : {dshll::TgtType::kHll4, dshll::TgtType::kHll6, dshll::TgtType::kHll8}) {
    const char* name = dshll::tgt_type_name(type);
    if (n == std::strlen(name) && pg_strncasecmp(s, name, n) == 0) return type;
  }
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("unknown DataSketches HLL type \"%.*s\"", static_cast<int>(n), s),
                  errhint("Use 'HLL_4', 'HLL_6' or 'HLL_8'.")));
  return dshll::TgtType::kHll8;
}

void require_datasketches(const hll::View& v, const char* function) {
  if (!hll::is_dshll(v.encoding))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s needs a DataSketches hll sketch (hash identity 3), got one of "
                           "identity %s", function,
                           hll::is_pghll(v.encoding) ? "2 (postgresql-hll)" : "1 (xxh3_64)"),
                    errhint("Build it with hll_datasketches_agg or import it with "
                            "hll_from_datasketches.")));
}

// Adds argument 1 to `state` (a working state of identity 3), or leaves it
// when the libraries would skip the value.
uint8_t* add_value(FunctionCallInfo fcinfo, uint8_t* state, DatasketchesRule rule) {
  Murmur3Hash h;
  if (!datasketches_value_hash(rule, PG_GETARG_DATUM(1), &h)) return state;
  const Status st = state::accept_kind(state, datasketches_kind(rule));
  if (!st.is_ok()) raise_error(st);
  hll::Family::Element element{dshll::coupon_of(h.h1, h.h2), dshll::kIdentity, 0};
  return HllStates::add(state, element);
}

}  // namespace

extern "C" Datum hll_from_datasketches(PG_FUNCTION_ARGS) {
  const bytea* b = PG_GETARG_BYTEA_PP(0);
  dshll::Parsed parsed;
  const Status st = dshll::parse(reinterpret_cast<const uint8_t*>(VARDATA_ANY(b)),
                                 VARSIZE_ANY_EXHDR(b), &parsed);
  if (!st.is_ok()) raise_error(st, ERRCODE_INVALID_BINARY_REPRESENTATION);
  const size_t size = dshll::stored_size_of(parsed);
  uint8_t* stored = HllStates::allocate(size);
  dshll::write_stored_of(parsed, stored);
  PG_RETURN_POINTER(HllStates::datum_of(stored));
}

extern "C" Datum hll_to_datasketches(PG_FUNCTION_ARGS) {
  const hll::View v = HllStates::stored_view_arg(fcinfo, 0);
  require_datasketches(v, "hll_to_datasketches");
  const dshll::TgtType type =
      PG_NARGS() > 1 ? type_from_text(PG_GETARG_TEXT_PP(1)) : dshll::tgt_type(v);
  const size_t len = dshll::export_size(v, type);
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + len));
  SET_VARSIZE(out, VARHDRSZ + len);
  dshll::write_export(v, type, reinterpret_cast<uint8_t*>(VARDATA(out)));
  PG_RETURN_BYTEA_P(out);
}

// hll_datasketches_add(sketch, value): a NULL sketch gives NULL, a NULL value
// leaves it unchanged.
extern "C" Datum hll_datasketches_add(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  const DatasketchesRule rule = datasketches_site_rule(fcinfo, "hll_datasketches_add");
  uint8_t* state = HllStates::take(fcinfo, false);
  require_datasketches(hll_view(HllStates::datum_of(state)), "hll_datasketches_add");
  return HllStates::give(fcinfo, add_value(fcinfo, state, rule), false);
}

// hll_datasketches_agg(value [, lg_k [, type]])
extern "C" Datum hll_datasketches_agg_trans(PG_FUNCTION_ARGS) {
  for (int i = 2; i < PG_NARGS(); i++)
    if (PG_ARGISNULL(i))
      ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                      errmsg("hll_datasketches_agg parameters must not be NULL")));
  const int lg_k = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : dshll::kDefaultLgK;
  const dshll::TgtType type =
      PG_NARGS() > 3 ? type_from_text(PG_GETARG_TEXT_PP(3)) : dshll::TgtType::kHll4;
  if (lg_k < dshll::kMinLgK || lg_k > dshll::kMaxLgK)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("DataSketches HLL lg_k must be between %d and %d, got %d",
                           dshll::kMinLgK, dshll::kMaxLgK, lg_k)));
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  const bool in_agg = in_aggregate(fcinfo);
  uint8_t* state;
  if (PG_ARGISNULL(0)) {
    state = HllStates::allocate(dshll::working_size_for(lg_k));
    dshll::write_empty_working(lg_k, type, state);
  } else {
    state = HllStates::take(fcinfo, in_agg);
    const hll::View v = hll_view(HllStates::datum_of(state));
    if (!hll::is_dshll(v.encoding) || v.p != lg_k || dshll::tgt_type(v) != type)
      raise_parameters_changed(
          "lg_k and type must be the same for every row of hll_datasketches_agg",
          "The aggregate's state has another lg_k or type (or hash identity) than this row's "
          "arguments.");
  }
  const DatasketchesRule rule = datasketches_site_rule(fcinfo, "hll_datasketches_agg");
  return HllStates::give(fcinfo, add_value(fcinfo, state, rule), in_agg);
}
