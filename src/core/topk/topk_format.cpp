// topk encodings: parsing with validation, sizes, the stored (canonical)
// form and working copies.

#include <algorithm>
#include <cstring>

#include "core/topk/topk_internal.h"

namespace sketch::topk {

using namespace detail;

namespace {

Status invalid(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid topk data: %s", what);
}

// The invariant every summary keeps: Σ c + Δ <= N. Adds raise Σ c and N
// alike, merges add all three, a purge lowers Σ c by at least (k+1)·t while
// Δ gains t, and aging caps Δ at N - Σ c (topk_query.cpp). It keeps every
// counter and Δ at most N, so no sum of them wraps.
Status check_sums(uint64_t sum, const View& v) {
  if (sum > v.total || v.max_error > v.total - sum)
    return invalid("counters and max_error add up to more than the total");
  return Status::ok();
}

// Stored records, in either validation (they are few and every reader and
// merge relies on them): lengths, text ends that never go backwards or past
// the end, hashes strictly ascending (no item twice), counters positive and
// within the sums. kCanonical adds what only outside bytes can get wrong.
Status check_stored(const uint8_t* data, size_t len, Validation validation, View* v) {
  if (v->count > v->k) return invalid("more items than k");
  const uint64_t records_end = kStoredRecordsOffset + uint64_t{kRecordSize} * v->count;
  if (records_end > len) return invalid("truncated item records");
  const uint64_t text_room = len - records_end;
  uint32_t previous_end = 0;
  uint64_t previous_hash = 0, sum = 0;
  for (uint32_t i = 0; i < v->count; i++) {
    const uint8_t* r = record_at(data, i);
    const uint32_t end = load_le32(r + 16) & ~kClippedBit;
    if (end < previous_end || end > text_room || end - previous_end > kMaxItemBytes)
      return invalid("item text out of bounds");
    const uint64_t hash = load_le64(r);
    const uint64_t c = load_le64(r + 8);
    if (i > 0 && hash <= previous_hash) return invalid("items not in hash order");
    if (c == 0 || c > v->total) return invalid("item counter out of range");
    // A text is clipped only at kMaxItemBytes, on a character boundary
    // (characters take at most 4 bytes), so a shorter clipped text is not
    // one this code wrote.
    if (validation == Validation::kCanonical && (load_le32(r + 16) & kClippedBit) != 0 &&
        end - previous_end + 4 <= kMaxItemBytes)
      return invalid("a short item text marked clipped");
    sum += c;  // each <= N <= 2^63 - 1 and at most 65536 of them: no wrap
    previous_hash = hash;
    previous_end = end;
  }
  if (records_end + previous_end != len) return invalid("length does not match the items");
  Status st = check_sums(sum, *v);
  if (!st.is_ok()) return st;
  v->text_bytes = previous_end;
  return Status::ok();
}

// A working state: every entry's text inside the used arena, in order and
// without gaps; the index holds exactly the entries in use, each found from
// its hash's home slot (so no item is held twice and every probe ends at an
// empty slot); the sums as for stored summaries.
Status check_working(const uint8_t* data, size_t len, View* v) {
  if (len < kEntriesOffset) return invalid("truncated working state");
  v->capacity = load_le32(data + kCapacityOffset);
  v->arena_capacity = load_le32(data + kArenaCapacityOffset);
  const uint32_t used = load_le32(data + kArenaUsedOffset);
  if (v->capacity < 1 || v->capacity > max_capacity(v->k) || v->count > v->capacity ||
      v->arena_capacity > max_arena(v->k) || used > v->arena_capacity ||
      load_le32(data + kReservedOffset) != 0 ||
      working_bytes(v->capacity, v->arena_capacity) != len)
    return invalid("inconsistent working state");
  uint32_t expected_offset = 0;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < v->count; i++) {
    const uint8_t* e = entry_at(data, i);
    if (entry_offset(e) != expected_offset || entry_len(e) > kMaxItemBytes ||
        uint64_t{expected_offset} + entry_len(e) > used || entry_count(e) == 0 ||
        entry_count(e) > v->total)
      return invalid("inconsistent working entries");
    expected_offset += entry_len(e);
    sum += entry_count(e);
  }
  if (expected_offset != used) return invalid("inconsistent working arena");
  Status st = check_sums(sum, *v);
  if (!st.is_ok()) return st;
  const uint8_t* index = data + index_offset(v->capacity);
  const uint32_t icap = index_capacity_for(v->capacity);
  const uint32_t mask = icap - 1;
  uint32_t occupied = 0;
  for (uint32_t i = 0; i < icap; i++) {
    const uint32_t slot = load_le32(index + 4 * size_t{i});
    if (slot == 0) continue;
    if ((slot & kSlotIdMask) == 0 || (slot & kSlotIdMask) > v->count)
      return invalid("inconsistent working index");
    occupied++;
  }
  // count slots for count entries, fewer than icap: a probe always ends.
  if (occupied != v->count) return invalid("inconsistent working index");
  for (uint32_t i = 0; i < v->count; i++) {
    const uint64_t hash = entry_hash(entry_at(data, i));
    uint32_t slot = static_cast<uint32_t>(hash) & mask;
    for (;;) {
      const uint32_t value = load_le32(index + 4 * size_t{slot});
      if (value == 0) return invalid("a working entry the index does not find");
      if ((value & ~kSlotIdMask) == slot_tag(hash) &&
          entry_hash(entry_at(data, (value & kSlotIdMask) - 1)) == hash) {
        if ((value & kSlotIdMask) != i + 1) return invalid("an item held twice");
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  v->text_bytes = used;
  return Status::ok();
}

}  // namespace

namespace detail {

void write_topk_header(uint8_t* dst, Encoding encoding, ElementKind kind) {
  write_header(dst, Header{SketchKind::kTopk, kFormatVersion, kHashIdentity,
                           {0, static_cast<uint8_t>(encoding)}},
               kind);
}

Item item_at(const View& v, uint32_t i) {
  if (v.encoding == Encoding::kStored) return stored_item(v, i);
  const uint8_t* e = entry_at(v.data, i);
  const item_table::ItemRef r = item_table::entry_item(e, v.data + arena_offset(v.capacity));
  return Item{r.hash, entry_count(e), r.text, r.len, r.clipped};
}

uint64_t purge_threshold(const View& v, uint32_t k) {
  if (v.count <= k) return 0;
  return radix_select<true>(v.count, k + 1, [&](uint32_t i) { return item_at(v, i).count; });
}

uint64_t counter_sum(const View& v) {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < v.count; i++) sum += item_at(v, i).count;
  return sum;
}

}  // namespace detail

Status check_k(int64_t k) {
  if (k < 1 || k > kMaxK)
    return Status::error(StatusCode::kInvalidParameter,
                         "topk k must be between 1 and %u, got %lld", kMaxK,
                         static_cast<long long>(k));
  return Status::ok();
}

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  Header h;
  Status st = read_header(data, len, SketchKind::kTopk, kFormatVersion, &h);
  if (!st.is_ok()) return st;
  if (len < kFixedBytes) return invalid("truncated");
  View v{};
  v.data = data;
  v.size = len;
  v.encoding = static_cast<Encoding>(h.param[1]);
  v.k = load_le32(data + kKOffset);
  v.count = load_le32(data + kCountOffset);
  v.total = load_le64(data + kTotalOffset);
  v.max_error = load_le64(data + kErrorOffset);
  if (h.param[0] != 0) return invalid("unknown flags");
  if (!valid_recorded_element_kind(element_kind_byte(data))) return invalid("unknown element kind");
  if (v.k < 1 || v.k > kMaxK) return invalid("k out of range");
  if (v.total > kMaxTotal || v.max_error > v.total) return invalid("total or error out of range");
  if (v.encoding == Encoding::kStored) {
    st = check_stored(data, len, validation, &v);
  } else if (v.encoding == Encoding::kWorking && validation == Validation::kStructure) {
    st = check_working(data, len, &v);
  } else {
    return invalid("unknown encoding");
  }
  if (!st.is_ok()) return st;
  *out = v;
  return Status::ok();
}

Item stored_item(const View& v, uint32_t i) {
  const item_table::ItemRef r = item_table::stored_item(stored_list(v), i);
  return Item{r.hash, load_le64(record_at(v.data, i) + 8), r.text, r.len, r.clipped};
}

bool find(const View& v, uint64_t hash, Item* out) {
  if (v.encoding == Encoding::kStored) {
    uint32_t i;
    if (!item_table::find_stored(stored_list(v), hash, &i)) return false;
    *out = stored_item(v, i);
    return true;
  }
  for (uint32_t i = 0; i < v.count; i++) {
    const Item item = item_at(v, i);
    if (item.hash == hash) {
      *out = item;
      return true;
    }
  }
  return false;
}

uint64_t error_bound(const View& v) {
  return (v.total - std::min(v.total, counter_sum(v))) / (uint64_t{v.k} + 1);
}

size_t stored_size(uint32_t count, uint64_t text_bytes) {
  return kStoredRecordsOffset + kRecordSize * size_t{count} + text_bytes;
}

size_t empty_size() { return stored_size(0, 0); }

void write_empty(uint32_t k, uint8_t* dst) {
  std::memset(dst, 0, empty_size());
  write_topk_header(dst, Encoding::kStored, ElementKind::kNone);
  store_le32(dst + kKOffset, k);
}

namespace detail {

void write_working_fixed(uint8_t* dst, uint32_t k, uint32_t capacity, uint32_t arena_capacity,
                         ElementKind kind) {
  std::memset(dst, 0, working_bytes(capacity, arena_capacity));
  write_topk_header(dst, Encoding::kWorking, kind);
  store_le32(dst + kKOffset, k);
  store_le32(dst + kCapacityOffset, capacity);
  store_le32(dst + kArenaCapacityOffset, arena_capacity);
}

}  // namespace detail

namespace {

uint32_t initial_capacity(uint32_t k) { return std::min(max_capacity(k), kInitialCapacity); }

// Entry slots and arena of a working copy of v at k: room for v's items (or
// the k it is purged to) and then some, within the largest a state needs.
struct WorkingShape {
  uint32_t capacity;
  uint32_t arena;
};

WorkingShape working_shape(uint32_t k, uint32_t items, uint64_t text_bytes) {
  const uint32_t capacity =
      std::min(max_capacity(k), std::max(initial_capacity(k), items + items / 2 + 1));
  const uint64_t arena = std::min<uint64_t>(
      max_arena(k), std::max<uint64_t>(uint64_t{kInitialTextPerEntry} * capacity,
                                       text_bytes + text_bytes / 2));
  return WorkingShape{capacity, static_cast<uint32_t>(std::max<uint64_t>(arena, text_bytes))};
}

// Survivors of a purge down to k at threshold t: count and text bytes.
void survivors(const View& v, uint64_t t, uint32_t* items, uint64_t* text_bytes) {
  *items = 0;
  *text_bytes = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const Item item = item_at(v, i);
    if (item.count > t) {
      (*items)++;
      *text_bytes += item.len;
    }
  }
}

// A working copy at k keeps every item unless v holds more than the 2k a
// working state has slots for (a summary of a larger k): then it is purged
// down to k.
uint64_t working_threshold(const View& v, uint32_t k) {
  return v.count > max_capacity(k) ? purge_threshold(v, k) : 0;
}

}  // namespace

