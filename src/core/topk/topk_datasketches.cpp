// Reading DataSketches' frequent items sketches (topk_datasketches.h).

#include "core/topk/topk_datasketches.h"

#include "core/common/bytes.h"
#include "core/topk/topk_internal.h"

namespace sketch::topk::datasketches {

namespace {

constexpr size_t kPreambleBytes = 32;
constexpr uint8_t kEmptyFlags = 0x05;  // either of the libraries' two empty bits

Status invalid(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid DataSketches frequent items sketch: %s",
                       what);
}

// Well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF) without NUL: what a PostgreSQL text can hold.
bool valid_text(const uint8_t* p, size_t n) {
  size_t i = 0;
  while (i < n) {
    const uint8_t b = p[i];
    if (b == 0) return false;
    if (b < 0x80) {
      i++;
      continue;
    }
    size_t extra;
    uint32_t cp;
    if ((b & 0xE0) == 0xC0) { extra = 1; cp = b & 0x1F; }
    else if ((b & 0xF0) == 0xE0) { extra = 2; cp = b & 0x0F; }
    else if ((b & 0xF8) == 0xF0) { extra = 3; cp = b & 0x07; }
    else return false;
    if (n - i <= extra) return false;
    for (size_t j = 1; j <= extra; j++) {
      if ((p[i + j] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i + j] & 0x3F);
    }
    static constexpr uint32_t kMinOf[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMinOf[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

// True when the items region is exactly n length-prefixed valid texts.
bool chains_as_strings(const uint8_t* p, size_t len, uint32_t n) {
  size_t at = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (len - at < 4) return false;
    const uint32_t item_len = load_le32(p + at);
    at += 4;
    if (item_len > len - at || !valid_text(p + at, item_len)) return false;
    at += item_len;
  }
  return at == len;
}

}  // namespace

Status parse_frequent(const uint8_t* data, size_t len, FrequentView* out) {
  *out = FrequentView{};
  if (len < 8) return invalid("shorter than its 8-byte preamble");
  const uint8_t pre_longs = data[0];
  if (data[1] != kSerialVersion) return invalid("serial version is not 1");
  if (data[2] != kFamilyId) return invalid("family id is not 10 (frequent items)");
  out->lg_max_map_size = data[3];
  out->lg_cur_map_size = data[4];
  if (out->lg_max_map_size < kMinLgMapSize || out->lg_max_map_size > kMaxLgMapSize ||
      out->lg_cur_map_size < kMinLgMapSize || out->lg_cur_map_size > out->lg_max_map_size)
    return invalid("map sizes out of range");
  out->empty = (data[5] & kEmptyFlags) != 0;
  out->type = ItemType::kLong;
  if (out->empty) {
    if (pre_longs != 1) return invalid("an empty sketch with more than one preamble long");
    if (len != 8) return invalid("an empty sketch longer than its preamble");
    return Status::ok();
  }
  if (pre_longs != 4) return invalid("a non-empty sketch without 4 preamble longs");
  if (len < kPreambleBytes) return invalid("truncated preamble");
  out->count = load_le32(data + 8);
  out->total = load_le64(data + 16);
  out->max_error = load_le64(data + 24);
  // The libraries' N is a signed long; topk's total is at most 2^63 - 1 too.
  if (out->total > 0x7fffffffffffffffULL) return invalid("stream weight above 2^63 - 1");
  // A map of 2^lg_cur slots holds at most 3/4 of them.
  if (out->count == 0) return invalid("a non-empty sketch with no items");
  if (uint64_t{out->count} > (uint64_t{3} << out->lg_cur_map_size) / 4)
    return invalid("more items than its map holds");
  if (uint64_t{out->count} * 8 > len - kPreambleBytes) return invalid("truncated counters");
  out->counters = data + kPreambleBytes;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < out->count; i++) {
    const uint64_t c = load_le64(out->counters + 8 * size_t{i});
    if (c == 0) return invalid("an item with counter 0");
    if (c > out->total || sum > out->total - c) return invalid("counters add up to more than N");
    sum += c;
  }
  if (out->max_error > out->total - sum)
    return invalid("counters and the maximum error add up to more than N");
  out->items = out->counters + 8 * size_t{out->count};
  out->items_len = len - kPreambleBytes - 8 * size_t{out->count};
  if (chains_as_strings(out->items, out->items_len, out->count)) {
    out->type = ItemType::kString;
  } else if (out->items_len == 8 * size_t{out->count}) {
    out->type = ItemType::kLong;
  } else {
    return invalid("items are neither n longs nor n length-prefixed UTF-8 strings");
  }
  return Status::ok();
}

uint64_t max_items(const FrequentView& v) { return (uint64_t{3} << v.lg_max_map_size) / 4; }

FrequentItem frequent_item(const FrequentView& v, uint32_t i, size_t* cursor) {
  FrequentItem item{load_le64(v.counters + 8 * size_t{i}), 0, nullptr, 0};
  if (v.type == ItemType::kLong) {
    item.long_value = static_cast<int64_t>(load_le64(v.items + 8 * size_t{i}));
    *cursor += 8;
  } else {
    item.len = load_le32(v.items + *cursor);
    item.text = v.items + *cursor + 4;
    *cursor += 4 + size_t{item.len};
  }
  return item;
}

Status import_k(const FrequentView& v, uint32_t* k) {
  const uint64_t wanted = max_items(v);
  *k = static_cast<uint32_t>(wanted < kMaxK ? wanted : kMaxK);
  if (v.count > *k)
    return Status::error(StatusCode::kInvalidParameter,
                         "the sketch holds %u items, more than a topk summary's largest k (%u)",
                         v.count, kMaxK);
  return Status::ok();
}

size_t imported_size(const ImportItem* items, uint32_t n) {
  uint64_t text_bytes = 0;
  for (uint32_t i = 0; i < n; i++) text_bytes += items[i].len;
  return stored_size(n, text_bytes);
}

Status write_imported(uint32_t k, ElementKind kind, uint64_t total, uint64_t max_error,
                      const ImportItem* items, uint32_t n, uint8_t* dst) {
  using namespace topk::detail;
  write_topk_header(dst, Encoding::kStored, kind);
  store_le32(dst + kKOffset, k);
  store_le32(dst + kCountOffset, n);
  store_le64(dst + kTotalOffset, total);
  store_le64(dst + kErrorOffset, max_error);
  uint8_t* records = dst + kStoredRecordsOffset;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t* r = item_table::begin_record(records, kRecordSize, i, items[i].hash, i);
    store_le64(r + 8, items[i].counter);
  }
  item_table::finish_stored(records, n, kRecordSize, false, [&](uint32_t id) {
    return item_table::ItemRef{items[id].hash, items[id].text, items[id].len, items[id].clipped};
  });
  for (uint32_t i = 1; i < n; i++)
    if (load_le64(record_at(dst, i)) == load_le64(record_at(dst, i - 1)))
      return invalid("an item held twice");
  return Status::ok();
}

}  // namespace sketch::topk::datasketches
