// DataSketches' compact KLL sketches read as klls (kll_datasketches.h).
#include <cmath>
#include <cstring>
#include <initializer_list>

#include "core/common/bytes.h"
#include "core/kll/kll_datasketches.h"
#include "core/kll/kll_internal.h"

namespace sketch::kll::datasketches {

namespace {

constexpr uint8_t kFlagEmpty = 1;
constexpr uint8_t kFlagLevelZeroSorted = 2;
constexpr uint8_t kFlagSingleItem = 4;
constexpr uint8_t kShortPreambleInts = 2;
constexpr uint8_t kFullPreambleInts = 5;
constexpr uint8_t kEmptyOrFullVersion = 1;
constexpr uint8_t kSingleItemVersion = 2;
constexpr uint8_t kUpdatableVersion = 3;
constexpr size_t kShortPreamble = 8;
constexpr size_t kFullPreamble = 20;

Status invalid(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid DataSketches KLL sketch: %s", what);
}

uint32_t le16(const uint8_t* p) { return p[0] | uint32_t{p[1]} << 8; }

// The order key of one item; false for a NaN.
bool key_of_item(const uint8_t* p, ItemType type, uint64_t* key) {
  if (type == ItemType::kLong) {
    *key = key_of_int64(static_cast<int64_t>(load_le64(p)));
    return true;
  }
  double d;
  if (type == ItemType::kFloat) {
    const uint32_t bits = load_le32(p);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    d = f;
  } else {
    const uint64_t bits = load_le64(p);
    std::memcpy(&d, &bits, sizeof d);
  }
  if (std::isnan(d)) return false;
  *key = key_of_double(d);
  return true;
}

// Empty (serial version 1) or a single item (serial version 2).
Status parse_short(const uint8_t* data, size_t len, CompactView* out) {
  const uint8_t version = data[1], flags = data[3];
  out->levels = 1;
  if (version == kEmptyOrFullVersion) {
    if ((flags & kFlagEmpty) == 0)
      return invalid("2 preamble ints in serial version 1 without the empty flag");
    if (len != kShortPreamble) return invalid("an empty sketch longer than its preamble");
    out->empty = true;
    return Status::ok();
  }
  if (version != kSingleItemVersion) return invalid("serial version is not 1 or 2");
  if ((flags & kFlagEmpty) != 0) return invalid("a single-item sketch (serial version 2) flagged empty");
  if (len != kShortPreamble + item_size(out->type))
    return invalid("a single-item sketch whose length is not its preamble and one item");
  out->n = 1;
  out->capacity = total_capacity(out->k, 1);
  out->items = data + kShortPreamble;
  return Status::ok();
}

Status parse_full(const uint8_t* data, size_t len, CompactView* out) {
  const uint8_t flags = data[3];
  if (data[1] != kEmptyOrFullVersion) return invalid("5 preamble ints in a serial version other than 1");
  if ((flags & (kFlagEmpty | kFlagSingleItem)) != 0)
    return invalid("the empty or single-item flag with 5 preamble ints");
  if (len < kFullPreamble) return invalid("truncated preamble");
  out->n = load_le64(data + 8);
  const uint32_t min_k = le16(data + 16);
  out->levels = data[18];
  if (data[19] != 0) return invalid("byte 19 (unused) is not zero");
  if (min_k != out->k) {
    if (min_k < kM || min_k > out->k) return invalid("min_k is not between m and k");
    return Status::error(StatusCode::kUnsupported,
                         "a DataSketches KLL sketch merged from a smaller k (min_k %u, k %u) is not "
                         "read: its rank error is that of min_k, which a kll does not record",
                         min_k, out->k);
  }
  if (out->levels < 1 || out->levels > kMaxLevels) return invalid("level count out of range");
  out->capacity = total_capacity(out->k, out->levels);
  const size_t offsets_end = kFullPreamble + 4 * size_t{out->levels};
  if (len < offsets_end) return invalid("truncated level offsets");
  out->offsets = data + kFullPreamble;
  unsigned __int128 weight = 0;
  for (uint32_t h = 0; h < out->levels; ++h) {
    const uint32_t beg = out->offset(h), end = out->offset(h + 1);
    if (beg > end) return invalid("level offsets out of order or past the item array");
    weight += static_cast<unsigned __int128>(end - beg) << h;
  }
  if (out->retained() == 0) return invalid("a full sketch without items");
  if (out->levels > 1 && out->offset(out->levels - 1) == out->capacity)
    return invalid("the top level is empty");
  const size_t w = item_size(out->type);
  if ((len - offsets_end) / w != 2 + size_t{out->retained()} || (len - offsets_end) % w != 0)
    return invalid("length does not match min, max and the items the level offsets hold");
  if (weight != out->n) return invalid("n does not match the levels' weights");
  out->min_item = data + offsets_end;
  out->max_item = out->min_item + w;
  out->items = out->max_item + w;
  return Status::ok();
}

}  // namespace

bool item_type_of(const char* name, size_t len, ItemType* out) {
  for (ItemType t : {ItemType::kDouble, ItemType::kFloat, ItemType::kLong}) {
    const char* want = item_type_name(t);
    size_t i = 0;
    while (i < len && want[i] != '\0' && (name[i] | 0x20) == want[i]) ++i;
    if (i == len && want[i] == '\0') {
      *out = t;
      return true;
    }
  }
  return false;
}

const char* item_type_name(ItemType type) {
  switch (type) {
    case ItemType::kFloat: return "float";
    case ItemType::kLong: return "long";
    default: return "double";
  }
}

size_t item_size(ItemType type) { return type == ItemType::kFloat ? 4 : 8; }

ElementKind kind_of(ItemType type) {
  return type == ItemType::kLong ? ElementKind::kNumber : ElementKind::kFloat;
}

uint32_t CompactView::offset(uint32_t h) const {
  if (h >= levels) return capacity;
  if (offsets == nullptr) return empty ? capacity : capacity - 1;  // a single item
  return load_le32(offsets + 4 * size_t{h});
}

Status parse_compact(const uint8_t* data, size_t len, ItemType type, CompactView* out) {
  *out = CompactView{};
  out->type = type;
  if (len < kShortPreamble) return invalid("shorter than its 8-byte preamble");
  if (data[2] != kFamilyId) return invalid("family id is not 15 (KLL)");
  if (data[1] == kUpdatableVersion)
    return Status::error(StatusCode::kUnsupported,
                         "a DataSketches KLL sketch in the updatable form (serial version 3) is not "
                         "read here: serialize its compact form (toByteArray())");
  const uint8_t flags = data[3];
  if ((flags & ~(kFlagEmpty | kFlagLevelZeroSorted | kFlagSingleItem)) != 0)
    return invalid("unknown flags");
  if ((flags & kFlagEmpty) != 0 && (flags & kFlagSingleItem) != 0)
    return invalid("flagged both empty and single-item");
  out->level_zero_sorted = (flags & kFlagLevelZeroSorted) != 0;
  out->k = le16(data + 4);
  if (data[6] != kM) return invalid("m is not 8");
  if (out->k < kM || out->k > kMaxK) return invalid("k is not between 8 and 65535");
  if (data[7] != 0) return invalid("byte 7 (unused) is not zero");
  if (data[0] == kShortPreambleInts) return parse_short(data, len, out);
  if (data[0] == kFullPreambleInts) return parse_full(data, len, out);
  return invalid("preamble ints are not 2 or 5");
}

size_t imported_size(const CompactView& v) {
  if (v.empty) return empty_size(Encoding::kStored, v.k);
  return detail::sketch_size(v.levels + 1, v.retained());
}

Status write_imported(const CompactView& v, uint8_t* dst) {
  if (v.empty) {
    write_empty(dst, v.k, Encoding::kStored);
    return Status::ok();
  }
  const size_t w = item_size(v.type);
  const uint32_t retained = v.retained(), first = v.offset(0);
  uint64_t min_key, max_key;
  if (!key_of_item(v.min_item != nullptr ? v.min_item : v.items, v.type, &min_key) ||
      !key_of_item(v.max_item != nullptr ? v.max_item : v.items, v.type, &max_key))
    return invalid(v.min_item != nullptr ? "a NaN min or max" : "a NaN item");
  if (min_key > max_key) return invalid("min above max");
  detail::write_fields(dst, Encoding::kStored, kind_of(v.type), v.k, v.levels, v.levels + 1,
                       retained, v.n, min_key, max_key);
  detail::Mut s{dst};
  for (uint32_t h = 0; h <= v.levels; ++h) s.set_off(h, v.offset(h) - first);
  for (uint32_t i = 0; i < retained; ++i) {
    uint64_t key;
    if (!key_of_item(v.items + w * i, v.type, &key)) return invalid("a NaN item");
    if (key < min_key || key > max_key) return invalid("an item outside [min, max]");
    s.set_item(i, key);
  }
  const uint32_t level_zero = s.off(1);
  if (!v.level_zero_sorted) detail::sort_keys(s.items(), level_zero);
  for (uint32_t h = 0; h < v.levels; ++h)
    for (uint32_t i = s.off(h) + 1; i < s.off(h + 1); ++i)
      if (s.item(i - 1) > s.item(i))
        return invalid(h == 0 ? "level 0 flagged sorted is not" : "a level above 0 out of order");
  // Exact (every weight 1): min and max are the items' own.
  if (v.n == retained) {
    uint64_t lo = s.item(0), hi = s.item(0);
    for (uint32_t i = 1; i < retained; ++i) {
      if (s.item(i) < lo) lo = s.item(i);
      if (s.item(i) > hi) hi = s.item(i);
    }
    if (lo != min_key || hi != max_key) return invalid("min or max is not an item of an exact sketch");
  }
  // What every kll is (kll.h), checked as any stored kll is.
  View check;
  const Status st = parse(dst, imported_size(v), Validation::kCanonical, &check);
  return st.is_ok() ? st : invalid(st.message());
}

}  // namespace sketch::kll::datasketches
