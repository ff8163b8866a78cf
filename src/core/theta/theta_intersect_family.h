// theta_intersect's traits for the shared aggregate-state mechanism
// (working_state.h), so that this aggregate too takes, refuses and returns
// its states by the one rule every other aggregate follows.
//
// The state is the running intersection, a stored sketch: each row replaces
// it by state ∩ row, written into a new buffer (the result is often shorter,
// and a varlena's length is fixed once it is made), so nothing is ever
// written in place. The aggregate only combines sketches (kAddsElements is
// false). The set operations read stored views only: a state or input in the
// working encoding (a theta_agg state passed on without the final function)
// is turned into its stored form first, by copy_to_working / to_stored.
#pragma once

#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/theta/theta.h"
#include "core/theta/theta_internal.h"

namespace sketch::theta {

struct IntersectFamily : state::FamilyDefaults, state::ParsesStructure<View, parse>,
                         state::StoredBy<View, stored_size, write_stored> {
  static constexpr bool kAddsElements = false;

  // O(1): the header of a stored theta of this build. Enough, because
  // nothing writes the state in place: merge() parses it in full (the
  // mechanism's view of a state) before it reads a hash, then writes a new
  // buffer.
  static bool is_working(const uint8_t* data, size_t len) {
    return detail::is_theta_header(data, len) &&
           static_cast<Encoding>(data[6]) == Encoding::kStored && len >= detail::kFixedBytes;
  }

  // The "working" form of an intersection is the stored one.
  static size_t working_size(const View& v) { return theta::stored_size(v); }
  static void write_working(const View& v, uint8_t* dst) { theta::write_stored(v, dst); }

  struct MergePlan {
    bool in_place;
    size_t size;
  };

  // Refuses views that are not stored: the mechanism never passes one as
  // the state, and the server turns the other input into its stored form.
  static Status plan_merge(const View& a, const View& b, MergePlan* plan) {
    if (!is_stored(a) || !is_stored(b))
      return Status::error(StatusCode::kInvalidFormat,
                           "a theta intersection reads stored sketches only");
    Status st = check_combinable(a, b);
    if (!st.is_ok()) return st;
    *plan = MergePlan{false, intersect_size(a, b)};
    return Status::ok();
  }

  static void merge(uint8_t*, const View& a, const View& b, const MergePlan&, uint8_t* dst) {
    write_intersect(a, b, dst);
  }
};

static_assert(state::check_family<IntersectFamily>());

}  // namespace sketch::theta
