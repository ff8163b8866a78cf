// Hashing SQL values of any type through a canonical byte encoding that
// agrees with the type's SQL equality: values equal in SQL hash equal, so a
// sketch agrees with count(DISTINCT x) and x = y.
//
// The encoding is chosen once per call site from the argument's type (and
// collation) and cached in fn_extra, so the per-row cost is one switch and
// one hash. Each encoding belongs to an element kind (core/common/element_kind.h)
// that sketches record, so that values of another kind are refused:
//
//   smallint, integer, bigint, integral numeric   8-byte little-endian int64   number
//   numeric with a fraction, NaN, infinities      normalized decimal text     number
//                                                 (1.50 and 1.5 are equal)
//   real, double precision                        canonical double            float
//   text, varchar, name, bytea                    their bytes                 text / bytea
//   a quoted literal (type unknown)               its bytes, as text          text
//   char(n)                                       bytes without trailing blanks  text
//   text-like, nondeterministic collation         the collation's hash of the value
//                                                 (equal exactly when the collation
//                                                 says equal: ICU sort key)  collated text
//   uuid                                          its 16 bytes                uuid
//   date, time, timestamp, timestamptz            internal integer as int64   one kind each
//   boolean, oid                                  as int64                    boolean / number
//   interval                                      its span as int128 (months as 30
//                                                 days, days as 24 hours: what
//                                                 interval = compares)        interval
//   jsonb, and types of extensions (citext, ...)  their default hash operator class's
//   with a hash operator class                    extended hash (equal values hash
//                                                 equal by that class's contract)  hashed
//   anything else                                 its binary send form, or its
//                                                 text output if it has none  binary / text form
//
// Domains hash like their base type. The argument's type comes from the
// call (looking through implicit binary coercions, so a citext passed to a
// text overload is still citext); when a caller gives no call expression
// (a distributed engine calling a transition function), from the function's
// declared argument type.
#pragma once

#include "core/common/canonical.h"
#include "core/common/element_kind.h"
#include "core/common/hash.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

enum class ElementEncoding : uint8 {
  kInt16, kInt32, kInt64, kBool, kOid, kDate, kFloat4, kFloat8, kNumeric,
  kVarlenaBytes, kBpchar, kName, kCString, kUuid, kCollatedText, kCollatedBpchar, kCollatedCString, kInterval,
  kHashOpclass, kSendForm, kTextForm,
};

struct ElementHasher {
  Oid type;
  ElementEncoding encoding;
  ElementKind kind;
  Oid collation;
  FmgrInfo convert;  // send, output or extended hash function, for the fallbacks
};

// The hasher for argument `argno` of this call, built on first use and kept
// in fn_extra for the rest of the query.
ElementHasher* element_hasher(FunctionCallInfo fcinfo, int argno);

// Builds the hasher for argument `argno` into memory the caller owns for as
// long as the call site lives (a struct in fn_extra, allocated in fn_mcxt),
// for functions that keep more than a hasher in fn_extra.
void init_element_hasher(FunctionCallInfo fcinfo, int argno, ElementHasher* hasher);

// The SQL type of argument `argno` as element_hasher sees it (see the top).
Oid element_arg_type(FunctionCallInfo fcinfo, int argno);

// Raises 22023 naming both kinds unless a value of the hasher's kind may be
// added to, looked up in or merged with a sketch whose header is `sketch`.
void check_value_kind(const uint8* sketch, const ElementHasher* hasher);

// Canonical bytes of one value. `data` may point into `scratch` or into the
// (detoasted) value, so the struct must not be copied while in use.
struct ElementBytes {
  const void* data;
  size_t len;
  uint8 scratch[16];
};

void element_bytes(const ElementHasher* hasher, Datum value, ElementBytes* out);

// The integer encodings are hashed inline: they are the common case of the
// aggregates' per-row path, and with a constant length XXH3 compiles to its
// 4-8 byte path with no call and no length dispatch (element_bytes'
// out-of-line switch showed in hll_agg(bigint) and cms_agg(bigint):
// docs/benchmarks.md). The bytes are exactly element_bytes' (set_int64), so
// the hash is the same.
pg_attribute_always_inline uint64 hash_element64(const ElementHasher* hasher, Datum value) {
  int64 integer;
  switch (hasher->encoding) {
    case ElementEncoding::kInt64: integer = DatumGetInt64(value); break;
    case ElementEncoding::kInt32: integer = DatumGetInt32(value); break;
    case ElementEncoding::kInt16: integer = DatumGetInt16(value); break;
    default: {
      ElementBytes bytes;
      element_bytes(hasher, value, &bytes);
      return sketch::hash64(bytes.data, bytes.len);
    }
  }
  uint8 bytes[sketch::kCanonicalScalarSize];
  sketch::encode_int64(integer, bytes);
  return sketch::hash64(bytes, sizeof bytes);
}

inline sketch::Hash128 hash_element128(const ElementHasher* hasher, Datum value) {
  ElementBytes bytes;
  element_bytes(hasher, value, &bytes);
  return sketch::hash128(bytes.data, bytes.len);
}

}  // namespace sketch::pg
