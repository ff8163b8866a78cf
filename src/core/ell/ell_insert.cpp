// Adding hashes to working sketches and converting between encodings.
#include <algorithm>

#include "core/common/element_kind.h"
#include "core/ell/ell.h"
#include "core/ell/ell_internal.h"

namespace sketch::ell {

using namespace detail;

namespace detail {

// Linear probing from the token's index bits (the top of the hash, uniform).
SetInsert set_insert(uint8_t* sketch, uint32_t token) {
  const uint32_t capacity = load_le32(sketch + kCapacityOffset);
  uint8_t* slots = sketch + kSlotsOffset;
  const uint32_t mask = capacity - 1;
  uint32_t s = token_index(token) & mask;
  // At most `capacity` probes: a corrupt set (count below its real tokens)
  // may have no empty slot and must not hang.
  for (uint32_t probes = 0; probes < capacity; probes++, s = (s + 1) & mask) {
    const uint32_t current = load_le32(slots + 4 * s);
    if (current == token) return SetInsert::kDone;
    if (current == 0) {
      const uint32_t count = load_le32(sketch + kCountOffset);
      if (count + 1 > max_sparse_tokens(precision_of(sketch))) return SetInsert::kAtLimit;
      if (uint64_t{count + 1} * 4 > uint64_t{capacity} * 3) return SetInsert::kFull;
      store_le32(slots + 4 * s, token);
      store_le32(sketch + kCountOffset, count + 1);
      return SetInsert::kDone;
    }
  }
  return SetInsert::kFull;
}

bool set_contains(const View& v, uint32_t token) {
  if (v.encoding == Encoding::kSparse) {
    const uint8_t* tokens = v.data + kTokensOffset;
    uint32_t lo = 0, hi = v.count;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      const uint32_t at = load_le32(tokens + 4 * mid);
      if (at == token) return true;
      if (at < token) lo = mid + 1; else hi = mid;
    }
    return false;
  }
  const uint8_t* slots = v.data + kSlotsOffset;
  const uint32_t mask = v.capacity - 1;
  uint32_t s = token_index(token) & mask;
  for (uint32_t probes = 0; probes < v.capacity; probes++, s = (s + 1) & mask) {
    const uint32_t current = load_le32(slots + 4 * s);
    if (current == token) return true;
    if (current == 0) return false;
  }
  return false;
}

uint64_t total_change_weight(const uint8_t* regs, int p) {
  uint64_t total = 0;
  const size_t m = register_count(p);
  for (size_t i = 0; i < m; i++) total += change_weight(get_register(regs, i), p);
  return total;
}

namespace {

// Registers two at a time: a pair fills exactly 7 bytes (56 bits), so each
// pair is read and written whole, with no shifting by the register's bit
// offset. A pair already equal to the source's, the common case once rollups
// saturate, is left unwritten.
uint64_t load_pair(const uint8_t* p) {
  return uint64_t{load_le32(p)} | uint64_t{load_le32(p + 3) >> 8} << 32;
}

void store_pair(uint8_t* p, uint64_t v) {
  store_le32(p, static_cast<uint32_t>(v));
  p[4] = static_cast<uint8_t>(v >> 32);
  p[5] = static_cast<uint8_t>(v >> 40);
  p[6] = static_cast<uint8_t>(v >> 48);
}

void merge_registers_same_p(uint8_t* regs, const uint8_t* from, size_t m) {
  static_assert(2 * kRegisterBits == 56, "a register pair is 7 bytes");
  for (size_t pair = 0; pair < m / 2; pair++) {
    const uint64_t old = load_pair(regs + 7 * pair);
    const uint64_t add = load_pair(from + 7 * pair);
    if (old == add) continue;
    const uint32_t r0 = reg_merge(static_cast<uint32_t>(old) & kRegisterMask,
                                  static_cast<uint32_t>(add) & kRegisterMask);
    const uint32_t r1 = reg_merge(static_cast<uint32_t>(old >> kRegisterBits),
                                  static_cast<uint32_t>(add >> kRegisterBits));
    store_pair(regs + 7 * pair, uint64_t{r0} | uint64_t{r1} << kRegisterBits);
  }
}

}  // namespace

void merge_into_registers(uint8_t* regs, int p, const View& src) {
  if (src.encoding != Encoding::kDense) {
    for_each_token(src, [&](uint32_t token) {
      const Update u = token_update(token, p);
      set_register(regs, u.index, reg_add(get_register(regs, u.index), u.k));
    });
    return;
  }
  const uint8_t* from = src.data + kRegistersOffset;
  if (src.p == p) {
    merge_registers_same_p(regs, from, register_count(p));
    return;
  }
  const size_t m_src = register_count(src.p);
  const uint32_t low_mask = (uint32_t{1} << (src.p - p)) - 1;
  for (size_t i = 0; i < m_src; i++) {
    uint32_t r = get_register(from, i);
    if (r == 0) continue;
    const size_t to = i >> (src.p - p);
    if (src.p != p) r = fold_register(r, src.p, p, static_cast<uint32_t>(i) & low_mask);
    const uint32_t old = get_register(regs, to);
    const uint32_t merged = reg_merge(old, r);
    if (merged != old) set_register(regs, to, merged);
  }
}

bool is_empty(const View& v) {
  if (v.encoding != Encoding::kDense) return v.count == 0;
  const uint8_t* regs = v.data + kRegistersOffset;
  const size_t bytes = register_count(v.p) * kRegisterBits / 8;
  return std::all_of(regs, regs + bytes, [](uint8_t b) { return b == 0; });
}

}  // namespace detail

