#include "pg/cms_datum.h"

#include <cstring>

#include "pg/report.h"
#include "pg/sketch_datum.h"

extern "C" {
#include "mb/pg_wchar.h"
}

namespace sketch::pg {

void cms_check(const Status& status) {
  if (status.is_ok()) return;
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

struct varlena* cms_canonical(const cms::View& v) {
  const size_t size = cms::canonical_size(v);
  check_sketch_size(size, kCmsTypeName);
  struct varlena* out = new_sketch(size);
  cms::write_canonical(v, payload(out));
  return out;
}

struct varlena* cms_new_state(const cms::Params& params) {
  const uint32 arena = cms::initial_arena_capacity(params.candidates);
  struct varlena* out = new_sketch(cms::working_size(params, arena));
  cms::write_empty_working(params, arena, payload(out));
  return out;
}

struct varlena* cms_state_copy(const cms::View& v, uint32 candidates) {
  const uint32 arena = cms::working_arena_for(v, candidates);
  cms::Params p = v.params;
  p.candidates = candidates;
  const size_t size = cms::working_size(p, arena);
  check_sketch_size(size, kCmsTypeName);
  struct varlena* out = new_sketch(size);
  cms::write_working(v, candidates, arena, payload(out));
  return out;
}

void cms_init_value_info(FunctionCallInfo fcinfo, int argno, CmsValueInfo* info) {
  init_element_hasher(fcinfo, argno, &info->hasher);
  Oid output;
  bool is_varlena;
  getTypeOutputInfo(info->hasher.type, &output, &is_varlena);
  fmgr_info_cxt(output, &info->output, fcinfo->flinfo->fn_mcxt);
}

struct varlena* cms_state_add(struct varlena* state, uint64 hash, uint64 count,
                              const CmsValueInfo* info, Datum value) {
  uint64 estimate;
  if (cms::add(payload(state), hash, count, &estimate) == cms::AddOutcome::kDone) return state;

  // The value enters the candidate list: now, and only now, its text.
  char* text = OutputFunctionCall(const_cast<FmgrInfo*>(&info->output), value);
  int len = static_cast<int>(std::strlen(text));
  const bool clipped = len > static_cast<int>(cms::kMaxValueBytes);
  if (clipped) len = pg_mbcliplen(text, len, static_cast<int>(cms::kMaxValueBytes));
  const auto* bytes = reinterpret_cast<const uint8*>(text);
  while (cms::admit(payload(state), hash, estimate, bytes, static_cast<uint32>(len), clipped) ==
         cms::AdmitOutcome::kNeedsGrowth) {
    const cms::View v = cms_view(state);
    const uint32 arena = cms::grown_arena_capacity(v, static_cast<uint32>(len));
    struct varlena* grown = new_sketch(cms::working_size(v.params, arena));
    cms::write_working(v, v.params.candidates, arena, payload(grown));
    state = grown;
  }
  pfree(text);
  return state;
}

struct varlena* cms_state_union(struct varlena* state, const cms::View& other) {
  const cms::View a = cms_view(state);
  cms_check(cms::check_mergeable(a, other));
  const cms::MergePlan plan = cms::plan_merge(a, other);
  if (!plan.in_place) {
    check_sketch_size(plan.size, kCmsTypeName);
    struct varlena* grown = new_sketch(plan.size);
    cms::write_working(a, plan.candidates, plan.arena_capacity, payload(grown));
    state = grown;
  }
  cms::merge_into(payload(state), other);
  return state;
}

bool cms_weight(FunctionCallInfo fcinfo, int argno, uint64* count) {
  if (PG_ARGISNULL(argno)) return false;
  const int64 weight = PG_GETARG_INT64(argno);
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