size_t new_working_size(uint32_t k) {
  const uint32_t capacity = initial_capacity(k);
  return working_bytes(capacity, kInitialTextPerEntry * capacity);
}

void write_new_working(uint32_t k, uint8_t* dst) {
  const uint32_t capacity = initial_capacity(k);
  write_working_fixed(dst, k, capacity, kInitialTextPerEntry * capacity, ElementKind::kNone);
}

size_t working_size(const View& v, uint32_t k) {
  uint32_t items;
  uint64_t text_bytes;
  survivors(v, working_threshold(v, k), &items, &text_bytes);
  const WorkingShape shape = working_shape(k, items, text_bytes);
  return working_bytes(shape.capacity, shape.arena);
}

void write_working(const View& v, uint32_t k, uint8_t* dst) {
  const uint64_t t = working_threshold(v, k);
  uint32_t items;
  uint64_t text_bytes;
  survivors(v, t, &items, &text_bytes);
  const WorkingShape shape = working_shape(k, items, text_bytes);
  detail::write_working_shaped(v, k, t, shape.capacity, shape.arena, dst);
}

namespace detail {

void write_working_shaped(const View& v, uint32_t k, uint64_t t, uint32_t capacity,
                          uint32_t arena_capacity, uint8_t* dst) {
  write_working_fixed(dst, k, capacity, arena_capacity, element_kind_of(v.data));
  uint8_t* index = dst + index_offset(capacity);
  const uint32_t mask = index_capacity_for(capacity) - 1;
  uint8_t* arena = dst + arena_offset(capacity);
  uint32_t n = 0, used = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const Item item = item_at(v, i);
    if (item.count <= t) continue;
    item_table::append_entry(entry_at(dst, n), arena, &used, item.hash, item.count - t,
                             item.text, item.len, item.clipped);
    index_insert(index, mask, item.hash, n++);
  }
  store_le32(dst + kCountOffset, n);
  store_le64(dst + kTotalOffset, v.total);
  store_le64(dst + kErrorOffset, v.max_error + t);
  store_le32(dst + kArenaUsedOffset, used);
}

}  // namespace detail

