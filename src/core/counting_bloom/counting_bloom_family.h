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

// What cell_array::Family needs of a counting bloom filter.
struct CellArrayOps {
  using View = counting_bloom::View;
  static Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
    return counting_bloom::parse(data, len, validation, out);
  }
  static size_t stored_size(const View& v) { return filter_size(v.cells); }
  static void write_stored(const View& v, uint8_t* dst) { counting_bloom::write_stored(v, dst); }
  static bool is_deferred(const uint8_t* state) { return encoding_of(state) == Encoding::kQueued; }
  // The per-row path: forced inline, as cell_array::Family::add is.
  [[gnu::always_inline]] static void add_now(uint8_t* state, Hash128 hash) {
    add_hash(state, hash);
  }
  [[gnu::always_inline]] static void add_deferred(uint8_t* state, Hash128 hash) {
    add_hash_deferred(state, hash);
  }
  static Status check_compatible(const View& a, const View& b) {
    return counting_bloom::check_compatible(a, b);
  }
  static void merge(uint8_t* a_buffer, const View& b) {
    counting_bloom::merge(a_buffer, b);
  }
};

struct Family : cell_array::Family<CellArrayOps> {
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
