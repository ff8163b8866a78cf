// ddsketch's traits for the shared aggregate-state mechanism
// (working_state.h).
//
// The working encoding keeps each store as a dense window of counters, so
// that a row costs its bucket index and one increment. A stored sketch that
// arrives as a state (an INITCOND, a direct call, a partial state from
// another node) is copied into a working one. The element kind byte is
// always 255 (kNone): values are numbers, not hashes, so the wrapper never
// calls state::accept_kind for a ddsketch.
#pragma once

#include "core/common/checked_merge.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/ddsketch/ddsketch.h"
#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

// Any two ddsketches merge (the finer scale folds, the smaller max_buckets
// wins), unless the union would count more than 2^64 - 1 values.
struct Family : state::FamilyDefaults,
                state::CheckedMerge<View, MergePlan, check_mergeable, plan_merge, merge> {
  using View = ddsketch::View;

  static Status parse(const uint8_t* data, size_t len, View* out) {
    return ddsketch::parse(data, len, Validation::kStructure, out);
  }

  // O(1), inline, run on every row: the checks parse(kStructure) makes of a
  // working state (header, scale, kind byte, the windows' layout and
  // bounds), without building a Status.
  static bool is_working(const uint8_t* data, size_t len) {
    if (!is_current_header(data, len, SketchKind::kDdsketch, kFormatVersion) ||
        static_cast<Encoding>(data[6]) != Encoding::kWorking ||
        data[kElementKindOffset] != detail::kElementKindNone)
      return false;
    const int scale = scale_of(data);
    return scale >= kMinScale && scale <= kMaxScale &&
           detail::working_layout_problem(data, len) == nullptr;
  }

  static size_t working_size(const View& v) { return ddsketch::working_size(v); }
  static void write_working(const View& v, uint8_t* dst) { ddsketch::write_working(v, dst); }

  static size_t stored_size(const View& v) { return ddsketch::stored_size(v); }
  static void write_stored(const View& v, uint8_t* dst) { ddsketch::write_stored(v, dst); }

  // One value, check_value passed (the wrapper raises 22023 otherwise), and
  // how many times it is added: 1 but for a weighted row, whose wrapper has
  // checked that the count fits (fits_count, else 22003).
  struct Element {
    double value;
    uint64_t times = 1;
  };

  struct Growth {
    double value;
    size_t size;
  };

  // e.times is the constant 1 where the transition function made the
  // element, so the unweighted row path is add() alone.
  static bool add(uint8_t* state, Element& e, Growth* growth) {
    const bool done = e.times == 1 ? ddsketch::add(state, e.value, &growth->size)
                                   : ddsketch::add_times(state, e.value, e.times, &growth->size);
    if (__builtin_expect(done, 1)) return true;
    growth->value = e.value;
    return false;
  }

  static Status plan_growth(const View& v, Growth* growth) {
    growth->size = grown_size(v, growth->value);

    return Status::ok();
  }

  static void grow(const View& v, const Growth& growth, uint8_t* dst) {
    ddsketch::grow(v, growth.value, dst);
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::ddsketch
