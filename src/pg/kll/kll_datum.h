// kll values and aggregate states as varlena datums, and what every kll
// function shares: the value types a kll holds and their order keys.
//
// Stored values are always in the stored encoding. Aggregate states are
// working states (free slots before level 0) handled by the shared
// mechanism (aggregate_state.h) with kll's traits (core/kll/kll_family.h).
#pragma once

#include "core/kll/kll_family.h"
#include "pg/common/aggregate_state.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

inline constexpr char kKllTypeName[] = "kll";

using KllStates = SketchStates<kll::Family, kKllTypeName, kNoHints>;

// The SQL value types of a kll, one per element kind it records.
enum class KllType { kFloat8, kInt8, kTimestamp, kTimestampTz, kDate };

ElementKind kll_kind_of(KllType type);
const char* kll_type_name(ElementKind kind);

// The order key of argument argno (not NULL) of `type`: NaN is 22023.
uint64_t kll_key_arg(FunctionCallInfo fcinfo, int argno, KllType type);
uint64_t kll_key_of(Datum d, KllType type);

// The Datum of a key of a sketch of `kind`, as `type` (the caller has
// checked kll_check_probe).
Datum kll_datum_of_key(uint64_t key, KllType type);

// ERROR 22023 unless a value of `type` may be looked up in (or added to) a
// sketch of `kind`: the same kind, double precision and bigint probes of
// each other's sketches, anything in an empty sketch.
void kll_check_probe(const kll::View& v, KllType type, const char* function);

// The key of `type`'s value to compare with a sketch of v's kind: a double
// probe of a bigint sketch rounds down (items <= v are items <= floor(v)),
// a bigint probe of a double sketch converts.
uint64_t kll_probe_key(const kll::View& v, FunctionCallInfo fcinfo, int argno, KllType type);
uint64_t kll_probe_key_of(const kll::View& v, Datum d, KllType type);

// The element type of `type`'s arrays: oid, length, by value, alignment.
struct KllArrayType {
  Oid oid;
  int16 len;
  bool byval;
  char align;
};
KllArrayType kll_array_type(KllType type);

// k: ERROR 22023 outside 8..65535.
uint32_t kll_k_arg(int32 k);

// A new empty working state of k.
uint8_t* kll_new_state(uint32_t k);

// ERROR 22003 unless `weight` more values fit (n at most 2^64 - 1).
void kll_check_fits(const uint8_t* state, uint64 weight);

// A sketch argument of a reader, which may be NULL (the rollup of no rows,
// read as empty): false when NULL or empty, else *v in its stored form.
bool kll_nonempty_arg(FunctionCallInfo fcinfo, int n, kll::View* v);

// The items sorted with their cumulative weights (palloc'd scratch).
kll::Sorted kll_sorted(const kll::View& v);

// ERROR 22023 unless 0 <= q <= 1.
void kll_check_fraction(double q);

}  // namespace sketch::pg
