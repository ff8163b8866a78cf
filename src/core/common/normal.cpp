#include "core/common/normal.h"

#include <cmath>

namespace sketch {

// P(|Z| <= z) = erf(z / sqrt 2) increases monotonically in z, so bisection
// finds z to double precision in a few dozen steps; this is called once per
// query, not per row, so simplicity wins over a rational approximation.
double two_sided_z(double confidence) {
  double lo = 0.0, hi = 40.0;
  for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
    const double mid = 0.5 * (lo + hi);
    if (std::erf(mid / std::sqrt(2.0)) < confidence) lo = mid; else hi = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace sketch
