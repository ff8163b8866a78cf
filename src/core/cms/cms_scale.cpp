// cms aging: every counter and N times a factor 0 < f <= 1, rounded down.
//
// A value's estimate is the minimum of its counters, and floor is monotone,
// so the scaled estimate is floor(f·estimate): never below floor(f·truth)
// (each counter is at least the truth), and above it by at most
// floor(f·epsilon·N) + 1. Candidates keep their texts; their ranks follow
// the scaled counters.

#include <cmath>
#include <cstring>

#include "core/common/scale.h"
#include "core/cms/cms_internal.h"

namespace sketch::cms {

using namespace detail;

Status check_scalable(const View& v, double factor) {
  if (!(factor > 0.0 && factor <= 1.0))
    return std::isnan(factor)
               ? Status::error(StatusCode::kInvalidParameter,
                               "scale factor must be greater than 0 and at most 1, got NaN")
               : Status::error(StatusCode::kInvalidParameter,
                               "scale factor must be greater than 0 and at most 1, got %g", factor);
  if (v.total == kMaxCount)
    return Status::error(StatusCode::kInvalidParameter,
                         "a cms whose counts saturated at %llu cannot be scaled (its counters "
                         "are lower bounds of unknown values)",
                         static_cast<unsigned long long>(kMaxCount));
  return Status::ok();
}

void write_scaled(const View& v, double factor, uint8_t* dst) {
  const ExactFactor f(factor);
  std::memcpy(dst, v.data, v.size);
  store_le64(dst + kTotalOffset, f.floor(v.total));
  uint8_t* counters = dst + kStoredCountersOffset;
  const uint64_t cells = uint64_t{v.params.width} * v.params.depth;
  for (uint64_t i = 0; i < cells; i++)
    store_le64(counters + 8 * i, f.floor(load_le64(counters + 8 * i)));
}

}  // namespace sketch::cms
