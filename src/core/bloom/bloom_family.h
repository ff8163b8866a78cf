// bloom's traits for the shared aggregate-state mechanism (working_state.h):
// the cell-array traits (core/common/cell_array_family.h) over bloom's own
// functions, and the O(1) shape check that knows bloom's header bytes.
#pragma once

#include "core/bloom/bloom.h"
#include "core/common/cell_array_family.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"

namespace sketch::bloom {

struct Family : cell_array::Family<View, parse, write_stored, add_hash, add_hash_deferred,
                                   check_compatible, merge> {
  // O(1), inline, run on every row: the checks of parse() (header, k, m,
  // the length, zero padding, the queue's bounds) without building a
  // Status. Both encodings are written in place: bits inside the array, the
  // working encoding's queue inside its slots.
  static bool is_working(const uint8_t* data, size_t len) {
    if (!is_current_header(data, len, SketchKind::kBloom, kFormatVersion) || len < kBitsOffset ||
        data[6] > 3)
      return false;
    const int hashes = data[5];
    const uint64_t bits = bits_of(data);
    if (layout_of(data) == Layout::kSplitBlock) {
      const uint8_t kind = data[kElementKindOffset];
      if (hashes != split_block::kWordsPerBlock || !split_block::valid_bits(bits) ||
          !(is_parquet_kind(kind) || kind == static_cast<uint8_t>(ElementKind::kNone)))
        return false;
    } else if (!valid_element_kind(data[kElementKindOffset]) || hashes < 1 ||
               hashes > kMaxHashes) {
      return false;
    }
    if (bits < kMinBits || bits > kMaxReadableBits) return false;
    uint32_t pending;
    return cell_array::check_body<1>(data, len, bits, encoding_of(data) == Encoding::kQueued,
                                     &pending) == cell_array::BodyProblem::kNone;
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::bloom
