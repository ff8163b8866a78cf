// The working state of cms aggregates: counting, the candidate list (heap,
// index, text arena), and merging.
#include <algorithm>
#include <cstring>

#include "core/cms/cms.h"
#include "core/cms/cms_internal.h"

namespace sketch::cms {

using namespace detail;

namespace {

constexpr uint32_t kNoEntry = 0xffffffffu;

// Accessors over a working state's candidate areas. Cheap to build (a few
// offsets), so the hot path builds one per row that needs it.
class Working {
 public:
  explicit Working(uint8_t* s)
      : s_(s),
        width_(load_le32(s + kWidthOffset)),
        depth_(load_le32(s + kDepthOffset)),
        k_(load_le32(s + kCapacityOffset)),
        layout_(working_layout(width_, depth_, k_)),
        mask_(index_capacity_for(k_) - 1) {}

  uint32_t k() const { return k_; }
  uint32_t count() const { return load_le32(s_ + kCountOffset); }
  const uint8_t* counters() const { return s_ + kWorkingCountersOffset; }
  uint8_t* counters() { return s_ + kWorkingCountersOffset; }
  uint64_t estimate(uint64_t hash) const { return estimate_at(counters(), width_, depth_, hash); }

  // --- entries ---
  uint8_t* entry(uint32_t id) const { return s_ + layout_.entries + kEntrySize * id; }
  uint64_t hash(uint32_t id) const { return item_table::entry_hash(entry(id)); }
  uint64_t key(uint32_t id) const { return item_table::entry_counter(entry(id)); }
  void set_key(uint32_t id, uint64_t key) { item_table::set_entry_counter(entry(id), key); }
  uint32_t text_offset(uint32_t id) const { return item_table::entry_text_offset(entry(id)); }
  uint32_t text_len(uint32_t id) const { return item_table::entry_text_len(entry(id)); }
  uint32_t heap_pos(uint32_t id) const { return load_le32(entry(id) + kEntryHeapPos); }

  // --- heap: root = weakest (smallest key; among equal keys the largest hash) ---
  uint32_t heap_at(uint32_t pos) const { return load_le32(s_ + layout_.heap + 4 * pos); }
  void heap_set(uint32_t pos, uint32_t id) {
    store_le32(s_ + layout_.heap + 4 * pos, id);
    store_le32(entry(id) + kEntryHeapPos, pos);
  }
  bool weaker(uint32_t a, uint32_t b) const {
    const uint64_t ka = key(a), kb = key(b);
    return ka < kb || (ka == kb && hash(a) > hash(b));
  }
  uint32_t root() const { return heap_at(0); }

  void sift_down(uint32_t pos) {
    const uint32_t n = count();
    const uint32_t id = heap_at(pos);
    for (;;) {
      uint32_t child = 2 * pos + 1;
      if (child >= n) break;
      uint32_t child_id = heap_at(child);
      if (child + 1 < n) {
        const uint32_t right = heap_at(child + 1);
        if (weaker(right, child_id)) {
          child++;
          child_id = right;
        }
      }
      if (!weaker(child_id, id)) break;
      heap_set(pos, child_id);
      pos = child;
    }
    heap_set(pos, id);
  }

  void sift_up(uint32_t pos) {
    const uint32_t id = heap_at(pos);
    while (pos > 0) {
      const uint32_t parent = (pos - 1) / 2;
      const uint32_t parent_id = heap_at(parent);
      if (!weaker(id, parent_id)) break;
      heap_set(pos, parent_id);
      pos = parent;
    }
    heap_set(pos, id);
  }

  void heapify() {
    const uint32_t n = count();
    for (uint32_t id = 0; id < n; id++) heap_set(id, id);
    for (uint32_t pos = n / 2; pos-- > 0;) sift_down(pos);
  }

  // Brings the root's key up to its current estimate until the root is
  // current: then it holds the smallest estimate of the whole list (every
  // other key is >= the root's, and estimates are >= keys). Each candidate is
  // refreshed at most once, so this ends within count() rounds.
  void refresh_root() {
    for (;;) {
      const uint32_t id = root();
      const uint64_t current = estimate(hash(id));
      if (current == key(id)) return;
      set_key(id, current);
      sift_down(0);
    }
  }

  // --- index: open addressing, linear probing, backward-shift deletion ---
  uint32_t slot(uint32_t i) const { return load_le32(s_ + layout_.index + 4 * i); }
  void set_slot(uint32_t i, uint32_t v) { store_le32(s_ + layout_.index + 4 * i, v); }
  uint32_t home(uint64_t hash) const { return static_cast<uint32_t>(hash) & mask_; }

