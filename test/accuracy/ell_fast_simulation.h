// The state of a dense ell sketch after n distinct values, simulated exactly
// in distribution without hashing every value (the "fast simulation" of
// Ertl's papers, written here from its idea): distinct values of a random
// hash function are independent uniform 64-bit hashes, and the next one
// changes the state with probability μ = Σ change_weight · 2^-64 (ell_internal.h),
// so the number of values until the next change is geometric(μ), and the
// change is update value k of register i with probability ∝ its weight among
// the changing ones. Each change costs O(log m) (a Fenwick tree over the
// registers' change weights), so n reaches 10^12 in the time 10^6 inserts
// take. The martingale fields are advanced exactly as add_hash does.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/ell/ell.h"
#include "core/ell/ell_internal.h"

namespace sketch::ell::test {

inline uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class FastSimulation {
 public:
  // `dense`: the bytes of a dense sketch (a promoted one-pass sketch, whose
  // martingale fields are then advanced too), `rng` the trial's generator.
  FastSimulation(std::vector<uint8_t> dense, uint64_t* rng)
      : bytes_(std::move(dense)), rng_(rng), p_(detail::precision_of(bytes_.data())),
        m_(register_count(p_)), tree_(m_ + 1, 0) {
    for (size_t i = 0; i < m_; i++) {
      const uint64_t w = detail::change_weight(reg(i), p_);
      tree_add(i, w);
      total_ += w;
    }
  }

  const std::vector<uint8_t>& bytes() const { return bytes_; }

  // Advances the state from `n` distinct values to `target` (>= n).
  void advance(uint64_t* n, uint64_t target) {
    while (*n < target) {
      if (pending_ == 0) pending_ = draw_gap();
      const uint64_t step = std::min<uint64_t>(pending_, target - *n);
      *n += step;
      pending_ -= step;
      if (pending_ == 0) change();
    }
  }

 private:
  uint32_t reg(size_t i) const { return detail::get_register(bytes_.data() + detail::kRegistersOffset, i); }
  uint64_t total() const { return total_; }
  void tree_add(size_t i, uint64_t delta) {  // delta may "wrap" (a decrease)
    for (size_t j = i + 1; j <= m_; j += j & (~j + 1)) tree_[j] += delta;
  }
  uint64_t below(uint64_t bound) { return static_cast<uint64_t>((unsigned __int128)splitmix64(rng_) * bound >> 64); }

  // Values until the next state change, the change included: geometric(μ).
  uint64_t draw_gap() {
    const double mu = std::ldexp(static_cast<double>(total()), -64);
    if (mu <= 0) return UINT64_MAX;
    const double u = (static_cast<double>(splitmix64(rng_) >> 11) + 1) * 0x1p-53;
    const double gap = std::floor(std::log(u) / std::log1p(-mu)) + 1;
    return gap >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(gap);
  }

  void change() {
    // The register: the first whose prefix sum passes r (Fenwick descent).
    uint64_t r = below(total());
    size_t pos = 0;
    for (size_t step = size_t{1} << p_; step > 0; step >>= 1) {
      if (pos + step <= m_ && tree_[pos + step] <= r) {
        pos += step;
        r -= tree_[pos];
      }
    }
    const size_t i = pos;
    const uint32_t old = reg(i);
    // The value: unseen window values first, then every value above u.
    const uint32_t u = detail::reg_u(old);
    uint32_t k = 0;
    for (uint32_t delta = 1; delta <= kD && delta < u && k == 0; delta++) {
      if (old & (uint32_t{1} << (kD - delta))) continue;
      const uint64_t w = detail::value_weight(u - delta, p_);
      if (r < w) k = u - delta; else r -= w;
    }
    for (uint32_t v = u + 1; k == 0 && v <= detail::max_update(p_); v++) {
      const uint64_t w = detail::value_weight(v, p_);
      if (r < w) k = v; else r -= w;
    }
    if (k == 0) k = detail::max_update(p_);  // rounding at the very end only
    const uint32_t updated = detail::reg_add(old, k);
    detail::set_register(bytes_.data() + detail::kRegistersOffset, i, updated);
    const uint64_t w_old = detail::change_weight(old, p_), w_new = detail::change_weight(updated, p_);
    tree_add(i, w_new - w_old);
    total_ += w_new - w_old;
    uint8_t* s = bytes_.data();
    if (detail::flags_of(s) & kUnmerged) {
      const uint64_t change = load_le64(s + detail::kChangeOffset);
      detail::store_double(s + detail::kMartingaleOffset,
                           detail::load_double(s + detail::kMartingaleOffset) + 0x1p64 / double(change));
      store_le64(s + detail::kChangeOffset, change - w_old + w_new);
    }
  }

  std::vector<uint8_t> bytes_;
  uint64_t* rng_;
  int p_;
  size_t m_;
  std::vector<uint64_t> tree_;  // Fenwick tree of change weights, 1-based
  uint64_t total_ = 0;          // Σ change weights: μ in units of 2^-64
  uint64_t pending_ = 0;        // values left until the drawn change
};

}  // namespace sketch::ell::test
