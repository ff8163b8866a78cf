// bloom's traits for the shared aggregate-state mechanism (working_state.h).
//
// Both encodings can be updated in place: a stored filter by setting bits,
// the working encoding (large filters) by queueing prefetched hashes. A state
// never grows: m and k are fixed when the filter is sized.
#pragma once

#include <cstring>

#include "core/bloom/bloom.h"
#include "core/common/bytes.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"

namespace sketch::bloom {

struct Family : state::FamilyDefaults {
  using View = bloom::View;

  static const uint8_t* bytes_of(const View& v) { return v.data; }

  static Status parse(const uint8_t* data, size_t len, View* out) {
    return bloom::parse(data, len, Validation::kStructure, out);
  }

  // O(1), inline, run on every row: the checks of parse() (header, k, m,
  // the length, zero padding, the queue's bounds) without building a
  // Status. Both encodings are written in place: bits inside the array, the
  // working encoding's queue inside its slots.
  static bool is_working(const uint8_t* data, size_t len) {
    if (!is_current_header(data, len, SketchKind::kBloom, kFormatVersion) || len < kBitsOffset ||
        data[6] > 3)
      return false;
    const int hashes = data[5];
    const auto encoding = static_cast<Encoding>(data[6] & 1);
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
    if (bits < kMinBits || bits > kMaxReadableBits ||
        len != (encoding == Encoding::kStored ? filter_size(bits) : bloom::working_size(bits)))
      return false;
    if (bits % 64 != 0 && (load_le64(data + filter_size(bits) - 8) >> (bits % 64)) != 0)
      return false;
    if (encoding == Encoding::kStored) return true;
    const uint8_t* queue = detail::queue_of(data, bits);
    uint32_t pending, head;
    std::memcpy(&pending, queue + detail::kQueueCountOffset, 4);
    std::memcpy(&head, queue + detail::kQueueHeadOffset, 4);
    return pending <= kPendingSlots && head < kPendingSlots;
  }

  static bool is_stored(const View& v) { return v.encoding == Encoding::kStored; }

  static size_t working_size(const View& v) { return v.size; }
  static void write_working(const View& v, uint8_t* dst) { std::memcpy(dst, v.data, v.size); }

  static size_t stored_size(const View& v) { return filter_size(v.bits); }
  static void write_stored(const View& v, uint8_t* dst) { bloom::write_stored(v, dst); }

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

}  // namespace sketch::bloom
