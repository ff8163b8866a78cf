// Hashing SQL values for split-block bloom filters as Parquet does: XXH64
// (seed 0) of the PLAIN encoding of the value's Parquet physical type, so
// that a filter built here answers for a Parquet column's values, and a
// Parquet writer's filter (bloom_from_parquet) answers for SQL values.
//
//   SQL type                     physical type          PLAIN bytes hashed
//   smallint, integer            INT32                  4 bytes little-endian
//   date                         INT32                  days since 1970-01-01 (PostgreSQL
//                                                       counts from 2000-01-01: + 10957)
//   bigint                       INT64                  8 bytes little-endian
//   timestamp, timestamptz       INT64                  microseconds since 1970-01-01
//                                                       (TIMESTAMP(MICROS); + 946684800 s)
//   real / double precision      FLOAT / DOUBLE         IEEE 754 bits, little-endian
//   text, varchar, name, bytea,  BYTE_ARRAY             the bytes alone: PLAIN prefixes a
//   char(n), a quoted literal                           4-byte length, which the Parquet
//                                                       spec leaves out of the hash
//   uuid                         FIXED_LEN_BYTE_ARRAY   its 16 bytes
//
// char(n) drops its trailing blanks (as its = ignores them); text under a
// nondeterministic collation hashes its bytes (Parquet knows no collation).
// Floats hash their bits as Parquet writers do, so -0.0 and 0.0 differ
// here although SQL calls them equal. Infinite dates and timestamps have no
// Parquet value (22008); other SQL types are refused (0A000) with a hint.
//
// The filter records the physical type (its element kind, element_kind.h):
// values of another SQL type of the same physical type probe it as they
// are; an integer or smallint probe of an INT64 filter, or a bigint probe of
// an INT32 one, is converted (a bigint outside int32 cannot be in the
// column: a probe answers false, an add is refused), and likewise real and
// double precision; any other physical type is refused (22023).
#pragma once

#include "core/common/element_kind.h"
#include "core/common/hash.h"
#include "pg/common/element_hash.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

enum class ParquetSource : uint8 {
  kInt16, kInt32, kDate, kInt64, kTimestamp, kFloat4, kFloat8, kVarlenaBytes, kBpchar, kName,
  kCString, kUuid, kUnsupported,
};

struct ParquetHasher {
  Oid type;            // the SQL type (after domains), for messages
  ParquetSource source;
  ElementKind kind;    // the value's own physical type
};

// The hasher for argument argno; raises 0A000 for types without a Parquet
// physical type.
void init_parquet_hasher(FunctionCallInfo fcinfo, int argno, ParquetHasher* hasher);

// The physical type a value of this hasher is hashed as in a filter of
// `filter_kind` (kNone: the value's own), or 22023 naming both.
ElementKind parquet_target_kind(const ParquetHasher* hasher, ElementKind filter_kind);

// The 64-bit hash of the value as `target` (from parquet_target_kind), in
// Hash128.low (high 0: the split-block layout uses 64 bits). False when the
// value cannot be a value of `target` (a bigint beyond int32, a double that
// is no float): a probe answers false, an add raises
// report_unrepresentable.
bool parquet_hash(const ParquetHasher* hasher, Datum value, ElementKind target,
                  sketch::Hash128* out);

void report_unrepresentable(const ParquetHasher* hasher, ElementKind target);

// The kind named by a Parquet physical type ('INT32', 'INT64', 'FLOAT',
// 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY', any case); 22023 otherwise.
ElementKind parquet_kind_named(const char* name);

}  // namespace sketch::pg