  uint32_t find(uint64_t hash) const {
    for (uint32_t i = home(hash);; i = (i + 1) & mask_) {
      const uint32_t v = slot(i);
      if (v == 0) return kNoEntry;
      if (this->hash(v - 1) == hash) return v - 1;
    }
  }

  void index_insert(uint64_t hash, uint32_t id) {
    uint32_t i = home(hash);
    while (slot(i) != 0) i = (i + 1) & mask_;
    set_slot(i, id + 1);
  }

  void index_erase(uint64_t hash) {
    uint32_t hole = home(hash);
    while (this->hash(slot(hole) - 1) != hash) hole = (hole + 1) & mask_;
    for (uint32_t j = (hole + 1) & mask_;; j = (j + 1) & mask_) {
      const uint32_t v = slot(j);
      if (v == 0) break;
      const uint32_t h = home(this->hash(v - 1));
      // The entry at j may move into the hole unless its home lies
      // cyclically in (hole, j].
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (!stays) {
        set_slot(hole, v);
        hole = j;
      }
    }
    set_slot(hole, 0);
  }

  void index_rebuild(uint32_t skip) {
    std::memset(s_ + layout_.index, 0, 4 * size_t{mask_ + 1});
    const uint32_t n = count();
    for (uint32_t id = 0; id < n; id++)
      if (id != skip) index_insert(hash(id), id);
  }

  // --- arena ---
  uint32_t arena_capacity() const { return load_le32(s_ + kArenaCapacityOffset); }
  uint32_t arena_used() const { return load_le32(s_ + kArenaUsedOffset); }
  uint32_t live_bytes() const { return load_le32(s_ + kLiveBytesOffset); }
  uint8_t* arena() { return s_ + layout_.arena; }

  // Moves every candidate text except `skip`'s to the front of the arena, in
  // offset order. The index doubles as scratch space (it has >= 2k slots)
  // and is rebuilt afterwards, without `skip`.
  void compact(uint32_t skip) {
    const uint32_t n = count();
    uint32_t live = 0;
    for (uint32_t id = 0; id < n; id++)
      if (id != skip) set_slot(live++, id);
    heap_sort(
        live, [&](uint32_t a, uint32_t b) { return text_offset(slot(a)) < text_offset(slot(b)); },
        [&](uint32_t a, uint32_t b) {
          const uint32_t t = slot(a);
          set_slot(a, slot(b));
          set_slot(b, t);
        });
    uint32_t cursor = 0;
    for (uint32_t i = 0; i < live; i++) {
      const uint32_t id = slot(i);
      const uint32_t len = text_len(id);
      const uint32_t offset = text_offset(id);
      if (offset != cursor) std::memmove(arena() + cursor, arena() + offset, len);
      item_table::set_entry_text_offset(entry(id), cursor);
      cursor += len;
    }
    store_le32(s_ + kArenaUsedOffset, cursor);
    store_le32(s_ + kLiveBytesOffset, cursor);
    index_rebuild(skip);
  }

  // Puts a value into entry `id`: a new entry (id == count()) or the root,
  // evicted. The caller has made sure the arena can hold the text once the
  // victim's is gone.
  void put(uint32_t id, uint64_t hash, uint64_t key, const uint8_t* text, uint32_t len,
           bool clipped) {
    const bool evict = id < count();
    uint32_t live = live_bytes();
    if (evict) {
      index_erase(this->hash(id));
      live -= text_len(id);
      store_le32(s_ + kLiveBytesOffset, live);
    }
    if (arena_used() + len > arena_capacity()) compact(evict ? id : kNoEntry);
    // The callers sized the arena for valid inputs; a corrupt merge input
    // (candidate texts adding up to more than its own size says) is cut at
    // the arena's end rather than written past it.
    len = std::min(len, arena_capacity() - arena_used());
    const uint32_t offset = arena_used();
    std::memcpy(arena() + offset, text, len);
    store_le32(s_ + kArenaUsedOffset, offset + len);
    store_le32(s_ + kLiveBytesOffset, live + len);

    item_table::write_entry(entry(id), hash, key, offset, len, clipped);
    index_insert(hash, id);
    if (evict) {
      sift_down(heap_pos(id));
    } else {
      const uint32_t n = count();
      store_le32(s_ + kCountOffset, n + 1);
      heap_set(n, id);
      sift_up(n);
    }
  }

