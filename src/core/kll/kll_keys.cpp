// Order keys (kll.h): 8-byte unsigned integers whose order is the values'.
#include <cmath>
#include <cstring>

#include "core/kll/kll.h"

namespace sketch::kll {

namespace {
constexpr uint64_t kSign = uint64_t{1} << 63;
}

bool valid_kind(ElementKind kind) {
  switch (kind) {
    case ElementKind::kFloat:
    case ElementKind::kNumber:
    case ElementKind::kTimestamp:
    case ElementKind::kTimestampTz:
    case ElementKind::kDate:
    case ElementKind::kNone:
      return true;
    default:
      return false;
  }
}

uint64_t key_of_int64(int64_t v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits ^ kSign;
}

int64_t int64_of_key(uint64_t key) {
  const uint64_t bits = key ^ kSign;
  int64_t v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// Non-negative doubles keep their bits with the sign bit set; negative ones
// are complemented, so larger magnitudes sort lower.
uint64_t key_of_double(double v) {
  if (v == 0.0) v = 0.0;  // -0.0 and +0.0 are one value
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits & kSign) ? ~bits : bits | kSign;
}

double double_of_key(uint64_t key) {
  const uint64_t bits = (key & kSign) ? key & ~kSign : ~key;
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

bool is_nan_key(uint64_t key) { return std::isnan(double_of_key(key)); }

}  // namespace sketch::kll
