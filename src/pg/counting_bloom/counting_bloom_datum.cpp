#include "pg/counting_bloom/counting_bloom_datum.h"

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

counting_bloom::Params counting_bloom_sized(int64 n, double p) {
  counting_bloom::Params params;
  check_parameter(counting_bloom::size_for(n, p, &params),
                  "Size a filter by n >= 1, the number of distinct values it should hold at "
                  "once, and 0 < p < 1, the false-positive probability wanted at that size; it "
                  "may have at most %llu cells (512 MiB) and %d hashes. "
                  "counting_bloom_sizing(n, p) shows the size before building.",
                  static_cast<unsigned long long>(counting_bloom::kMaxCells),
                  counting_bloom::kMaxHashes);
  return params;
}

struct varlena* counting_bloom_new(const counting_bloom::Params& params) {
  uint8_t* out = CountingBloomStates::allocate(counting_bloom::filter_size(params.cells));
  counting_bloom::write_empty(out, params);
  return CountingBloomStates::datum_of(out);
}

struct varlena* counting_bloom_to_bloom_value(const counting_bloom::View& v) {
  struct varlena* out = new_sketch(counting_bloom::bloom_size(v));
  counting_bloom::to_bloom(v, payload(out));
  return out;
}

bloom::View counting_bloom_bloom_view(const counting_bloom::View& v) {
  const SketchBytes b = bytes_of(counting_bloom_to_bloom_value(v));
  bloom::View view;
  check(bloom::parse(b.data, b.len, Validation::kStructure, &view));
  return view;
}

}  // namespace sketch::pg
