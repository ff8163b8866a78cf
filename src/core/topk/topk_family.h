// topk's traits for the shared aggregate-state mechanism (working_state.h).
//
// A row of an item already held costs one index probe and one add; a new
// item also costs its text, produced on demand through the element's
// callback (the SQL layer runs the type's output function then, once), and
// now and then a purge. A state grows (more entry slots, a larger arena)
// until it has the 2k slots a working state ever needs.
#pragma once

#include "core/common/bytes.h"
#include "core/common/checked_merge.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/common/item_text.h"
#include "core/topk/topk.h"
#include "core/topk/topk_internal.h"

namespace sketch::topk {

// The O(1) checks parse(kStructure) makes of a working state's fixed
// fields, inline and without a Status: asked on every row of topk_agg.
// (Working states are only made by this code; parse() also checks their
// entries and index, in O(k), whenever one arrives from elsewhere.)
inline bool is_working_state(const uint8_t* data, size_t len) {
  using namespace detail;
  if (!is_current_header(data, len, SketchKind::kTopk, kFormatVersion) || data[5] != 0 ||
      static_cast<Encoding>(data[6]) != Encoding::kWorking ||
      !valid_recorded_element_kind(data[kElementKindOffset]) ||
      len < kEntriesOffset)
    return false;
  const uint32_t k = load_le32(data + kKOffset);
  const uint32_t capacity = load_le32(data + kCapacityOffset);
  const uint32_t arena = load_le32(data + kArenaCapacityOffset);
  return k >= 1 && k <= kMaxK && capacity >= 1 && capacity <= max_capacity(k) &&
         load_le32(data + kCountOffset) <= capacity && arena <= max_arena(k) &&
         load_le32(data + kArenaUsedOffset) <= arena && load_le32(data + kReservedOffset) == 0 &&
         working_bytes(capacity, arena) == len;
}

// k and N of a working state is_working_state() accepted, for the SQL
// layer (which never reads the layout itself).
inline uint32_t k_of(const uint8_t* state) { return load_le32(state + detail::kKOffset); }
inline uint64_t total_of(const uint8_t* state) { return load_le64(state + detail::kTotalOffset); }

struct Family : state::FamilyDefaults, state::ParsesStructure<View, parse>,
                state::StoredBy<View, stored_size, write_stored>,
                state::CheckedMerge<View, MergePlan, check_mergeable, plan_merge, merge> {
  static constexpr bool kHasWorkingView = true;

  static bool is_working(const uint8_t* data, size_t len) { return is_working_state(data, len); }

  // O(1): the view of a state is_working() accepted (working_state.h).
  static View working_view(const uint8_t* data, size_t len) {
    using namespace detail;
    View v{};
    v.k = load_le32(data + kKOffset);
    v.encoding = Encoding::kWorking;
    v.count = load_le32(data + kCountOffset);
    v.total = load_le64(data + kTotalOffset);
    v.max_error = load_le64(data + kErrorOffset);
    v.text_bytes = load_le32(data + kArenaUsedOffset);
    v.data = data;
    v.size = len;
    v.capacity = load_le32(data + kCapacityOffset);
    v.arena_capacity = load_le32(data + kArenaCapacityOffset);
    return v;
  }

  static size_t working_size(const View& v) { return topk::working_size(v, v.k); }
  static void write_working(const View& v, uint8_t* dst) { topk::write_working(v, v.k, dst); }

  // The value's text is produced on demand (core/common/item_text.h): at
  // most kMaxItemBytes bytes, `clipped` when the value's text was longer.
  using Text = ItemText;
  using TextSource = ItemTextSource;

  struct Element : PendingItem {
    // Set when N + weight would pass kMaxTotal: nothing was added, and the
    // caller reports it.
    bool overflowed;
  };

  static Element element(uint64_t hash, uint64_t weight, ItemTextSource source, void* context) {
    return Element{PendingItem::of(hash, weight, source, context), false};
  }

  struct Growth {
    uint32_t text_len;
    size_t size;
  };

  static bool add(uint8_t* state, Element& e, Growth* growth) {
    AddOutcome outcome =
        topk::add(state, e.hash, e.weight, e.text.bytes, e.text.len, e.text.clipped);
    if (__builtin_expect(outcome == AddOutcome::kDone, 1)) return true;
    if (outcome == AddOutcome::kNeedsText) {
      e.text_now();
      outcome = topk::add(state, e.hash, e.weight, e.text.bytes, e.text.len, e.text.clipped);
      if (outcome == AddOutcome::kDone) return true;
    }
    if (outcome == AddOutcome::kOverflow) {
      e.overflowed = true;
      return true;
    }
    growth->text_len = e.text.len;
    return false;
  }

  static Status plan_growth(const View& v, Growth* growth) {
    growth->size = grown_size(v, growth->text_len);

    return Status::ok();
  }

  static void grow(const View& v, const Growth& growth, uint8_t* dst) {
    topk::grow(v, growth.text_len, dst);
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::topk
