// cms's traits for the shared aggregate-state mechanism (working_state.h).
//
// The working encoding adds a heap, an index and a text arena to the
// counters, so that a row costs O(d) plus O(log k) when it touches the
// candidate list. A value's text is needed only when it enters the list: the
// element carries a callback that produces it then, once.
#pragma once

#include "core/cms/cms.h"
#include "core/cms/cms_internal.h"
#include "core/common/bytes.h"
#include "core/common/checked_merge.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/common/item_text.h"

namespace sketch::cms {

// True if the bytes are a working state whose fixed fields and layout are
// consistent with its length: the O(1) checks of parse() for a working
// state (working states are only ever made by this code; parse() checks
// their candidate areas too, in O(k)), inline and without a Status, since
// the aggregate-state mechanism asks it on every row of cms_agg.
__attribute__((always_inline)) inline bool is_working_state(const uint8_t* data, size_t len) {
  using namespace detail;
  if (!is_current_header(data, len, SketchKind::kCms, kFormatVersion) ||
      (data[5] & ~kFlagConservative) != 0 ||
      static_cast<Encoding>(data[6]) != Encoding::kWorking ||
      !valid_element_kind(data[kElementKindOffset]) || len < kWorkingCountersOffset)
    return false;
  const uint32_t width = load_le32(data + kWidthOffset);
  const uint32_t depth = load_le32(data + kDepthOffset);
  const uint32_t candidates = load_le32(data + kCapacityOffset);
  if (width < 1 || depth < 1 || depth > kMaxDepth || candidates > kMaxCandidates ||
      load_le32(data + kCountOffset) > candidates)
    return false;
  const WorkingLayout l = working_layout(width, depth, candidates);
  const uint32_t capacity = load_le32(data + kArenaCapacityOffset);
  const uint32_t used = load_le32(data + kArenaUsedOffset);
  const uint32_t live = load_le32(data + kLiveBytesOffset);
  return l.arena <= len && len - l.arena == capacity &&
         capacity <= max_arena_capacity(candidates) && used <= capacity && live <= used &&
         load_le32(data + kIndexCapacityOffset) == index_capacity_for(candidates) &&
         load_le32(data + kWorkingReservedOffset) == 0;
}

struct Family : state::FamilyDefaults, state::ParsesStructure<View, parse>,
                state::StoredBy<View, stored_size, write_stored>,
                state::CheckedMerge<View, MergePlan, check_mergeable, plan_merge, merge> {
  __attribute__((always_inline)) static bool is_working(const uint8_t* data, size_t len) {
    return is_working_state(data, len);
  }

  static size_t working_size(const View& v) {
    return cms::working_size(v.params, working_arena_for(v, v.params.candidates));
  }

  static void write_working(const View& v, uint8_t* dst) {
    cms::write_working(v, v.params.candidates, working_arena_for(v, v.params.candidates), dst);
  }

  // The value's text is produced on demand (core/common/item_text.h): at
  // most kMaxValueBytes bytes, `clipped` when the value's text was longer.
  // weight is the count, 1..kMaxCount.
  using Text = ItemText;
  using TextSource = ItemTextSource;

  struct Element : PendingItem {
    // Progress, so that growing and retrying never counts a value twice.
    bool counted;
    uint64_t estimate;
  };

  static Element element(uint64_t hash, uint64_t count, ItemTextSource source, void* context) {
    return Element{PendingItem::of(hash, count, source, context), false, 0};
  }

  struct Growth {
    uint32_t text_len;
    uint32_t arena_capacity;
    size_t size;
  };

  // The per-row path, inlined into the transition function; entering the
  // candidate list (the value's text, the arena) is the rare case.
  __attribute__((always_inline)) static bool add(uint8_t* state, Element& e, Growth* growth) {
    if (__builtin_expect(!e.counted, 1)) {
      e.counted = true;
      if (detail::add_inline(state, e.hash, e.weight, &e.estimate) == AddOutcome::kDone)
        return true;
    }
    return enter(state, e, growth);
  }

  __attribute__((noinline)) static bool enter(uint8_t* state, Element& e, Growth* growth) {
    const ItemText& text = e.text_now();
    if (admit(state, e.hash, e.estimate, text.bytes, text.len, text.clipped) ==
        AdmitOutcome::kDone)
      return true;
    growth->text_len = text.len;
    return false;
  }

  static Status plan_growth(const View& v, Growth* growth) {
    growth->arena_capacity = grown_arena_capacity(v, growth->text_len);
    growth->size = cms::working_size(v.params, growth->arena_capacity);

    return Status::ok();
  }

  static void grow(const View& v, const Growth& growth, uint8_t* dst) {
    cms::write_working(v, v.params.candidates, growth.arena_capacity, dst);
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::cms
