// theta_datasketches_agg(value [, lg_k]) and theta_datasketches_add(sketch,
// value): thetas of hash identity 3 built as the Apache DataSketches
// libraries' update sketch builds them (core/theta/theta_datasketches.h,
// "building"): values hashed as their update() hashes them
// (pg/common/datasketches_value.h), rebuilds when theirs rebuild, and the
// stored form their compact() writes, so that the sketch of a stream equals
// the library's, and merges with imported sketches. docs/interop.md.
#include "core/theta/theta_datasketches_family.h"
#include "pg/common/call_site.h"
#include "pg/common/datasketches_value.h"
#include "pg/theta/theta_datum.h"

extern "C" {
PG_FUNCTION_INFO_V1(theta_datasketches_add);
PG_FUNCTION_INFO_V1(theta_datasketches_agg_trans);
PG_FUNCTION_INFO_V1(theta_datasketches_final);
}

using namespace sketch;
using namespace sketch::pg;
namespace ds = sketch::theta::datasketches;

namespace {

// theta's states with the update sketch's stored form: the final function
// and the scalar add keep every entry, where theta_final trims to k.
using ThetaUpdateStates = SketchStates<ds::UpdateFamily, kThetaTypeName, kThetaHints>;

void require_datasketches(const uint8_t* state, const char* function) {
  if (theta::hash_identity_of(state) == kDatasketchesIdentity) return;
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("%s needs a theta sketch of DataSketches' hashes (hash identity 3), "
                         "got one of identity %u (xxh3_64)",
                         function, theta::hash_identity_of(state)),
                  errhint("Build it with theta_datasketches_agg or import it with "
                          "theta_from_datasketches.")));
}

// Adds argument 1 to `state` (a working state of identity 3), or leaves it
// when the libraries would skip the value.
uint8_t* add_value(FunctionCallInfo fcinfo, uint8_t* state, DatasketchesRule rule) {
  Murmur3Hash h;
  if (!datasketches_value_hash(rule, PG_GETARG_DATUM(1), &h)) return state;
  ThetaUpdateStates::raise_if(state::accept_kind(state, datasketches_kind(rule)));
  ds::UpdateFamily::Element element{ds::update_hash(h.h1)};
  return ThetaUpdateStates::add(state, element);
}

}  // namespace

// theta_datasketches_add(sketch, value): a NULL sketch gives NULL, a NULL
// value leaves it unchanged.
extern "C" Datum theta_datasketches_add(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  if (PG_ARGISNULL(1)) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  const DatasketchesRule rule = datasketches_site_rule(fcinfo, "theta_datasketches_add");
  uint8_t* state = ThetaUpdateStates::take(fcinfo, false);
  require_datasketches(state, "theta_datasketches_add");
  return ThetaUpdateStates::give(fcinfo, add_value(fcinfo, state, rule), false);
}

// theta_datasketches_agg(value [, lg_k]); its combine function is
// theta_union_trans (a merge of two working states of identity 3).
extern "C" Datum theta_datasketches_agg_trans(PG_FUNCTION_ARGS) {
  if (PG_NARGS() > 2 && PG_ARGISNULL(2))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("theta lg_k must not be NULL")));
  const int lg_k = PG_NARGS() > 2 ? theta_lg_k(PG_GETARG_INT32(2)) : theta::kDefaultLgK;
  if (PG_ARGISNULL(1)) return keep_state(fcinfo);
  const DatasketchesRule rule = datasketches_site_rule(fcinfo, "theta_datasketches_agg");
  const bool in_agg = in_aggregate(fcinfo);
  uint8_t* state;
  if (PG_ARGISNULL(0)) {
    state = ThetaUpdateStates::allocate(theta::new_working_size(lg_k));
    ds::write_new_update(lg_k, state);
  } else {
    state = ThetaUpdateStates::take(fcinfo, in_agg);
    if (theta::hash_identity_of(state) != kDatasketchesIdentity || theta::lg_k_of(state) != lg_k)
      raise_parameters_changed(
          "lg_k and hash identity must be the same for every row of theta_datasketches_agg",
          psprintf("The aggregate's state has lg_k %d and hash identity %u; this row asks for "
                   "lg_k %d of hash identity 3.",
                   theta::lg_k_of(state), theta::hash_identity_of(state), lg_k));
  }
  return ThetaUpdateStates::give(fcinfo, add_value(fcinfo, state, rule), in_agg);
}

// The stored form of the state as compact() of the library's update sketch
// writes it: every entry kept. The state is left as it is.
extern "C" Datum theta_datasketches_final(PG_FUNCTION_ARGS) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  return ThetaUpdateStates::final(fcinfo);
}
