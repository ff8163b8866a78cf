#include "pg/cms/cms_datum.h"

#include <cstring>

#include "pg/common/call_site.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

extern "C" {
#include "mb/pg_wchar.h"
}

namespace sketch::pg {

cms::Params cms_params_for_accuracy(double epsilon, double delta, bool conservative, int64 k) {
  cms::Params p;
  CmsStates::raise_if(cms::params_for_accuracy(epsilon, delta, conservative, k, &p));
  return p;
}

cms::Params cms_params_for_size(int64 width, int64 depth, bool conservative, int64 k) {
  cms::Params p;
  CmsStates::raise_if(cms::params_for_size(width, depth, conservative, k, &p));
  return p;
}

Status cms_validate(const uint8* data, size_t len) {
  cms::View v;
  Status st = cms::parse(data, len, cms::Validation::kCanonical, &v);
  if (!st.is_ok()) return st;
  // The texts are returned as text values, so they must be valid in this
  // database's encoding (a sketch may come from a server with another).
  for (uint32 i = 0; i < v.count; i++) {
    const cms::Candidate c = cms::candidate_at(v, i);
    if (!pg_verifymbstr(reinterpret_cast<const char*>(c.text), static_cast<int>(c.len), true))
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid cms data: the text of candidate %u is not valid in the "
                           "server encoding %s", i, GetDatabaseEncodingName());
  }
  return Status::ok();
}

struct varlena* cms_canonical(const cms::View& v) { return CmsStates::stored_of(v); }

uint8_t* cms_new_state(const cms::Params& params) {
  const uint32 arena = cms::initial_arena_capacity(params.candidates);
  uint8_t* state = CmsStates::allocate(cms::working_size(params, arena));
  cms::write_empty_working(params, arena, state);
  return state;
}

bool cms_weight(FunctionCallInfo fcinfo, int argno, bool int4, uint64* count) {
  return weight_arg(fcinfo, argno, int4, "cms count",
                    "A count-min sketch only counts up; a negative count would break its "
                    "promise never to underestimate.",
                    count);
}

}  // namespace sketch::pg
