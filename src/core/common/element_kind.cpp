#include "core/common/element_kind.h"

namespace sketch {

const char* element_kind_name(ElementKind kind) {
  switch (kind) {
    case ElementKind::kUnknown: return "values of an unrecorded kind (built by 0.1.0)";
    case ElementKind::kNumber: return "numbers (smallint, integer, bigint, numeric)";
    case ElementKind::kFloat: return "floating-point numbers";
    case ElementKind::kText: return "text values";
    case ElementKind::kBytea: return "bytea values";
    case ElementKind::kUuid: return "uuids";
    case ElementKind::kDate: return "dates";
    case ElementKind::kTimestamp: return "timestamps";
    case ElementKind::kTimestampTz: return "timestamptz values";
    case ElementKind::kTime: return "times of day";
    case ElementKind::kBool: return "booleans";
    case ElementKind::kInterval: return "intervals";
    case ElementKind::kCollatedText: return "text under a nondeterministic collation";
    case ElementKind::kHashed: return "values hashed by their type's hash operator class (citext, jsonb, ...)";
    case ElementKind::kBinary: return "values hashed by their binary form";
    case ElementKind::kTextForm: return "values hashed by their text form";
    case ElementKind::kParquetInt32: return "Parquet INT32 values";
    case ElementKind::kParquetInt64: return "Parquet INT64 values";
    case ElementKind::kParquetFloat: return "Parquet FLOAT values";
    case ElementKind::kParquetDouble: return "Parquet DOUBLE values";
    case ElementKind::kParquetByteArray: return "Parquet BYTE_ARRAY values";
    case ElementKind::kParquetFixed16: return "Parquet FIXED_LEN_BYTE_ARRAY(16) values";
    case ElementKind::kDatasketchesLong: return "integers hashed as DataSketches longs";
    case ElementKind::kDatasketchesDouble: return "floating-point numbers hashed as DataSketches doubles";
    case ElementKind::kDatasketchesBytes: return "strings and byte arrays hashed as DataSketches does";
    case ElementKind::kDatasketchesImported: return "values of a sketch imported from DataSketches bytes";
    case ElementKind::kNone: return "nothing yet";
  }
  return "invalid";
}

const char* element_kind_label(ElementKind kind) {
  switch (kind) {
    case ElementKind::kUnknown: return "unrecorded";
    case ElementKind::kNumber: return "number";
    case ElementKind::kFloat: return "float";
    case ElementKind::kText: return "text";
    case ElementKind::kBytea: return "bytea";
    case ElementKind::kUuid: return "uuid";
    case ElementKind::kDate: return "date";
    case ElementKind::kTimestamp: return "timestamp";
    case ElementKind::kTimestampTz: return "timestamptz";
    case ElementKind::kTime: return "time";
    case ElementKind::kBool: return "boolean";
    case ElementKind::kInterval: return "interval";
    case ElementKind::kCollatedText: return "collated text";
    case ElementKind::kHashed: return "hashed by its operator class";
    case ElementKind::kBinary: return "binary";
    case ElementKind::kTextForm: return "text form";
    case ElementKind::kParquetInt32: return "INT32";
    case ElementKind::kParquetInt64: return "INT64";
    case ElementKind::kParquetFloat: return "FLOAT";
    case ElementKind::kParquetDouble: return "DOUBLE";
    case ElementKind::kParquetByteArray: return "BYTE_ARRAY";
    case ElementKind::kParquetFixed16: return "FIXED_LEN_BYTE_ARRAY";
    case ElementKind::kDatasketchesLong: return "DataSketches long";
    case ElementKind::kDatasketchesDouble: return "DataSketches double";
    case ElementKind::kDatasketchesBytes: return "DataSketches bytes";
    case ElementKind::kDatasketchesImported: return "DataSketches import";
    case ElementKind::kNone: return "none";
  }
  return "invalid";
}

bool changed_since_unrecorded(ElementKind kind) {
  return kind == ElementKind::kInterval || kind == ElementKind::kCollatedText ||
         kind == ElementKind::kHashed;
}

Status combine_element_kinds(ElementKind a, ElementKind b, ElementKind* out) {
  if (a == b || b == ElementKind::kNone) {
    *out = a;
    return Status::ok();
  }
  if (a == ElementKind::kNone) {
    *out = b;
    return Status::ok();
  }
  // An imported DataSketches sketch does not know what its values were; the
  // libraries merge it with any of theirs, and so do we.
  const auto is_ds_value_kind = [](ElementKind k) {
    return is_datasketches_kind(static_cast<uint8_t>(k)) &&
           k != ElementKind::kDatasketchesImported;
  };
  if (a == ElementKind::kDatasketchesImported && is_ds_value_kind(b)) {
    *out = b;
    return Status::ok();
  }
  if (b == ElementKind::kDatasketchesImported && is_ds_value_kind(a)) {
    *out = a;
    return Status::ok();
  }
  if (a == ElementKind::kUnknown || b == ElementKind::kUnknown) {
    const ElementKind known = a == ElementKind::kUnknown ? b : a;
    if (!changed_since_unrecorded(known)) {
      *out = known;
      return Status::ok();
    }
    return Status::error(StatusCode::kMismatch,
                         "a sketch built by version 0.1.0 cannot take %s: their hashing "
                         "changed in 0.2.0 to agree with SQL equality",
                         element_kind_name(known));
  }
  return Status::error(StatusCode::kMismatch,
                       "the sketch holds %s and cannot take or be compared with %s",
                       element_kind_name(a), element_kind_name(b));
}

}  // namespace sketch
