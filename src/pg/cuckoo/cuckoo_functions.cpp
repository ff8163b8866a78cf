// cuckoo scalar functions: building, adding, deleting, combining and reading
// filters. As for bloom, a NULL filter means "no data": the readers answer 0
// and the union ignores it. Membership is in cuckoo_probe.cpp.
#include "pg/common/element_hash.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/cuckoo/cuckoo_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(cuckoo_empty);
PG_FUNCTION_INFO_V1(cuckoo_add);
PG_FUNCTION_INFO_V1(cuckoo_add_new);
PG_FUNCTION_INFO_V1(cuckoo_delete);
PG_FUNCTION_INFO_V1(cuckoo_union2);
PG_FUNCTION_INFO_V1(cuckoo_cardinality);
PG_FUNCTION_INFO_V1(cuckoo_fpp);
PG_FUNCTION_INFO_V1(cuckoo_info);
PG_FUNCTION_INFO_V1(cuckoo_eq);
PG_FUNCTION_INFO_V1(cuckoo_ne);
}

using namespace sketch;
using namespace sketch::pg;

extern "C" Datum cuckoo_empty(PG_FUNCTION_ARGS) {
  PG_RETURN_POINTER(
      cuckoo_new(cuckoo_sized(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), PG_GETARG_INT32(2))));
}

namespace {

Datum add_value(FunctionCallInfo fcinfo, bool only_new) {
  return CuckooStates::add_value(
      fcinfo,
      [only_new](const ElementHasher* hasher, Datum value) {
        return cuckoo::Family::Element{hash_element128(hasher, value), only_new};
      },
      [](uint8_t* state, cuckoo::Family::Element& e) { return cuckoo_add_element(state, e); });
}

}  // namespace

extern "C" Datum cuckoo_add(PG_FUNCTION_ARGS) { return add_value(fcinfo, false); }

extern "C" Datum cuckoo_add_new(PG_FUNCTION_ARGS) { return add_value(fcinfo, true); }

// One copy fewer of the value's fingerprint; unchanged when absent, and when
// sub-filters of two sizes hold it (which one holds the value's own copy is
// unknown: core/cuckoo/cuckoo.h). The kind is checked (a value of another
// kind is refused) but never taken.
extern "C" Datum cuckoo_delete(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  const ElementHasher* hasher = element_hasher(fcinfo, 1);
  const Hash128 hash = hash_element128(hasher, PG_GETARG_DATUM(1));
  // A deferred state (a raw cuckoo_agg state) adds its queue first, so
  // that a value queued there can be deleted.
  uint8_t* state = cuckoo_settle_state(CuckooStates::take(fcinfo, false));
  check_value_kind(state, hasher);
  cuckoo::delete_hash(state, hash);
  return CuckooStates::give(fcinfo, state, false);
}

extern "C" Datum cuckoo_union2(PG_FUNCTION_ARGS) { return CuckooStates::union2(fcinfo); }

extern "C" Datum cuckoo_cardinality(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT64(0);
  PG_RETURN_INT64(static_cast<int64>(cuckoo::held(cuckoo_arg(fcinfo, 0))));
}

extern "C" Datum cuckoo_fpp(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_FLOAT8(0.0);
  PG_RETURN_FLOAT8(cuckoo::estimate_fpp(cuckoo_arg(fcinfo, 0)));
}

extern "C" Datum cuckoo_info(PG_FUNCTION_ARGS) {
  const cuckoo::View v = cuckoo_arg(fcinfo, 0);
  const uint64 held = cuckoo::held(v);
  const uint64 capacity = cuckoo::capacity(v);
  JsonObject json("cuckoo");
  json.integer("buckets", v.buckets[0]);
  json.integer("bucket_size", v.bucket_size);
  json.integer("fingerprint_bits", v.fingerprint_bits);
  json.integer("subfilters", v.subfilters);
  json.integer("capacity", capacity);
  json.integer("count", held);
  json.number("load", static_cast<double>(held) / static_cast<double>(capacity), Digits::kSix);
  json.number("fpp", cuckoo::estimate_fpp(v), Digits::kSix);
  json.sketch_fields(v.size + VARHDRSZ, static_cast<int>(v.version), "xxh3_128", v.data);
  return json.finish();
}

// Byte equality of the stored form: equal parameters and equal inserts in the
// same order give equal bytes (see docs/cuckoo.md for what = means).
extern "C" Datum cuckoo_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(sketch_args_equal(fcinfo)); }

extern "C" Datum cuckoo_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(!sketch_args_equal(fcinfo)); }
