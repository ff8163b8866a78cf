// kll's traits for the shared aggregate-state mechanism (working_state.h).
//
// The working encoding keeps free slots before level 0, so a row costs one
// store and, every few rows, a compaction; the level array is at its largest
// so a new level moves nothing. A state grows only when a new level needs
// more slots than it has (about log2(n / k) times in a whole aggregate).
// The element kind byte is the value type (kll.h): the wrapper calls
// state::accept_kind for each value.
#pragma once

#include "core/common/checked_merge.h"
#include "core/common/family_contract.h"
#include "core/kll/kll.h"

namespace sketch::kll {

struct MergePlan {
  bool in_place = false;
  size_t size = 0;
};

inline MergePlan plan_merge(const View& a, const View& b) {
  return MergePlan{false, merged_working_size(a, b)};
}

inline void merge(uint8_t*, const View& a, const View& b, const MergePlan&, uint8_t* dst) {
  write_merged_working(a, b, dst);
}

struct Family : state::FamilyDefaults,
                state::ParsesStructure<View, kll::parse>,
                state::StoredBy<View, kll::stored_size, kll::write_stored>,
                state::CheckedMerge<View, MergePlan, check_mergeable, plan_merge, merge> {
  static bool is_working(const uint8_t* data, size_t len) { return kll::is_working(data, len); }
  static size_t working_size(const View& v) { return kll::working_size(v); }
  static void write_working(const View& v, uint8_t* dst) { kll::write_working(v, dst); }

  // An order key (kll.h) and its weight: 1 but for a weighted row, whose
  // wrapper has checked that the total fits (fits_count, else 22003).
  // add() clears the weight bits it has placed, so a retry after growth
  // places only the rest.
  struct Element {
    uint64_t key;
    uint64_t times = 1;
  };

  struct Growth {
    uint32_t levels;
    size_t size;
  };

  static bool add(uint8_t* state, Element& e, Growth* growth) {
    return kll::add(state, e.key, &e.times, &growth->levels);
  }

  static Status plan_growth(const View& v, Growth* growth) {
    if (growth->levels > kMaxLevels)
      return Status::error(StatusCode::kOverflow, "a kll holds at most 2^64 - 1 values");
    growth->size = working_size_for(v.k, growth->levels);
    return Status::ok();
  }

  static void grow(const View& v, const Growth& growth, uint8_t* dst) {
    write_working_levels(v, growth.levels, dst);
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::kll
