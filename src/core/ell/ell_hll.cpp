// ell -> hll: the hll registers one-pass hll inserts of the same hashes give.
//
// Both hash with XXH3 (identity 1) and index by the top p bits; below the top
// level hll's rank is the ell level + 1, at it hll's rank reads the sub-level
// bits too (detail::hll_rank). A token carries a hash with the same hll index
// and rank at every p <= 24 (token_hash).
#include <algorithm>

#include "core/common/element_kind.h"
#include "core/ell/ell.h"
#include "core/ell/ell_internal.h"
#include "core/hll/hll.h"
#include "core/hll/hll_internal.h"

namespace sketch::ell {

using namespace detail;

void write_hll(const View& v, uint8_t* dst) {
  hll::detail::write_hll_header(dst, v.p, hll::Encoding::kDense, element_kind_of(v.data));
  uint8_t* regs = dst + hll::detail::kRegistersOffset;
  std::fill(regs, regs + hll::register_count(v.p) * 3 / 4, uint8_t{0});
  if (v.encoding != Encoding::kDense) {
    for_each_token(v, [&](uint32_t token) {
      const uint64_t h = token_hash(token);
      hll::detail::raise_register(regs, h >> (64 - v.p), hll::detail::rank_after(h, v.p));
    });
    return;
  }
  const uint8_t* ell_regs = v.data + kRegistersOffset;
  for (size_t i = 0; i < register_count(v.p); i++) {
    const int rank = hll_rank(get_register(ell_regs, i), v.p);
    if (rank != 0) hll::detail::raise_register(regs, i, rank);
  }
}

}  // namespace sketch::ell
