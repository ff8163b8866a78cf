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
#include "core/hll/dshll.h"
#include "core/hll/hll.h"
#include "core/hll/hll_internal.h"
#include "core/hll/pghll.h"

namespace sketch::hll {

// The precision of a sketch that parse() accepted.
inline int precision_of(const uint8_t* sketch) { return sketch[5]; }

struct Family : state::FamilyDefaults, state::ParsesStructure<View, parse>,
                state::StoredBy<View, stored_size, write_stored> {
  static const uint8_t* bytes_of(const View& v) { return v.body - kHeaderSize; }

  // O(1), inline, run on every row: the layout checks of parse() for the
  // two working encodings, without building a Status. A dense sketch is
  // written in place at its registers, a set at its slots (count and
  // capacity agree with the length); a stored sparse list never is.
  static bool is_working(const uint8_t* data, size_t len) {
    if (len >= kHeaderSize && data[4] == pghll::kIdentity) return pghll::is_working(data, len);
    if (len >= kHeaderSize && data[4] == dshll::kIdentity) return dshll::is_working(data, len);
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

  static bool is_stored(const View& v) {
    return v.encoding != Encoding::kSparseSet && v.encoding != Encoding::kPghllWorking &&
           v.encoding != Encoding::kDatasketchesWorking;
  }

  static size_t working_size(const View& v) {
    if (is_pghll(v.encoding)) return pghll::working_size(v);
    if (is_dshll(v.encoding)) return dshll::working_size(v);
    if (v.encoding == Encoding::kDense) return v.size;
    return sparse_set_size(set_capacity_for(v.count + 1));
  }

  static void write_working(const View& v, uint8_t* dst) {
    if (is_pghll(v.encoding)) {
      pghll::write_working(v, dst);
      return;
    }
    if (is_dshll(v.encoding)) {
      dshll::write_working(v, dst);
      return;
    }
    if (v.encoding == Encoding::kDense) {
      std::memcpy(dst, v.body - kHeaderSize, v.size);
      return;
    }
    write_set(v, set_capacity_for(v.count + 1), dst);
  }

  // A hash and the identity it was made under: identity 1 (XXH3, the
  // default of hll_agg and hll_add), postgresql-hll's with its seed, or
  // DataSketches' (identity 3: `hash` is the coupon, dshll_codec.h). A
  // sketch takes only hashes of its own identity (and seed).
  struct Element {
    uint64_t hash;
    uint8_t identity = kHashIdentity;
    int32_t seed = 0;
  };

  struct Growth {
    AddOutcome outcome;  // kNeedsGrowth (a larger set), kNeedsDense, kRefused
    size_t size;
    uint8_t identity;    // kRefused: the element's identity and seed
    int32_t seed;
  };

  static bool refuse(const Element& e, Growth* growth) {
    growth->outcome = AddOutcome::kRefused;
    growth->identity = e.identity;
    growth->seed = e.seed;
    return false;
  }

  // Dense registers are raised inline (the common case of a large
  // aggregate: one load and at most one store, no call); the set goes
  // through add_hash.
  static bool add(uint8_t* state, Element& e, Growth* growth) {
    if (state[4] == dshll::kIdentity || e.identity == dshll::kIdentity) {
      if (state[4] != e.identity) return refuse(e, growth);
      // A working state has room for every mode: adds are always in place.
      dshll::add(state, static_cast<uint32_t>(e.hash));
      return true;
    }
    if (state[4] == pghll::kIdentity) {
      if (e.identity != pghll::kIdentity ||
          e.seed != static_cast<int32_t>(load_le32(state + kHeaderSize)))
        return refuse(e, growth);
      growth->outcome = pghll::add(state, e.hash);
      return growth->outcome == AddOutcome::kDone;
    }
    if (e.identity != kHashIdentity) return refuse(e, growth);
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
    if (growth->outcome == AddOutcome::kRefused) return refused(v, *growth);
    if (is_dshll(v.encoding))
      return Status::error(StatusCode::kInvalidFormat, "a DataSketches hll state never grows");
    if (is_pghll(v.encoding)) {
      growth->size = pghll::growth_size(v, growth->outcome);
      return Status::ok();
    }
    growth->size = growth->outcome == AddOutcome::kNeedsGrowth
                       ? sparse_set_size(grown_capacity(v))
                       : dense_size(v.p);

    return Status::ok();
  }

  static void grow(const View& v, const Growth& growth, uint8_t* dst) {
    if (is_pghll(v.encoding)) {
      pghll::grow(v, growth.outcome, dst);
      return;
    }
    if (growth.outcome == AddOutcome::kNeedsGrowth) {
      write_set(v, grown_capacity(v), dst);
    } else {
      write_dense(v, v.p, dst);
    }
  }

  // Any two hll sketches of identity 1 merge: the larger precision folds
  // down exactly. postgresql-hll's merge only with each other, at the same
  // parameters and seed (pghll::plan_merge), never with identity 1.
  using MergePlan = hll::MergePlan;

  static Status plan_merge(const View& a, const View& b, MergePlan* plan) {
    if (is_dshll(a.encoding) != is_dshll(b.encoding))
      return datasketches_differs(is_dshll(a.encoding) ? b : a);
    if (is_dshll(a.encoding)) {
      bool in_place;
      size_t size;
      Status st = dshll::plan_merge(a, b, &in_place, &size);
      if (!st.is_ok()) return st;
      *plan = MergePlan{a.p < b.p ? a.p : b.p, Encoding::kDatasketchesWorking, in_place, size, 0};
      return Status::ok();
    }
    if (is_pghll(a.encoding) != is_pghll(b.encoding))
      return identities_differ(is_pghll(a.encoding) ? a : b);
    if (is_pghll(a.encoding)) {
      size_t size;
      uint32_t explicit_count;
      Status st = pghll::plan_merge(a, b, &size, &explicit_count);
      if (!st.is_ok()) return st;
      *plan = MergePlan{a.p, Encoding::kPghllWorking, false, size, explicit_count};
      return Status::ok();
    }
    *plan = hll::plan_merge(a, b);
    return Status::ok();
  }

  static void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan,
                    uint8_t* dst) {
    if (plan.encoding == Encoding::kPghllWorking) {
      pghll::merge(a, b, dst, plan.capacity);
      return;
    }
    if (plan.encoding == Encoding::kDatasketchesWorking) {
      dshll::merge(a_buffer, a, b, plan.in_place, dst);
      return;
    }
    hll::merge(a_buffer, a, b, plan, dst);
  }

 private:
  static Status datasketches_differs(const View& other) {
    return Status::error(StatusCode::kMismatch,
                         "cannot combine hll sketches of different hash identities: DataSketches "
                         "murmur3_x64_128 seed 9001 (identity 3) and %s",
                         is_pghll(other.encoding) ? "postgresql-hll (identity 2)"
                                                  : "xxh3_64 (identity 1)");
  }

  static Status identities_differ(const View& pghll_side) {
    return Status::error(StatusCode::kMismatch,
                         "cannot combine hll sketches of different hash identities: xxh3_64 "
                         "(identity 1) and postgresql-hll murmur3_x64_128, seed %d (identity 2)",
                         pghll::params_of(pghll_side).seed);
  }

  static Status refused(const View& v, const Growth& g) {
    if (is_dshll(v.encoding))
      return Status::error(StatusCode::kMismatch,
                           "cannot add a value hashed with identity %u to a DataSketches hll "
                           "sketch (identity 3): use hll_datasketches_add", g.identity);
    if (g.identity == dshll::kIdentity)
      return Status::error(StatusCode::kMismatch,
                           "cannot add a value hashed as DataSketches does (identity 3) to an hll "
                           "sketch of identity %s", is_pghll(v.encoding) ? "2 (postgresql-hll)"
                                                                         : "1 (xxh3_64)");
    if (is_pghll(v.encoding) && g.identity == pghll::kIdentity)
      return Status::error(StatusCode::kMismatch,
                           "cannot add a value hashed with postgresql-hll seed %d to a "
                           "postgresql-hll sketch of seed %d", g.seed, pghll::params_of(v).seed);
    if (is_pghll(v.encoding))
      return Status::error(StatusCode::kMismatch,
                           "cannot add a value hashed with xxh3_64 (identity 1) to a "
                           "postgresql-hll sketch (identity 2, seed %d): use "
                           "hll_postgresql_hll_add", pghll::params_of(v).seed);
    return Status::error(StatusCode::kMismatch,
                         "cannot add a value hashed as postgresql-hll does (identity 2, seed %d) "
                         "to an hll sketch of identity 1 (xxh3_64)", g.seed);
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::hll
