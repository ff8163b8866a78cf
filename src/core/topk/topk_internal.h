// Byte layout and helpers shared by the topk_*.cpp files (not public).
//
// Both encodings, all integers little-endian:
//
//   0   8   common header: kind topk, version 1, hash identity,
//           param[0] = 0, param[1] = encoding (1 stored, 2 working),
//           byte 7 = element kind
//   8   4   k
//   12  4   n, items held
//   16  8   N, total weight
//   24  8   Δ, maximum error
//
// stored:
//   32          20·n   records {u64 hash, u64 c, u32 end | clipped << 31}:
//                      hashes strictly increasing (equal summaries have
//                      equal bytes; the best-first order is computed by the
//                      reader); `end` is where the record's text ends,
//                      relative to T, so text i is [end(i-1), end(i))
//   T = 32 + 20n ...   the texts, concatenated in record order
//
// working:
//   32  4   capacity, entry slots (1..2k)
//   36  4   arena capacity
//   40  4   arena used
//   44  4   reserved, 0
//   48          24·capacity   entries {u64 hash, u64 c, u32 text offset,
//                             u32 len | clipped << 31}; entries 0..n-1 are in
//                             use, in insertion order, and their texts lie
//                             in the arena in the same order without gaps
//                             (a purge compacts both), so compaction never
//                             needs scratch memory
//   I = 48 + 24·capacity      index: 4·icap bytes, linear probing from
//                             hash & (icap - 1), icap the smallest power of
//                             two >= 2·capacity; a slot is 0 (empty) or
//                             entry id + 1 in its low 18 bits and the top 14
//                             bits of the entry's hash above them, so that a
//                             probe past other items rarely reads their
//                             entries
//   A = I + 4·icap            arena
#pragma once

#include <cstdint>

#include "core/common/bytes.h"
#include "core/common/select.h"
#include "core/common/element_kind.h"
#include "core/common/item_table.h"
#include "core/topk/topk.h"

namespace sketch::topk::detail {

constexpr size_t kKOffset = 8;
constexpr size_t kCountOffset = 12;
constexpr size_t kTotalOffset = 16;
constexpr size_t kErrorOffset = 24;
constexpr size_t kFixedBytes = 32;

constexpr size_t kStoredRecordsOffset = 32;
constexpr size_t kRecordSize = 20;

constexpr size_t kCapacityOffset = 32;
constexpr size_t kArenaCapacityOffset = 36;
constexpr size_t kArenaUsedOffset = 40;
constexpr size_t kReservedOffset = 44;
constexpr size_t kEntriesOffset = 48;
// Entries and records are the item table's (core/common/item_table.h): an
// entry is its 24 bytes and nothing more, a record carries c as payload.
constexpr size_t kEntrySize = item_table::kEntryBytes;

using item_table::kClippedBit;

// A new state's entry slots and text bytes per slot.
constexpr uint32_t kInitialCapacity = 16;
constexpr uint32_t kInitialTextPerEntry = 16;

inline Encoding encoding_of(const uint8_t* s) { return static_cast<Encoding>(s[6]); }

inline uint32_t max_capacity(uint32_t k) { return 2 * k; }

// The largest arena a working state needs: every slot holding a full text.
inline uint64_t max_arena(uint32_t k) { return uint64_t{max_capacity(k)} * kMaxItemBytes; }

// Index slots (see the layout above): ids up to 2·kMaxK = 2^17 need 18 bits.
constexpr uint32_t kSlotIdBits = 18;
constexpr uint32_t kSlotIdMask = (uint32_t{1} << kSlotIdBits) - 1;
static_assert(2 * kMaxK <= kSlotIdMask, "entry ids must fit a slot");

inline uint32_t slot_tag(uint64_t hash) {
  return static_cast<uint32_t>(hash >> (64 - (32 - kSlotIdBits))) << kSlotIdBits;
}

// Puts entry `id` (0-based) of an item with `hash` into the first free slot
// of its probe sequence.
inline void index_insert(uint8_t* index, uint32_t mask, uint64_t hash, uint32_t id) {
  uint32_t slot = static_cast<uint32_t>(hash) & mask;
  while (load_le32(index + 4 * size_t{slot}) != 0) slot = (slot + 1) & mask;
  store_le32(index + 4 * size_t{slot}, (id + 1) | slot_tag(hash));
}

// Smallest power of two >= 2·capacity: load factor at most 1/2.
inline uint32_t index_capacity_for(uint32_t capacity) {
  return item_table::index_slots_for(capacity);
}

inline size_t index_offset(uint32_t capacity) {
  return kEntriesOffset + kEntrySize * size_t{capacity};
}

inline size_t arena_offset(uint32_t capacity) {
  return index_offset(capacity) + 4 * size_t{index_capacity_for(capacity)};
}

inline size_t working_bytes(uint32_t capacity, uint32_t arena_capacity) {
  return arena_offset(capacity) + arena_capacity;
}

// Fields of a working entry.
inline uint8_t* entry_at(uint8_t* s, uint32_t i) { return s + kEntriesOffset + kEntrySize * size_t{i}; }
inline const uint8_t* entry_at(const uint8_t* s, uint32_t i) {
  return s + kEntriesOffset + kEntrySize * size_t{i};
}
using item_table::entry_clipped;
using item_table::entry_hash;
inline uint64_t entry_count(const uint8_t* e) { return item_table::entry_counter(e); }
inline uint32_t entry_offset(const uint8_t* e) { return item_table::entry_text_offset(e); }
inline uint32_t entry_len(const uint8_t* e) { return item_table::entry_text_len(e); }

inline const uint8_t* record_at(const uint8_t* s, uint32_t i) {
  return s + kStoredRecordsOffset + kRecordSize * size_t{i};
}

// The stored list of a stored view (its records, then its texts).
inline item_table::StoredList stored_list(const View& v) {
  return item_table::StoredList{v.data + kStoredRecordsOffset, v.count, kRecordSize,
                                v.text_bytes, kMaxItemBytes};
}

void write_topk_header(uint8_t* dst, Encoding encoding, ElementKind kind);

// The purge threshold of a view holding more than k items: the (k+1)-th
// largest counter, 0 when it holds k or fewer.
uint64_t purge_threshold(const View& v, uint32_t k);

// A working state's fixed fields, zeroed entries, index and arena.
void write_working_fixed(uint8_t* dst, uint32_t k, uint32_t capacity, uint32_t arena_capacity,
                         ElementKind kind);

// A working copy of v at k with the given slots and arena (enough for the
// items above t), every counter lowered by the purge threshold t (0: none).
void write_working_shaped(const View& v, uint32_t k, uint64_t t, uint32_t capacity,
                          uint32_t arena_capacity, uint8_t* dst);

// Sum of the counters of a view.
uint64_t counter_sum(const View& v);

// Item i of a view in its own order (stored: by hash; working: insertion).
Item item_at(const View& v, uint32_t i);

}  // namespace sketch::topk::detail
