// theta_from_datasketches(bytea) and theta_to_datasketches(theta [,
// compressed]): Apache DataSketches' compact theta sketches
// (core/theta/theta_datasketches.h) as thetas of hash identity 3, and back.
#include <cstring>

#include "core/theta/theta_datasketches.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/theta/theta_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(theta_from_datasketches);
PG_FUNCTION_INFO_V1(theta_to_datasketches);
}

using namespace sketch;
using namespace sketch::pg;
namespace ds = sketch::theta::datasketches;

extern "C" Datum theta_from_datasketches(PG_FUNCTION_ARGS) {
  const bytea* b = PG_GETARG_BYTEA_PP(0);
  ds::CompactView v;
  const Status st = ds::parse_compact(reinterpret_cast<const uint8*>(VARDATA_ANY(b)),
                                      VARSIZE_ANY_EXHDR(b), &v);
  // Corrupt bytes (a wrong seed hash too) are 22P03; an update sketch is
  // valid data this function does not read (0A000).
  if (!st.is_ok())
    raise_error(st, st.code() == StatusCode::kInvalidFormat ? ERRCODE_INVALID_BINARY_REPRESENTATION
                                                            : ERRCODE_FEATURE_NOT_SUPPORTED);
  int lg_k;
  check(ds::import_lg_k(v, &lg_k), ERRCODE_FEATURE_NOT_SUPPORTED);
  struct varlena* out = new_sketch(theta::stored_size(v.count));
  check(ds::write_imported(v, lg_k, payload(out)), ERRCODE_INVALID_BINARY_REPRESENTATION);
  PG_RETURN_POINTER(out);
}

extern "C" Datum theta_to_datasketches(PG_FUNCTION_ARGS) {
  const theta::View v = ThetaStates::stored_view_arg(fcinfo, 0);
  const bool compressed = PG_GETARG_BOOL(1);
  if (v.hash_identity != kDatasketchesIdentity)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("theta_to_datasketches needs a theta sketch of DataSketches' hashes "
                           "(hash identity 3), got one of identity %u (xxh3_64)",
                           v.hash_identity),
                    errdetail("Sketches hashed with xxh3_64 hold other hashes than the "
                              "DataSketches libraries compute for the same values."),
                    errhint("Import DataSketches bytes with theta_from_datasketches.")));
  const size_t len = ds::compact_size(v, compressed);
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + len));
  SET_VARSIZE(out, VARHDRSZ + len);
  ds::write_compact(v, compressed, reinterpret_cast<uint8*>(VARDATA(out)));
  PG_RETURN_BYTEA_P(out);
}
