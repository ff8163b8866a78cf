// Hashing SQL values of any type through their canonical byte encoding.
//
// The encoding is chosen once per call site from the argument's type and
// cached in fn_extra, so the per-row cost is one switch and one hash:
//
//   smallint, integer, bigint, integral numeric   8-byte little-endian int64
//   numeric with a fraction, NaN, infinities      its normalized decimal text
//                                                 (1.50 and 1.5 are equal)
//   real, double precision                        canonical double (see
//                                                 core/canonical.h)
//   text, varchar, bytea, name                    their bytes
//   char(n)                                       bytes without trailing blanks
//   uuid                                          its 16 bytes
//   date, time, timestamp, timestamptz            internal integer as int64
//   boolean, oid                                  as int64
//   anything else                                 its binary send form, or its
//                                                 text output if it has none
//
// Domains hash like their base type.
#pragma once

#include "core/hash.h"
#include "pg/postgres_headers.h"

namespace sketch::pg {

enum class ElementEncoding : uint8 {
  kInt16, kInt32, kInt64, kBool, kOid, kDate, kFloat4, kFloat8, kNumeric,
  kVarlenaBytes, kBpchar, kName, kUuid, kSendForm, kTextForm,
};

struct ElementHasher {
  Oid type;
  ElementEncoding encoding;
  FmgrInfo convert;  // send or output function, for the two fallbacks
};

// The hasher for argument `argno` of this call, built on first use and kept
// in fn_extra for the rest of the query.
ElementHasher* element_hasher(FunctionCallInfo fcinfo, int argno);

// Builds the hasher for argument `argno` into memory the caller owns for as
// long as the call site lives (a struct in fn_extra, allocated in fn_mcxt),
// for functions that keep more than a hasher in fn_extra.
void init_element_hasher(FunctionCallInfo fcinfo, int argno, ElementHasher* hasher);

// Canonical bytes of one value. `data` may point into `scratch` or into the
// (detoasted) value, so the struct must not be copied while in use.
struct ElementBytes {
  const void* data;
  size_t len;
  uint8 scratch[16];
};

void element_bytes(const ElementHasher* hasher, Datum value, ElementBytes* out);

inline uint64 hash_element64(const ElementHasher* hasher, Datum value) {
  ElementBytes bytes;
  element_bytes(hasher, value, &bytes);
  return sketch::hash64(bytes.data, bytes.len);
}

inline sketch::Hash128 hash_element128(const ElementHasher* hasher, Datum value) {
  ElementBytes bytes;
  element_bytes(hasher, value, &bytes);
  return sketch::hash128(bytes.data, bytes.len);
}

}  // namespace sketch::pg
