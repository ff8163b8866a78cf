// The kind of element a sketch holds, recorded in header byte 7.
//
// A sketch stores hashes, not values, so nothing in its bytes says what was
// hashed. Without the kind, a filter of bigint values probed with the same
// number as text answers "definitely not" (a false negative in the user's
// terms), and a count-min sketch of integers counts 0 for a text key. The
// kind is the family of canonical encodings a value was hashed with (never a
// database-specific type OID, so sketches move between databases): values of
// one kind hash by the same rule, so they agree with SQL equality within it
// (42::int and 42::bigint and 42::numeric are one kind). Adding, probing or
// merging across two different kinds is refused with both names.
//
// Two special values:
//   kUnknown (0)  built by version 0.1.0, before kinds were recorded. Nothing
//                 is checked for such sketches, except that values whose
//                 hashing rule changed since then (kinds with
//                 changed_since_unrecorded) are refused: their hashes would
//                 never match what 0.1.0 stored.
//   kNone (255)   an empty sketch that has not seen a value yet (hll_empty,
//                 cms_empty, bloom_empty): it takes the kind of its first.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/status.h"

namespace sketch {

enum class ElementKind : uint8_t {
  kUnknown = 0,
  kNumber = 1,         // smallint, integer, bigint, numeric
  kFloat = 2,          // real, double precision
  kText = 3,           // text, varchar, char(n), name (deterministic collation)
  kBytea = 4,
  kUuid = 5,
  kDate = 6,
  kTimestamp = 7,
  kTimestampTz = 8,
  kTime = 9,
  kBool = 10,
  kInterval = 11,      // normalized like interval equality ('1 day' = '24 hours')
  kCollatedText = 12,  // text-like under a nondeterministic collation
  kHashed = 13,        // other types with a hash operator class (citext, jsonb, ...)
  kBinary = 14,        // other types: their binary send form
  kTextForm = 15,      // other types without send: their text output
  // Parquet physical types: the kinds of bloom's split-block layout only,
  // whose values are hashed as Parquet hashes them (XXH64 of the PLAIN
  // encoding of the physical type). Never valid in other sketches.
  kParquetInt32 = 16,      // integer, smallint, date (days since 1970)
  kParquetInt64 = 17,      // bigint, timestamp(tz) (microseconds since 1970)
  kParquetFloat = 18,      // real
  kParquetDouble = 19,     // double precision
  kParquetByteArray = 20,  // text, varchar, bytea, quoted literals
  kParquetFixed16 = 21,    // uuid: FIXED_LEN_BYTE_ARRAY(16)
  // DataSketches' update() overloads (core/common/datasketches_hash.h): the
  // kinds of sketches of hash identity 3 only (header.h
  // kDatasketchesIdentity), whose values are hashed as the Apache
  // DataSketches libraries hash them. Never valid in other sketches.
  kDatasketchesLong = 22,    // smallint, integer, bigint widened to int64: update(long)
  kDatasketchesDouble = 23,  // real, double precision widened to double: update(double)
  kDatasketchesBytes = 24,   // text as UTF-8, bytea: update(String), update(byte[])
  // A sketch imported from DataSketches bytes: the bytes do not record what
  // was hashed, so it combines with any of the three kinds above and the
  // result takes the other side's kind.
  kDatasketchesImported = 25,
  kNone = 255,
};

constexpr size_t kElementKindOffset = 7;

inline bool valid_element_kind(uint8_t byte) {
  return byte <= static_cast<uint8_t>(ElementKind::kTextForm) ||
         byte == static_cast<uint8_t>(ElementKind::kNone);
}
const char* element_kind_name(ElementKind kind);

// The kinds of a family born after 0.1.0 (topk, theta): each of its
// sketches records its kind, so kUnknown ("built by 0.1.0") is refused too.
inline bool valid_recorded_element_kind(uint8_t byte) {
  return valid_element_kind(byte) && byte != static_cast<uint8_t>(ElementKind::kUnknown);
}

// The Parquet physical-type kinds (split-block bloom filters only).
inline bool is_parquet_kind(uint8_t byte) {
  return byte >= static_cast<uint8_t>(ElementKind::kParquetInt32) &&
         byte <= static_cast<uint8_t>(ElementKind::kParquetFixed16);
}

// The DataSketches kinds (sketches of hash identity 3 only).
inline bool is_datasketches_kind(uint8_t byte) {
  return byte >= static_cast<uint8_t>(ElementKind::kDatasketchesLong) &&
         byte <= static_cast<uint8_t>(ElementKind::kDatasketchesImported);
}

// A short label of the kind for *_info: "number", "text", "interval", ...,
// the Parquet physical type name ("INT64", "BYTE_ARRAY", ...) for those,
// "DataSketches long", ... for the DataSketches kinds,
// "unrecorded" (built by 0.1.0) and "none" (empty, takes the first value's).
const char* element_kind_label(ElementKind kind);

// True for the kinds whose hashing rule differs from version 0.1.0's (which
// hashed these values by their binary send form or raw bytes).
bool changed_since_unrecorded(ElementKind kind);

inline ElementKind element_kind_of(const uint8_t* sketch) {
  return static_cast<ElementKind>(sketch[kElementKindOffset]);
}

// The raw byte, for parsers that validate it (valid_element_kind).
inline uint8_t element_kind_byte(const uint8_t* sketch) { return sketch[kElementKindOffset]; }

// The kind of a sketch that holds values of kinds a and b (a merge). Equal
// kinds, or kNone with anything, agree; kDatasketchesImported agrees with
// the other DataSketches kinds and takes theirs; kUnknown agrees with a kind whose
// rule did not change. Anything else is kMismatch naming both.
Status combine_element_kinds(ElementKind a, ElementKind b, ElementKind* out);

// A value of `value_kind` added to or looked up in a sketch of `sketch_kind`:
// the same rule as combine_element_kinds.
inline Status check_element_kind(ElementKind sketch_kind, ElementKind value_kind) {
  ElementKind unused;
  return combine_element_kinds(sketch_kind, value_kind, &unused);
}

}  // namespace sketch
