// postgresql-hll's sketches in hll (hash identity 2, core/hll/pghll.h):
// import from the peer's bytes or text, export to its bytes, an empty
// sketch with its parameters, and adds that hash exactly as its hll_hash_*
// functions do, for hll_postgresql_hll_add and hll_postgresql_hll_agg.
//
// A value is hashed from its bytes as the peer hashes them: smallint,
// integer, bigint as 2, 4, 8 little-endian bytes (the peer hashes the
// datum's memory, which is little-endian on the machines it runs on),
// boolean as one byte 0 or 1, text, varchar and bytea as their bytes. The
// scalar adds have one C entry point per SQL overload; the aggregate takes
// anyelement (its typed twins come from typed_aggregates.sql, so Citus can
// split it) and resolves the value's type once per call site, from the
// declaration when there is no call expression (element_arg_type).
#include <cstring>

#include "core/common/hex.h"
#include "core/common/murmur3.h"
#include "core/hll/pghll.h"
#include "pg/common/call_site.h"
#include "pg/common/element_hash.h"
#include "pg/common/fn_extra.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/hll/hll_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(hll_from_postgresql_hll_bytea);
PG_FUNCTION_INFO_V1(hll_from_postgresql_hll_text);
PG_FUNCTION_INFO_V1(hll_to_postgresql_hll);
PG_FUNCTION_INFO_V1(hll_postgresql_hll_empty);
PG_FUNCTION_INFO_V1(hll_postgresql_hll_add_int2);
PG_FUNCTION_INFO_V1(hll_postgresql_hll_add_int4);
PG_FUNCTION_INFO_V1(hll_postgresql_hll_add_int8);
PG_FUNCTION_INFO_V1(hll_postgresql_hll_add_bool);
PG_FUNCTION_INFO_V1(hll_postgresql_hll_add_bytes);
PG_FUNCTION_INFO_V1(hll_postgresql_hll_agg_trans);
}

using namespace sketch;
using namespace sketch::pg;
namespace pghll = sketch::hll::pghll;

namespace {

// The peer's defaults (hll_set_defaults as shipped): log2m 11, regwidth 5,
// expthresh -1 (auto), sparseon 1, seed 0.
constexpr int kDefaultLog2m = 11;
constexpr int kDefaultRegwidth = 5;
constexpr int64 kDefaultExpthresh = -1;
constexpr int kDefaultSparseon = 1;

pghll::Params params_from_args(FunctionCallInfo fcinfo, int first) {
  for (int i = first; i < first + 5; i++)
    if (PG_ARGISNULL(i))
      ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                      errmsg("postgresql-hll parameters must not be NULL")));
  pghll::Params params;
  check(pghll::make_params(PG_GETARG_INT32(first), PG_GETARG_INT32(first + 1),
                           PG_GETARG_INT64(first + 2), PG_GETARG_INT32(first + 3),
                           PG_GETARG_INT32(first + 4), &params));
  return params;
}

uint8_t* new_state(const pghll::Params& params) {
  uint8_t* state = HllStates::allocate(pghll::empty_working_size());
  pghll::write_empty_working(params, state);
  return state;
}

struct varlena* import(const uint8_t* bytes, size_t len, int32 seed) {
  pghll::PeerView peer;
  const Status st = pghll::parse_peer(bytes, len, seed, &peer);
  // Corrupt bytes are 22P03; an UNDEFINED value is valid data that holds no
  // set (22023).
  if (!st.is_ok()) raise_error(st, st.code() == StatusCode::kInvalidFormat
                                       ? ERRCODE_INVALID_BINARY_REPRESENTATION
                                       : 0);
  uint8_t* state = HllStates::allocate(pghll::working_size_of(peer));
  pghll::write_working_of(peer, ElementKind::kNone, state);
  return hll_canonical(hll_view(HllStates::datum_of(state)));
}

// The 64-bit hash the peer's hll_hash_<type>(value, seed) answers.
uint64_t hash_bytes(const void* data, size_t len, int32 seed) {
  return murmur3_x64_128(data, len, static_cast<uint32_t>(seed)).h1;
}

