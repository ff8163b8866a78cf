// Sorting an array of little-endian uint32 values in place (the entries of
// a stored sparse list: hll's, ell's tokens), whatever the host's byte order
// and the array's alignment.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/common/bytes.h"

namespace sketch {

inline void sort_le32(uint8_t* values, uint32_t n) {
  // Native order, sort, back to little-endian: both conversions are no-ops on
  // little-endian hosts.
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t v = load_le32(values + 4 * i);
    std::memcpy(values + 4 * i, &v, 4);
  }
  if (reinterpret_cast<uintptr_t>(values) % alignof(uint32_t) == 0) {
    auto* native = reinterpret_cast<uint32_t*>(values);
    std::sort(native, native + n);
  } else {
    // Unaligned (our buffers come from palloc and are not): an insertion
    // sort through memcpy stays correct.
    for (uint32_t i = 1; i < n; i++) {
      uint32_t key, prev;
      std::memcpy(&key, values + 4 * i, 4);
      uint32_t j = i;
      for (; j > 0; j--) {
        std::memcpy(&prev, values + 4 * (j - 1), 4);
        if (prev <= key) break;
        std::memcpy(values + 4 * j, &prev, 4);
      }
      std::memcpy(values + 4 * j, &key, 4);
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t v;
    std::memcpy(&v, values + 4 * i, 4);
    store_le32(values + 4 * i, v);
  }
}

}  // namespace sketch
