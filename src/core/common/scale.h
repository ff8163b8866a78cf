// Exact multiplication of counters by a factor 0 < f <= 1, for aging
// (topk_scale, cms_scale).
//
// A double is m·2^e exactly (m a 53-bit integer), so f·c = m·c·2^e is a
// 117-bit integer shifted right: computed in 128 bits, floor and ceil are
// exact for every 64-bit counter. Floating-point f·c would round and could
// make a lower bound exceed the truth by one.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/common/status.h"

namespace sketch {

// kInvalidParameter unless 0 < factor <= 1 (NaN refused): the factors
// ExactFactor takes, checked the same way for every family that ages.
inline Status check_scale_factor(double factor) {
  if (!(factor > 0.0 && factor <= 1.0))
    return std::isnan(factor)
               ? Status::error(StatusCode::kInvalidParameter,
                               "scale factor must be greater than 0 and at most 1, got NaN")
               : Status::error(StatusCode::kInvalidParameter,
                               "scale factor must be greater than 0 and at most 1, got %g", factor);
  return Status::ok();
}

class ExactFactor {
 public:
  // 0 < f <= 1, checked by the caller.
  explicit ExactFactor(double f) {
    int exponent;
    const double fraction = std::frexp(f, &exponent);  // f = fraction·2^exponent, fraction in [0.5, 1)
    mantissa_ = static_cast<uint64_t>(std::ldexp(fraction, 53));
    shift_ = 53 - exponent;  // >= 52 since exponent <= 1
  }

  uint64_t floor(uint64_t c) const {
    if (shift_ >= 128) return 0;
    const unsigned __int128 product = static_cast<unsigned __int128>(c) * mantissa_;
    return static_cast<uint64_t>(product >> shift_);
  }

  uint64_t ceil(uint64_t c) const {
    const uint64_t down = floor(c);
    if (shift_ >= 128) return c == 0 ? 0 : 1;
    const unsigned __int128 product = static_cast<unsigned __int128>(c) * mantissa_;
    const unsigned __int128 low_mask = (static_cast<unsigned __int128>(1) << shift_) - 1;
    return down + ((product & low_mask) != 0 ? 1 : 0);
  }

 private:
  uint64_t mantissa_;
  int shift_;
};

}  // namespace sketch
