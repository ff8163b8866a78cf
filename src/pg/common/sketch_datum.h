// What every sketch type shares at the Datum boundary: its bytes inside a
// varlena, the "\x<hex>" text form, the binary send/recv form and the bytea
// cast, each validated by the type's own parser before anything else sees it.
#pragma once

#include "core/common/status.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

struct SketchBytes {
  const uint8* data;
  size_t len;
};

// The payload of a detoasted varlena.
inline SketchBytes bytes_of(const struct varlena* v) {
  return SketchBytes{reinterpret_cast<const uint8*>(VARDATA_ANY(v)), VARSIZE_ANY_EXHDR(v)};
}

// A new varlena of `len` payload bytes in CurrentMemoryContext. The payload
// is zeroed so no uninitialized memory can ever reach disk.
struct varlena* new_sketch(size_t len);

inline uint8* payload(struct varlena* v) { return reinterpret_cast<uint8*>(VARDATA(v)); }

// Checks that bytes form a valid stored sketch of the type.
using Validator = Status (*)(const uint8* data, size_t len);

// Refuses sizes PostgreSQL cannot store in one value, before allocating.
void check_sketch_size(size_t len, const char* type_name);

// Text input: decodes "\x<hex>" and validates. Every failure is reported as
// invalid_text_representation.
struct varlena* sketch_from_text(const char* text, Validator validate, const char* type_name);

// "\x<hex>" of canonical sketch bytes, as a palloc'd C string.
char* sketch_to_text(const uint8* data, size_t len);

// Binary input (recv, bytea cast): copies and validates. Failures are
// invalid_binary_representation.
struct varlena* sketch_from_binary(const uint8* data, size_t len, Validator validate,
                                   const char* type_name);

// Binary input of a recv function: validates and consumes the whole buffer.
struct varlena* sketch_from_recv(StringInfo buf, Validator validate, const char* type_name);

// Binary output for send functions.
bytea* sketch_to_send(const uint8* data, size_t len);

// True if arguments 0 and 1 hold the same bytes. This is sketch equality for
// every type whose stored form is canonical: a function of the parameters
// and of the set of hashes added, whatever the order, grouping or merging.
bool sketch_args_equal(FunctionCallInfo fcinfo);

}  // namespace sketch::pg