AddOutcome add_hash(uint8_t* sketch, uint64_t hash) {
  const int p = precision_of(sketch);
  if (encoding_of(sketch) != Encoding::kDense) {
    switch (set_insert(sketch, token_of(hash))) {
      case SetInsert::kDone: return AddOutcome::kDone;
      case SetInsert::kFull: return AddOutcome::kNeedsGrowth;
      case SetInsert::kAtLimit: return AddOutcome::kNeedsDense;
    }
    return AddOutcome::kDone;
  }
  const Update u = update_of(hash, p);
  uint8_t* regs = sketch + kRegistersOffset;
  const uint32_t old = get_register(regs, u.index);
  const uint32_t updated = reg_add(old, u.k);
  if (updated == old) return AddOutcome::kDone;
  set_register(regs, u.index, updated);
  if (flags_of(sketch) & kUnmerged) {
    // The martingale step: the state changed, an event of probability
    // `change` before it, so the estimate grows by 1 / change. A change of 0
    // is 2^64 wrapped (the all-empty sketch: probability 1); a saturated
    // sketch, the other 0, never changes.
    const uint64_t change = load_le64(sketch + kChangeOffset);
    const double probability = change == 0 ? 1.0 : static_cast<double>(change) * 0x1p-64;
    store_double(sketch + kMartingaleOffset,
                 load_double(sketch + kMartingaleOffset) + 1.0 / probability);
    store_le64(sketch + kChangeOffset,
               change - change_weight(old, p) + change_weight(updated, p));
  }
  return AddOutcome::kDone;
}

uint32_t grown_capacity(const View& set) { return set.capacity * 2; }

void write_set(const View& src, uint32_t capacity, uint8_t* dst) {
  write_empty_set(dst, src.p, capacity);
  dst[kElementKindOffset] = src.data[kElementKindOffset];
  store_le32(dst + kFlagsOffset, src.flags);
  for_each_token(src, [&](uint32_t token) { set_insert(dst, token); });
}

void write_dense(const View& src, int p, uint8_t* dst) {
  if (src.encoding == Encoding::kDense && src.p == p) {
    std::copy(src.data, src.data + src.size, dst);
    return;
  }
  // Tokens give the one-pass state at any p; folding dense registers to a
  // lower p is a union across precisions, and kUnmerged goes.
  const bool unmerged = is_unmerged(src) && (src.p == p || src.encoding != Encoding::kDense);
  write_ell_header(dst, p, Encoding::kDense, element_kind_of(src.data),
                   unmerged ? kUnmerged : 0);
  std::fill(dst + kMartingaleOffset, dst + dense_size(p), uint8_t{0});
  uint8_t* regs = dst + kRegistersOffset;
  merge_into_registers(regs, p, src);
  if (unmerged) {
    // The martingale starts from the (nearly exact) token count: from here
    // on each state change adds 1 / P(change), which keeps it unbiased.
    store_double(dst + kMartingaleOffset, sparse_estimate(src.count));
    store_le64(dst + kChangeOffset, total_change_weight(regs, p));
  }
}

}  // namespace sketch::ell
