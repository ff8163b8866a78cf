// The JSON object an *_info function answers, built over the server's jsonb
// API: keys and strings are escaped by jsonb, numbers are numerics parsed
// from their decimal text, and a non-finite double (which JSON cannot
// hold) becomes the string "Infinity", "-Infinity" or "NaN", as to_jsonb
// writes a float8 one. jsonb orders the keys itself (shorter first), so the
// order of the calls does not show.
#pragma once

#include <cstdio>
#include <type_traits>

#include "core/common/status.h"  // before the server headers: port.h renames printf
#include "pg/common/postgres_headers.h"

struct JsonbParseState;

namespace sketch::pg {

// How a double is written: the digits each field has always shown.
enum class Digits {
  kOneDecimal,  // %.1f: estimates of counts
  kSix,         // %.6g: ratios and probabilities
  kSeventeen,   // %.17g: every bit, in a fixed width
  kShortest,    // the shortest decimal that reads back as the same double
};

class JsonObject {
 public:
  // An object whose "type" is `type`, the SQL type it describes.
  explicit JsonObject(const char* type);
  // An object without a "type": a foreign format's (ddsketch_to_otel's
  // OTLP data point).
  JsonObject();

  // What every hashed sketch shows: "bytes" (the value's size with its
  // varlena header), "format_version", "hash" ("<hash> seed <seed>" and
  // `hash_note`) and "element_kind" (header byte 7 of `sketch`).
  void sketch_fields(size_t bytes, int format_version, const char* hash, const uint8* sketch,
                     const char* hash_note = "");
  // The same for a sketch of Apache DataSketches' hashes (hash identity 3),
  // with "hash_identity": 3 beside them.
  void datasketches_fields(size_t bytes, int format_version, const uint8* sketch,
                           const char* hash_note = "");

  void string(const char* key, const char* value);
  void number(const char* key, double value, Digits digits);
  void boolean(const char* key, bool value);
  void null(const char* key);
  // [first, second], two integers.
  void integer_pair(const char* key, unsigned long long first, unsigned long long second);

  template <class Int>
  void integer(const char* key, Int value) {
    static_assert(std::is_integral_v<Int>, "integer() takes integers; number() doubles");
    char text[24];
    if constexpr (std::is_signed_v<Int>) {
      snprintf(text, sizeof text, "%lld", static_cast<long long>(value));
    } else {
      snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(value));
    }
    numeric(key, text);
  }

  // A nested object or array under `key`, until end_object() / end_array();
  // the calls above add to the innermost open object.
  void begin_object(const char* key);
  void end_object();
  void begin_array(const char* key);
  void end_array();
  // Elements of the innermost open array: a string, an integer, an array
  // (open until end_array()).
  void element_string(const char* value);
  void element_integer(long long value);
  void begin_element_array();

  // The jsonb Datum; the object is finished.
  Datum finish();

 private:
  void key(const char* name);
  void numeric(const char* key, const char* decimal);

  JsonbParseState* state_ = nullptr;
};

}  // namespace sketch::pg
