// kll_from_datasketches(bytea [, item_type]) and kll_to_datasketches(kll [,
// item_type]): Apache DataSketches' compact KLL sketches of doubles, floats
// and longs (core/kll/kll_datasketches.h) as klls of double precision and
// bigint, and back. docs/interop.md.
#include "core/kll/kll_datasketches.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/kll/kll_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(kll_from_datasketches);
PG_FUNCTION_INFO_V1(kll_to_datasketches);
}

using namespace sketch;
using namespace sketch::pg;
namespace ds = sketch::kll::datasketches;

namespace {

ds::ItemType item_type_arg(FunctionCallInfo fcinfo, int argno) {
  const text* t = PG_GETARG_TEXT_PP(argno);
  const char* s = VARDATA_ANY(t);
  const size_t n = VARSIZE_ANY_EXHDR(t);
  ds::ItemType type;
  if (!ds::item_type_of(s, n, &type))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("unknown DataSketches KLL item type \"%.*s\"", static_cast<int>(n), s),
                    errhint("Use 'double', 'float' or 'long' (the library's sketch class: "
                            "KllDoublesSketch, KllFloatsSketch, KllLongsSketch).")));
  return type;
}

}  // namespace

// Malformed bytes are 22P03; valid forms not read here (updatable, merged
// from a smaller k) 0A000.
extern "C" Datum kll_from_datasketches(PG_FUNCTION_ARGS) {
  const bytea* b = PG_GETARG_BYTEA_PP(0);
  const ds::ItemType type = PG_NARGS() > 1 ? item_type_arg(fcinfo, 1) : ds::ItemType::kDouble;
  ds::CompactView v;
  check(ds::parse_compact(reinterpret_cast<const uint8*>(VARDATA_ANY(b)), VARSIZE_ANY_EXHDR(b), type,
                          &v));
  struct varlena* out = new_sketch(ds::imported_size(v));
  check(ds::write_imported(v, payload(out)));
  PG_RETURN_POINTER(out);
}

extern "C" Datum kll_to_datasketches(PG_FUNCTION_ARGS) {
  const kll::View v = KllStates::stored_view_arg(fcinfo, 0);
  const ds::ItemType type = PG_NARGS() > 1 ? item_type_arg(fcinfo, 1) : ds::default_item_type(v);
  check(ds::check_exportable(v, type));
  const size_t len = ds::compact_size(v, type);
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + len));
  SET_VARSIZE(out, VARHDRSZ + len);
  ds::write_compact(v, type, reinterpret_cast<uint8*>(VARDATA(out)));
  PG_RETURN_BYTEA_P(out);
}
