#include "pg/bloom/bloom_datum.h"

#include <cstring>

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

bloom::Params bloom_sized(int64 n, double p) {
  bloom::Params params;
  check_parameter(bloom::size_for(n, p, &params),
                  "Size a filter by n >= 1, the number of distinct values it should hold, and "
                  "0 < p < 1, the false-positive probability wanted at that size; it may have "
                  "at most %llu bits (512 MiB) and %d hashes. bloom_sizing(n, p) shows the "
                  "size before building.",
                  static_cast<unsigned long long>(bloom::kMaxBits), bloom::kMaxHashes);
  return params;
}

bloom::Params bloom_params(int64 bits, int64 hashes) {
  check_parameter(bloom::check_params(bits, hashes),
                  "A filter has %llu..%llu bits and 1..%d hashes; bloom_sizing(n, p) gives both "
                  "for n distinct values at false-positive probability p.",
                  static_cast<unsigned long long>(bloom::kMinBits),
                  static_cast<unsigned long long>(bloom::kMaxBits), bloom::kMaxHashes);
  return bloom::Params{static_cast<uint64>(bits), static_cast<int>(hashes)};
}

bloom::Params bloom_sized_layout(int64 n, double p, bloom::Layout layout) {
  if (layout == bloom::Layout::kClassic) return bloom_sized(n, p);
  // Split-block sizing sums a Poisson series for each candidate size (about
  // a millisecond in all). A transition function resolves it once per call
  // site (CallSite), but Citus's worker_partial_agg calls the transition
  // function through a new FmgrInfo on every row, which made a split
  // bloom_agg over 10^5 rows take minutes: the backend keeps its last answer.
  static struct {
    int64 n;
    double p;
    bloom::Params params;
    bool valid;
  } last;
  if (last.valid && last.n == n && last.p == p) return last.params;
  bloom::Params params;
  check_parameter(bloom::size_split_block(n, p, &params),
                  "Size a filter by n >= 1, the number of distinct values it should hold, and "
                  "0 < p < 1, the false-positive probability wanted at that size; a split-block "
                  "filter has at most %llu bits (128 MiB). bloom_sizing(n, p, 'split_block') "
                  "shows the size before building.",
                  static_cast<unsigned long long>(bloom::split_block::kMaxBits));
  last = {n, p, params, true};
  return params;
}

bloom::Layout bloom_layout_arg(const text* name) {
  const char* data = VARDATA_ANY(name);
  const size_t len = VARSIZE_ANY_EXHDR(name);
  if (len == 7 && std::memcmp(data, "classic", 7) == 0) return bloom::Layout::kClassic;
  if (len == 11 && std::memcmp(data, "split_block", 11) == 0) return bloom::Layout::kSplitBlock;
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("unknown bloom filter layout \"%s\"", text_to_cstring(name)),
                  errhint("The layouts are 'classic' (the default: the fewest bits for a "
                          "false-positive rate) and 'split_block' (Parquet's filter: one "
                          "cache line per value).")));
  return bloom::Layout::kClassic;
}

const char* bloom_layout_name(bloom::Layout layout) {
  return layout == bloom::Layout::kSplitBlock ? "split_block" : "classic";
}

struct varlena* bloom_new(const bloom::Params& params) {
  return BloomStates::datum_of(bloom_new_state(params, false));
}

uint8_t* bloom_new_state(const bloom::Params& params, bool in_agg) {
  const bool deferred = in_agg && bloom::defer_adds(params.bits);
  uint8_t* state = BloomStates::allocate(deferred ? bloom::working_size(params.bits)
                                                  : bloom::filter_size(params.bits));
  bloom::write_empty(state, params, deferred ? bloom::Encoding::kQueued : bloom::Encoding::kStored);
  return state;
}

struct varlena* bloom_stored(const bloom::View& v) { return BloomStates::stored_of(v); }

void bloom_check_compatible(const bloom::View& a, const bloom::View& b) {
  BloomStates::raise_if(bloom::check_compatible(a, b));
}

}  // namespace sketch::pg
