// cuckoo's traits for the shared aggregate-state mechanism (working_state.h).
//
// A state is updated in place in either encoding: an add writes slots and a
// count inside a sub-filter. When no sub-filter takes a value (its kick path
// undone), add asks for growth: a copy with one more sub-filter of twice the
// largest B, refused by plan_growth (kOverflow, 54000 in the server) past
// kMaxSubfilters or kMaxDumpableBytes. A union writes into a working state's zero tail when it is large
// enough, else into a new buffer of a.used + b.used bytes (the most the
// appended sub-filters can take), so plan_merge knows the size before merge
// runs and merge cannot fail; the tail never exceeds one operand.
#pragma once

#include "core/common/element_kind.h"
#include "core/common/family_contract.h"
#include "core/common/header.h"
#include "core/cuckoo/cuckoo.h"

namespace sketch::cuckoo {

struct Family : state::FamilyDefaults, state::ParsesStructure<View, parse> {
  static constexpr bool kDefersAdds = true;  // the deferred encoding queues adds

  // At most kMaxSubfilters steps, no Status: the header, f, b, the chain of
  // sub-filters inside the buffer (so every slot, count and the guard a
  // write can touch is inside it), exactly the buffer for the stored
  // encoding, within it for the working one.
  static bool is_working(const uint8_t* data, size_t len) {
    return is_valid_structure(data, len);
  }

  static size_t working_size(const View& v) { return cuckoo::working_size(v); }
  static void write_working(const View& v, uint8_t* dst) { cuckoo::write_working(v, dst); }

  // v has nothing queued: the mechanism settles a deferred state first.
  static size_t stored_size(const View& v) { return v.used; }
  static void write_stored(const View& v, uint8_t* dst) { cuckoo::write_stored(v, dst); }

  // One value: its hash, and whether it is added only when not maybe-present
  // (cuckoo_add_new), as one more copy (cuckoo_add), or once per distinct
  // value (cuckoo_agg: `distinct`, into a distinct state; into any other
  // state it is one more copy, which keeps every promise of cuckoo.h).
  struct Element {
    Hash128 hash;
    bool only_new;
    bool distinct = false;
  };

  // `seen`: the distinct state's seen set needs twice its slots (size is then
  // its bytes); otherwise the filter a sub-filter.
  struct Growth {
    size_t size;
    bool seen = false;
  };

  // A deferred state (cuckoo_agg's, in filters of 1 MiB or more) queues a
  // set-semantics add behind a prefetch; a multiset add (cuckoo_add) into
  // one adds its queue first, then the value at once.
  static bool add(uint8_t* state, Element& e, Growth* growth) {
    growth->size = 0;
    growth->seen = false;
    const Encoding encoding = encoding_of(state);
    if (e.distinct) {
      if (has_seen_set(encoding)) {
        switch (add_distinct(state, e.hash)) {
          case DistinctResult::kAdded:
          case DistinctResult::kSeen: return true;
          case DistinctResult::kFilterFull: return false;
          case DistinctResult::kSetFull: growth->seen = true; return false;
        }
      }
      if (encoding == Encoding::kDeferred && cuckoo::settle(state) == AddResult::kFull)
        return false;
      return add_hash(state, e.hash) != AddResult::kFull;
    }
    if (encoding == Encoding::kDeferred) {
      if (e.only_new) return add_deferred(state, e.hash) != AddResult::kFull;
      if (cuckoo::settle(state) == AddResult::kFull) return false;
    }
    const AddResult r = e.only_new ? add_new_hash(state, e.hash) : add_hash(state, e.hash);
    return r != AddResult::kFull;
  }

  // Deferred adds (working_state.h settles a state before its stored form
  // or a merge reads it): whether queued values remain, and adding them,
  // false when one needs room (the mechanism grows and calls again).
  static bool has_pending(const uint8_t* data, size_t len) { return pending_of(data, len) != 0; }
  static bool settle(uint8_t* state, Growth* growth) {
    growth->size = 0;
    growth->seen = false;
    if (encoding_of(state) == Encoding::kDistinctDeferred) {
      const DistinctResult r = settle_distinct(state);
      growth->seen = r == DistinctResult::kSetFull;
      return r == DistinctResult::kAdded || r == DistinctResult::kSeen;
    }
    return cuckoo::settle(state) != AddResult::kFull;
  }

  // kOverflow when growth passes kMaxSubfilters or kMaxDumpableBytes (the
  // grow loops of working_state.h hand it back; grow is never called then).
  static Status plan_growth(const View& v, Growth* growth) {
    if (growth->seen) {
      growth->size = distinct_size(v, grown_seen_capacity(v.seen_capacity, v.used));
      return Status::ok();
    }
    return plan_grow(v, &growth->size);
  }
  static void grow(const View& v, const Growth& growth, uint8_t* dst) {
    if (growth.seen) {
      write_distinct(v, grown_seen_capacity(v.seen_capacity, v.used), dst);
    } else {
      cuckoo::grow(v, dst);
    }
  }

  struct MergePlan {
    bool in_place;
    size_t size;
    uint64_t seen_capacity;  // a distinct a: the result's seen set; else 0
  };

  static Status plan_merge(const View& a, const View& b, MergePlan* plan) {
    Status st = cuckoo::plan_merge(a, b, &plan->in_place, &plan->size);
    plan->seen_capacity = 0;
    if (!st.is_ok() || !has_seen_set(a.encoding)) return st;
    const uint64_t entries = a.seen_entries + (has_seen_set(b.encoding) ? b.seen_entries : 0);
    const uint64_t wanted = seen_capacity_for(entries);
    plan->seen_capacity = wanted > a.seen_capacity ? wanted : a.seen_capacity;
    plan->in_place = false;
    plan->size = a.used + b.used + seen_region_bytes(plan->seen_capacity);
    return Status::ok();
  }

  static void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan,
                    uint8_t* dst) {
    if (plan.in_place) {
      cuckoo::merge(a_buffer, a.size, a, b);
    } else if (plan.seen_capacity != 0) {
      cuckoo::merge_distinct(dst, plan.size, a, b, plan.seen_capacity);
    } else {
      cuckoo::merge(dst, plan.size, a, b);
    }
  }
};

static_assert(state::check_family<Family>());

}  // namespace sketch::cuckoo
