// Cardinality estimates.
//
// Dense sketches use Otmar Ertl's improved raw estimator ("New cardinality
// estimation algorithms for HyperLogLog sketches", 2017, algorithm 6). The
// classic estimator alpha*m^2/sum(2^-r) is biased for n between roughly 2.5m
// and 5m and needs a switch to linear counting below that, which is where
// hourly rollups live. Ertl's estimator instead corrects the sum for the two
// ends of the register histogram -- empty registers (sigma) and saturated
// registers (tau) -- and is nearly unbiased over the whole range without any
// empirical tables.
//
// Sparse sketches keep entries at 26-bit precision, so they are estimated by
// linear counting over m' = 2^26 buckets: with at most ~50k entries, the
// expected number of colliding values is tiny and the estimate is within a
// fraction of a value of exact.
#include <cmath>
#include <limits>

#include "core/hll/hll.h"
#include "core/hll/hll_internal.h"
#include "core/hll/dshll.h"
#include "core/hll/pghll.h"
#include "core/common/normal.h"

namespace sketch::hll {

namespace {

constexpr double kSparseBuckets = double(uint64_t{1} << kSparsePrecision);

// sigma(x) = x + sum_{k>=1} x^(2^k) 2^(k-1): accounts for empty registers.
double ertl_sigma(double x) {
  if (x == 1.0) return std::numeric_limits<double>::infinity();
  double y = 1.0, z = x, previous;
  do {
    x *= x;
    previous = z;
    z += x * y;
    y += y;
  } while (z != previous);
  return z;
}

// tau(x) = (1 - x - sum_{k>=1} (1 - x^(2^-k))^2 2^-k) / 3: accounts for
// registers at the maximum rank.
double ertl_tau(double x) {
  if (x == 0.0 || x == 1.0) return 0.0;
  double y = 1.0, z = 1.0 - x, previous;
  do {
    x = std::sqrt(x);
    previous = z;
    y *= 0.5;
    z -= (1.0 - x) * (1.0 - x) * y;
  } while (z != previous);
  return z / 3.0;
}

double dense_estimate(const View& v) {
  uint32_t histogram[64] = {0};
  const size_t m = register_count(v.p);
  for (size_t i = 0; i < m; i++) histogram[detail::get_register(v.body, i)]++;
  return detail::ertl_estimate(histogram, m, 64 - v.p);
}

double sparse_estimate(uint32_t count) {
  return -kSparseBuckets * std::log1p(-static_cast<double>(count) / kSparseBuckets);
}

// Standard deviation of linear counting over b buckets at true count n:
// sqrt(b (e^t - t - 1)) with t = n/b (Whang et al. 1990).
double sparse_stddev(double n) {
  const double t = n / kSparseBuckets;
  return std::sqrt(kSparseBuckets * std::expm1(t) - kSparseBuckets * t);
}

uint32_t nonzero_registers(const View& v) {
  uint32_t nonzero = 0;
  const size_t m = register_count(v.p);
  for (size_t i = 0; i < m; i++) nonzero += detail::get_register(v.body, i) != 0;
  return nonzero;
}

}  // namespace

double detail::ertl_estimate(const uint32_t* histogram, size_t m, int q) {
  const double md = static_cast<double>(m);
  double z = md * ertl_tau(1.0 - histogram[q + 1] / md);
  for (int k = q; k >= 1; k--) z = 0.5 * (z + histogram[k]);
  z += md * ertl_sigma(histogram[0] / md);
  const double alpha_infinity = 1.0 / (2.0 * std::log(2.0));
  return alpha_infinity * md * md / z;
}

double estimate(const View& v) {
  double n;
  if (is_pghll(v.encoding)) n = pghll::estimate(v);
  else if (is_dshll(v.encoding)) n = dshll::estimate(v);
  else n = v.encoding == Encoding::kDense ? dense_estimate(v) : sparse_estimate(v.count);
  // With every register saturated the estimator diverges; 64-bit hashes
  // cannot tell apart more than 2^64 values anyway.
  constexpr double kMaxEstimate = 18446744073709551616.0;
  return n < kMaxEstimate ? n : kMaxEstimate;
}

double standard_error(const View& v) {
  if (is_pghll(v.encoding))
    return pghll::is_exact(v) ? 0.0 : 1.04 / std::sqrt(double(register_count(v.p)));
  if (is_dshll(v.encoding)) return dshll::standard_error(v);
  if (v.encoding == Encoding::kDense) return 1.04 / std::sqrt(double(register_count(v.p)));
  const double n = sparse_estimate(v.count);
  return n > 0 ? sparse_stddev(n) / n : 0.0;
}

Bounds bounds(const View& v, double confidence) {
  const double z = two_sided_z(confidence);
  const double n = estimate(v);
  // Each distinct entry or non-empty register proves at least one value.
  double proven;
  double spread;
  if (is_pghll(v.encoding)) {
    // Explicit: exact. Registers: each non-zero one proves a value.
    proven = pghll::filled(v);
    spread = pghll::is_exact(v) ? 0.0 : z * standard_error(v) * n;
  } else if (is_dshll(v.encoding)) {
    // Coupons: each proves a value (and linear counting over 2^26 addresses
    // is nearly exact); registers: each non-zero one proves a value.
    proven = dshll::filled(v);
    spread = z * standard_error(v) * n;
  } else if (v.encoding == Encoding::kDense) {
    proven = nonzero_registers(v);
    spread = z * standard_error(v) * n;
  } else {
    proven = v.count;
    spread = z * sparse_stddev(n);
  }
  const double lower = n - spread > proven ? n - spread : proven;
  return Bounds{lower, n + spread};
}

}  // namespace sketch::hll
