// theta's traits for the shared aggregate-state mechanism (working_state.h).
//
// A row whose hash is at or above θ (once the sketch holds more than k
// values, nearly every row of a large input) costs one compare; any other
// row one probe of the table, and now and then a rebuild to the k smallest
// (theta.h). A state grows by doubling its table from 16 slots until it has
// the 2k slots a working state ever needs.
#pragma once

#include "core/common/bytes.h"
#include "core/common/checked_merge.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/theta/theta.h"
#include "core/theta/theta_internal.h"

namespace sketch::theta {

// lg_k of a sketch parse() or is_working_state() accepted (header byte 5).
inline int lg_k_of(const uint8_t* sketch) { return sketch[5]; }

// The hash identity of a sketch parse() or is_working_state() accepted
// (header byte 4): 1 for xxh3_64, 3 for DataSketches' murmur3.
inline unsigned hash_identity_of(const uint8_t* sketch) { return detail::identity_of(sketch); }

// The O(1) checks parse(kStructure) makes of a working state's fixed
// fields, inline and without a Status: asked on every row of an aggregate.
// (Working states are only made by this code; parse() also checks their
// table, in O(capacity), whenever one arrives from elsewhere.)
inline bool is_working_state(const uint8_t* data, size_t len) {
  using namespace detail;
  if (!is_theta_header(data, len) ||
      static_cast<Encoding>(data[6]) != Encoding::kWorking ||
      !valid_kind_for(data[4], data[kElementKindOffset]) ||
      len < kFixedBytes)
    return false;
  const int lg_k = data[5];
  if (lg_k < kMinLgK || lg_k > kMaxLgK) return false;
  const uint32_t capacity = load_le32(data + kCapacityOffset);
  const uint64_t theta = load_le64(data + kThetaOffset);
  return is_power_of_two(capacity) && capacity >= kMinCapacity &&
         capacity <= full_capacity(lg_k) && len == working_bytes(capacity) &&
         load_le32(data + kCountOffset) <= load_limit(capacity, lg_k, data[4]) && theta != 0 &&
         theta <= kThetaExact;
}

// Any two theta sketches of one hash identity merge, at the smaller lg_k
// (check_combinable refuses two identities).
struct Family : state::FamilyDefaults, state::ParsesStructure<View, parse>,
                state::StoredBy<View, stored_size, write_stored>,
                state::CheckedMerge<View, MergePlan, check_combinable, plan_merge, merge> {
  static constexpr bool kHasWorkingView = true;
  static constexpr bool kMergesStored = true;

  static bool is_working(const uint8_t* data, size_t len) { return is_working_state(data, len); }

  // O(1): the view of a state is_working() accepted (working_state.h).
  static View working_view(const uint8_t* data, size_t len) {
    using namespace detail;
    View v{};
    v.lg_k = data[5];
    v.k = uint32_t{1} << v.lg_k;
    v.encoding = Encoding::kWorking;
    v.count = load_le32(data + kCountOffset);
    v.theta = load_le64(data + kThetaOffset);
    v.data = data;
    v.size = len;
    v.capacity = load_le32(data + kCapacityOffset);
    v.hash_identity = identity_of(data);
    return v;
  }

  static size_t working_size(const View& v) { return theta::working_size(v); }
  static void write_working(const View& v, uint8_t* dst) { theta::write_working(v, dst); }

  // The 64-bit hash of the element's canonical encoding (the sketch keeps
  // hash >> 1).
  struct Element {
    uint64_t hash;
  };

  struct Growth {
    size_t size;
  };

  static bool add(uint8_t* state, Element& e, Growth*) {
    // The common case of a large input, inlined: at or above θ.
    if (retained_hash(e.hash) >= load_le64(state + detail::kThetaOffset)) return true;
    return theta::add(state, e.hash) == AddOutcome::kDone;
  }

  static Status plan_growth(const View& v, Growth* growth) {
    growth->size = grown_size(v);
    return Status::ok();
  }

  static void grow(const View& v, const Growth&, uint8_t* dst) { theta::grow(v, dst); }

  // The binary union of two stored sketches: a walk over both sorted hash
  // arrays into the stored result (theta_setops.cpp).
  static size_t merged_size(const View& a, const View& b) { return theta::merged_size(a, b); }
  static void write_merged(const View& a, const View& b, uint8_t* dst) {
    theta::write_merged(a, b, dst);
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::theta
