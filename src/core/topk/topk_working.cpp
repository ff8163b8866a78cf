// topk working states: adding with purges, growing, merging.

#include <algorithm>
#include <cstring>

#include "core/topk/topk_internal.h"

namespace sketch::topk {

using namespace detail;

namespace {

struct Probe {
  uint8_t* slot;   // the index slot holding the item, or the empty one to take
  uint8_t* entry;  // the item's entry, nullptr if not held
};

inline Probe probe(uint8_t* state, uint32_t capacity, uint64_t hash) {
  uint8_t* index = state + index_offset(capacity);
  const uint32_t mask = index_capacity_for(capacity) - 1;
  const uint32_t tag = slot_tag(hash);
  uint32_t slot = static_cast<uint32_t>(hash) & mask;
  for (;;) {
    uint8_t* s = index + 4 * size_t{slot};
    const uint32_t value = load_le32(s);
    if (value == 0) return Probe{s, nullptr};
    if ((value & ~kSlotIdMask) == tag) {
      uint8_t* e = entry_at(state, (value & kSlotIdMask) - 1);
      if (entry_hash(e) == hash) return Probe{s, e};
    }
    slot = (slot + 1) & mask;
  }
}

// Lowers every counter by the (k+1)-th largest t, drops the counters that
// reach 0 (at most k remain), adds t to Δ; entries and texts are compacted
// in their order and the index is rebuilt. Needs more than k entries.
void purge(uint8_t* state, uint32_t k) {
  const uint32_t capacity = load_le32(state + kCapacityOffset);
  const uint32_t count = load_le32(state + kCountOffset);
  const uint64_t t = radix_select<true>(count, k + 1, [&](uint32_t i) {
    return entry_count(entry_at(state, i));
  });
  uint8_t* arena = state + arena_offset(capacity);
  uint32_t kept = 0, used = 0;
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t* e = entry_at(state, i);
    const uint64_t c = entry_count(e);
    if (c <= t) continue;
    const uint32_t len = entry_len(e);
    // Texts lie in entry order, so a kept text moves down or stays.
    std::memmove(arena + used, arena + entry_offset(e), len);
    uint8_t* to = entry_at(state, kept++);
    if (to != e) std::memmove(to, e, kEntrySize);
    item_table::set_entry_counter(to, c - t);
    item_table::set_entry_text_offset(to, used);
    used += len;
  }
  uint8_t* index = state + index_offset(capacity);
  const uint32_t icap = index_capacity_for(capacity);
  std::memset(index, 0, 4 * size_t{icap});
  for (uint32_t i = 0; i < kept; i++) index_insert(index, icap - 1, entry_hash(entry_at(state, i)), i);
  store_le32(state + kCountOffset, kept);
  store_le32(state + kArenaUsedOffset, used);
  store_le64(state + kErrorOffset, load_le64(state + kErrorOffset) + t);
}

// The item's entry, inserted if need be; kDone, or what the caller must
// provide first. N is not touched.
AddOutcome raise_counter(uint8_t* state, uint64_t hash, uint64_t weight, const uint8_t* text,
                         uint32_t text_len, bool clipped) {
  const uint32_t capacity = load_le32(state + kCapacityOffset);
  Probe p = probe(state, capacity, hash);
  if (p.entry != nullptr) {
    item_table::set_entry_counter(p.entry, entry_count(p.entry) + weight);
    return AddOutcome::kDone;
  }
  if (text == nullptr) return AddOutcome::kNeedsText;
  uint32_t count = load_le32(state + kCountOffset);
  if (count == capacity) {
    const uint32_t k = load_le32(state + kKOffset);
    if (capacity < max_capacity(k)) return AddOutcome::kNeedsRoom;
    purge(state, k);
    count = load_le32(state + kCountOffset);
    p = probe(state, capacity, hash);
  }
  const uint32_t used = load_le32(state + kArenaUsedOffset);
  if (uint64_t{used} + text_len > load_le32(state + kArenaCapacityOffset))
    return AddOutcome::kNeedsRoom;
  uint32_t new_used = used;
  item_table::append_entry(entry_at(state, count), state + arena_offset(capacity), &new_used,
                           hash, weight, text, text_len, clipped);
  store_le32(p.slot, (count + 1) | slot_tag(hash));
  store_le32(state + kCountOffset, count + 1);
  store_le32(state + kArenaUsedOffset, new_used);
  return AddOutcome::kDone;
}

}  // namespace

