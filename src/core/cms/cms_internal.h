// Byte layout and arithmetic shared by the cms_*.cpp files (not public).
//
// Both encodings, all integers little-endian:
//
//   0   8   common header: kind cms, version 1, hash identity,
//           param[0] = flags (bit 0: conservative update),
//           param[1] = encoding (1 stored, 2 working), byte 7 = element kind
//   8   4   width w
//   12  4   depth d
//   16  4   k, candidate capacity
//   20  4   n, candidates held
//   24  8   N, total weight
//
// stored:
//   32          8·d·w   counters, row-major (row i, column j at 32 + 8(i·w + j))
//   C = 32+8dw  12·n    records {u64 hash, u32 end | clipped << 31}: hashes
//                       strictly increasing; `end` is where the record's
//                       text ends, relative to T, so text i is
//                       [end(i-1), end(i)) and can be found in O(1)
//   T = C + 12n ...     the texts, concatenated in record order
//
// working:
//   32  4   arena capacity
//   36  4   arena used (texts are appended; evicted texts become garbage)
//   40  4   live bytes (sum of the current candidates' text lengths)
//   44  4   index capacity (a power of two >= 2k, 0 when k = 0)
//   48  4   reserved, 0: puts the counters at a multiple of 8 in memory when
//           the payload follows a 4-byte varlena header in a palloc'd block
//   52          8·d·w   counters, as above
//   E = 52+8dw  32·k    entries {u64 hash, u64 key, u32 text offset,
//                       u32 len | clipped << 31, u32 heap position, u32 0};
//                       entries 0..n-1 are in use
//   H = E+32k   4·k     min-heap of entry ids by (key ascending, hash
//                       descending): the root is the weakest candidate
//   I = H+4k    4·icap  index: entry id + 1 (0 = empty), linear probing from
//                       hash & (icap - 1)
//   A = I+4icap         arena: candidate texts at their entry's offset
#pragma once

#include <cstdint>

#include "core/common/bytes.h"
#include "core/common/item_table.h"
#include "core/common/select.h"
#include "core/cms/cms.h"

