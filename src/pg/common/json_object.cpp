// The core's headers first: PostgreSQL's port.h renames printf functions
// that they use.
#include "core/common/datasketches_hash.h"
#include "core/common/element_kind.h"
#include "core/common/hash.h"
#include "pg/common/json_object.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "utils/jsonb.h"
}

namespace sketch::pg {

namespace {

JsonbValue string_value(const char* text) {
  JsonbValue v;
  v.type = jbvString;
  v.val.string.val = const_cast<char*>(text);
  v.val.string.len = static_cast<int>(std::strlen(text));
  return v;
}

JsonbValue numeric_value(const char* decimal) {
  JsonbValue v;
  v.type = jbvNumeric;
  v.val.numeric = DatumGetNumeric(DirectFunctionCall3(
      numeric_in, CStringGetDatum(decimal), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
  return v;
}

const char* non_finite_name(double value) {
  if (std::isnan(value)) return "NaN";
  return value > 0 ? "Infinity" : "-Infinity";
}

// `value` (finite) in the given digits, into buf (40 bytes hold every form
// but %.1f of a huge value, which gets its own allocation).
const char* decimal(double value, Digits digits, char* buf, size_t size) {
  switch (digits) {
    case Digits::kOneDecimal: return psprintf("%.1f", value);
    case Digits::kSix: snprintf(buf, size, "%.6g", value); break;
    case Digits::kSeventeen: snprintf(buf, size, "%.17g", value); break;
    case Digits::kShortest:
      for (int n = 15; n <= 17; n++) {
        snprintf(buf, size, "%.*g", n, value);
        if (std::strtod(buf, nullptr) == value) break;
      }
      break;
  }
  return buf;
}

}  // namespace

JsonObject::JsonObject(const char* type) : JsonObject() { string("type", type); }

JsonObject::JsonObject() { pushJsonbValue(&state_, WJB_BEGIN_OBJECT, nullptr); }

void JsonObject::begin_object(const char* key_name) {
  key(key_name);
  pushJsonbValue(&state_, WJB_BEGIN_OBJECT, nullptr);
}

void JsonObject::end_object() { pushJsonbValue(&state_, WJB_END_OBJECT, nullptr); }

void JsonObject::begin_array(const char* key_name) {
  key(key_name);
  pushJsonbValue(&state_, WJB_BEGIN_ARRAY, nullptr);
}

void JsonObject::end_array() { pushJsonbValue(&state_, WJB_END_ARRAY, nullptr); }

void JsonObject::element_string(const char* value) {
  JsonbValue v = string_value(value);
  pushJsonbValue(&state_, WJB_ELEM, &v);
}

void JsonObject::element_integer(long long value) {
  char text[24];
  snprintf(text, sizeof text, "%lld", value);
  JsonbValue v = numeric_value(text);
  pushJsonbValue(&state_, WJB_ELEM, &v);
}

void JsonObject::begin_element_array() { pushJsonbValue(&state_, WJB_BEGIN_ARRAY, nullptr); }

void JsonObject::sketch_fields(size_t bytes, int format_version, const char* hash,
                               const uint8* sketch, const char* hash_note) {
  integer("bytes", bytes);
  integer("format_version", format_version);
  string("hash", psprintf("%s seed %llu%s", hash, static_cast<unsigned long long>(kHashSeed),
                          hash_note));
  string("element_kind", element_kind_label(element_kind_of(sketch)));
}

void JsonObject::datasketches_fields(size_t bytes, int format_version, const uint8* sketch,
                                     const char* hash_note) {
  integer("bytes", bytes);
  integer("format_version", format_version);
  integer("hash_identity", kDatasketchesIdentity);
  string("hash", psprintf("murmur3_x64_128 seed %llu (DataSketches)%s",
                          static_cast<unsigned long long>(datasketches::kDefaultSeed), hash_note));
  string("element_kind", element_kind_label(element_kind_of(sketch)));
}

void JsonObject::key(const char* name) {
  JsonbValue k = string_value(name);
  pushJsonbValue(&state_, WJB_KEY, &k);
}

void JsonObject::string(const char* key_name, const char* value) {
  key(key_name);
  JsonbValue v = string_value(value);
  pushJsonbValue(&state_, WJB_VALUE, &v);
}

void JsonObject::numeric(const char* key_name, const char* text) {
  key(key_name);
  JsonbValue v = numeric_value(text);
  pushJsonbValue(&state_, WJB_VALUE, &v);
}

void JsonObject::number(const char* key_name, double value, Digits digits) {
  if (!std::isfinite(value)) return string(key_name, non_finite_name(value));
  char buf[40];
  numeric(key_name, decimal(value, digits, buf, sizeof buf));
}

void JsonObject::boolean(const char* key_name, bool value) {
  key(key_name);
  JsonbValue v;
  v.type = jbvBool;
  v.val.boolean = value;
  pushJsonbValue(&state_, WJB_VALUE, &v);
}

void JsonObject::null(const char* key_name) {
  key(key_name);
  JsonbValue v;
  v.type = jbvNull;
  pushJsonbValue(&state_, WJB_VALUE, &v);
}

void JsonObject::integer_pair(const char* key_name, unsigned long long first,
                              unsigned long long second) {
  key(key_name);
  pushJsonbValue(&state_, WJB_BEGIN_ARRAY, nullptr);
  const unsigned long long elements[2] = {first, second};
  for (unsigned long long n : elements) {
    char text[24];
    snprintf(text, sizeof text, "%llu", n);
    JsonbValue v = numeric_value(text);
    pushJsonbValue(&state_, WJB_ELEM, &v);
  }
  pushJsonbValue(&state_, WJB_END_ARRAY, nullptr);
}

Datum JsonObject::finish() {
  JsonbValue* object = pushJsonbValue(&state_, WJB_END_OBJECT, nullptr);
  PG_RETURN_JSONB_P(JsonbValueToJsonb(object));
}

}  // namespace sketch::pg
