// Level capacities (kll.h): max(8, round(k (2/3)^depth)), in integers so that
// every platform computes the same layout.
#include "core/kll/kll.h"

namespace sketch::kll {

uint32_t level_capacity(uint32_t k, uint32_t levels, uint32_t h) {
  const uint32_t depth = levels - 1 - h;
  // k (2/3)^d < 8 for every k <= 65535 once d >= 25 (0.0000398 k), and
  // 3^24 * 65535 * 2 stays far below 2^64.
  if (depth >= 25) return kMinLevelCapacity;
  uint64_t num = k, den = 1;
  for (uint32_t i = 0; i < depth; ++i) {
    num *= 2;
    den *= 3;
  }
  const uint64_t rounded = (2 * num + den) / (2 * den);
  return rounded < kMinLevelCapacity ? kMinLevelCapacity : static_cast<uint32_t>(rounded);
}

uint32_t total_capacity(uint32_t k, uint32_t levels) {
  uint32_t total = 0;
  for (uint32_t h = 0; h < levels; ++h) total += level_capacity(k, levels, h);
  return total;
}

Status check_k(int64_t k) {
  if (k < kMinK || k > kMaxK)
    return Status::error(StatusCode::kInvalidParameter, "kll k must be between %u and %u, not %lld",
                         kMinK, kMaxK, static_cast<long long>(k));
  return Status::ok();
}

}  // namespace sketch::kll
