#include "pg/topk/topk_datum.h"

#include "pg/common/call_site.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

extern "C" {
#include "mb/pg_wchar.h"
}

namespace sketch::pg {

uint32 topk_k(int64 k) {
  TopkStates::raise_if(topk::check_k(k));
  return static_cast<uint32>(k);
}

Status topk_validate(const uint8* data, size_t len) {
  topk::View v;
  Status st = topk::parse(data, len, Validation::kCanonical, &v);
  if (!st.is_ok()) return st;
  // Item texts are returned as text values, so they must be valid in this
  // database's encoding (a summary may come from a server with another).
  for (uint32 i = 0; i < v.count; i++) {
    const topk::Item item = topk::stored_item(v, i);
    if (!pg_verifymbstr(reinterpret_cast<const char*>(item.text), static_cast<int>(item.len),
                        true))
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid topk data: the text of item %u is not valid in the server "
                           "encoding %s", i, GetDatabaseEncodingName());
  }
  return Status::ok();
}

uint8_t* topk_new_state(uint32 k) {
  uint8_t* state = TopkStates::allocate(topk::new_working_size(k));
  topk::write_new_working(k, state);
  return state;
}

namespace {

pg_noinline void report_overflow(const uint8_t* state, uint64 weight) {
  const uint64 total = topk::total_of(state);
  ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                  errmsg("topk total would exceed %lld (%llu + %llu)",
                         static_cast<long long>(topk::kMaxTotal),
                         static_cast<unsigned long long>(total),
                         static_cast<unsigned long long>(weight))));
}

}  // namespace

uint8_t* topk_state_add(uint8_t* state, uint64 hash, uint64 weight, const ItemSource* source,
                        Datum value) {
  TopkStates::accept_kind(state, &source->hasher);
  PendingItemText<topk::Family::Text, topk::kMaxItemBytes> pending(source, value);
  topk::Family::Element element = topk::Family::element(hash, weight, pending.produce, &pending);
  state = TopkStates::add(state, element);
  pending.release();
  if (unlikely(element.overflowed)) report_overflow(state, weight);
  return state;
}

bool topk_weight(FunctionCallInfo fcinfo, int argno, bool int4, uint64* weight) {
  return weight_arg(fcinfo, argno, int4, "topk weight",
                    "A topk only counts up; to age counts use topk_scale.", weight);
}

}  // namespace sketch::pg
