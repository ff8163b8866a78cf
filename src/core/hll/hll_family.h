// hll's traits for the shared aggregate-state mechanism (working_state.h).
//
// Working encodings: the sparse set (O(1) inserts) and dense registers.
// The stored sparse list is never written in place: adding to it means
// rebuilding it, so a stored value that arrives as a state (an INITCOND, a
// direct call, a partial state from another node) is copied into a set.
#pragma once

#include <cstring>

#include "core/common/bytes.h"
#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/hll/hll.h"
#include "core/hll/hll_internal.h"

namespace sketch::hll {

// The precision of a sketch that parse() accepted.
inline int precision_of(const uint8_t* sketch) { return sketch[5]; }

struct Family : state::FamilyDefaults {
  using View = hll::View;

  static const uint8_t* bytes_of(const View& v) { return v.body - kHeaderSize; }

  static Status parse(const uint8_t* data, size_t len, View* out) {
    return hll::parse(data, len, Validation::kStructure, out);
  }

  // O(1), inline, run on every row: the layout checks of parse() for the
  // two working encodings, without building a Status. A dense sketch is
  // written in place at its registers, a set at its slots (count and
  // capacity agree with the length); a stored sparse list never is.
  static bool is_working(const uint8_t* data, size_t len) {
    if (!is_current_header(data, len, SketchKind::kHll, kFormatVersion) ||
        !valid_element_kind(data[kElementKindOffset]))
      return false;
    const int p = precision_of(data);
    if (p < kMinPrecision || p > kMaxPrecision) return false;
    switch (static_cast<Encoding>(data[6])) {
      case Encoding::kDense:
        return len == dense_size(p);
      case Encoding::kSparseSet: {
        if (len < sparse_set_size(0)) return false;
        const uint32_t count = load_le32(data + detail::kCountOffset);
        const uint32_t capacity = load_le32(data + detail::kCapacityOffset);
        const bool power_of_two = capacity != 0 && (capacity & (capacity - 1)) == 0;
        return power_of_two && capacity <= (len - sparse_set_size(0)) / 4 &&
               len == sparse_set_size(capacity) && count <= capacity;
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
      std::memcpy(dst, v.body - kHeaderSize, v.size);
      return;
    }
    write_set(v, set_capacity_for(v.count + 1), dst);
  }

  static size_t stored_size(const View& v) { return hll::stored_size(v); }
  static void write_stored(const View& v, uint8_t* dst) { hll::write_stored(v, dst); }

  struct Element {
    uint64_t hash;
  };

  struct Growth {
    AddOutcome outcome;  // kNeedsGrowth (a larger set) or kNeedsDense
    size_t size;
  };

  // Dense registers are raised inline (the common case of a large
  // aggregate: one load and at most one store, no call); the set goes
  // through add_hash.
  static bool add(uint8_t* state, Element& e, Growth* growth) {
    if (detail::encoding_of(state) == Encoding::kDense) {
      const int p = precision_of(state);
      detail::raise_register(state + detail::kRegistersOffset, e.hash >> (64 - p),
                             detail::rank_after(e.hash, p));
      return true;
    }
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

  // Any two hll sketches merge: the larger precision folds down exactly.
  using MergePlan = hll::MergePlan;

  static Status plan_merge(const View& a, const View& b, MergePlan* plan) {
    *plan = hll::plan_merge(a, b);
    return Status::ok();
  }

  static void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan,
                    uint8_t* dst) {
    hll::merge(a_buffer, a, b, plan, dst);
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::hll