enum class ValueType { kInt2, kInt4, kInt8, kBool, kBytes };

uint64_t hash_value(ValueType type, Datum value, int32 seed) {
  uint8_t le[8];
  switch (type) {
    case ValueType::kInt2:
      le[0] = static_cast<uint8_t>(DatumGetInt16(value));
      le[1] = static_cast<uint8_t>(static_cast<uint16_t>(DatumGetInt16(value)) >> 8);
      return hash_bytes(le, 2, seed);
    case ValueType::kInt4:
      store_le32(le, static_cast<uint32_t>(DatumGetInt32(value)));
      return hash_bytes(le, 4, seed);
    case ValueType::kInt8:
      store_le64(le, static_cast<uint64_t>(DatumGetInt64(value)));
      return hash_bytes(le, 8, seed);
    case ValueType::kBool:
      le[0] = DatumGetBool(value) ? 1 : 0;
      return hash_bytes(le, 1, seed);
    case ValueType::kBytes: {
      const struct varlena* v = PG_DETOAST_DATUM_PACKED(value);
      return hash_bytes(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), seed);
    }
  }
  return 0;
}

// hll_postgresql_hll_add(sketch, value): hashed with the sketch's own seed.
Datum add_value(FunctionCallInfo fcinfo, ValueType type) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  uint8_t* state = HllStates::take(fcinfo, false);
  const hll::View v = hll_view(HllStates::datum_of(state));
  if (!hll::is_pghll(v.encoding))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("hll_postgresql_hll_add needs a postgresql-hll sketch (hash "
                           "identity 2), got one of identity 1 (xxh3_64)"),
                    errhint("Use hll_add for it, or start from hll_postgresql_hll_empty().")));
  const int32 seed = pghll::params_of(v).seed;
  hll::Family::Element element{hash_value(type, PG_GETARG_DATUM(1), seed), pghll::kIdentity, seed};
  return HllStates::give(HllStates::add(state, element), false);
}

// The value argument's type at this call site, resolved once.
struct AggSite {
  bool resolved;
  ValueType type;
};

ValueType resolve_value_type(Oid type) {
  switch (type) {
    case INT2OID: return ValueType::kInt2;
    case INT4OID: return ValueType::kInt4;
    case INT8OID: return ValueType::kInt8;
    case BOOLOID: return ValueType::kBool;
    case TEXTOID:
    case VARCHAROID:
    case BYTEAOID: return ValueType::kBytes;
    default:
      ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                      errmsg("hll_postgresql_hll_agg cannot hash values of type %s",
                             format_type_be(type)),
                      errdetail("It hashes smallint, integer, bigint, boolean, text and bytea "
                                "exactly as postgresql-hll's hll_hash_* functions do."),
                      errhint("Cast the value to one of those types, as the peer's "
                              "hll_hash_* call did.")));
  }
  return ValueType::kBytes;
}

ValueType value_type(FunctionCallInfo fcinfo) {
  AggSite* site = fn_extra_of<AggSite>(fcinfo);
  if (unlikely(!site->resolved)) {
    site->type = resolve_value_type(element_arg_type(fcinfo, 1));
    site->resolved = true;
  }
  return site->type;
}

// hll_postgresql_hll_agg(value [, log2m, regwidth, expthresh, sparseon, seed])
Datum agg_trans(FunctionCallInfo fcinfo) {
  const bool has_params = PG_NARGS() > 2;
  const pghll::Params params =
      has_params ? params_from_args(fcinfo, 2)
                 : pghll::Params{0, kDefaultLog2m, kDefaultRegwidth, pghll::kAutoCutoff, true};
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  const bool in_agg = in_aggregate(fcinfo);
  uint8_t* state;
  if (PG_ARGISNULL(0)) {
    state = new_state(params);
  } else {
    state = HllStates::take(fcinfo, in_agg);
    const hll::View v = hll_view(HllStates::datum_of(state));
    // The state was made by the first row; parameters that changed since
    // would be silently ignored otherwise.
    if (!hll::is_pghll(v.encoding) || !pghll::same_params(pghll::params_of(v), params))
      raise_parameters_changed(
          "postgresql-hll parameters must be the same for every row of hll_postgresql_hll_agg",
          "The aggregate's state has other parameters (or another hash identity) than this "
          "row's arguments.");
  }
  hll::Family::Element element{hash_value(value_type(fcinfo), PG_GETARG_DATUM(1), params.seed),
                               pghll::kIdentity, params.seed};
  return HllStates::give(HllStates::add(state, element), in_agg);
}

}  // namespace