 private:
  uint8_t* s_;
  uint32_t width_;
  uint32_t depth_;
  uint32_t k_;
  WorkingLayout layout_;
  uint32_t mask_;
};

void write_working_header(const Params& p, uint8_t flags, ElementKind kind, uint32_t count,
                          uint64_t total, uint32_t arena_capacity, uint8_t* dst) {
  write_cms_header(dst, flags, Encoding::kWorking, kind);
  store_le32(dst + kWidthOffset, p.width);
  store_le32(dst + kDepthOffset, p.depth);
  store_le32(dst + kCapacityOffset, p.candidates);
  store_le32(dst + kCountOffset, count);
  store_le64(dst + kTotalOffset, total);
  store_le32(dst + kArenaCapacityOffset, arena_capacity);
  store_le32(dst + kArenaUsedOffset, 0);
  store_le32(dst + kLiveBytesOffset, 0);
  store_le32(dst + kIndexCapacityOffset, index_capacity_for(p.candidates));
  store_le32(dst + kWorkingReservedOffset, 0);
}

}  // namespace

// --- building --------------------------------------------------------------

void write_empty_working(const Params& p, uint32_t arena_capacity, uint8_t* dst) {
  write_working_header(p, p.conservative ? kFlagConservative : 0, ElementKind::kNone, 0, 0,
                       arena_capacity, dst);
  // Counters, entries, heap and index start zeroed; the arena's contents are
  // never read beyond what was written.
  const WorkingLayout l = working_layout(p.width, p.depth, p.candidates);
  std::memset(dst + kWorkingCountersOffset, 0, l.arena - kWorkingCountersOffset);
}

void write_working(const View& v, uint32_t candidates, uint32_t arena_capacity, uint8_t* dst) {
  Params p = v.params;
  p.candidates = candidates;
  write_working_header(p, flags_of(v.data), element_kind_of(v.data), 0, v.total,
                       arena_capacity, dst);
  const WorkingLayout l = working_layout(p.width, p.depth, p.candidates);
  std::memset(dst + kWorkingCountersOffset, 0, l.arena - kWorkingCountersOffset);
  std::memcpy(dst + kWorkingCountersOffset, counters_of(v), counters_bytes(p.width, p.depth));

  Working w(dst);
  uint32_t used = 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    Candidate c = candidate_at(v, i);
    // A valid value has distinct hashes and fits (arena_capacity >=
    // v.value_bytes, the sum of the lengths); of a corrupt one, repeated
    // hashes are dropped (the index holds each hash once) and texts are cut
    // at the arena's end.
    if (w.find(c.hash) != kNoEntry) continue;
    c.len = std::min(c.len, arena_capacity - used);
    item_table::append_entry(w.entry(n), w.arena(), &used, c.hash, w.estimate(c.hash), c.text,
                             c.len, c.clipped);
    w.index_insert(c.hash, n++);
  }
  store_le32(dst + kCountOffset, n);
  store_le32(dst + kArenaUsedOffset, used);
  store_le32(dst + kLiveBytesOffset, used);
  w.heapify();
}

// --- updating --------------------------------------------------------------

AddOutcome add(uint8_t* s, uint64_t hash, uint64_t count, uint64_t* estimate) {
  return add_inline(s, hash, count, estimate);
}

namespace detail {

uint64_t count_conservative(uint8_t* s, uint32_t width, uint32_t depth, uint64_t hash,
                            uint64_t count) {
  // Raise each counter only to the new estimate, min + count. The stores
  // are unconditional (max) because which counters rise is unpredictable.
  uint8_t* counters = s + kWorkingCountersOffset;
  const uint32_t h1 = hash_low(hash), h2 = hash_high_odd(hash);
  uint8_t* cells[kMaxDepth];
  uint64_t values[kMaxDepth];
  uint64_t low = kMaxCount;
  for (uint32_t i = 0; i < depth; i++) {
    cells[i] = counters + 8 * (uint64_t{i} * width + column(h1, h2, i, width));
    values[i] = load_le64(cells[i]);
    low = values[i] < low ? values[i] : low;
  }
  const uint64_t est = saturating_add(low, count);
  for (uint32_t i = 0; i < depth; i++) store_le64(cells[i], values[i] < est ? est : values[i]);
  return est;
}

AddOutcome update_candidates(uint8_t* s, uint64_t hash, uint64_t est) {
  Working w(s);
  // A candidate's key is left as it is (lazy): keys are only lower bounds
  // of the estimates anyway (other values raise shared counters), and
  // refresh_root() brings the root up to date before any eviction, so the
  // list ends up exactly as with keys kept current, while the third of the
  // rows of a skewed input that hit a candidate skip a heap step. Each
  // refresh is paid for by the rows that made the key stale: amortized
  // O(d + log k) per row still.
  if (w.find(hash) != kNoEntry) return AddOutcome::kDone;
  if (w.count() < w.k()) return AddOutcome::kAdmit;
  w.refresh_root();
  return est > w.key(w.root()) ? AddOutcome::kAdmit : AddOutcome::kDone;
}

}  // namespace detail

