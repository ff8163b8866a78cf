// The sizing target every membership filter is planned for: n distinct
// values at a false-positive probability p. bloom (both layouts),
// counting_bloom and cuckoo refuse the same impossible targets with the same
// words, naming their own filter.
#pragma once

#include <cstdint>

#include "core/common/status.h"

namespace sketch {

// kInvalidParameter unless n >= 1 and 0 < p < 1 (NaN refused). `filter`
// names it ("bloom filter"), `p_noun` what p is ("probability", "rate").
inline Status check_filter_target(const char* filter, const char* p_noun, int64_t n, double p) {
  if (n < 1)
    return Status::error(StatusCode::kInvalidParameter,
                         "%s capacity n must be at least 1, got %lld", filter,
                         static_cast<long long>(n));
  if (!(p > 0.0 && p < 1.0))
    return Status::error(StatusCode::kInvalidParameter,
                         "%s false-positive %s p must be between 0 and 1 (exclusive), got %g",
                         filter, p_noun, p);
  return Status::ok();
}

}  // namespace sketch
