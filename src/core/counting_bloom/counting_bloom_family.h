// counting_bloom's traits for the shared aggregate-state mechanism
// (working_state.h): the cell-array traits (core/common/cell_array_family.h)
// over counting_bloom's own functions, and the O(1) shape check that knows
// its header bytes. Deletes are not an aggregate's business:
// counting_bloom_delete works on a private stored copy (delete_hash).
#pragma once

#include "core/common/cell_array_family.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/counting_bloom/counting_bloom.h"

namespace sketch::counting_bloom {

struct Family : cell_array::Family<View, parse, write_stored, add_hash, add_hash_deferred,
                                   check_compatible, merge> {
  // O(1), inline, run on every row: exactly the checks of parse() (header,
  // element kind, k, encoding, m, the length, zero padding, the queue's
  // bounds) without building a Status. Every write of add() stays inside
  // the counters (positions < m) or the queue's slots (head, count < 16).
  static bool is_working(const uint8_t* data, size_t len) {
    if (!is_current_header(data, len, SketchKind::kCountingBloom, kFormatVersion) ||
        !valid_element_kind(data[kElementKindOffset]) || len < kCellsOffset)
      return false;
    const int hashes = data[5];
    const auto encoding = static_cast<Encoding>(data[6]);
    if (hashes < 1 || hashes > kMaxHashes ||
        (encoding != Encoding::kStored && encoding != Encoding::kQueued))
      return false;
    const uint64_t cells = cells_of(data);
    if (cells < kMinCells || cells > kMaxCells) return false;
    uint32_t pending;
    return cell_array::check_body<4>(data, len, cells, encoding == Encoding::kQueued,
                                     &pending) == cell_array::BodyProblem::kNone;
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::counting_bloom
