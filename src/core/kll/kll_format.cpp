// The kll encodings (kll.h): parse, and the stored and working writers.
#include <cstring>

#include "core/common/header.h"
#include "core/kll/kll_internal.h"

namespace sketch::kll {

using detail::items_offset;
using detail::kWorkingLevelSlots;
using detail::Mut;
using detail::sketch_size;

uint32_t View::offset(uint32_t h) const { return load_le32(offsets + 4 * size_t{h}); }
uint64_t View::item(uint32_t i) const { return load_le64(items + 8 * size_t{i}); }

namespace detail {

void write_fields(uint8_t* dst, Encoding encoding, ElementKind kind, uint32_t k, uint32_t levels,
                  uint32_t slots, uint32_t capacity, uint64_t n, uint64_t min_key,
                  uint64_t max_key) {
  std::memset(dst, 0, items_offset(slots));
  write_header(dst, Header{SketchKind::kKll, kFormatVersion, kHashIdentity,
                           {0, static_cast<uint8_t>(encoding)}},
               kind);
  dst[kKOffset] = static_cast<uint8_t>(k);
  dst[kKOffset + 1] = static_cast<uint8_t>(k >> 8);
  dst[kLevelsOffset] = static_cast<uint8_t>(levels);
  dst[kLevelSlotsOffset] = static_cast<uint8_t>(slots);
  store_le32(dst + kCapacityOffset, capacity);
  store_le64(dst + kNOffset, n);
  store_le64(dst + kMinOffset, min_key);
  store_le64(dst + kMaxOffset, max_key);
  store_le32(dst + kFullAtOffset, total_capacity(k, levels));
  for (uint32_t h = 0; h < slots; ++h) store_le32(dst + kOffsetsOffset + 4 * size_t{h}, capacity);
}

}  // namespace detail

size_t empty_size(Encoding encoding, uint32_t k) {
  return encoding == Encoding::kStored ? sketch_size(2, 0)
                                       : sketch_size(kWorkingLevelSlots, total_capacity(k, 1));
}

void write_empty(uint8_t* dst, uint32_t k, Encoding encoding) {
  if (encoding == Encoding::kStored)
    detail::write_fields(dst, encoding, ElementKind::kNone, k, 1, 2, 0, 0, 0, 0);
  else
    detail::write_fields(dst, encoding, ElementKind::kNone, k, 1, kWorkingLevelSlots,
                         total_capacity(k, 1), 0, 0, 0);
}

namespace {

Status bad(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid kll sketch: %s", what);
}

// What any reader of v relies on: the layout within the buffer.
const char* layout_problem(const uint8_t* data, size_t len, View* v) {
  if (len < kFixedSize) return "truncated";
  v->k = data[detail::kKOffset] | uint32_t{data[detail::kKOffset + 1]} << 8;
  v->levels = data[detail::kLevelsOffset];
  v->level_slots = data[detail::kLevelSlotsOffset];
  v->capacity = load_le32(data + detail::kCapacityOffset);
  v->n = load_le64(data + detail::kNOffset);
  v->min_key = load_le64(data + detail::kMinOffset);
  v->max_key = load_le64(data + detail::kMaxOffset);
  v->full_at = load_le32(data + detail::kFullAtOffset);
  if (v->k < kMinK || v->k > kMaxK) return "k out of range";
  if (v->levels < 1 || v->levels > kMaxLevels) return "level count out of range";
  if (v->level_slots < v->levels + 1 || v->level_slots > kWorkingLevelSlots)
    return "level array of the wrong size";
  if (load_le32(data + 44) != 0) return "reserved bytes are not zero";
  if (v->full_at != total_capacity(v->k, v->levels)) return "capacity total does not match k";
  if (len != sketch_size(v->level_slots, v->capacity)) return "length does not match capacity";
  v->offsets = data + detail::kOffsetsOffset;
  v->items = data + items_offset(v->level_slots);
  for (size_t i = detail::kOffsetsOffset + 4 * size_t{v->level_slots}; i < items_offset(v->level_slots);
       ++i)
    if (data[i] != 0) return "padding is not zero";
  uint32_t previous = 0;
  for (uint32_t h = 0; h < v->level_slots; ++h) {
    const uint32_t off = v->offset(h);
    if (off < previous || off > v->capacity) return "level offsets out of order";
    if (h >= v->levels && off != v->capacity) return "unused level offsets are not the end";
    previous = off;
  }
  if (v->retained() > v->full_at) return "more items than the levels hold";
  return nullptr;
}

// The invariants the queries rely on (every stored sketch is checked).
const char* content_problem(const View& v, bool stored) {
  if (v.n == 0) {
    if (v.kind != ElementKind::kNone) return "an empty sketch records an element kind";
    if (v.retained() != 0 || v.levels != 1 || v.min_key != 0 || v.max_key != 0)
      return "an empty sketch holds items";
    return nullptr;
  }
  if (v.kind == ElementKind::kNone) return "a non-empty sketch without element kind";
  if (v.min_key > v.max_key) return "min above max";
  const bool is_float = is_float_kind(v.kind);
  if (is_float && (is_nan_key(v.min_key) || is_nan_key(v.max_key))) return "NaN bound";
  if (is_float && (v.min_key == kNegativeZeroKey || v.max_key == kNegativeZeroKey))
    return "-0.0 bound";
  if (v.retained() == 0) return "no items kept";
  if (stored && v.levels > 1 && v.offset(v.levels - 1) == v.offset(v.levels))
    return "the top level is empty";
  unsigned __int128 weight = 0;
  for (uint32_t h = 0; h < v.levels; ++h) {
    const uint32_t beg = v.offset(h), end = v.offset(h + 1);
    weight += static_cast<unsigned __int128>(end - beg) << h;
    for (uint32_t i = beg; i < end; ++i) {
      const uint64_t key = v.item(i);
      if (key < v.min_key || key > v.max_key) return "an item outside [min, max]";
      if (is_float && key == kNegativeZeroKey) return "a -0.0 item";
      if (stored && i > beg && v.item(i - 1) > key) return "a level out of order";
    }
  }
  if (weight != v.n) return "item weights do not add up to n";
  return nullptr;
}

// An add writes before level 0 and compacts once the items reach full_at,
// so a working state needs more slots than that.
bool working_shape_ok(const View& v) {
  return v.level_slots == kWorkingLevelSlots && v.capacity >= v.full_at;
}

}  // namespace

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  Header header;
  Status st = read_header(data, len, SketchKind::kKll, kFormatVersion, &header);
  if (!st.is_ok()) return st;
  View v;
  v.data = data;
  v.size = len;
  v.encoding = static_cast<Encoding>(header.param[1]);
  const uint8_t kind_byte = element_kind_byte(data);
  v.kind = static_cast<ElementKind>(kind_byte);
  if (header.param[0] != 0) return bad("parameter byte is not zero");
  if (!valid_element_kind(kind_byte) || !valid_kind(v.kind)) return bad("unknown element kind");
  const bool working = v.encoding == Encoding::kWorking;
  if (!(v.encoding == Encoding::kStored || (working && validation == Validation::kStructure)))
    return bad("unknown encoding");
  if (const char* problem = layout_problem(data, len, &v)) return bad(problem);
  if (working && !working_shape_ok(v)) return bad("a working state without room");
  if (!working) {
    if (v.offset(0) != 0) return bad("free slots in a stored sketch");
    if (v.level_slots != v.levels + 1) return bad("level array of the wrong size");
    if (validation == Validation::kCanonical) {
      if (const char* problem = content_problem(v, true)) return bad(problem);
    }
  }
  *out = v;
  return Status::ok();
}

