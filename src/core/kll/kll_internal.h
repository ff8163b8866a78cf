// The byte layout of a kll (kll.h) and the in-place operations its add and
// merge share. Internal to src/core/kll.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/bytes.h"
#include "core/kll/kll.h"

namespace sketch::kll::detail {

constexpr size_t kKOffset = 8;
constexpr size_t kLevelsOffset = 10;
constexpr size_t kLevelSlotsOffset = 11;
constexpr size_t kCapacityOffset = 12;
constexpr size_t kNOffset = 16;
constexpr size_t kMinOffset = 24;
constexpr size_t kMaxOffset = 32;
constexpr size_t kFullAtOffset = 40;
constexpr size_t kOffsetsOffset = kFixedSize;
constexpr uint32_t kWorkingLevelSlots = kMaxLevels + 1;

// Where the items start for a level array of `slots` entries.
constexpr size_t items_offset(uint32_t slots) {
  return (kOffsetsOffset + size_t{slots} * 4 + 7) & ~size_t{7};
}
constexpr size_t sketch_size(uint32_t slots, uint32_t capacity) {
  return items_offset(slots) + size_t{capacity} * 8;
}

// A mutable look at a working state's fields (the offsets of kll.h).
struct Mut {
  uint8_t* p;

  uint32_t k() const { return p[kKOffset] | uint32_t{p[kKOffset + 1]} << 8; }
  uint32_t levels() const { return p[kLevelsOffset]; }
  void set_levels(uint32_t l) { p[kLevelsOffset] = static_cast<uint8_t>(l); }
  uint32_t slots() const { return p[kLevelSlotsOffset]; }
  uint32_t capacity() const { return load_le32(p + kCapacityOffset); }
  uint64_t n() const { return load_le64(p + kNOffset); }
  void set_n(uint64_t n) { store_le64(p + kNOffset, n); }
  uint64_t min_key() const { return load_le64(p + kMinOffset); }
  uint64_t max_key() const { return load_le64(p + kMaxOffset); }
  void set_min(uint64_t v) { store_le64(p + kMinOffset, v); }
  void set_max(uint64_t v) { store_le64(p + kMaxOffset, v); }
  uint32_t full_at() const { return load_le32(p + kFullAtOffset); }
  void set_full_at(uint32_t v) { store_le32(p + kFullAtOffset, v); }
  uint32_t off(uint32_t h) const { return load_le32(p + kOffsetsOffset + 4 * size_t{h}); }
  void set_off(uint32_t h, uint32_t v) { store_le32(p + kOffsetsOffset + 4 * size_t{h}, v); }
  uint8_t* items() const { return p + items_offset(slots()); }
  uint64_t item(uint32_t i) const { return load_le64(items() + 8 * size_t{i}); }
  void set_item(uint32_t i, uint64_t v) { store_le64(items() + 8 * size_t{i}, v); }
};

// Writes the fixed fields and a level array of `slots` entries all equal to
// `capacity` (every level empty); the caller fills items and offsets.
void write_fields(uint8_t* dst, Encoding encoding, ElementKind kind, uint32_t k, uint32_t levels,
                  uint32_t slots, uint32_t capacity, uint64_t n, uint64_t min_key,
                  uint64_t max_key);

// The coin of a compaction: which half of the pairs moves up, from the
// sketch's own n and the level (never a clock or a session's seed).
bool compaction_coin(uint64_t n, uint32_t h);

// Compacts level h (< levels - 1) in place: sorted (level 0), the smallest
// item kept when its count is odd, every second of the rest merged into
// level h + 1, the slots freed added to the free space before level 0.
void compact_level(Mut s, uint32_t h);

// The lowest level at or over its capacity (one exists when the items reach
// full_at).
uint32_t level_to_compact(Mut s);

// One compaction of a full state, with a new top level first when the top
// is the one to compact. False (nothing changed) when that level would not
// fit the state's capacity: *needed_levels is then levels + 1.
bool compress_once(Mut s, uint32_t* needed_levels);

// Sorting and merging 8-byte keys in unaligned buffers.
void sort_keys(uint8_t* keys, uint32_t count);
// Merges sorted a[0..na) and b[0..nb) into dst[0..na+nb); dst may overlap
// a or b only where compact_level's in-place merge puts it (dst ahead of
// neither run's unread part).
void merge_keys(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb, uint8_t* dst);

}  // namespace sketch::kll::detail