extern "C" Datum hll_from_postgresql_hll_bytea(PG_FUNCTION_ARGS) {
  const bytea* b = PG_GETARG_BYTEA_PP(0);
  PG_RETURN_POINTER(import(reinterpret_cast<const uint8_t*>(VARDATA_ANY(b)),
                           VARSIZE_ANY_EXHDR(b), PG_GETARG_INT32(1)));
}

// The peer's text output: "\x" and lowercase hex (its input also takes
// uppercase, so do we).
extern "C" Datum hll_from_postgresql_hll_text(PG_FUNCTION_ARGS) {
  const text* t = PG_GETARG_TEXT_PP(0);
  const char* chars = VARDATA_ANY(t);
  const size_t len = VARSIZE_ANY_EXHDR(t);
  const size_t n = hex_decoded_size(len);
  if (n == 0)
    ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                    errmsg("invalid postgresql-hll text: expected \\x and an even number of "
                           "hex digits, %zu characters", len)));
  uint8_t* bytes = static_cast<uint8_t*>(palloc(n));
  const Status st = hex_decode(chars, len, bytes);
  if (!st.is_ok()) raise_error(st, ERRCODE_INVALID_TEXT_REPRESENTATION);
  PG_RETURN_POINTER(import(bytes, n, PG_GETARG_INT32(1)));
}

extern "C" Datum hll_to_postgresql_hll(PG_FUNCTION_ARGS) {
  const hll::View v = HllStates::stored_view_arg(fcinfo, 0);
  if (v.encoding != hll::Encoding::kPghll)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("hll_to_postgresql_hll needs a postgresql-hll sketch (hash identity "
                           "2), got one of identity 1 (xxh3_64)"),
                    errdetail("Sketches hashed with xxh3_64 cannot be expressed in "
                              "postgresql-hll's hashing; rebuild them from the rows with "
                              "hll_postgresql_hll_agg.")));
  size_t len;
  const uint8_t* bytes = pghll::peer_bytes(v, &len);
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + len));
  SET_VARSIZE(out, VARHDRSZ + len);
  std::memcpy(VARDATA(out), bytes, len);
  PG_RETURN_BYTEA_P(out);
}

extern "C" Datum hll_postgresql_hll_empty(PG_FUNCTION_ARGS) {
  const pghll::Params params = params_from_args(fcinfo, 0);
  PG_RETURN_POINTER(hll_canonical(hll_view(HllStates::datum_of(new_state(params)))));
}

extern "C" Datum hll_postgresql_hll_add_int2(PG_FUNCTION_ARGS) { return add_value(fcinfo, ValueType::kInt2); }
extern "C" Datum hll_postgresql_hll_add_int4(PG_FUNCTION_ARGS) { return add_value(fcinfo, ValueType::kInt4); }
extern "C" Datum hll_postgresql_hll_add_int8(PG_FUNCTION_ARGS) { return add_value(fcinfo, ValueType::kInt8); }
extern "C" Datum hll_postgresql_hll_add_bool(PG_FUNCTION_ARGS) { return add_value(fcinfo, ValueType::kBool); }
extern "C" Datum hll_postgresql_hll_add_bytes(PG_FUNCTION_ARGS) { return add_value(fcinfo, ValueType::kBytes); }

extern "C" Datum hll_postgresql_hll_agg_trans(PG_FUNCTION_ARGS) { return agg_trans(fcinfo); }
