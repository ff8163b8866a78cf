// Canonical byte encodings of element values, so that values equal in SQL
// hash equally on every server and architecture.
//
// Integers of every width become the same 8 little-endian bytes, so 42::int2,
// 42::int4 and 42::int8 are one element. Floating point values become one
// double: -0.0 folds into 0.0 and every NaN into a single NaN, because SQL
// treats those as equal. float4 widens to double first.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/common/bytes.h"

namespace sketch {

constexpr size_t kCanonicalScalarSize = 8;

inline void encode_int64(int64_t value, uint8_t out[kCanonicalScalarSize]) {
  store_le64(out, static_cast<uint64_t>(value));
}

inline void encode_double(double value, uint8_t out[kCanonicalScalarSize]) {
  if (value == 0.0) value = 0.0;  // -0.0 == 0.0, so this maps both to +0.0
  if (std::isnan(value)) value = std::numeric_limits<double>::quiet_NaN();
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  store_le64(out, bits);
}

}  // namespace sketch
