#include "pg/cms/cms_datum.h"

#include <cstring>

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

extern "C" {
#include "mb/pg_wchar.h"
}

namespace sketch::pg {

void cms_raise(const Status& status) {
  switch (status.code()) {
    case StatusCode::kInvalidParameter:
      ereport(ERROR,
              (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", status.message()),
               errhint("Use 0 < epsilon < 1 and 0 < delta < 1 (the defaults 0.001 and 0.01 give "
                       "2719 x 5 counters, 106 KiB), or width >= 1 and depth 1..%u; the "
                       "candidate list size k is 0..%u (default %u).",
                       cms::kMaxDepth, cms::kMaxCandidates, cms::kDefaultCandidates)));
      break;
    case StatusCode::kMismatch:
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", status.message()),
                      errhint("Only sketches built with the same epsilon and delta (or width "
                              "and depth) can be merged.")));
      break;
    default:
      raise_error(status);
  }
}

cms::Params cms_params_for_accuracy(double epsilon, double delta, bool conservative, int64 k) {
  cms::Params p;
  cms_check(cms::params_for_accuracy(epsilon, delta, conservative, k, &p));
  return p;
}

cms::Params cms_params_for_size(int64 width, int64 depth, bool conservative, int64 k) {
  cms::Params p;
  cms_check(cms::params_for_size(width, depth, conservative, k, &p));
  return p;
}

cms::View cms_view(const struct varlena* v) {
  const SketchBytes b = bytes_of(v);
  cms::View view;
  check(cms::parse(b.data, b.len, cms::Validation::kStructure, &view));
  return view;
}

cms::View cms_arg(FunctionCallInfo fcinfo, int n) {
  return cms_view(PG_DETOAST_DATUM(PG_GETARG_DATUM(n)));
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
  if (PG_ARGISNULL(argno)) return false;
  const int64 weight = int4 ? PG_GETARG_INT32(argno) : PG_GETARG_INT64(argno);
  if (weight < 0)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("cms count must not be negative, got %lld",
                           static_cast<long long>(weight)),
                    errhint("A count-min sketch only counts up; a negative count would break "
                            "its promise never to underestimate.")));
  *count = static_cast<uint64>(weight);
  return weight > 0;
}

}  // namespace sketch::pg
