// counting_bloom's traits for the shared aggregate-state mechanism
// (working_state.h), shaped like bloom's (core/bloom/bloom_family.h).
//
// Both encodings are updated in place: a stored filter by incrementing
// counters, the working encoding (large filters) by queueing prefetched
// hashes. A state never grows: m and k are fixed when the filter is sized.
// Deletes are not an aggregate's business: counting_bloom_delete works on a
// private stored copy (delete_hash).
#pragma once

#include <cstring>

#include "core/common/bytes.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/counting_bloom/counting_bloom.h"

namespace sketch::counting_bloom {

struct Family : state::FamilyDefaults {
  using View = counting_bloom::View;

  static const uint8_t* bytes_of(const View& v) { return v.data; }

  static Status parse(const uint8_t* data, size_t len, View* out) {
    return counting_bloom::parse(data, len, Validation::kStructure, out);
  }

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
        (encoding != Encoding::kStored && encoding != Encoding::kWorking))
      return false;
    const uint64_t cells = cells_of(data);
    if (cells < kMinCells || cells > kMaxCells ||
        len != (encoding == Encoding::kStored ? filter_size(cells)
                                              : counting_bloom::working_size(cells)))
      return false;
    if (cells % 16 != 0 && (load_le64(data + filter_size(cells) - 8) >> (4 * (cells % 16))) != 0)
      return false;
    if (encoding == Encoding::kStored) return true;
    const uint8_t* queue = detail::queue_of(data, cells);
    uint32_t pending, head;
    std::memcpy(&pending, queue + detail::kQueueCountOffset, 4);
    std::memcpy(&head, queue + detail::kQueueHeadOffset, 4);
    return pending <= kPendingSlots && head < kPendingSlots;
  }

  static bool is_stored(const View& v) { return v.encoding == Encoding::kStored; }

  static size_t working_size(const View& v) { return v.size; }
  static void write_working(const View& v, uint8_t* dst) { std::memcpy(dst, v.data, v.size); }

  static size_t stored_size(const View& v) { return filter_size(v.cells); }
  static void write_stored(const View& v, uint8_t* dst) { counting_bloom::write_stored(v, dst); }

  struct Element {
    Hash128 hash;
  };

  struct Growth {
    size_t size;
  };

  static bool add(uint8_t* state, Element& e, Growth*) {
    if (encoding_of(state) == Encoding::kWorking) {
      add_hash_deferred(state, e.hash);
    } else {
      add_hash(state, e.hash);
    }
    return true;
  }

  static Status plan_growth(const View& v, Growth* growth) {
    growth->size = v.size;
    return Status::ok();
  }
  static void grow(const View& v, const Growth&, uint8_t* dst) { write_working(v, dst); }

  struct MergePlan {
    bool in_place;
    size_t size;
  };

  static Status plan_merge(const View& a, const View& b, MergePlan* plan) {
    *plan = MergePlan{true, a.size};
    return check_compatible(a, b);
  }

  static void merge(uint8_t* a_buffer, const View&, const View& b, const MergePlan&, uint8_t*) {
    union_into(a_buffer, b);
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::counting_bloom
