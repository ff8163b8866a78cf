// Token, update-value and register arithmetic shared by the ell_*.cpp files
// (not public). The notation is ell.h's: level j, sub-level s, update value
// k = 4j + s + 1, register = u << 20 | indicator bits.
#pragma once

#include <cstdint>

#include "core/common/bytes.h"
#include "core/ell/ell.h"

namespace sketch::ell::detail {

constexpr uint32_t kSubMask = (uint32_t{1} << kT) - 1;
constexpr uint32_t kIndicatorMask = (uint32_t{1} << kD) - 1;
constexpr uint32_t kRegisterMask = (uint32_t{1} << kRegisterBits) - 1;

// The top level at p: J = 64 - p - t (the bits below the index and above
// the sub-level bits are all zero).
inline int top_level(int p) { return 64 - p - kT; }
inline uint32_t max_update(int p) { return static_cast<uint32_t>(top_level(p) + 1) << kT; }
inline int level_of(uint32_t k) { return static_cast<int>((k - 1) >> kT); }
inline uint32_t sub_of(uint32_t k) { return (k - 1) & kSubMask; }
inline uint32_t update_value(int level, uint32_t sub) {
  return (static_cast<uint32_t>(level) << kT) + sub + 1;
}

struct Update {
  uint32_t index;
  uint32_t k;
};

// Setting the low p + t bits caps the leading-zero count at J.
inline Update update_of(uint64_t hash, int p) {
  const uint64_t capped = (hash << p) | ((uint64_t{1} << (p + kT)) - 1);
  return {static_cast<uint32_t>(hash >> (64 - p)),
          update_value(__builtin_clzll(capped), static_cast<uint32_t>(hash) & kSubMask)};
}

// --- tokens: index24 << 8 | (level24 + 1) << 2 | s -------------------------

inline uint32_t token_of(uint64_t hash) {
  const Update u = update_of(hash, kTokenPrecision);
  return u.index << 8 | static_cast<uint32_t>(level_of(u.k) + 1) << kT | sub_of(u.k);
}
inline uint32_t token_index(uint32_t token) { return token >> 8; }
inline int token_level(uint32_t token) { return static_cast<int>((token >> kT) & 63) - 1; }
inline uint32_t token_sub(uint32_t token) { return token & kSubMask; }

// The update of a token at any p <= 24: the index bits below p lead the
// level when any is set, else add to the token's level.
inline Update token_update(uint32_t token, int p) {
  const int dropped = kTokenPrecision - p;
  const uint32_t idx = token_index(token);
  const uint32_t low = idx & ((uint32_t{1} << dropped) - 1);
  const int level = low != 0 ? dropped - (32 - __builtin_clz(low)) : dropped + token_level(token);
  return {idx >> dropped, update_value(level, token_sub(token))};
}

// A hash with the token's update at every p <= 24 (and hll's index and rank
// at every p <= 24): the index bits, one bit where the level ends, s.
inline uint64_t token_hash(uint32_t token) {
  const int level = token_level(token);
  const int below_index = 64 - kTokenPrecision;
  uint64_t h = uint64_t{token_index(token)} << below_index | token_sub(token);
  if (level < top_level(kTokenPrecision)) h |= uint64_t{1} << (below_index - 1 - level);
  return h;
}

// --- registers ------------------------------------------------------------

inline uint32_t reg_u(uint32_t r) { return r >> kD; }

// The register after value k arrives.
inline uint32_t reg_add(uint32_t r, uint32_t k) {
  const uint32_t u = reg_u(r);
  if (k > u) {
    const uint32_t delta = k - u;
    uint32_t bits = 0;
    if (u != 0 && delta <= kD) bits = ((uint32_t{1} << kD) | (r & kIndicatorMask)) >> delta;
    return k << kD | bits;
  }
  const uint32_t delta = u - k;
  if (delta == 0 || delta > kD) return r;
  return r | uint32_t{1} << (kD - delta);
}

// Exact union of two registers: the set of values each has seen, as far as
// the larger u's window reaches. The lower register's values (its u as one
// more indicator bit above its own) move down by the difference of the u's
// into the higher one's indicator bits: at a difference of 0 its indicators
// alone (same u), beyond kD nothing (out of the window), and an empty
// register (u = 0, no indicators) brings nothing. Without branches: a dense
// union runs this once per register, and which side is higher is a coin.
inline uint32_t reg_merge(uint32_t a, uint32_t b) {
  const bool a_higher = reg_u(a) >= reg_u(b);
  const uint32_t hi = a_higher ? a : b;
  const uint32_t lo = a_higher ? b : a;
  const uint32_t shift = reg_u(hi) - reg_u(lo);
  const uint64_t window = reg_u(lo) != 0 ? (uint64_t{1} << kD) | (lo & kIndicatorMask) : 0;
  return hi | (static_cast<uint32_t>(window >> (shift <= kD ? shift : 63)) & kIndicatorMask);
}

// Calls f(k) for every value the register has seen (u first, then downwards).
template <class F>
void for_each_value(uint32_t r, F&& f) {
  const uint32_t u = reg_u(r);
  if (u == 0) return;
  f(u);
  for (uint32_t delta = 1; delta <= kD && delta < u; delta++)
    if (r & (uint32_t{1} << (kD - delta))) f(u - delta);
}

// The weight of value k at p in units of 2^-64: its probability for one
// hash, register choice included. 2^(63-p-t-j) below the top level, 1 at it
// (the top level has the probability of the level below it).
inline uint64_t value_weight(uint32_t k, int p) {
  const int j = level_of(k);
  const int J = top_level(p);
  return j >= J ? 1 : uint64_t{1} << (63 - p - kT - j);
}

// The probability, in units of 2^-64, that the next new hash changes this
// register: every value above u, every value of the window not yet seen.
// Values above u: the rest of u's level and every level above, which sum to
// 2^(e+2) for the levels above a level of weight 2^e (the top level closes the
// geometric series). An empty register: 2^(64-p).
inline uint64_t change_weight(uint32_t r, int p) {
  const uint32_t u = reg_u(r);
  if (u == 0) return uint64_t{1} << (64 - p);
  const uint64_t w = value_weight(u, p);
  uint64_t total = (kSubMask - sub_of(u)) * w;
  if (level_of(u) < top_level(p)) total += w << kT;
  for (uint32_t delta = 1; delta <= kD && delta < u; delta++)
    if (!(r & (uint32_t{1} << (kD - delta)))) total += value_weight(u - delta, p);
  return total;
}

// hll's rank for this register at p: level + 1 below the top level; at the
// top level hll counts into the sub-level bits too (rank 65 - p - bitlen(s)),
// so the smallest s seen at the top level decides.
inline int hll_rank(uint32_t r, int p) {
  const uint32_t u = reg_u(r);
  if (u == 0) return 0;
  const int J = top_level(p);
  if (level_of(u) < J) return level_of(u) + 1;
  int best = 0;
  for_each_value(r, [&](uint32_t k) {
    if (level_of(k) < J) return;
    const uint32_t s = sub_of(k);
    const int rank = 65 - p - (s == 0 ? 0 : 32 - __builtin_clz(s));
    if (rank > best) best = rank;
  });
  return best;
}

// --- dense registers: 28 bits each, register i at bit 28i ------------------
//
// A 4-byte little-endian load at byte 28i/8 holds register i at bit offset 0
// (i even) or 4 (i odd); the last register ends exactly at the array's end.

inline uint32_t get_register(const uint8_t* regs, size_t i) {
  const size_t bit = i * kRegisterBits;
  return (load_le32(regs + bit / 8) >> (bit % 8)) & kRegisterMask;
}

inline void set_register(uint8_t* regs, size_t i, uint32_t r) {
  const size_t bit = i * kRegisterBits;
  const unsigned shift = bit % 8;
  uint32_t word = load_le32(regs + bit / 8);
  word = (word & ~(kRegisterMask << shift)) | ((r & kRegisterMask) << shift);
  store_le32(regs + bit / 8, word);
}

// --- layout ---------------------------------------------------------------

constexpr size_t kCountOffset = kHeaderSize + 4;        // sparse, set
constexpr size_t kTokensOffset = kHeaderSize + 8;       // sparse
constexpr size_t kCapacityOffset = kHeaderSize + 8;     // set
constexpr size_t kSlotsOffset = kHeaderSize + 12;       // set
constexpr size_t kMartingaleOffset = kHeaderSize + 4;   // dense: float64
constexpr size_t kChangeOffset = kHeaderSize + 12;      // dense: uint64
constexpr size_t kRegistersOffset = kHeaderSize + 20;   // dense

using ell::precision_of;  // ell.h
inline Encoding encoding_of(const uint8_t* s) { return static_cast<Encoding>(s[6]); }
inline uint32_t flags_of(const uint8_t* s) { return load_le32(s + kFlagsOffset); }

double load_double(const uint8_t* p);
void store_double(uint8_t* p, double x);

void write_ell_header(uint8_t* dst, int p, Encoding encoding, ElementKind kind, uint32_t flags);

// Calls f(token) for every token of a sparse or set view.
template <class F>
void for_each_token(const View& v, F&& f) {
  if (v.encoding == Encoding::kSparse) {
    const uint8_t* t = v.data + kTokensOffset;
    for (uint32_t i = 0; i < v.count; i++) f(load_le32(t + 4 * i));
  } else {
    const uint8_t* s = v.data + kSlotsOffset;
    for (uint32_t i = 0; i < v.capacity; i++) {
      const uint32_t token = load_le32(s + 4 * i);
      if (token != 0) f(token);
    }
  }
}

enum class SetInsert { kDone, kFull, kAtLimit };
SetInsert set_insert(uint8_t* sketch, uint32_t token);
bool set_contains(const View& v, uint32_t token);

// Sum of change_weight over all registers (wrapping: 2^64 reads as 0, which
// only an all-empty sketch reaches).
uint64_t total_change_weight(const uint8_t* regs, int p);

// Registers of src (any encoding, precision >= p) merged into dense
// registers of precision p.
void merge_into_registers(uint8_t* regs, int p, const View& src);

// The register at `to` that a register at `from` folds into, given the
// dropped index bits `low` (its index mod 2^(from - to)).
uint32_t fold_register(uint32_t r, int from, int to, uint32_t low);

bool is_empty(const View& v);
double sparse_estimate(uint32_t count);

}  // namespace sketch::ell::detail
