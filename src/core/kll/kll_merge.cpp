// Union (kll.h): the two sketches level by level, then compactions from the
// bottom until the union fits the capacities of the smaller k.
#include <cstring>

#include "core/kll/kll_internal.h"

namespace sketch::kll {

using detail::Mut;

namespace {

uint32_t level_pop(const View& v, uint32_t h) {
  return h < v.levels ? v.offset(h + 1) - v.offset(h) : 0;
}

uint32_t min_k(const View& a, const View& b) { return a.k < b.k ? a.k : b.k; }
uint32_t max_levels(const View& a, const View& b) {
  return a.levels > b.levels ? a.levels : b.levels;
}

// The level count after the union's compactions, found from the counts
// alone (a compaction moves floor(pop / 2) items up whatever its coin), and
// so the capacity the result needs: room for those levels and for the
// concatenation the compactions start from.
uint32_t merged_capacity(const View& a, const View& b) {
  const uint32_t k = min_k(a, b);
  uint32_t levels = max_levels(a, b);
  uint32_t pops[kMaxLevels + 1] = {};
  uint32_t total = 0;
  for (uint32_t h = 0; h < levels; ++h) {
    pops[h] = level_pop(a, h) + level_pop(b, h);
    total += pops[h];
  }
  const uint32_t concatenated = total;
  uint32_t full_at = total_capacity(k, levels);
  while (total > full_at) {
    uint32_t h = 0;
    while (h + 1 < levels && pops[h] < level_capacity(k, levels, h)) ++h;
    if (h == levels - 1) {
      if (levels == kMaxLevels) break;  // only a sketch past 2^64 values gets here
      full_at = total_capacity(k, ++levels);
    }
    const uint32_t half = pops[h] / 2;
    pops[h] -= 2 * half;
    pops[h + 1] += half;
    total -= half;
  }
  return full_at > concatenated ? full_at : concatenated;
}

}  // namespace

Status check_mergeable(const View& a, const View& b) {
  if (a.kind != b.kind && a.kind != ElementKind::kNone && b.kind != ElementKind::kNone)
    return Status::error(StatusCode::kMismatch, "cannot merge a kll of %s values with one of %s",
                         element_kind_label(a.kind), element_kind_label(b.kind));
  if (a.n > UINT64_MAX - b.n)
    return Status::error(StatusCode::kOverflow, "the union would count more than 2^64 - 1 values");
  return Status::ok();
}

size_t merged_working_size(const View& a, const View& b) {
  return detail::sketch_size(detail::kWorkingLevelSlots, merged_capacity(a, b));
}

void write_merged_working(const View& a, const View& b, uint8_t* dst) {
  const uint32_t capacity = merged_capacity(a, b);
  const uint32_t levels = max_levels(a, b);
  uint64_t min_key = a.min_key, max_key = a.max_key;
  if (a.n == 0) {
    min_key = b.min_key;
    max_key = b.max_key;
  } else if (b.n != 0) {
    if (b.min_key < min_key) min_key = b.min_key;
    if (b.max_key > max_key) max_key = b.max_key;
  }
  const ElementKind kind = a.kind == ElementKind::kNone ? b.kind : a.kind;
  detail::write_fields(dst, Encoding::kWorking, kind, min_k(a, b), levels,
                       detail::kWorkingLevelSlots, capacity, a.n + b.n, min_key, max_key);
  Mut s{dst};
  uint8_t* items = s.items();
  uint32_t pos = capacity;
  for (uint32_t h = levels; h-- > 0;) {
    const uint32_t pa = level_pop(a, h), pb = level_pop(b, h);
    pos -= pa + pb;
    s.set_off(h, pos);
    const uint8_t* run_a = a.items + 8 * size_t{h < a.levels ? a.offset(h) : 0};
    const uint8_t* run_b = b.items + 8 * size_t{h < b.levels ? b.offset(h) : 0};
    if (h == 0) {
      std::memcpy(items + 8 * size_t{pos}, run_a, 8 * size_t{pa});
      std::memcpy(items + 8 * size_t{pos + pa}, run_b, 8 * size_t{pb});
    } else {
      detail::merge_keys(run_a, pa, run_b, pb, items + 8 * size_t{pos});
    }
  }
  uint32_t unused = 0;
  while (s.capacity() - s.off(0) > s.full_at())
    if (!detail::compress_once(s, &unused)) break;
}

}  // namespace sketch::kll
