// ell's traits for the shared aggregate-state mechanism (working_state.h).
//
// Working encodings: the sparse set (O(1) inserts) and dense registers. The
// stored sparse list is never written in place: a stored value arriving as a
// state is copied into a set first.
#pragma once

#include <cstring>

#include "core/common/bytes.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/ell/ell.h"
#include "core/ell/ell_internal.h"

namespace sketch::ell {

struct Family : state::FamilyDefaults, state::ParsesStructure<View, parse>,
                state::StoredBy<View, stored_size, write_stored> {
  // O(1), run on every row: parse()'s layout checks of the two working
  // encodings, without building a Status.
  static bool is_working(const uint8_t* data, size_t len) {
    if (!is_current_header(data, len, SketchKind::kEll, kFormatVersion) ||
        !valid_element_kind(data[kElementKindOffset]) || len < kHeaderSize + 4)
      return false;
    const int p = detail::precision_of(data);
    if (!valid_precision(p) || (detail::flags_of(data) & ~kUnmerged) != 0) return false;
    switch (detail::encoding_of(data)) {
      case Encoding::kDense:
        return len == dense_size(p);
      case Encoding::kSparseSet: {
        if (len < sparse_set_size(0)) return false;
        const uint32_t count = load_le32(data + detail::kCountOffset);
        const uint32_t capacity = load_le32(data + detail::kCapacityOffset);
        const bool power_of_two = capacity != 0 && (capacity & (capacity - 1)) == 0;
        return power_of_two && capacity <= (len - sparse_set_size(0)) / 4 &&
               len == sparse_set_size(capacity) && count <= capacity &&
               count <= max_sparse_tokens(p);
      }
      default:
        return false;
    }
  }

  static bool is_stored(const View& v) { return v.encoding != Encoding::kSparseSet; }

  static size_t working_size(const View& v) {
    if (v.encoding == Encoding::kDense) return v.size;
    return sparse_set_size(set_capacity_for(v.count + 1));
  }

  static void write_working(const View& v, uint8_t* dst) {
    if (v.encoding == Encoding::kDense) {
      std::memcpy(dst, v.data, v.size);
      return;
    }
    write_set(v, set_capacity_for(v.count + 1), dst);
  }

  struct Element {
    uint64_t hash;
  };

  struct Growth {
    AddOutcome outcome;  // kNeedsGrowth (a larger set) or kNeedsDense
    size_t size;
  };

  static bool add(uint8_t* state, Element& e, Growth* growth) {
    growth->outcome = add_hash(state, e.hash);
    return growth->outcome == AddOutcome::kDone;
  }

  static Status plan_growth(const View& v, Growth* growth) {
    growth->size = growth->outcome == AddOutcome::kNeedsGrowth
                       ? sparse_set_size(grown_capacity(v))
                       : dense_size(v.p);
    return Status::ok();
  }

  static void grow(const View& v, const Growth& growth, uint8_t* dst) {
    if (growth.outcome == AddOutcome::kNeedsGrowth) {
      write_set(v, grown_capacity(v), dst);
    } else {
      write_dense(v, v.p, dst);
    }
  }

  // Any two ell sketches merge: the larger precision folds down.
  using MergePlan = ell::MergePlan;

  static Status plan_merge(const View& a, const View& b, MergePlan* plan) {
    *plan = ell::plan_merge(a, b);
    return Status::ok();
  }

  static void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan,
                    uint8_t* dst) {
    ell::merge(a_buffer, a, b, plan, dst);
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::ell
