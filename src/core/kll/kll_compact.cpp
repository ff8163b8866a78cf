// The in-place compaction every add and merge runs (kll_internal.h).
#include <algorithm>
#include <cstring>

#include "core/common/hash.h"
#include "core/kll/kll_internal.h"

namespace sketch::kll::detail {

namespace {

// An 8-byte key at any alignment: items sit at offset 4 mod 8 in a varlena.
struct Key {
  uint8_t b[8];
};
inline uint64_t load(const Key& k) { return load_le64(k.b); }

}  // namespace

void sort_keys(uint8_t* keys, uint32_t count) {
  Key* first = reinterpret_cast<Key*>(keys);
  std::sort(first, first + count, [](const Key& a, const Key& b) { return load(a) < load(b); });
}

void merge_keys(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb, uint8_t* dst) {
  uint32_t i = 0, j = 0;
  while (i < na && j < nb) {
    const uint64_t x = load_le64(a + 8 * size_t{i});
    const uint64_t y = load_le64(b + 8 * size_t{j});
    // Ties take a first: stable, so equal keys keep their order.
    if (y < x) {
      std::memmove(dst, b + 8 * size_t{j++}, 8);
    } else {
      std::memmove(dst, a + 8 * size_t{i++}, 8);
    }
    dst += 8;
  }
  if (i < na) std::memmove(dst, a + 8 * size_t{i}, 8 * size_t{na - i});
  if (j < nb && dst != b + 8 * size_t{j}) std::memmove(dst, b + 8 * size_t{j}, 8 * size_t{nb - j});
}

bool compaction_coin(uint64_t n, uint32_t h) {
  uint8_t bytes[12];
  store_le64(bytes, n);
  store_le32(bytes + 8, h);
  return (hash64(bytes, sizeof bytes) >> 63) != 0;
}

// DataSketches' layout, with our own coin: level h's items [beg, end), the
// level above [end, above_end). After the halving the promoted half sits at
// [adj_beg, adj_beg + half) and is merged forward with the level above into
// [adj_beg + half, above_end): every write lands at or before the unread
// part of the level above, and past the promoted half.
void compact_level(Mut s, uint32_t h) {
  uint8_t* items = s.items();
  const uint32_t beg = s.off(h), end = s.off(h + 1), above_end = s.off(h + 2);
  const uint32_t pop = end - beg, above = above_end - end;
  if (h == 0) sort_keys(items + 8 * size_t{beg}, pop);
  const uint32_t odd = pop & 1;
  const uint32_t adj_beg = beg + odd, half = (pop - odd) / 2;
  const uint32_t offset = compaction_coin(s.n(), h) ? 1 : 0;
  for (uint32_t i = 0; i < half; ++i)
    std::memmove(items + 8 * size_t{adj_beg + i}, items + 8 * size_t{adj_beg + 2 * i + offset}, 8);
  merge_keys(items + 8 * size_t{adj_beg}, half, items + 8 * size_t{end}, above,
             items + 8 * size_t{adj_beg + half});
  s.set_off(h + 1, adj_beg + half);
  if (odd) {
    const uint64_t kept = s.item(beg);
    s.set_off(h, adj_beg + half - 1);
    s.set_item(adj_beg + half - 1, kept);
  } else {
    s.set_off(h, adj_beg + half);
  }
  // The levels below move up by the slots freed.
  const uint32_t low = s.off(0);
  if (h > 0) {
    std::memmove(items + 8 * size_t{low + half}, items + 8 * size_t{low}, 8 * size_t{beg - low});
    for (uint32_t l = 0; l < h; ++l) s.set_off(l, s.off(l) + half);
  }
}

uint32_t level_to_compact(Mut s) {
  const uint32_t levels = s.levels(), k = s.k();
  for (uint32_t h = 0; h + 1 < levels; ++h)
    if (s.off(h + 1) - s.off(h) >= level_capacity(k, levels, h)) return h;
  return levels - 1;
}

bool compress_once(Mut s, uint32_t* needed_levels) {
  const uint32_t h = level_to_compact(s);
  const uint32_t levels = s.levels();
  if (h == levels - 1) {
    if (levels == kMaxLevels) {  // weights past 2^63: n would pass 2^64 first
      *needed_levels = kMaxLevels + 1;
      return false;
    }
    const uint32_t full_at = total_capacity(s.k(), levels + 1);
    if (s.capacity() < full_at) {
      *needed_levels = levels + 1;
      return false;
    }
    // The new top is empty (written here: the per-row check reads only the
    // offsets up to L).
    s.set_off(levels + 1, s.capacity());
    s.set_levels(levels + 1);
    s.set_full_at(full_at);
  }
  compact_level(s, h);
  return true;
}

}  // namespace sketch::kll::detail
