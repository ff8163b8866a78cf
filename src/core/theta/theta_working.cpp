// theta working states: adding with rebuilds, growing, merging.

#include <algorithm>

#include "core/theta/theta_internal.h"

namespace sketch::theta {

using namespace detail;

namespace detail {

// Rebuilding a linear-probing table in place, without scratch memory.
// Dropping a hash leaves a hole that may cut the probe path of a hash
// further on, so the survivors a hole may cut off are taken out and
// reinserted, in one sweep that starts just after a slot that was empty
// before it began. Why that leaves every hash findable: before the sweep,
// the slots from a hash's home to where it lies are all occupied (no
// deletions ever happened), so that stretch does not contain the empty
// start slot and lies, in sweep order, between the start and the hash. A
// hash whose stretch holds no slot the sweep has emptied stays (it is
// still found); another is reinserted, and takes the first empty slot from
// its home, which is at or before where it was (that slot was just
// emptied). Either way the stretch from its home to its slot is occupied
// now and is never emptied later, since the sweep only empties slots it has
// not reached yet, which lie beyond it. O(capacity) plus the probes.
void sweep_below(uint8_t* state, uint64_t theta) {
  const uint32_t capacity = load_le32(state + kCapacityOffset);
  const uint32_t mask = capacity - 1;
  store_le64(state + kThetaOffset, theta);
  uint32_t start = 0;
  while (start < mask && hash_at(state, start) != 0) start++;
  // The sweep-order position (1..capacity) of the last slot it emptied.
  uint32_t last_emptied = 0, kept = 0;
  for (uint32_t step = 1; step <= capacity; step++) {
    const uint32_t pos = (start + step) & mask;
    const uint64_t h = hash_at(state, pos);
    if (h == 0) continue;
    if (h < theta) {
      kept++;
      // Its home in sweep order, after the start in a table built by
      // inserts (see above); if no slot from there to pos was emptied, h
      // is still found where it is.
      const uint32_t distance = (pos - static_cast<uint32_t>(h)) & mask;
      if (distance < step && last_emptied < step - distance) continue;
    }
    set_hash(state, pos, 0);
    last_emptied = step;
    if (h >= theta) continue;
    // The first empty slot from h's home: at or before pos, which is empty.
    uint32_t to = static_cast<uint32_t>(h) & mask;
    while (hash_at(state, to) != 0) to = (to + 1) & mask;
    set_hash(state, to, h);
  }
  store_le32(state + kCountOffset, kept);
}

namespace {

// A full-size table at its load limit (3k/2 hashes, all of its set below
// θ; identity 3: 15k/8 + 1, the libraries' count at their rebuild): θ
// becomes the (k+1)-th smallest and the k below it stay.
void rebuild(uint8_t* state, int lg_k) {
  const uint32_t capacity = load_le32(state + kCapacityOffset);
  uint64_t theta =
      radix_select<false>(capacity, k_of(lg_k) + 1, [state](uint32_t i) { return hash_at(state, i); });
  // Only a count that lies about the slots (never written here) could leave
  // fewer than k + 1 hashes to select from; θ stays a valid θ regardless.
  if (theta == 0) theta = 1;
  sweep_below(state, theta);
}

}  // namespace

AddOutcome insert(uint8_t* state, uint64_t h) {
  for (;;) {
    if (h >= load_le64(state + kThetaOffset)) return AddOutcome::kDone;
    const uint32_t capacity = load_le32(state + kCapacityOffset);
    const uint32_t mask = capacity - 1;
    uint32_t pos = static_cast<uint32_t>(h) & mask;
    for (;;) {
      const uint64_t x = hash_at(state, pos);
      if (x == h) return AddOutcome::kDone;
      if (x == 0) break;
      pos = (pos + 1) & mask;
    }
    const uint32_t count = load_le32(state + kCountOffset);
    const int lg_k = state[5];
    const uint8_t identity = identity_of(state);
    if (count < load_limit(capacity, lg_k, identity)) {
      set_hash(state, pos, h);
      store_le32(state + kCountOffset, count + 1);
      return AddOutcome::kDone;
    }
    if (capacity < full_capacity(lg_k)) return AddOutcome::kNeedsGrowth;
    if (identity == kDatasketchesIdentity) {
      // The libraries insert, then rebuild once the count passes 15/16 of
      // the table: one slot past the limit, 2k/16 - 1 of them still empty.
      set_hash(state, pos, h);
      store_le32(state + kCountOffset, count + 1);
      rebuild(state, lg_k);
      return AddOutcome::kDone;
    }
    rebuild(state, lg_k);  // then h again, against the lowered θ
  }
}

}  // namespace detail

AddOutcome add(uint8_t* state, uint64_t hash) {
  const uint64_t h = retained_hash(hash);
  if (h == 0) return AddOutcome::kDone;  // 0 marks empty slots (theta.h)
  return insert(state, h);
}

size_t grown_size(const View& v) {
  return working_bytes(std::min(full_capacity(v.lg_k), 2 * v.capacity));
}

void grow(const View& v, uint8_t* dst) {
  write_working_empty(dst, v.lg_k, std::min(full_capacity(v.lg_k), 2 * v.capacity), v.theta,
                      element_kind_of(v.data), identity_of(v.data));
  for_each_hash(v, [dst](uint64_t h) { insert(dst, h); });
}

MergePlan plan_merge(const View& a, const View& b) {
  MergePlan plan{};
  plan.lg_k = std::min(a.lg_k, b.lg_k);
  const uint64_t both = uint64_t{a.count} + b.count;
  plan.in_place = a.encoding == Encoding::kWorking && a.lg_k == plan.lg_k &&
                  (a.capacity == full_capacity(plan.lg_k) || both <= load_limit(a.capacity));
  if (plan.in_place) {
    plan.capacity = a.capacity;
  } else {
    plan.capacity = capacity_for(plan.lg_k, both);
    plan.size = working_bytes(plan.capacity);
  }
  return plan;
}

// θ = min(θa, θb), then b's hashes (and a's, into a new table) inserted as
// adds are. The table is at its full size (where a full table rebuilds
// itself) or has room for every hash of a and b, so no insert asks to grow.
void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan, uint8_t* dst) {
  uint8_t* out = a_buffer;
  if (plan.in_place) {
    if (b.theta < a.theta) sweep_below(out, b.theta);
  } else {
    out = dst;
    write_working_empty(out, plan.lg_k, plan.capacity, std::min(a.theta, b.theta),
                        element_kind_of(a.data), identity_of(a.data));
    for_each_hash(a, [out](uint64_t h) { insert(out, h); });
  }
  for_each_hash(b, [out](uint64_t h) { insert(out, h); });
}

}  // namespace sketch::theta
