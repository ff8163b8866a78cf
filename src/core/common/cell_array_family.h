// The traits of a cell-array filter (bloom, counting_bloom) for the shared
// aggregate-state mechanism (working_state.h), written once.
//
// Such a filter never grows: m and k are fixed when it is sized, and both
// encodings are updated in place -- a stored filter by writing its cells at
// once, the working encoding of a large one by prefetching them and queueing
// the hash. A union is cell-wise in a's buffer. So everything but the O(1)
// shape check (is_working, which knows the family's header bytes) follows
// from the filter's View and a handful of its own functions, the template's
// arguments:
//
//   View                      the parsed filter (data, size, encoding)
//   parse(data, len, Validation, View*)
//   write_stored(View, dst)
//   add_now(state, hash)      a stored state: write the cells at once
//   add_deferred(state, hash) a working state: prefetch and queue
//   check_compatible(a, b), merge(a_buffer, b)
//
// A family derives its Family from cell_array::Family<View, parse, ...> and
// adds is_working.
#pragma once

#include <cstring>

#include "core/common/cell_array.h"
#include "core/common/family_contract.h"
#include "core/common/hash.h"
#include "core/common/prefetch_queue.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::cell_array {

template <class ViewT, Status (*kParse)(const uint8_t*, size_t, Validation, ViewT*),
          void (*kWriteStored)(const ViewT&, uint8_t*), void (*kAddNow)(uint8_t*, Hash128),
          void (*kAddDeferred)(uint8_t*, Hash128),
          Status (*kCheckCompatible)(const ViewT&, const ViewT&),
          void (*kMerge)(uint8_t*, const ViewT&)>
struct Family : state::FamilyDefaults, state::ParsesStructure<ViewT, kParse> {
  using View = ViewT;

  static size_t working_size(const View& v) { return v.size; }
  static void write_working(const View& v, uint8_t* dst) { std::memcpy(dst, v.data, v.size); }

  // parse() matched the size to m: a working state is the stored layout
  // and then the queue.
  static size_t stored_size(const View& v) {
    return is_stored(v) ? v.size : v.size - prefetch_queue::kBytes;
  }
  static void write_stored(const View& v, uint8_t* dst) { kWriteStored(v, dst); }

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
    if (is_queued(state)) {
      kAddDeferred(state, e.hash);
    } else {
      kAddNow(state, e.hash);
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
    return kCheckCompatible(a, b);
  }

  static void merge(uint8_t* a_buffer, const View&, const View& b, const MergePlan&, uint8_t*) {
    kMerge(a_buffer, b);
  }
};

}  // namespace sketch::cell_array