// Run on every row, so O(L) and no more: what add and a compaction touch
// (the offsets of levels 0..L, the free slots, the capacity against
// full_at). full_at's value, the padding and the entries past L are checked
// by parse; an add that opens a level writes that level's offsets itself.
bool is_working(const uint8_t* data, size_t len) {
  if (!is_current_header(data, len, SketchKind::kKll, kFormatVersion) ||
      static_cast<Encoding>(data[6]) != Encoding::kWorking || data[5] != 0 ||
      !valid_kind(static_cast<ElementKind>(data[kElementKindOffset])) ||
      data[detail::kLevelSlotsOffset] != kWorkingLevelSlots || len < kFixedSize)
    return false;
  const Mut s{const_cast<uint8_t*>(data)};
  const uint32_t levels = s.levels(), capacity = s.capacity();
  if (levels < 1 || levels > kMaxLevels || s.k() < kMinK || capacity < s.full_at() ||
      len != sketch_size(kWorkingLevelSlots, capacity))
    return false;
  uint32_t previous = 0;
  for (uint32_t h = 0; h <= levels; ++h) {
    const uint32_t off = s.off(h);
    if (off < previous) return false;
    previous = off;
  }
  return previous == capacity;
}

size_t stored_size(const View& v) { return sketch_size(v.levels + 1, v.retained()); }

// Level 0 sorted: the stored form does not depend on the order of the rows
// since the last compaction (a compaction sorts level 0 anyway).
void write_stored(const View& v, uint8_t* dst) {
  const uint32_t retained = v.retained(), first = v.offset(0);
  detail::write_fields(dst, Encoding::kStored, v.kind, v.k, v.levels, v.levels + 1, retained, v.n,
                       v.min_key, v.max_key);
  Mut s{dst};
  for (uint32_t h = 0; h <= v.levels; ++h) s.set_off(h, v.offset(h) - first);
  std::memcpy(s.items(), v.items + 8 * size_t{first}, 8 * size_t{retained});
  detail::sort_keys(s.items(), v.offset(1) - first);
}

size_t working_size_for(uint32_t k, uint32_t levels) {
  return sketch_size(kWorkingLevelSlots, total_capacity(k, levels));
}

void write_working_levels(const View& v, uint32_t levels, uint8_t* dst) {
  uint32_t capacity = total_capacity(v.k, levels);
  if (capacity < v.retained()) capacity = v.retained();
  detail::write_fields(dst, Encoding::kWorking, v.kind, v.k, v.levels, kWorkingLevelSlots,
                       capacity, v.n, v.min_key, v.max_key);
  Mut s{dst};
  // The items at the end, the free slots before them.
  const uint32_t base = capacity - v.retained(), first = v.offset(0);
  for (uint32_t h = 0; h <= v.levels; ++h) s.set_off(h, v.offset(h) - first + base);
  std::memcpy(s.items() + 8 * size_t{base}, v.items + 8 * size_t{first}, 8 * size_t{v.retained()});
}

size_t working_size(const View& v) {
  return sketch_size(kWorkingLevelSlots, total_capacity(v.k, v.levels) > v.retained()
                                             ? total_capacity(v.k, v.levels)
                                             : v.retained());
}

void write_working(const View& v, uint8_t* dst) { write_working_levels(v, v.levels, dst); }

}  // namespace sketch::kll
