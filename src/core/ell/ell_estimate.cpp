// Estimates: maximum likelihood and martingale (dense), token count (sparse).
//
// Maximum likelihood (Ertl's ExaLogLog paper, section on estimation): under
// the Poisson model with n distinct values, value k of register i is seen
// with probability 1 - exp(-n w_k), w_k its weight (value_weight, units of
// 2^-64). A register tells, for u and the values of its window, seen or not,
// and that every value above u was not seen; lower values it forgot. So
//
//   ln L(n) = -n a + Σ_e β_e ln(1 - exp(-n 2^(e-64)))
//
// with a = Σ of the weights of every value known unseen (exactly the
// registers' change probabilities, total_change_weight) and β_e the number of
// values seen of weight 2^e. Its derivative is zero where
//
//   f(n) = Σ_e β_e r_e / (exp(n r_e) - 1) = a,   r_e = 2^(e-64),
//
// f decreasing and convex, so Newton's method started left of the root
// climbs to it monotonically. The root is at most B / a (B = Σ β_e), since
// each term is below β_e / n.
//
// Martingale (Ting 2014; Ertl's paper): a sketch that has only seen adds keeps
// Σ 1 / P(change) over its state changes (ell_insert.cpp), an unbiased
// estimate with less variance than any estimate from the final state alone.
#include <cmath>

#include "core/common/normal.h"
#include "core/ell/ell.h"
#include "core/ell/ell_internal.h"

namespace sketch::ell {

using namespace detail;

namespace {

// Relative standard errors times sqrt(m): sqrt(MVP / 28) for the
// asymptotic memory-variance products of ExaLogLog(2, 20): ML 3.67 (Ertl's
// paper; test/accuracy/ell_accuracy_test.cpp measures 3.74 at p = 10 with
// the header's bits, n = 10^6), martingale 2.97 (measured there). Below
// n = 100 m both errors are smaller (the MVP rises from about 1.6).
constexpr double kMlError = 0.3620;
constexpr double kMartingaleError = 0.3257;

double solve_ml(const double* beta, double a) {
  double total = 0;
  for (int e = 0; e < 64; e++) total += beta[e];
  if (total == 0) return 0;
  if (a <= 0) return 0x1p64;  // every value seen: beyond what 64-bit hashes tell
  auto f = [&](double n, double* slope) {
    double value = 0, d = 0;
    for (int e = 0; e < 64; e++) {
      if (beta[e] == 0) continue;
      const double r = std::ldexp(1.0, e - 64);
      const double y = n * r;
      if (y > 700) continue;
      const double em1 = std::expm1(y);
      value += beta[e] * r / em1;
      d -= beta[e] * r * r * (em1 + 1) / (em1 * em1);
    }
    *slope = d;
    return value;
  };
  double slope;
  double n = total / a;
  for (int i = 0; i < 2000 && f(n, &slope) < a; i++) n *= 0.5;
  for (int i = 0; i < 200; i++) {
    const double value = f(n, &slope);
    if (slope == 0) break;
    const double next = n - (value - a) / slope;
    if (!(next > n)) break;
    const bool done = next - n <= 1e-13 * next;
    n = next;
    if (done) break;
  }
  return n;
}

double dense_ml(const View& v) {
  double beta[64] = {};
  const uint8_t* regs = v.data + kRegistersOffset;
  const size_t m = register_count(v.p);
  uint64_t unseen = 0;
  for (size_t i = 0; i < m; i++) {
    const uint32_t r = get_register(regs, i);
    unseen += change_weight(r, v.p);
    for_each_value(r, [&](uint32_t k) { beta[63 - __builtin_clzll(value_weight(k, v.p))]++; });
  }
  return solve_ml(beta, static_cast<double>(unseen) * 0x1p-64);
}

// Distinct hashes a dense sketch proves: one per value it has seen.
double dense_minimum(const View& v) {
  const uint8_t* regs = v.data + kRegistersOffset;
  double seen = 0;
  for (size_t i = 0; i < register_count(v.p); i++)
    for_each_value(get_register(regs, i), [&](uint32_t) { seen++; });
  return seen;
}

// sd of a sparse estimate: the hashes hidden by token collisions, about a
// Poisson number.
double sparse_stddev(const View& v, double n) {
  return n > v.count ? std::sqrt(n - v.count) : 0.0;
}

}  // namespace

namespace detail {

// The n whose expected number of distinct tokens is `count`. Tokens of level
// j have probability 2^-(j+1) / 2^26 (2^-38 for the top level 38), 2^26 of
// them per level; E(n) is increasing and concave, so Newton from n = count
// (where E(n) <= count) climbs monotonically to the root.
double sparse_estimate(uint32_t count) {
  if (count == 0) return 0;
  const int top = top_level(kTokenPrecision);
  const double per_level = 0x1p26;
  double n = count;
  for (int i = 0; i < 50; i++) {
    double expected = 0, slope = 0;
    for (int j = 0; j <= top; j++) {
      const double q = std::ldexp(1.0, -(j < top ? j + 1 : top) - 26);
      const double l = std::log1p(-q);
      expected -= per_level * std::expm1(n * l);
      slope -= per_level * l * std::exp(n * l);
    }
    const double next = n + (count - expected) / slope;
    if (!(next > n)) break;
    const bool done = next - n <= 1e-12 * next;
    n = next;
    if (done) break;
  }
  return n;
}

}  // namespace detail

double ml_estimate(const View& v) {
  return std::fmin(v.encoding == Encoding::kDense ? dense_ml(v) : sparse_estimate(v.count), 0x1p64);
}

double martingale_estimate(const View& v, bool* available) {
  // A finite, non-negative value, as parse(kCanonical) checks; a working
  // state's bytes are not checked, and a broken one falls back to ML.
  const double n =
      v.encoding == Encoding::kDense && is_unmerged(v) ? load_double(v.data + kMartingaleOffset) : -1;
  *available = std::isfinite(n) && n >= 0;
  return *available ? std::fmin(n, 0x1p64) : 0.0;
}

double estimate(const View& v) {
  bool martingale;
  const double n = martingale_estimate(v, &martingale);
  return martingale ? n : ml_estimate(v);
}

double standard_error(const View& v) {
  if (v.encoding != Encoding::kDense) {
    const double n = sparse_estimate(v.count);
    return n > 0 ? sparse_stddev(v, n) / n : 0.0;
  }
  if (!is_unmerged(v)) return ml_standard_error(v.p);
  return kMartingaleError / std::sqrt(static_cast<double>(register_count(v.p)));
}

double ml_standard_error(int p) {
  return kMlError / std::sqrt(static_cast<double>(register_count(p)));
}

Bounds bounds(const View& v, double confidence) {
  const double n = estimate(v);
  const double z = two_sided_z(confidence);
  const double floor = v.encoding == Encoding::kDense ? dense_minimum(v) : double(v.count);
  const double spread = v.encoding == Encoding::kDense ? z * standard_error(v) * n
                                                        : z * sparse_stddev(v, n);
  return {std::fmax(floor, n - spread), std::fmax(floor, n + spread)};
}

}  // namespace sketch::ell