namespace sketch::cms::detail {

constexpr size_t kWidthOffset = kHeaderSize;
constexpr size_t kDepthOffset = kHeaderSize + 4;
constexpr size_t kCapacityOffset = kHeaderSize + 8;
constexpr size_t kCountOffset = kHeaderSize + 12;
constexpr size_t kTotalOffset = kHeaderSize + 16;
constexpr size_t kStoredCountersOffset = kHeaderSize + 24;

constexpr size_t kArenaCapacityOffset = 32;
constexpr size_t kArenaUsedOffset = 36;
constexpr size_t kLiveBytesOffset = 40;
constexpr size_t kIndexCapacityOffset = 44;
constexpr size_t kWorkingReservedOffset = 48;
constexpr size_t kWorkingCountersOffset = 52;

// Records and entries are the item table's (core/common/item_table.h): a
// record carries no payload, an entry keeps the heap key in the table's
// counter and adds its heap position.
constexpr size_t kRecordSize = 12;
constexpr size_t kEntrySize = 32;

// Fields of a working entry.
constexpr size_t kEntryHash = item_table::kEntryHash;
constexpr size_t kEntryKey = item_table::kEntryCounter;
constexpr size_t kEntryOffset = item_table::kEntryTextOffset;
constexpr size_t kEntryLength = item_table::kEntryTextLength;
constexpr size_t kEntryHeapPos = item_table::kEntryBytes;

constexpr uint8_t kFlagConservative = 1;
using item_table::kClippedBit;

inline uint8_t flags_of(const uint8_t* s) { return s[5]; }
inline Encoding encoding_of(const uint8_t* s) { return static_cast<Encoding>(s[6]); }

inline uint64_t saturating_add(uint64_t a, uint64_t b) {
  // a, b <= kMaxCount = 2^63 - 1, so a + b cannot wrap a uint64.
  const uint64_t sum = a + b;
  return sum > kMaxCount ? kMaxCount : sum;
}

inline uint64_t counters_bytes(uint32_t width, uint32_t depth) {
  return uint64_t{8} * width * depth;
}

// Smallest power of two >= 2k (at least 4), or 0 without candidates: load
// factor at most 1/2, so probes stay short.
inline uint32_t index_capacity_for(uint32_t candidates) {
  if (candidates == 0) return 0;
  if (candidates <= 2) return 4;
  return item_table::index_slots_for(candidates);
}

// The largest arena a working state ever needs: a merge may hold a's live
// texts and all of b's at once.
inline uint64_t max_arena_capacity(uint32_t candidates) {
  return uint64_t{2} * candidates * kMaxValueBytes;
}

// Row i's column for the hash halves h1, h2 (see cms.h).
inline uint32_t column(uint32_t h1, uint32_t h2, uint32_t i, uint32_t width) {
  const uint32_t g = h1 + i * h2;
  return static_cast<uint32_t>((uint64_t{g} * width) >> 32);
}

inline uint32_t hash_low(uint64_t hash) { return static_cast<uint32_t>(hash); }
inline uint32_t hash_high_odd(uint64_t hash) { return static_cast<uint32_t>(hash >> 32) | 1u; }

// min over rows of the value's counters.
inline uint64_t estimate_at(const uint8_t* counters, uint32_t width, uint32_t depth,
                            uint64_t hash) {
  const uint32_t h1 = hash_low(hash), h2 = hash_high_odd(hash);
  uint64_t best = kMaxCount;
  for (uint32_t i = 0; i < depth; i++) {
    const uint64_t c = load_le64(counters + 8 * (uint64_t{i} * width + column(h1, h2, i, width)));
    if (c < best) best = c;
  }
  return best;
}

// Offsets of the working areas.
struct WorkingLayout {
  size_t entries;
  size_t heap;
  size_t index;
  size_t arena;
};

inline WorkingLayout working_layout(uint32_t width, uint32_t depth, uint32_t candidates) {
  WorkingLayout l;
  l.entries = kWorkingCountersOffset + counters_bytes(width, depth);
  l.heap = l.entries + kEntrySize * size_t{candidates};
  l.index = l.heap + 4 * size_t{candidates};
  l.arena = l.index + 4 * size_t{index_capacity_for(candidates)};
  return l;
}

inline size_t stored_records_offset(uint32_t width, uint32_t depth) {
  return kStoredCountersOffset + counters_bytes(width, depth);
}

// The stored list of a stored view (its records, then its texts).
inline item_table::StoredList stored_list(const View& v) {
  return item_table::StoredList{v.data + stored_records_offset(v.params.width, v.params.depth),
                                v.count, kRecordSize, v.value_bytes, kMaxValueBytes};
}

inline const uint8_t* counters_of(const View& v) {
  return v.data + (v.encoding == Encoding::kStored ? kStoredCountersOffset
                                                   : kWorkingCountersOffset);
}

void write_cms_header(uint8_t* dst, uint8_t flags, Encoding encoding, ElementKind kind);

// --- the per-row add (cms::add), inline in the aggregates' transition ---

// Plain update: every one of the value's d counters rises by count.
// Returns the new estimate, the smallest of them.
inline uint64_t count_plain(uint8_t* s, uint32_t width, uint32_t depth, uint64_t hash,
                            uint64_t count) {
  uint8_t* counters = s + kWorkingCountersOffset;
  const uint32_t h1 = hash_low(hash), h2 = hash_high_odd(hash);
  uint64_t est = kMaxCount;
  for (uint32_t i = 0; i < depth; i++) {
    uint8_t* c = counters + 8 * (uint64_t{i} * width + column(h1, h2, i, width));
    const uint64_t v = saturating_add(load_le64(c), count);
    store_le64(c, v);
    est = v < est ? v : est;
  }
  return est;
}

// Conservative update, out of line: its per-row arrays would give the
// plain path a large stack frame (and a stack-protector check) too.
__attribute__((noinline)) uint64_t count_conservative(uint8_t* s, uint32_t width,
                                                      uint32_t depth, uint64_t hash,
                                                      uint64_t count);

// The candidate-list part of add() for a value whose new estimate `est`
// may make or keep it a candidate (cms_working.cpp).
AddOutcome update_candidates(uint8_t* s, uint64_t hash, uint64_t est);

__attribute__((always_inline)) inline AddOutcome add_inline(uint8_t* s, uint64_t hash, uint64_t count, uint64_t* estimate) {
  const uint32_t width = load_le32(s + kWidthOffset);
  const uint32_t depth = load_le32(s + kDepthOffset);
  const uint64_t est = (flags_of(s) & kFlagConservative) == 0
                           ? count_plain(s, width, depth, hash, count)
                           : count_conservative(s, width, depth, hash, count);
  store_le64(s + kTotalOffset, saturating_add(load_le64(s + kTotalOffset), count));
  *estimate = est;

  const uint32_t k = load_le32(s + kCapacityOffset);
  if (k == 0) return AddOutcome::kDone;
  // A candidate's estimate just rose by count >= 1 above its key, which is
  // >= the root's key; so a value at or below the root's key is not a
  // candidate and cannot enter: no lookup needed. This is most rows, so the
  // root's key is read straight from the layout.
  const size_t entries = kWorkingCountersOffset + counters_bytes(width, depth);
  if (load_le32(s + kCountOffset) == k) {
    const uint32_t root = load_le32(s + entries + kEntrySize * size_t{k});
    if (est <= load_le64(s + entries + kEntrySize * size_t{root} + kEntryKey))
      return AddOutcome::kDone;
  }
  // Of the rows that get here, most are candidates already (the top 100
  // values of a skewed input are a third of its rows), and a candidate's
  // key is left stale (see update_candidates): one look at the value's home
  // slot of the index settles them, inline. The index capacity was checked
  // against k when the state was taken (is_working_state).
  const size_t index = entries + (kEntrySize + 4) * size_t{k};
  const uint32_t mask = load_le32(s + kIndexCapacityOffset) - 1;
  const uint32_t slot = load_le32(s + index + 4 * size_t{static_cast<uint32_t>(hash) & mask});
  if (slot - 1 < k && load_le64(s + entries + kEntrySize * size_t{slot - 1} + kEntryHash) == hash)
    return AddOutcome::kDone;
  return update_candidates(s, hash, est);
}

}  // namespace sketch::cms::detail

namespace sketch::cms {

inline Params params_of(const uint8_t* s) {
  using namespace detail;
  return Params{load_le32(s + kWidthOffset), load_le32(s + kDepthOffset),
                load_le32(s + kCapacityOffset), (flags_of(s) & kFlagConservative) != 0};
}

}  // namespace sketch::cms
