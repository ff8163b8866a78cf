// for_each_bucket over both encodings (included at the end of ddsketch.h).
//
// The stored entries are walked as parse() walked them: bounded by the
// store's bytes and its bucket count, indices in int64 (parse has checked
// they stay within the scale's range, but a reader must not overflow even if
// it is handed something else). Zero counts (which only a non-canonical
// value could hold) are skipped. The working window is read between the
// store's min and max index, which parse has checked lie inside it.
#pragma once

#include <cstdint>

#include "core/common/bytes.h"

namespace sketch::ddsketch {

namespace detail {

// One varint of at most 10 bytes from [*p, end), shortest form or not; false
// when it runs past the end.
inline bool read_varint(const uint8_t** p, const uint8_t* end, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (*p == end) return false;
    const uint8_t byte = *(*p)++;
    v |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      *out = v;
      return true;
    }
  }
  return false;
}

}  // namespace detail

template <class F>
void for_each_bucket(const Store& store, F&& f) {
  if (store.buckets == 0) return;
  if (store.encoding == Encoding::kWorking) {
    const int64_t first = int64_t{store.min_index} - store.offset;
    const int64_t last = int64_t{store.max_index} - store.offset;
    if (first < 0 || last >= int64_t{store.capacity} || first > last) return;
    for (int64_t slot = first; slot <= last; slot++) {
      const uint64_t count = load_le64(store.data + 8 * slot);
      if (count != 0) f(static_cast<int32_t>(slot + store.offset), count);
    }
    return;
  }
  const uint8_t* p = store.data;
  const uint8_t* const end = store.data + store.size;
  int64_t index = int64_t{store.min_index} - 1;
  for (uint32_t i = 0; i < store.buckets; i++) {
    uint64_t gap, count;
    if (!detail::read_varint(&p, end, &gap) || !detail::read_varint(&p, end, &count)) return;
    if (gap > (uint64_t{1} << 32)) return;  // beyond any index range
    index += static_cast<int64_t>(gap) + 1;
    if (index > INT32_MAX) return;
    if (count != 0) f(static_cast<int32_t>(index), count);
  }
}

}  // namespace sketch::ddsketch
