#include "core/element_kind.h"

namespace sketch {

bool valid_element_kind(uint8_t byte) {
  return byte <= static_cast<uint8_t>(ElementKind::kTextForm) ||
         byte == static_cast<uint8_t>(ElementKind::kNone);
}

const char* element_kind_name(ElementKind kind) {
  switch (kind) {
    case ElementKind::kUnknown: return "unrecorded (built by 0.1.0)";
    case ElementKind::kNumber: return "number (smallint, integer, bigint, numeric)";
    case ElementKind::kFloat: return "floating point";
    case ElementKind::kText: return "text";
    case ElementKind::kBytea: return "bytea";
    case ElementKind::kUuid: return "uuid";
    case ElementKind::kDate: return "date";
    case ElementKind::kTimestamp: return "timestamp";
    case ElementKind::kTimestampTz: return "timestamptz";
    case ElementKind::kTime: return "time";
    case ElementKind::kBool: return "boolean";
    case ElementKind::kInterval: return "interval";
    case ElementKind::kCollatedText: return "text under a nondeterministic collation";
    case ElementKind::kHashed: return "a type hashed by its hash operator class";
    case ElementKind::kBinary: return "a type hashed by its binary form";
    case ElementKind::kTextForm: return "a type hashed by its text form";
    case ElementKind::kNone: return "none yet (empty)";
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
  if (a == ElementKind::kUnknown || b == ElementKind::kUnknown) {
    const ElementKind known = a == ElementKind::kUnknown ? b : a;
    if (!changed_since_unrecorded(known)) {
      *out = known;
      return Status::ok();
    }
    return Status::error(StatusCode::kMismatch,
                         "a sketch built by version 0.1.0 cannot hold %s values: their "
                         "hashing changed in 0.2.0 to agree with SQL equality",
                         element_kind_name(known));
  }
  return Status::error(StatusCode::kMismatch,
                       "a sketch of %s values cannot hold or be compared with %s values",
                       element_kind_name(a), element_kind_name(b));
}

}  // namespace sketch
