// The module's magic block, and the element hash exposed for inspection.
#include "pg/common/element_hash.h"

extern "C" {
PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(sketch_hash);
}

// The 64-bit hash every hll and cms sketch computes for a value, as bigint.
// Equal values (42::int and 42::bigint, 1.0 and 1.00) give equal hashes.
extern "C" Datum sketch_hash(PG_FUNCTION_ARGS) {
  const uint64 hash = sketch::pg::hash_element64(sketch::pg::element_hasher(fcinfo, 0),
                                                 PG_GETARG_DATUM(0));
  PG_RETURN_INT64(static_cast<int64>(hash));
}

extern "C" {
PG_FUNCTION_INFO_V1(sketch_bytes_hash);
}

// The hash support function of every sketch type's hash operator class: the
// types' = is byte equality (sketch_args_equal), so equal values have equal
// bytes and equal hashes.
extern "C" Datum sketch_bytes_hash(PG_FUNCTION_ARGS) {
  struct varlena* v = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));
  return hash_any(reinterpret_cast<const unsigned char*>(VARDATA_ANY(v)),
                  static_cast<int>(VARSIZE_ANY_EXHDR(v)));
}