AddOutcome add(uint8_t* state, uint64_t hash, uint64_t weight, const uint8_t* text,
               uint32_t text_len, bool clipped) {
  const uint64_t total = load_le64(state + kTotalOffset);
  if (weight > kMaxTotal - total) return AddOutcome::kOverflow;
  const AddOutcome outcome = raise_counter(state, hash, weight, text, text_len, clipped);
  if (outcome == AddOutcome::kDone) store_le64(state + kTotalOffset, total + weight);
  return outcome;
}

namespace {

struct Shape {
  uint32_t capacity;
  uint32_t arena;
};

Shape grown_shape(const View& v, uint32_t text_len) {
  Shape s{v.capacity, v.arena_capacity};
  if (v.count == v.capacity) s.capacity = std::min(max_capacity(v.k), 2 * v.capacity);
  const uint64_t need = v.text_bytes + text_len;
  if (need > v.arena_capacity)
    s.arena = static_cast<uint32_t>(
        std::min<uint64_t>(max_arena(v.k), std::max<uint64_t>(need, 2 * uint64_t{v.arena_capacity})));
  return s;
}

}  // namespace

size_t grown_size(const View& v, uint32_t text_len) {
  const Shape s = grown_shape(v, text_len);
  return working_bytes(s.capacity, s.arena);
}

void grow(const View& v, uint32_t text_len, uint8_t* dst) {
  const Shape s = grown_shape(v, text_len);
  write_working_shaped(v, v.k, 0, s.capacity, s.arena, dst);
}

Status check_mergeable(const View& a, const View& b) {
  if (b.total > kMaxTotal - a.total)
    return Status::error(StatusCode::kOverflow,
                         "topk union would count more than %llu in total (%llu + %llu)",
                         static_cast<unsigned long long>(kMaxTotal),
                         static_cast<unsigned long long>(a.total),
                         static_cast<unsigned long long>(b.total));
  return Status::ok();
}

// Entry slots a merge result needs: room for every item of both (a
// purge-free merge), or all 2k slots, where a full table purges in place.
// Sized by need, not 2k always: a union aggregate over many small groups
// keeps small states.
uint32_t merge_capacity(uint32_t k, uint32_t a_count, uint32_t b_count) {
  return static_cast<uint32_t>(
      std::min<uint64_t>(max_capacity(k), std::max<uint64_t>(std::min(max_capacity(k), 16u),
                                                             uint64_t{a_count} + b_count)));
}

MergePlan plan_merge(const View& a, const View& b) {
  MergePlan plan{};
  plan.k = std::min(a.k, b.k);
  plan.in_place = a.encoding == Encoding::kWorking && a.k == plan.k &&
                  (a.capacity == max_capacity(plan.k) || a.capacity - a.count >= b.count) &&
                  a.arena_capacity - a.text_bytes >= b.text_bytes;
  if (!plan.in_place) {
    plan.capacity = merge_capacity(plan.k, a.count, b.count);
    const uint64_t arena = std::min<uint64_t>(max_arena(plan.k), a.text_bytes + b.text_bytes);
    plan.size = working_bytes(plan.capacity, static_cast<uint32_t>(arena));
  }
  return plan;
}

// b's items are added to a's table as weighted adds, purging when it is
// full (see topk.h: each purge keeps the bounds), then N and Δ become the
// sums of both. The table has all 2k slots and text room for both inputs,
// so no add asks for anything.
void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan, uint8_t* dst) {
  uint8_t* out = a_buffer;
  if (!plan.in_place) {
    const uint64_t t = a.count > max_capacity(plan.k) ? purge_threshold(a, plan.k) : 0;
    write_working_shaped(a, plan.k, t, plan.capacity,
                         static_cast<uint32_t>(std::min<uint64_t>(max_arena(plan.k),
                                                                  a.text_bytes + b.text_bytes)),
                         dst);
    out = dst;
  }
  for (uint32_t i = 0; i < b.count; i++) {
    const Item item = item_at(b, i);
    if (item.count == 0) continue;
    // Always kDone: the table has a slot for every item of both or all 2k
    // slots (a full table purges in place), its arena holds a's and b's
    // texts together (or every slot at the longest text), and purges only
    // compact it.
    const AddOutcome outcome =
        raise_counter(out, item.hash, item.count, item.text, item.len, item.clipped);
    (void)outcome;
  }
  store_le64(out + kTotalOffset, a.total + b.total);
  store_le64(out + kErrorOffset, load_le64(out + kErrorOffset) + b.max_error);
}

}  // namespace sketch::topk