uint32_t grown_arena_capacity(const View& v, uint32_t len) {
  const uint64_t want = std::max<uint64_t>(2 * (v.value_bytes + len),
                                           initial_arena_capacity(v.params.candidates));
  return static_cast<uint32_t>(std::min(want, max_arena_capacity(v.params.candidates)));
}

AdmitOutcome admit(uint8_t* s, uint64_t hash, uint64_t estimate, const uint8_t* text, uint32_t len,
                   bool clipped) {
  Working w(s);
  const uint32_t n = w.count();
  if (w.k() == 0) return AdmitOutcome::kDone;
  const uint32_t id = n < w.k() ? n : w.root();
  const uint32_t live_after = w.live_bytes() - (id < n ? w.text_len(id) : 0);
  if (w.arena_used() + len > w.arena_capacity() && live_after + len > w.arena_capacity() / 2)
    // Compacting would leave the arena more than half full: grow instead,
    // so compaction stays rare (amortized O(1) per admitted byte).
    return AdmitOutcome::kNeedsGrowth;
  w.put(id, hash, estimate, text, len, clipped);
  return AdmitOutcome::kDone;
}

// --- merging ---------------------------------------------------------------

MergePlan plan_merge(const View& a, const View& b) {
  MergePlan plan;
  plan.candidates = std::max(a.params.candidates, b.params.candidates);
  const uint64_t need = a.value_bytes + b.value_bytes;
  plan.in_place = a.encoding == Encoding::kWorking && a.params.candidates == plan.candidates &&
                  a.arena_capacity >= need;
  const uint64_t roomy = std::min<uint64_t>(2 * need, max_arena_capacity(plan.candidates));
  plan.arena_capacity = static_cast<uint32_t>(
      std::max<uint64_t>(roomy, initial_arena_capacity(plan.candidates)));
  Params p = a.params;
  p.candidates = plan.candidates;
  plan.size = working_size(p, plan.arena_capacity);
  return plan;
}

void merge(uint8_t* s, const View& b) {
  Working w(s);
  uint8_t* counters = w.counters();
  const uint8_t* other = counters_of(b);
  const uint64_t cells = uint64_t{b.params.width} * b.params.depth;
  for (uint64_t j = 0; j < cells; j++)
    store_le64(counters + 8 * j, saturating_add(load_le64(counters + 8 * j), load_le64(other + 8 * j)));
  store_le64(s + kTotalOffset, saturating_add(load_le64(s + kTotalOffset), b.total));
  s[5] |= flags_of(b.data) & kFlagConservative;
  if (w.k() == 0) return;

  // Every key current under the merged counters, so the heap orders the list
  // by (estimate, hash) exactly and the k best of the union survive.
  const uint32_t n = w.count();
  for (uint32_t id = 0; id < n; id++) w.set_key(id, w.estimate(w.hash(id)));
  w.heapify();
  for (uint32_t i = 0; i < b.count; i++) {
    const Candidate c = candidate_at(b, i);
    if (w.find(c.hash) != kNoEntry) continue;
    const uint64_t est = w.estimate(c.hash);
    if (w.count() < w.k()) {
      w.put(w.count(), c.hash, est, c.text, c.len, c.clipped);
      continue;
    }
    const uint32_t root = w.root();
    const uint64_t weakest = w.key(root);
    if (est > weakest || (est == weakest && c.hash < w.hash(root)))
      w.put(root, c.hash, est, c.text, c.len, c.clipped);
  }
}

void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan, uint8_t* dst) {
  uint8_t* out = a_buffer;
  if (!plan.in_place) {
    write_working(a, plan.candidates, plan.arena_capacity, dst);
    out = dst;
  }
  merge(out, b);
}

}  // namespace sketch::cms
