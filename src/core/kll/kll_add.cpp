// Adding values to a working state (kll.h).
#include <cstring>

#include "core/kll/kll_internal.h"

namespace sketch::kll {

using detail::Mut;

namespace {

void widen_bounds(Mut s, uint64_t key) {
  if (s.n() == 0) {
    s.set_min(key);
    s.set_max(key);
    return;
  }
  if (key < s.min_key()) s.set_min(key);
  if (key > s.max_key()) s.set_max(key);
}

// One item of weight 2^h into its sorted place in level h (room assured:
// a free slot before level 0). The levels up to h move down one slot.
void insert_at_level(Mut s, uint32_t h, uint64_t key) {
  uint8_t* items = s.items();
  const uint32_t low = s.off(0), beg = s.off(h), end = s.off(h + 1);
  uint32_t pos = beg;  // the first item of level h above key
  if (h > 0) {
    uint32_t lo = beg, hi = end;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (s.item(mid) <= key) lo = mid + 1; else hi = mid;
    }
    pos = lo;
  }
  std::memmove(items + 8 * size_t{low - 1}, items + 8 * size_t{low}, 8 * size_t{pos - low});
  for (uint32_t l = 0; l <= h; ++l) s.set_off(l, s.off(l) - 1);
  s.set_item(pos - 1, key);
}

// The bits of *times from the lowest, each an item at its level: a weight w
// is w's binary digits, not w adds.
// Room is asked for once, for the levels the highest bit needs and one more
// for a compaction, so that a weight costs at most a growth or two.
bool add_weighted(Mut s, uint64_t key, uint64_t* times, uint32_t* needed_levels) {
  const uint32_t top = 63 - static_cast<uint32_t>(__builtin_clzll(*times));
  uint32_t room = (s.levels() > top + 1 ? s.levels() : top + 1) + 1;
  if (room > kMaxLevels) room = kMaxLevels;
  if (s.capacity() < total_capacity(s.k(), room)) {
    *needed_levels = room;
    return false;
  }
  while (*times != 0) {
    const uint32_t h = static_cast<uint32_t>(__builtin_ctzll(*times));
    if (s.levels() <= h) {
      const uint32_t full_at = total_capacity(s.k(), h + 1);
      if (s.capacity() < full_at) {
        *needed_levels = h + 1;
        return false;
      }
      for (uint32_t l = s.levels() + 1; l <= h + 1; ++l) s.set_off(l, s.capacity());
      s.set_levels(h + 1);
      s.set_full_at(full_at);
    }
    if (s.capacity() - s.off(0) >= s.full_at() && !detail::compress_once(s, needed_levels))
      return false;
    widen_bounds(s, key);
    insert_at_level(s, h, key);
    s.set_n(s.n() + (uint64_t{1} << h));
    *times &= *times - 1;
  }
  return true;
}

}  // namespace

bool fits_count(const uint8_t* state, uint64_t times) {
  return Mut{const_cast<uint8_t*>(state)}.n() <= UINT64_MAX - times;
}

bool add(uint8_t* state, uint64_t key, uint64_t* times, uint32_t* needed_levels) {
  Mut s{state};
  if (__builtin_expect(*times != 1, 0)) return add_weighted(s, key, times, needed_levels);
  uint32_t low = s.off(0);
  if (__builtin_expect(s.capacity() - low >= s.full_at(), 0)) {
    if (!detail::compress_once(s, needed_levels)) return false;
    low = s.off(0);
  }
  widen_bounds(s, key);
  s.set_item(low - 1, key);
  s.set_off(0, low - 1);
  s.set_n(s.n() + 1);
  return true;
}

}  // namespace sketch::kll
