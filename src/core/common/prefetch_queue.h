// A queue of hashes whose memory has been prefetched but not yet touched.
//
// Why: in a filter much larger than the CPU caches every add misses the
// cache at each of its positions, and a loop that waits for each miss in
// turn runs at memory latency. An add that instead asks for its cache lines
// (a prefetch), parks the hash here and applies the hash that was parked
// kSlots adds ago overlaps kSlots misses: by the time a hash is applied its
// lines have arrived. bloom, counting_bloom and cuckoo keep this queue in
// the working forms of their aggregate states, right after their layout.
//
// Layout (kBytes, inside a working state that never leaves an aggregate, so
// in native byte order):
//
//   byte 0-3    count, the hashes queued (0..kSlots)
//   byte 4-7    head, the slot of the oldest (0..kSlots-1)
//   byte 8-     kSlots slots of one Hash128 (16 bytes) each; the queued
//               hashes are slots head, head+1, ... (mod kSlots)
//
// The family prefetches; the queue only orders the hashes. Everything here
// is inline: push runs once per row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/common/hash.h"

namespace sketch::prefetch_queue {

constexpr uint32_t kSlots = 16;
constexpr size_t kBytes = 8 + 16 * size_t{kSlots};

namespace detail {
inline uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline void store_u32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
inline Hash128 slot(const uint8_t* queue, uint32_t i) {
  Hash128 h;
  std::memcpy(&h, queue + 8 + 16 * size_t{i}, 16);
  return h;
}
inline void set_slot(uint8_t* queue, uint32_t i, Hash128 h) {
  std::memcpy(queue + 8 + 16 * size_t{i}, &h, 16);
}
}  // namespace detail

// An empty queue.
inline void clear(uint8_t* queue) { std::memset(queue, 0, kBytes); }

// Hashes queued (trusted queue: one that parse accepted).
inline uint32_t count(const uint8_t* queue) { return detail::load_u32(queue); }

// Whether the count and head of untrusted bytes stay inside the slots, and
// if so the count in *pending. Every slot value is a valid hash.
inline bool parse(const uint8_t* queue, uint32_t* pending) {
  const uint32_t n = detail::load_u32(queue);
  const uint32_t head = detail::load_u32(queue + 4);
  if (n > kSlots || head >= kSlots) return false;
  *pending = n;
  return true;
}

// Queues `hash`, whose lines the caller has just prefetched. When the queue
// is full the oldest hash is handed to apply(Hash128) first and its slot
// takes the new one. apply returns false when it could not take the hash
// (changing nothing, e.g. a cuckoo filter that must grow first): then the
// queue is left as it was and push returns false.
template <class Apply>
inline bool push(uint8_t* queue, Hash128 hash, Apply&& apply) {
  const uint32_t n = detail::load_u32(queue);
  const uint32_t head = detail::load_u32(queue + 4);
  if (n < kSlots) {
    detail::set_slot(queue, (head + n) % kSlots, hash);
    detail::store_u32(queue, n + 1);
    return true;
  }
  if (!apply(detail::slot(queue, head))) return false;
  detail::set_slot(queue, head, hash);
  detail::store_u32(queue + 4, (head + 1) % kSlots);
  return true;
}

// Calls f(Hash128) for each queued hash, oldest first, leaving the queue
// as it is (to write a stored copy of a state that goes on).
template <class F>
inline void for_each(const uint8_t* queue, F&& f) {
  const uint32_t n = detail::load_u32(queue);
  const uint32_t head = detail::load_u32(queue + 4);
  for (uint32_t i = 0; i < n; i++) f(detail::slot(queue, (head + i) % kSlots));
}

// Hands the queued hashes to apply(Hash128), oldest first, dequeuing each
// one it takes. Stops at the first it refuses (that one and those after it
// stay queued) and returns false; true once the queue is empty.
template <class Apply>
inline bool drain(uint8_t* queue, Apply&& apply) {
  uint32_t n = detail::load_u32(queue);
  uint32_t head = detail::load_u32(queue + 4);
  while (n > 0) {
    if (!apply(detail::slot(queue, head))) return false;
    head = (head + 1) % kSlots;
    n--;
    detail::store_u32(queue, n);
    detail::store_u32(queue + 4, head);
  }
  return true;
}

}  // namespace sketch::prefetch_queue
