// The item table: how a sketch that lists items by value (cms's
// heavy-hitter candidates, topk's items) keeps each item's hash, one 64-bit
// counter and its text (item_text.h), in both of its encodings. The two
// families differ in what surrounds the table (cms: counters, a heap;
// topk: purges, Δ) and in their index; the table itself is one layout and
// one piece of code, so that a fix to how texts are laid out, clamped or
// sorted lands in both.
//
// Stored list (persisted: the golden files pin these bytes):
//
//   records   count × stride bytes, hashes strictly increasing:
//               0          u64 hash
//               8 ...      the family's payload (topk: u64 counter; cms: none)
//               stride-4   u32 end | clipped << 31: where the item's text
//                          ends, relative to the texts, so text i is
//                          [end(i-1), end(i)), found in O(1)
//   texts     the texts, concatenated in record order
//
// Working entry (an aggregate's state only; entry slots of `stride` bytes,
// the family may keep more fields after the first 24):
//
//   0   u64 hash
//   8   u64 counter (cms: the heap key; topk: c)
//   16  u32 text offset in the family's arena
//   20  u32 len | clipped << 31
//
// Everything here is inline: the per-row path of topk_agg and cms_agg reads
// and writes entries through it, and allocates nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/common/bytes.h"
#include "core/common/select.h"

namespace sketch::item_table {

constexpr uint32_t kClippedBit = 0x80000000u;

// One item as a reader sees it: `text` points into the sketch.
struct ItemRef {
  uint64_t hash;
  const uint8_t* text;
  uint32_t len;
  bool clipped;
};

// --- working entries ---------------------------------------------------------

constexpr size_t kEntryHash = 0;
constexpr size_t kEntryCounter = 8;
constexpr size_t kEntryTextOffset = 16;
constexpr size_t kEntryTextLength = 20;
constexpr size_t kEntryBytes = 24;  // the table's fields; a family's stride may be larger

inline uint64_t entry_hash(const uint8_t* e) { return load_le64(e + kEntryHash); }
inline uint64_t entry_counter(const uint8_t* e) { return load_le64(e + kEntryCounter); }
inline void set_entry_counter(uint8_t* e, uint64_t c) { store_le64(e + kEntryCounter, c); }
inline uint32_t entry_text_offset(const uint8_t* e) { return load_le32(e + kEntryTextOffset); }
inline void set_entry_text_offset(uint8_t* e, uint32_t offset) {
  store_le32(e + kEntryTextOffset, offset);
}
inline uint32_t entry_text_len(const uint8_t* e) {
  return load_le32(e + kEntryTextLength) & ~kClippedBit;
}
inline bool entry_clipped(const uint8_t* e) {
  return (load_le32(e + kEntryTextLength) & kClippedBit) != 0;
}

inline void write_entry(uint8_t* e, uint64_t hash, uint64_t counter, uint32_t text_offset,
                        uint32_t len, bool clipped) {
  store_le64(e + kEntryHash, hash);
  store_le64(e + kEntryCounter, counter);
  store_le32(e + kEntryTextOffset, text_offset);
  store_le32(e + kEntryTextLength, len | (clipped ? kClippedBit : 0));
}

// An entry's item, its text in `arena`.
inline ItemRef entry_item(const uint8_t* e, const uint8_t* arena) {
  return ItemRef{entry_hash(e), arena + entry_text_offset(e), entry_text_len(e),
                 entry_clipped(e)};
}

// Appends an item's text at `*used` of the arena and writes its entry there.
inline void append_entry(uint8_t* e, uint8_t* arena, uint32_t* used, uint64_t hash,
                         uint64_t counter, const uint8_t* text, uint32_t len, bool clipped) {
  std::memcpy(arena + *used, text, len);
  write_entry(e, hash, counter, *used, len, clipped);
  *used += len;
}

// Index slots an item table of n entries probes: the smallest power of two
// >= 2n (n >= 1), so the load factor stays at most 1/2 and probes short.
inline uint32_t index_slots_for(uint32_t n) {
  return uint32_t{1} << (32 - __builtin_clz(2 * n - 1));
}

// --- the stored list -------------------------------------------------------

// A stored list inside a parsed sketch. `max_len` is the family's text
// limit: a list parsed without its full check (kStructure) is read clamped
// to its texts and to that limit, never past them.
struct StoredList {
  const uint8_t* records;
  uint32_t count;
  uint32_t stride;
  uint64_t text_bytes;
  uint32_t max_len;

  const uint8_t* record(uint32_t i) const { return records + size_t{stride} * i; }
  const uint8_t* texts() const { return records + size_t{stride} * count; }
  uint32_t end_word(uint32_t i) const { return load_le32(record(i) + stride - 4); }
  uint32_t end(uint32_t i) const { return end_word(i) & ~kClippedBit; }
};

inline ItemRef stored_item(const StoredList& l, uint32_t i) {
  const uint32_t word = l.end_word(i);
  const uint64_t previous = i == 0 ? 0 : l.end(i - 1);
  const uint64_t begin = std::min(previous, l.text_bytes);
  const uint64_t end = std::min({uint64_t{word & ~kClippedBit}, l.text_bytes,
                                 begin + l.max_len});
  return ItemRef{load_le64(l.record(i)), l.texts() + begin,
                 static_cast<uint32_t>(end > begin ? end - begin : 0),
                 (word & kClippedBit) != 0};
}

// The record index of the item with this hash (binary search: the hashes
// are strictly increasing), or false.
inline bool find_stored(const StoredList& l, uint64_t hash, uint32_t* index) {
  uint32_t lo = 0, hi = l.count;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    const uint64_t h = load_le64(l.record(mid));
    if (h == hash) {
      *index = mid;
      return true;
    }
    if (h < hash) lo = mid + 1; else hi = mid;
  }
  return false;
}

// Writes a stored list in two steps, without scratch memory: the caller
// writes each record's hash and payload with the id of its source item in
// the end word (begin_record), then finish() sorts the records by hash in
// place and lays the texts out in that order, `text_of(id)` giving each
// source item's text, and turns the ids into end words.
inline uint8_t* begin_record(uint8_t* records, uint32_t stride, uint32_t i, uint64_t hash,
                             uint32_t source_id) {
  uint8_t* r = records + size_t{stride} * i;
  store_le64(r, hash);
  store_le32(r + stride - 4, source_id);
  return r;
}

template <class TextOf>
void finish_stored(uint8_t* records, uint32_t count, uint32_t stride, bool sorted,
                   TextOf&& text_of) {
  auto at = [&](uint32_t i) { return records + size_t{stride} * i; };
  if (!sorted) {
    // Swapped a word at a time: strides are multiples of 4 (12, 20).
    heap_sort(
        count, [&](uint32_t a, uint32_t b) { return load_le64(at(a)) < load_le64(at(b)); },
        [&](uint32_t a, uint32_t b) {
          uint8_t* ra = at(a);
          uint8_t* rb = at(b);
          for (uint32_t j = 0; j < stride; j += 4) {
            uint32_t t;
            std::memcpy(&t, ra + j, 4);
            std::memcpy(ra + j, rb + j, 4);
            std::memcpy(rb + j, &t, 4);
          }
        });
  }
  uint8_t* texts = records + size_t{stride} * count;
  uint32_t end = 0;
  for (uint32_t i = 0; i < count; i++) {
    uint8_t* end_field = at(i) + stride - 4;
    const ItemRef item = text_of(load_le32(end_field));
    std::memcpy(texts + end, item.text, item.len);
    end += item.len;
    store_le32(end_field, end | (item.clipped ? kClippedBit : 0));
  }
}

}  // namespace sketch::item_table
