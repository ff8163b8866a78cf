// Which bytes of a SQL value the Apache DataSketches libraries would hash
// (hash identity 3, core/common/datasketches_hash.h), for the
// *_datasketches_agg and *_datasketches_add functions of every family.
//
// The libraries hash by the update() overload a value is given to, not by a
// SQL type: integers of every width go to update(long), real and double
// precision to update(double), text to update(String) (UTF-8), bytea to
// update(byte[]). Each overload has its element kind (kDatasketchesLong, ...),
// so that 42::int and '42' are never mixed in one sketch. Other types are
// refused (0A000) with a hint to cast: the libraries have no rule for them.
#pragma once

#include <cstdint>

#include "core/common/element_kind.h"
#include "core/common/murmur3.h"
#include "core/common/status.h"  // before the server headers: port.h renames printf
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

// kLong, kDouble, kBytes and kText are the four overloads (int8, float8,
// bytea, text and varchar); the others are the same overloads for SQL types
// whose Datum must be read differently first.
enum class DatasketchesRule : uint8_t {
  kLong,     // bigint: update(long)
  kDouble,   // double precision: update(double)
  kBytes,    // bytea: update(byte[])
  kText,     // text, varchar: update(String) of its UTF-8 bytes
  kInt2,     // smallint, widened to update(long)
  kInt4,     // integer, widened to update(long)
  kFloat4,   // real, widened to update(double)
  kBpchar,   // char(n) without its trailing blanks (as char(n) equality), as kText
  kName,     // name, as kText
  kCString,  // an untyped literal ('abc'), as kText
};

// The rule for values of `type` (a domain: its base type's); 0A000 naming
// `function` and the type for any other type.
DatasketchesRule resolve_datasketches_rule(Oid type, const char* function);

// kDatasketchesLong, kDatasketchesDouble or kDatasketchesBytes.
ElementKind datasketches_kind(DatasketchesRule rule);

// The rule for the value argument (argument 1) of a *_datasketches_add or
// *_datasketches_agg_trans call site, resolved on its first call and kept
// in its fn_extra (which the function uses for nothing else).
DatasketchesRule datasketches_site_rule(FunctionCallInfo fcinfo, const char* function);

// The hash the libraries compute for `value`, or false when they would skip
// it (an empty string or byte array). Text is converted from the server
// encoding to UTF-8 first (22021 when it has no UTF-8 form).
bool datasketches_value_hash(DatasketchesRule rule, Datum value, Murmur3Hash* out);

}  // namespace sketch::pg
