// topk readers: the best-first order, and aging by a factor.

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/common/scale.h"
#include "core/topk/topk_internal.h"

namespace sketch::topk {

using namespace detail;

void best_first(const View& v, uint32_t* order) {
  for (uint32_t i = 0; i < v.count; i++) order[i] = i;
  std::sort(order, order + v.count, [&](uint32_t a, uint32_t b) {
    const Item x = stored_item(v, a), y = stored_item(v, b);
    return x.count != y.count ? x.count > y.count : x.hash < y.hash;
  });
}

size_t scaled_size(const View& v, double factor) {
  const ExactFactor f(factor);
  uint32_t items = 0;
  uint64_t text_bytes = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const Item item = stored_item(v, i);
    if (f.floor(item.count) == 0) continue;
    items++;
    text_bytes += item.len;
  }
  return stored_size(items, text_bytes);
}

void write_scaled(const View& v, double factor, uint8_t* dst) {
  const ExactFactor f(factor);
  const size_t size = scaled_size(v, factor);
  std::memset(dst, 0, size);
  write_topk_header(dst, Encoding::kStored, element_kind_of(v.data));
  store_le32(dst + kKOffset, v.k);
  const uint64_t total = f.floor(v.total);
  store_le64(dst + kTotalOffset, total);
  uint32_t n = 0;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const uint64_t c = f.floor(stored_item(v, i).count);
    if (c > 0) n++;
    sum += c;
  }
  // The scaled truth of an item is floor(f·f_x) <= floor(f·c_x) + ceil(f·Δ).
  // It is also at most N' - Σ c' (N' the scaled total): the scaled truths
  // add up to at most N' (a sum of floors), and every other item's is at
  // least its scaled counter. The smaller of the two keeps Σ c + Δ <= N.
  store_le64(dst + kErrorOffset, std::min(f.ceil(v.max_error), total - sum));
  store_le32(dst + kCountOffset, n);
  // The survivors keep their (hash) order.
  uint8_t* records = dst + kStoredRecordsOffset;
  uint32_t r = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const Item item = stored_item(v, i);
    const uint64_t c = f.floor(item.count);
    if (c == 0) continue;
    store_le64(item_table::begin_record(records, kRecordSize, r++, item.hash, i) + 8, c);
  }
  item_table::finish_stored(records, n, kRecordSize, true,
                            [&](uint32_t i) { return item_table::stored_item(stored_list(v), i); });
}

}  // namespace sketch::topk
