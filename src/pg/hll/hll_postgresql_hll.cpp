// postgresql-hll's sketches in hll (hash identity 2, core/hll/pghll.h):
// import from the peer's bytes or text, export to its bytes, an empty
// sketch with its parameters, and adds that hash exactly as its hll_hash_*
// functions do, for hll_postgresql_hll_add and hll_postgresql_hll_agg.
//
// A value is hashed from the bytes the peer hashes (hll_postgresql_hll_hash.h:
// its hll_hash_any rule, of which the typed hll_hash_* are cases). The
// scalar adds of the peer's typed hashes have one C entry point per type;
// the add of any other type and the aggregate (anyelement, with typed twins
// from typed_aggregates.sql so that Citus can split it) resolve the value's
// type once per call site, from the declaration when there is no call
// expression (element_arg_type).
#include <cstring>

#include "core/common/hex.h"
#include "core/hll/pghll.h"
#include "pg/common/call_site.h"
#include "pg/common/element_hash.h"
#include "pg/common/fn_extra.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/hll/hll_datum.h"
#include "pg/hll/hll_postgresql_hll_hash.h"

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
PG_FUNCTION_INFO_V1(hll_postgresql_hll_add_any);
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

// The peer's rule for the value argument (argument 1) at this call site,
// resolved once: from the call expression, or the declaration when there is
// none (element_arg_type).
struct ValueSite {
  bool resolved;
  PeerValueHasher hasher;
};

PeerValueHasher* site_hasher(FunctionCallInfo fcinfo, const char* function) {
  ValueSite* site = fn_extra_of<ValueSite>(fcinfo);
  if (unlikely(!site->resolved)) {
    resolve_peer_value_hasher(element_arg_type(fcinfo, 1), function, fcinfo->flinfo->fn_mcxt,
                              &site->hasher);
    site->resolved = true;
  }
  return &site->hasher;
}

// hll_postgresql_hll_add(sketch, value): hashed with the sketch's own seed.
// `rule`: that of the overload's declared type, unless `resolve` (the value
// is anyelement or unknown: its type is resolved at the call site).
Datum add_value(FunctionCallInfo fcinfo, PeerValueRule rule, bool resolve) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  PeerValueHasher fixed{rule, {}};
  PeerValueHasher* hasher = resolve ? site_hasher(fcinfo, "hll_postgresql_hll_add") : &fixed;
  uint8_t* state = HllStates::take(fcinfo, false);
  const hll::View v = hll_view(HllStates::datum_of(state));
  if (!hll::is_pghll(v.encoding))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("hll_postgresql_hll_add needs a postgresql-hll sketch (hash "
                           "identity 2), got one of identity 1 (xxh3_64)"),
                    errhint("Use hll_add for it, or start from hll_postgresql_hll_empty().")));
  const int32 seed = pghll::params_of(v).seed;
  hll::Family::Element element{peer_value_hash(hasher, PG_GETARG_DATUM(1), seed),
                               pghll::kIdentity, seed};
  return HllStates::give(fcinfo, HllStates::add(state, element), false);
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
  hll::Family::Element element{
      peer_value_hash(site_hasher(fcinfo, "hll_postgresql_hll_agg"), PG_GETARG_DATUM(1),
                      params.seed),
      pghll::kIdentity, params.seed};
  return HllStates::give(fcinfo, HllStates::add(state, element), in_agg);
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

// The overloads of the peer's typed hll_hash_* (their types' rule is fixed),
// and the one of any other type (resolved at the call site).
extern "C" Datum hll_postgresql_hll_add_int2(PG_FUNCTION_ARGS) { return add_value(fcinfo, PeerValueRule::kFixed2, false); }
extern "C" Datum hll_postgresql_hll_add_int4(PG_FUNCTION_ARGS) { return add_value(fcinfo, PeerValueRule::kFixed4, false); }
extern "C" Datum hll_postgresql_hll_add_int8(PG_FUNCTION_ARGS) { return add_value(fcinfo, PeerValueRule::kFixed8, false); }
extern "C" Datum hll_postgresql_hll_add_bool(PG_FUNCTION_ARGS) { return add_value(fcinfo, PeerValueRule::kFixed1, false); }
extern "C" Datum hll_postgresql_hll_add_bytes(PG_FUNCTION_ARGS) { return add_value(fcinfo, PeerValueRule::kVarlena, false); }
extern "C" Datum hll_postgresql_hll_add_any(PG_FUNCTION_ARGS) { return add_value(fcinfo, PeerValueRule::kVarlena, true); }

extern "C" Datum hll_postgresql_hll_agg_trans(PG_FUNCTION_ARGS) { return agg_trans(fcinfo); }
