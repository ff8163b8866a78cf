// Reading one large, possibly TOASTed sketch argument many times in a query
// without detoasting it on every call.
//
// In `WHERE bloom_contains((SELECT filter FROM t), x)` the subquery's value
// is a TOAST pointer into t's TOAST table, and every call would fetch and
// reassemble the whole value again. A DetoastCache kept in fn_extra holds the
// last detoasted value and what identifies it:
//
//   on-disk TOAST pointer   its identity (toast relation, value OID, sizes).
//                           TOAST values are immutable, and a value OID is
//                           not reused while a snapshot can still see it.
//   compressed inline       a copy of the compressed bytes, compared in full
//                           (inline values are at most a page, and comparing
//                           costs far less than decompressing).
//   plain in-memory value   nothing to cache: it is read in place, no copy.
//
// Memory addresses are never used as keys: the executor reuses them for
// different rows (buffer slots, per-tuple memory).
#pragma once

#include "pg/common/postgres_headers.h"

namespace sketch::pg {

struct DetoastCache {
  enum class Key : uint8 { kNone, kExternal, kCompressed };
  Key key;
  Oid toast_relid;      // kExternal: the TOAST pointer's identity
  Oid value_id;
  int32 raw_size;
  uint32 ext_info;
  struct varlena* compressed;  // kCompressed: the compressed bytes
  struct varlena* value;       // the detoasted value (in fn_mcxt)
  // Counts the refills: what a caller derived from `value` (a parsed view)
  // stays good while the generation and the returned pointer are the same
  // (an address alone is no key: a new value may be allocated where the
  // old one was freed).
  uint64 generation;
};

// The datum as a varlena to read with VARDATA_ANY / VARSIZE_ANY_EXHDR: the
// datum itself when it needs no detoasting, else the cached detoasted value,
// refreshed when the datum is a different value. `cache` must live in
// flinfo->fn_mcxt (zeroed on allocation); the result must not be modified.
const struct varlena* detoast_cached(FmgrInfo* flinfo, DetoastCache* cache, Datum datum);

}  // namespace sketch::pg
