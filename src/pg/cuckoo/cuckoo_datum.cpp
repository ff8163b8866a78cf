#include "pg/cuckoo/cuckoo_datum.h"

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

cuckoo::Params cuckoo_sized(int64 n, double p, int64 bucket_size) {
  cuckoo::Params params;
  const Status status = cuckoo::size_for(n, p, bucket_size, &params);
  if (!status.is_ok())
    ereport(ERROR, (errcode(status.code() == StatusCode::kOverflow ? ERRCODE_PROGRAM_LIMIT_EXCEEDED
                                                                    : ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s", status.message()),
                    errhint("Size a filter by n >= 1, the number of values it should hold, "
                            "0 < p < 1, the false-positive rate wanted at that size, and a "
                            "bucket size of 2, 4 or 8; it may have at most %zu bytes. "
                            "cuckoo_sizing(n, p) shows the size before building.",
                            kMaxDumpableBytes)));
  return params;
}

struct varlena* cuckoo_new(const cuckoo::Params& params) {
  uint8_t* out = CuckooStates::allocate(cuckoo::filter_size(params));
  cuckoo::write_empty(out, params);
  return CuckooStates::datum_of(out);
}

uint8_t* cuckoo_new_state(const cuckoo::Params& params, bool in_aggregate) {
  if (!in_aggregate) return payload(cuckoo_new(params));
  uint8_t* out = CuckooStates::allocate(cuckoo::empty_distinct_size(params));
  cuckoo::write_empty_distinct(out, params);
  return out;
}

uint8_t* cuckoo_distinct_state(uint8_t* state) {
  cuckoo::View v;
  check(cuckoo::parse(state, CuckooStates::length_of(state), cuckoo::Validation::kStructure, &v));
  if (cuckoo::has_seen_set(v.encoding)) return state;
  if (v.encoding == cuckoo::Encoding::kDeferred) {
    state = cuckoo_settle_state(state);
    check(cuckoo::parse(state, CuckooStates::length_of(state), cuckoo::Validation::kStructure, &v));
  }
  uint8_t* out = CuckooStates::allocate(cuckoo::distinct_size(v, cuckoo::kMinSeenCapacity));
  cuckoo::write_distinct(v, cuckoo::kMinSeenCapacity, out);
  state::carry_kind(state, out);
  return out;
}

uint8_t* cuckoo_settle_state(uint8_t* state) {
  size_t len = CuckooStates::length_of(state);
  uint8_t* out = nullptr;
  const Status st = state::settle<cuckoo::Family>(state, &len, CuckooStates::allocate, &out);
  if (!st.is_ok()) CuckooStates::raise_grow_error(st);
  return out;
}

uint8_t* cuckoo_add_element(uint8_t* state, cuckoo::Family::Element& element) {
  return CuckooStates::add(state, element);
}

}  // namespace sketch::pg
