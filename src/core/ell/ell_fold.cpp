// Folding registers to a lower precision (unions across p).
//
// Lowering p by δ moves the δ low index bits of register i to the top of the
// bits the level is counted in. If they are all zero, every value of the
// register rises by δ levels: exact. If not, every hash of the register lands
// on level c = δ - bitlen(those bits) with its own sub-level s, so the folded
// register needs the set of s over *all* its hashes, and a register whose
// window no longer reaches value 1 (u > 21) has forgotten the s of its
// lowest values. No register layout can keep both this and the exact hll
// rank (hll's rank is counted from right below the index, where the dropped
// bits land), so the fold assumes every s was seen when it cannot know:
// with many hashes per register that is nearly certain, and it keeps the fold
// a function of the register alone, so fold(a ∪ b) = fold(a) ∪ fold(b).
// fold_exact() tells when the assumption cannot matter: the folded register
// is the same whether the forgotten values had every s or none.
#include "core/ell/ell.h"
#include "core/ell/ell_internal.h"

namespace sketch::ell {

using namespace detail;

namespace {

uint32_t fold_with(uint32_t r, int from, int to, uint32_t low, bool assume_forgotten) {
  const uint32_t u = reg_u(r);
  if (u == 0) return 0;
  const int dropped = from - to;
  if (low == 0) return (u + (static_cast<uint32_t>(dropped) << kT)) << kD | (r & kIndicatorMask);
  const int level = dropped - (32 - __builtin_clz(low));
  uint32_t subs = 0;  // bit s: sub-level s seen
  for_each_value(r, [&](uint32_t k) { subs |= uint32_t{1} << sub_of(k); });
  if (assume_forgotten && u > kD + 1) subs = (uint32_t{1} << (1 << kT)) - 1;
  uint32_t folded = 0;
  for (uint32_t s = 0; s <= kSubMask; s++)
    if (subs & (uint32_t{1} << s)) folded = reg_add(folded, update_value(level, s));
  return folded;
}

}  // namespace

namespace detail {

uint32_t fold_register(uint32_t r, int from, int to, uint32_t low) {
  return fold_with(r, from, to, low, true);
}

}  // namespace detail

bool fold_exact(const View& v, int p) {
  if (v.encoding != Encoding::kDense || p >= v.p) return true;
  const uint8_t* regs = v.data + kRegistersOffset;
  const int dropped = v.p - p;
  const size_t group = size_t{1} << dropped;
  for (size_t target = 0; target < register_count(p); target++) {
    uint32_t assumed = 0, known = 0;
    for (size_t low = 0; low < group; low++) {
      const uint32_t r = get_register(regs, target << dropped | low);
      assumed = reg_merge(assumed, fold_with(r, v.p, p, static_cast<uint32_t>(low), true));
      known = reg_merge(known, fold_with(r, v.p, p, static_cast<uint32_t>(low), false));
    }
    if (assumed != known) return false;
  }
  return true;
}

}  // namespace sketch::ell
