// The traits of a cell-array filter (bloom, counting_bloom) for the shared
// aggregate-state mechanism (working_state.h), written once.
//
// Such a filter never grows: m and k are fixed when it is sized, and both
// encodings are updated in place -- a stored filter by writing its cells at
// once, the working encoding of a large one by prefetching them and queueing
// the hash. A union is cell-wise in a's buffer. So everything but the O(1)
// shape check (is_working, which knows the family's header bytes) follows
// from a handful of the filter's own functions, which `Ops` names:
//
//   View                      the parsed filter (data, size, encoding)
//   parse(data, len, Validation, View*)
//   stored_size(View), write_stored(View, dst)
//   is_deferred(state)        the working encoding: queue, do not write yet
//   add_now(state, hash), add_deferred(state, hash)
//   check_compatible(a, b), merge(a_buffer, b)
//
// A family names them in its CellArrayOps, derives its Family from
// cell_array::Family<CellArrayOps> and adds is_working.
#pragma once

#include <cstring>

#include "core/common/family_contract.h"
#include "core/common/hash.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::cell_array {

template <class Ops>
struct Family : state::FamilyDefaults {
  using View = typename Ops::View;

  static Status parse(const uint8_t* data, size_t len, View* out) {
    return Ops::parse(data, len, Validation::kStructure, out);
  }

  static size_t working_size(const View& v) { return v.size; }
  static void write_working(const View& v, uint8_t* dst) { std::memcpy(dst, v.data, v.size); }

  static size_t stored_size(const View& v) { return Ops::stored_size(v); }
  static void write_stored(const View& v, uint8_t* dst) { Ops::write_stored(v, dst); }

  struct Element {
    Hash128 hash;
  };

  struct Growth {
    size_t size;
  };

  // Forced inline: this is the per-row path of every bloom and
  // counting_bloom aggregate, and GCC would otherwise outline the deferred
  // branch into a call (one wrapper level deeper than when each family
  // wrote it out).
  [[gnu::always_inline]] static bool add(uint8_t* state, Element& e, Growth*) {
    if (Ops::is_deferred(state)) {
      Ops::add_deferred(state, e.hash);
    } else {
      Ops::add_now(state, e.hash);
    }
    return true;
  }

  static Status plan_growth(const View& v, Growth* growth) {
    growth->size = v.size;
    return Status::ok();
  }
  static void grow(const View& v, const Growth&, uint8_t* dst) { write_working(v, dst); }

  struct MergePlan {
    bool in_place;
    size_t size;
  };

  static Status plan_merge(const View& a, const View& b, MergePlan* plan) {
    *plan = MergePlan{true, a.size};
    return Ops::check_compatible(a, b);
  }

  static void merge(uint8_t* a_buffer, const View&, const View& b, const MergePlan&, uint8_t*) {
    Ops::merge(a_buffer, b);
  }
};

}  // namespace sketch::cell_array
