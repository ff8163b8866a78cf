// theta readers: estimates, bounds and Jaccard similarity (theta.h).

#include <algorithm>
#include <cmath>

#include "core/common/normal.h"
#include "core/theta/theta_internal.h"

namespace sketch::theta {

using namespace detail;

namespace {

// p = θ / 2^63, exact in a double (θ <= 2^63 rounds to 53 bits, relative
// error 2^-53).
double rate_of(uint64_t theta) { return std::ldexp(static_cast<double>(theta), -63); }

}  // namespace

double estimate(const View& v) {
  if (v.theta == kThetaExact) return v.count;
  return v.count / rate_of(v.theta);
}

Bounds count_bounds(uint64_t count, uint64_t theta, double z) {
  const double c = static_cast<double>(count);
  if (theta >= kThetaExact) return Bounds{c, c};
  // The roots of p^2 n^2 - (2cp + z^2 pq) n + c^2 = 0 (theta.h).
  const double p = rate_of(theta), q = 1.0 - p, zz = z * z;
  const double middle = c + zz * q / 2;
  const double spread = z * std::sqrt(q * (c + zz * q / 4));
  if (count == 0) return Bounds{0.0, zz * q / p};  // the roots 0 and z^2 q / p, exactly
  // The roots hold c / p between them; rounding must not push the lower one
  // above the estimate.
  return Bounds{std::max(c, std::min(c / p, (middle - spread) / p)), (middle + spread) / p};
}

Bounds bounds(const View& v, double confidence) {
  return count_bounds(v.count, v.theta, two_sided_z(confidence));
}

// center (x + z^2/2) / (m + z^2), half-width z sqrt(x(m - x)/m + z^2/4) / (m + z^2).
Bounds wilson_interval(uint32_t x, uint32_t m, double z) {
  const double xs = x, ms = m, zz = z * z;
  const double center = (xs + zz / 2) / (ms + zz);
  const double half = z * std::sqrt(xs * (ms - xs) / ms + zz / 4) / (ms + zz);
  return Bounds{std::max(0.0, center - half), std::min(1.0, center + half)};
}

Similarity jaccard(const View& a, const View& b, double confidence) {
  Similarity s{};
  const uint32_t k = k_of(std::min(a.lg_k, b.lg_k));
  const uint64_t theta = std::min(a.theta, b.theta);
  // U: the k smallest hashes of both below θ0 = min(θa, θb).
  bool cut = false;
  uint32_t i = 0, j = 0;
  while (true) {
    const uint64_t x = i < a.count ? hash_at(a.data, i) : theta;
    const uint64_t y = j < b.count ? hash_at(b.data, j) : theta;
    const uint64_t h = std::min(x, y);
    if (h >= theta) break;
    if (s.sample == k) {
      cut = true;
      break;
    }
    s.sample++;
    if (x == h) i++;
    if (y == h) j++;
    if (x == h && y == h) s.shared++;
  }
  if (s.sample == 0) return s;
  s.defined = true;
  s.estimate = static_cast<double>(s.shared) / s.sample;
  s.exact = !cut && theta == kThetaExact;
  if (s.exact) {
    s.lower = s.upper = s.estimate;
  } else {
    const Bounds w = wilson_interval(s.shared, s.sample, two_sided_z(confidence));
    // The interval holds the estimate (it does in exact arithmetic; this
    // guards the last bit).
    s.lower = std::min(w.lower, s.estimate);
    s.upper = std::max(w.upper, s.estimate);
  }
  return s;
}

}  // namespace sketch::theta