size_t stored_size(const View& v) {
  uint32_t items;
  uint64_t text_bytes;
  survivors(v, purge_threshold(v, v.k), &items, &text_bytes);
  return stored_size(items, text_bytes);
}

void write_stored(const View& v, uint8_t* dst) {
  const uint64_t t = purge_threshold(v, v.k);
  uint32_t items;
  uint64_t text_bytes;
  survivors(v, t, &items, &text_bytes);
  std::memset(dst, 0, stored_size(items, text_bytes));
  write_topk_header(dst, Encoding::kStored, element_kind_of(v.data));
  store_le32(dst + kKOffset, v.k);
  store_le32(dst + kCountOffset, items);
  store_le64(dst + kTotalOffset, v.total);
  store_le64(dst + kErrorOffset, v.max_error + t);
  // Records first, each naming its source item, then sorted by hash (a
  // stored view's are already) with the texts in record order.
  uint8_t* records = dst + kStoredRecordsOffset;
  uint32_t n = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const Item item = item_at(v, i);
    if (item.count <= t) continue;
    store_le64(item_table::begin_record(records, kRecordSize, n++, item.hash, i) + 8,
               item.count - t);
  }
  item_table::finish_stored(records, n, kRecordSize, v.encoding == Encoding::kStored,
                            [&](uint32_t i) {
                              const Item item = item_at(v, i);
                              return item_table::ItemRef{item.hash, item.text, item.len,
                                                         item.clipped};
                            });
}

}  // namespace sketch::topk
