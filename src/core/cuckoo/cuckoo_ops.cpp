// Inserting (with relocation and its undo), deleting, probing, growing,
// uniting and the estimates.
#include <cmath>
#include <cstring>

#include "core/cuckoo/cuckoo.h"

namespace sketch::cuckoo {

namespace {

// One sub-filter of a mutable buffer.
struct Sub {
  uint8_t* header;  // B, count
  uint8_t* area;
  uint64_t buckets;
};

// The sub-filters of a buffer parse() or is_valid_structure() accepted.
struct Chain {
  int f;
  int b;
  int s;
  Sub sub[kMaxSubfilters];
};

void chain_of(uint8_t* filter, Chain* c) {
  c->f = fingerprint_bits_of(filter);
  c->b = bucket_size_of(filter);
  c->s = subfilter_count_of(filter);
  size_t at = kFirstSubfilterOffset;
  for (int j = 0; j < c->s; j++) {
    const uint64_t buckets = load_le64(filter + at);
    c->sub[j] = Sub{filter + at, filter + at + kSubfilterHeaderBytes, buckets};
    at += subfilter_bytes(buckets, c->b, c->f);
  }
}

// One more (delta 1) or one fewer (delta -1) fingerprint in a sub-filter's
// count, kept within 0..B*b: in a valid filter the count is exact and never
// reaches either bound this way, but a working state that parse(kStructure)
// accepted may carry any count up to B*b, and an add or delete written into
// it in place must leave it a state that still parses (a count of B*b plus
// one, or 0 minus one, would not, and the next row's growth would find the
// executor's state corrupt).
void bump_count(uint8_t* header, int b, int delta) {
  const uint64_t slots = load_le64(header) * static_cast<uint64_t>(b);
  const uint64_t count = load_le64(header + 8);
  uint64_t next = count;
  if (delta > 0) {
    next = count < slots ? count + 1 : slots;
  } else {
    next = count > 0 ? count - 1 : 0;
  }
  store_le64(header + 8, next);
}

// The first empty slot of bucket i takes fp.
bool place(uint8_t* area, uint64_t i, int b, int f, uint32_t fp) {
  const uint64_t first = i * static_cast<uint64_t>(b);
  for (int k = 0; k < b; k++) {
    if (get_slot(area, first + k, f) == 0) {
      set_slot(area, first + k, f, fp);
      return true;
    }
  }
  return false;
}

// The victim slot of kick `kick` for the moving fingerprint fp: a fixed
// function of both, so relocation is deterministic.
int victim_slot(uint32_t fp, int kick, int b) {
  return static_cast<int>(mix64(fp + (static_cast<uint64_t>(kick) << 32)) >> 61) & (b - 1);
}

// Relocation in one sub-filter for fp whose buckets i1, i2 are full: up to
// kMaxKicks swaps; on failure every swap is undone in reverse order, leaving
// the area exactly as it was.
bool kick_in(uint8_t* area, uint64_t buckets, int b, int f, uint64_t i1, uint64_t i2,
             uint32_t fp) {
  struct Step {
    uint64_t slot;
  };
  Step path[kMaxKicks];
  uint64_t i = (mix64(fp) & 1) ? i2 : i1;
  uint32_t cur = fp;
  for (int kick = 0; kick < kMaxKicks; kick++) {
    const uint64_t slot = i * static_cast<uint64_t>(b) + victim_slot(cur, kick, b);
    path[kick].slot = slot;
    const uint32_t victim = get_slot(area, slot, f);
    set_slot(area, slot, f, cur);
    cur = victim;
    i = alt_bucket(i, cur, buckets);
    if (place(area, i, b, f, cur)) return true;
  }
  for (int kick = kMaxKicks - 1; kick >= 0; kick--) {
    const uint64_t slot = path[kick].slot;
    const uint32_t there = get_slot(area, slot, f);
    set_slot(area, slot, f, cur);
    cur = there;
  }
  return false;
}

bool in_pair(const uint8_t* area, uint64_t buckets, int b, int f, uint64_t i, uint32_t fp) {
  if (count_in_bucket(area, i, b, f, fp) != 0) return true;
  return count_in_bucket(area, alt_bucket(i, fp, buckets), b, f, fp) != 0;
}

AddResult add_in_chain(const Chain& c, Hash128 h, bool only_new) {
  const uint32_t fp = fingerprint_of(h, c.f);
  uint64_t i1[kMaxSubfilters];
  uint64_t i2[kMaxSubfilters];
  for (int j = 0; j < c.s; j++) {
    i1[j] = primary_bucket(h, c.sub[j].buckets);
    i2[j] = alt_bucket(i1[j], fp, c.sub[j].buckets);
  }
  if (only_new) {
    for (int j = 0; j < c.s; j++)
      if (count_in_bucket(c.sub[j].area, i1[j], c.b, c.f, fp) != 0 ||
          count_in_bucket(c.sub[j].area, i2[j], c.b, c.f, fp) != 0)
        return AddResult::kPresent;
  }
  // A free slot in any sub-filter, oldest first; then relocation in the
  // newest (largest) one only, as RedisBloom's CF.ADD does.
  for (int j = 0; j < c.s; j++) {
    if (place(c.sub[j].area, i1[j], c.b, c.f, fp) || place(c.sub[j].area, i2[j], c.b, c.f, fp)) {
      bump_count(c.sub[j].header, c.b, 1);
      return AddResult::kAdded;
    }
  }
  const int last = c.s - 1;
  if (kick_in(c.sub[last].area, c.sub[last].buckets, c.b, c.f, i1[last], i2[last], fp)) {
    bump_count(c.sub[last].header, c.b, 1);
    return AddResult::kAdded;
  }
  return AddResult::kFull;
}

AddResult add_to_chain(uint8_t* filter, Hash128 h, bool only_new) {
  Chain c;
  chain_of(filter, &c);
  return add_in_chain(c, h, only_new);
}

// The queue of a deferred state: right after its layout's guard.
uint8_t* queue_of(const Chain& c) {
  const Sub& last = c.sub[c.s - 1];
  return last.area + area_bytes(last.buckets, c.b, c.f) + kGuardBytes;
}

// Asks for the cache line of a bucket. GCC deletes __builtin_prefetch in a
// loop whose only effect it is (as a loop without side effects), so the
// prefetch is an instruction the compiler must keep where there is one.
inline void prefetch(const uint8_t* at) {
#if defined(__x86_64__) || defined(__i386__)
  __asm__ volatile("prefetcht0 %0" : : "m"(*at));
#else
  __builtin_prefetch(at, 1);
#endif
}

// Asks for the cache lines of h's two buckets in every sub-filter.
void prefetch_buckets(const Chain& c, Hash128 h) {
  const uint32_t fp = fingerprint_of(h, c.f);
  const uint64_t bits = static_cast<uint64_t>(c.b) * c.f;
  for (int j = 0; j < c.s; j++) {
    const uint64_t i1 = primary_bucket(h, c.sub[j].buckets);
    const uint64_t i2 = alt_bucket(i1, fp, c.sub[j].buckets);
    prefetch(c.sub[j].area + ((i1 * bits) >> 3));
    prefetch(c.sub[j].area + ((i2 * bits) >> 3));
  }
}

}  // namespace

AddResult add_hash(uint8_t* filter, Hash128 h) { return add_to_chain(filter, h, false); }

AddResult add_deferred(uint8_t* filter, Hash128 h) {
  Chain c;
  chain_of(filter, &c);
  prefetch_buckets(c, h);
  // The oldest hash's buckets were prefetched kPendingSlots adds ago. When it
  // finds no room nothing changes: the caller grows and calls again.
  const bool queued = prefetch_queue::push(queue_of(c), h, [&](Hash128 oldest) {
    return add_in_chain(c, oldest, true) != AddResult::kFull;
  });
  return queued ? AddResult::kAdded : AddResult::kFull;
}

uint32_t pending_of(const uint8_t* filter, size_t len) {
  if (encoding_of(filter) == Encoding::kDistinctDeferred) {
    Chain c;
    chain_of(const_cast<uint8_t*>(filter), &c);
    return prefetch_queue::count(queue_of(c));
  }
  if (encoding_of(filter) != Encoding::kDeferred || len < kQueueBytes) return 0;
  return prefetch_queue::count(filter + len - kQueueBytes);
}

AddResult settle(uint8_t* filter) {
  if (encoding_of(filter) == Encoding::kDistinctDeferred) {
    const DistinctResult r = settle_distinct(filter);
    return r == DistinctResult::kAdded || r == DistinctResult::kSeen ? AddResult::kAdded
                                                                     : AddResult::kFull;
  }
  if (encoding_of(filter) != Encoding::kDeferred) return AddResult::kAdded;
  Chain c;
  chain_of(filter, &c);
  const bool drained = prefetch_queue::drain(queue_of(c), [&](Hash128 h) {
    return add_in_chain(c, h, true) != AddResult::kFull;
  });
  return drained ? AddResult::kAdded : AddResult::kFull;
}

AddResult add_new_hash(uint8_t* filter, Hash128 h) { return add_to_chain(filter, h, true); }

DeleteResult remove_hash(uint8_t* filter, Hash128 h) {
  Chain c;
  chain_of(filter, &c);
  const uint32_t fp = fingerprint_of(h, c.f);
  // The newest sub-filter holding fp in h's pair, and whether one of another
  // bucket count does too (cuckoo.h: which size holds h's copy is unknown).
  int found = -1;
  uint64_t pair[2] = {0, 0};
  for (int j = c.s - 1; j >= 0; j--) {
    const uint64_t i1 = primary_bucket(h, c.sub[j].buckets);
    const uint64_t i2 = alt_bucket(i1, fp, c.sub[j].buckets);
    if (count_in_bucket(c.sub[j].area, i1, c.b, c.f, fp) == 0 &&
        count_in_bucket(c.sub[j].area, i2, c.b, c.f, fp) == 0)
      continue;
    if (found < 0) {
      found = j;
      pair[0] = i1;
      pair[1] = i2;
    } else if (c.sub[j].buckets != c.sub[found].buckets) {
      return DeleteResult::kAmbiguous;
    }
  }
  if (found < 0) return DeleteResult::kAbsent;
  const Sub& sub = c.sub[found];
  for (uint64_t i : pair) {
    const uint64_t first = i * static_cast<uint64_t>(c.b);
    for (int k = 0; k < c.b; k++) {
      if (get_slot(sub.area, first + k, c.f) == fp) {
        set_slot(sub.area, first + k, c.f, 0);
        bump_count(sub.header, c.b, -1);
        return DeleteResult::kDeleted;
      }
    }
  }
  return DeleteResult::kAbsent;  // not reached: a bucket of the pair holds fp
}

bool delete_hash(uint8_t* filter, Hash128 h) { return remove_hash(filter, h) == DeleteResult::kDeleted; }

bool contains_hash(const View& v, Hash128 h) {
  const uint32_t fp = fingerprint_of(h, v.fingerprint_bits);
  for (int j = 0; j < v.subfilters; j++) {
    const uint64_t i1 = primary_bucket(h, v.buckets[j]);
    if (in_pair(area_of(v, j), v.buckets[j], v.bucket_size, v.fingerprint_bits, i1, fp))
      return true;
  }
  return false;
}

int64_t count_hash(const View& v, Hash128 h) {
  const uint32_t fp = fingerprint_of(h, v.fingerprint_bits);
  int64_t n = 0;
  for (int j = 0; j < v.subfilters; j++) {
    const uint64_t i1 = primary_bucket(h, v.buckets[j]);
    const uint64_t i2 = alt_bucket(i1, fp, v.buckets[j]);
    n += count_in_bucket(area_of(v, j), i1, v.bucket_size, v.fingerprint_bits, fp);
    if (i2 != i1) n += count_in_bucket(area_of(v, j), i2, v.bucket_size, v.fingerprint_bits, fp);
  }
  return n;
}

// --- growth ----------------------------------------------------------------------

namespace {

uint64_t largest_buckets(const View& v) {
  uint64_t largest = 0;
  for (int j = 0; j < v.subfilters; j++) largest = v.buckets[j] > largest ? v.buckets[j] : largest;
  return largest;
}

}  // namespace

Status plan_grow(const View& v, size_t* size) {
  const uint64_t buckets = largest_buckets(v) * 2;
  const uint64_t added = subfilter_bytes(buckets, v.bucket_size, v.fingerprint_bits);
  const uint64_t layout = static_cast<uint64_t>(v.used) + added;
  // What follows the layout (the queue, the seen set) goes along.
  const uint64_t total = layout + (working_size(v) - v.used);
  *size = layout > kMaxDumpableBytes ? SIZE_MAX : static_cast<size_t>(total);
  if (v.subfilters >= kMaxSubfilters)
    return Status::error(StatusCode::kOverflow,
                         "cuckoo filter cannot grow past %d sub-filters (it holds %llu "
                         "fingerprints)", kMaxSubfilters,
                         static_cast<unsigned long long>(held(v)));
  if (layout > kMaxDumpableBytes)
    return Status::error(StatusCode::kOverflow,
                         "cuckoo filter cannot grow to %llu bytes: the maximum is %zu bytes "
                         "(512 MiB less 64 KiB, the largest value that can be dumped as text)",
                         static_cast<unsigned long long>(layout), kMaxDumpableBytes);
  return Status::ok();
}

void grow(const View& v, uint8_t* dst) {
  // plan_grow refused this; the bound is kept here too, so that no caller
  // can make a 33rd sub-filter (Chain::sub and View::buckets hold 32).
  if (v.subfilters >= kMaxSubfilters) return;
  const uint64_t buckets = largest_buckets(v) * 2;
  const size_t at = v.used - kGuardBytes;
  std::memcpy(dst, v.data, at);
  const bool keeps = has_queue(v.encoding) || has_seen_set(v.encoding);
  dst[6] = static_cast<uint8_t>(keeps ? v.encoding : Encoding::kSpareTail);
  dst[kSubfilterCountOffset] = static_cast<uint8_t>(v.subfilters + 1);
  const size_t bytes = subfilter_bytes(buckets, v.bucket_size, v.fingerprint_bits);
  std::memset(dst + at, 0, bytes + kGuardBytes);
  store_le64(dst + at, buckets);
  // The queue and the seen set go along, after the new guard (a tail does not).
  std::memcpy(dst + at + bytes + kGuardBytes, v.data + v.used, working_size(v) - v.used);
}

// --- the seen set of the distinct encoding ------------------------------------------

namespace {

// Slot position of a hash in a table of `capacity` (a power of two) slots.
uint64_t seen_home(Hash128 h, uint64_t capacity) {
  return mix64(h.low ^ (h.high * 0x9e3779b97f4a7c15ULL)) & (capacity - 1);
}

// The all-zero slot means empty: the one hash that is all zero is kept as
// (0, 1) (it is then one value with (0, 1); both are 2^-128 events).
Hash128 seen_key(Hash128 h) {
  if (h.low == 0 && h.high == 0) h.high = 1;
  return h;
}

struct Seen {
  uint8_t* header;  // entries, capacity
  uint8_t* slots;
  uint64_t capacity;
};

// The seen set of a state of encoding e (has_seen_set) whose chain is c:
// after the layout's guard, and after the queue when e has one.
Seen seen_in(const Chain& c, Encoding e) {
  uint8_t* header = queue_of(c) + (has_queue(e) ? kQueueBytes : 0);
  return Seen{header, header + kSeenHeaderBytes, load_le64(header + 8)};
}

// Finds h: true when present; else *empty is the slot it would take, or
// UINT64_MAX when `capacity` probes met no empty slot (a state whose count
// is off; the caller then grows the set, which rehashes what it holds).
bool seen_find(const uint8_t* slots, uint64_t capacity, Hash128 key, uint64_t* empty) {
  uint64_t at = seen_home(key, capacity);
  for (uint64_t step = 0; step < capacity; step++) {
    const uint8_t* slot = slots + at * 16;
    const uint64_t lo = load_le64(slot), hi = load_le64(slot + 8);
    if (lo == key.low && hi == key.high) return true;
    if (lo == 0 && hi == 0) {
      *empty = at;
      return false;
    }
    at = (at + 1) & (capacity - 1);
  }
  *empty = UINT64_MAX;
  return false;
}

// Inserts a key known to be absent; false when there is no empty slot.
bool seen_insert(const Seen& s, Hash128 key) {
  uint64_t empty;
  if (seen_find(s.slots, s.capacity, key, &empty)) return true;
  if (empty == UINT64_MAX) return false;
  store_le64(s.slots + empty * 16, key.low);
  store_le64(s.slots + empty * 16 + 8, key.high);
  const uint64_t n = load_le64(s.header);
  store_le64(s.header, n + 1 < s.capacity ? n + 1 : s.capacity - 1);
  return true;
}

}  // namespace

namespace {

// A seen set of `capacity` slots at `header`, holding v's entries when v is
// distinct (empty otherwise).
void write_seen(const View& v, uint64_t capacity, uint8_t* header) {
  std::memset(header, 0, seen_region_bytes(capacity));
  store_le64(header + 8, capacity);
  if (!has_seen_set(v.encoding)) return;
  const Seen to{header, header + kSeenHeaderBytes, capacity};
  const uint8_t* from = v.data + seen_offset(v) + kSeenHeaderBytes;
  for (uint64_t k = 0; k < v.seen_capacity; k++) {
    const Hash128 key{load_le64(from + k * 16), load_le64(from + k * 16 + 8)};
    if (key.low == 0 && key.high == 0) continue;
    if (!seen_insert(to, key)) return;  // only when capacity is below the entries
  }
}

}  // namespace

void write_distinct(const View& v, uint64_t capacity, uint8_t* dst) {
  const Encoding target = distinct_target(v);
  std::memcpy(dst, v.data, v.used);
  dst[6] = static_cast<uint8_t>(target);
  size_t at = v.used;
  if (has_queue(target)) {
    if (has_queue(v.encoding)) {
      std::memcpy(dst + at, v.data + v.used, kQueueBytes);  // distinct deferred: its queue
    } else {
      prefetch_queue::clear(dst + at);
    }
    at += kQueueBytes;
  }
  write_seen(v, capacity, dst + at);
}

namespace {

// add_distinct's add of one value at once, into a state whose chain is c
// and seen set s (the chain walked once for both).
DistinctResult add_distinct_in(const Chain& c, const Seen& s, uint8_t* state, Hash128 h) {
  const Hash128 key = seen_key(h);
  uint64_t empty;
  if (seen_find(s.slots, s.capacity, key, &empty)) return DistinctResult::kSeen;
  if (empty == UINT64_MAX || (load_le64(s.header) + 1) * 4 > s.capacity * 3) {
    if (s.capacity < kMaxSeenCapacity) return DistinctResult::kSetFull;
    // The set cannot grow: fingerprint set semantics from here on, which
    // only version 1 describes (cuckoo.h).
    state[3] = kOldestFormatVersion;
    switch (add_in_chain(c, h, true)) {
      case AddResult::kAdded: return DistinctResult::kAdded;
      case AddResult::kPresent: return DistinctResult::kSeen;
      case AddResult::kFull: return DistinctResult::kFilterFull;
    }
  }
  if (add_in_chain(c, h, false) == AddResult::kFull) return DistinctResult::kFilterFull;
  store_le64(s.slots + empty * 16, key.low);
  store_le64(s.slots + empty * 16 + 8, key.high);
  store_le64(s.header, load_le64(s.header) + 1);
  return DistinctResult::kAdded;
}

bool taken(DistinctResult r) { return r == DistinctResult::kAdded || r == DistinctResult::kSeen; }

}  // namespace

DistinctResult add_distinct(uint8_t* state, Hash128 h) {
  Chain c;
  chain_of(state, &c);
  const Encoding encoding = encoding_of(state);
  const Seen s = seen_in(c, encoding);
  if (encoding != Encoding::kDistinctDeferred) return add_distinct_in(c, s, state, h);
  // The seen-set slot h will probe first and its buckets, asked for now and
  // read kPendingSlots rows later, when the queue hands h back.
  prefetch_buckets(c, h);
  const uint8_t* home = s.slots + seen_home(seen_key(h), s.capacity) * 16;
  prefetch(home);
  prefetch(home + 64);  // a probe often runs on into the next line
  DistinctResult r = DistinctResult::kAdded;
  prefetch_queue::push(queue_of(c), h, [&](Hash128 oldest) {
    r = add_distinct_in(c, s, state, oldest);
    return taken(r);
  });
  return r;
}

DistinctResult settle_distinct(uint8_t* state) {
  if (encoding_of(state) != Encoding::kDistinctDeferred) return DistinctResult::kAdded;
  Chain c;
  chain_of(state, &c);
  const Seen s = seen_in(c, Encoding::kDistinctDeferred);
  DistinctResult r = DistinctResult::kAdded;
  const bool drained = prefetch_queue::drain(queue_of(c), [&](Hash128 h) {
    r = add_distinct_in(c, s, state, h);
    return taken(r);
  });
  return drained ? DistinctResult::kAdded : r;
}

// --- combining ---------------------------------------------------------------------

Status check_compatible(const View& a, const View& b) {
  if (a.fingerprint_bits == b.fingerprint_bits && a.bucket_size == b.bucket_size &&
      a.hash_identity == b.hash_identity)
    return Status::ok();
  return Status::error(StatusCode::kMismatch,
                       "cannot combine cuckoo filters with different parameters: "
                       "(fingerprint_bits=%d, bucket_size=%d, hash=%u) and "
                       "(fingerprint_bits=%d, bucket_size=%d, hash=%u)",
                       a.fingerprint_bits, a.bucket_size, a.hash_identity, b.fingerprint_bits,
                       b.bucket_size, b.hash_identity);
}

Status plan_merge(const View& a, const View& b, bool* in_place, size_t* size) {
  Status st = check_compatible(a, b);
  if (!st.is_ok()) return st;
  if (a.subfilters + b.subfilters > kMaxSubfilters)
    return Status::error(StatusCode::kOverflow,
                         "cuckoo union of %d and %d sub-filters could pass the maximum of %d "
                         "sub-filters", a.subfilters, b.subfilters, kMaxSubfilters);
  *in_place = a.encoding == Encoding::kSpareTail && a.size - a.used >= b.used;
  const uint64_t total = static_cast<uint64_t>(a.used) + b.used;
  if (!*in_place && total > kMaxDumpableBytes)
    return Status::error(StatusCode::kOverflow,
                         "cuckoo union needs up to %llu bytes, above the maximum of %zu bytes "
                         "(512 MiB less 64 KiB, the largest value that can be dumped as text)",
                         static_cast<unsigned long long>(total), kMaxDumpableBytes);
  *size = *in_place ? a.size : static_cast<size_t>(total);
  return Status::ok();
}

void merge(uint8_t* target, size_t target_len, const View& a, const View& b) {
  if (target != a.data) {
    std::memcpy(target, a.data, a.used);
    std::memset(target + a.used, 0, target_len - a.used);
  }
  target[6] = static_cast<uint8_t>(Encoding::kSpareTail);
  // A union with a version 1 filter can promise only what version 1 does.
  target[3] = a.version < b.version ? a.version : b.version;
  const int f = a.fingerprint_bits;
  const int bs = a.bucket_size;
  const int original = a.subfilters;
  size_t end = a.used - kGuardBytes;  // where an appended sub-filter goes
  // b's slots are read from b's bytes, which never alias target (a union of a
  // state with itself reads a copy: the mechanism hands b as a separate view).
  for (int jb = 0; jb < b.subfilters; jb++) {
    const uint64_t buckets = b.buckets[jb];
    const uint8_t* barea = area_of(b, jb);
    int overflow = -1;  // the sub-filter appended for this one of b, if any
    // Relocation is tried until it fails once for this sub-filter of b: past
    // that a's sub-filters of this size are close to full, and 500 kicks per
    // fingerprint would buy little room at a great cost (docs/benchmarks.md
    // has the union aggregate that showed it).
    bool kicks = true;
    for (uint64_t i = 0; i < buckets; i++) {
      for (int k = 0; k < bs; k++) {
        const uint32_t fp = get_slot(barea, i * bs + k, f);
        if (fp == 0) continue;
        Chain c;
        chain_of(target, &c);
        const uint64_t i2 = alt_bucket(i, fp, buckets);
        // Every copy of b is one more copy in a (a multiset sum, cuckoo.h),
        // at its bucket in a sub-filter of its bucket count.
        bool done = false;
        for (int j = 0; j < original && !done; j++) {
          if (c.sub[j].buckets != buckets) continue;
          if (place(c.sub[j].area, i, bs, f, fp) || place(c.sub[j].area, i2, bs, f, fp)) {
            bump_count(c.sub[j].header, c.b, 1);
            done = true;
          }
        }
        for (int j = 0; j < original && !done && kicks; j++) {
          if (c.sub[j].buckets != buckets) continue;
          if (kick_in(c.sub[j].area, buckets, bs, f, i, i2, fp)) {
            bump_count(c.sub[j].header, c.b, 1);
            done = true;
          } else {
            kicks = false;
          }
        }
        if (done) continue;
        if (overflow < 0) {
          // plan_merge kept a.S + b.S <= kMaxSubfilters: one appended per
          // sub-filter of b at most.
          if (c.s >= kMaxSubfilters) return;
          overflow = c.s;
          const size_t bytes = subfilter_bytes(buckets, bs, f);
          std::memset(target + end, 0, bytes + kGuardBytes);
          store_le64(target + end, buckets);
          end += bytes;
          target[kSubfilterCountOffset] = static_cast<uint8_t>(c.s + 1);
          chain_of(target, &c);
        }
        // The appended sub-filter receives only fingerprints of b's bucket i
        // at bucket i: it always has room.
        if (place(c.sub[overflow].area, i, bs, f, fp)) bump_count(c.sub[overflow].header, bs, 1);
      }
    }
  }
}

void merge_distinct(uint8_t* target, size_t target_len, const View& a, const View& b,
                    uint64_t capacity) {
  merge(target, target_len, a, b);
  View u;
  if (!parse(target, target_len, Validation::kStructure, &u).is_ok()) return;  // not reached
  if (target_len - u.used < seen_region_bytes(capacity)) return;  // not reached (plan_merge)
  write_seen(a, capacity, target + u.used);
  target[6] = static_cast<uint8_t>(Encoding::kDistinct);
  if (!has_seen_set(b.encoding)) return;
  Chain c;
  chain_of(target, &c);
  const Seen s = seen_in(c, Encoding::kDistinct);
  const uint8_t* from = b.data + seen_offset(b) + kSeenHeaderBytes;
  for (uint64_t k = 0; k < b.seen_capacity; k++) {
    const Hash128 key{load_le64(from + k * 16), load_le64(from + k * 16 + 8)};
    if (key.low == 0 && key.high == 0) continue;
    uint64_t empty;
    if (seen_find(s.slots, s.capacity, key, &empty)) {
      // Added on both sides: one copy goes (refused when ambiguous, cuckoo.h).
      remove_hash(target, key);
    } else if (empty != UINT64_MAX) {
      store_le64(s.slots + empty * 16, key.low);
      store_le64(s.slots + empty * 16 + 8, key.high);
      store_le64(s.header, load_le64(s.header) + 1);
    }
  }
}

// --- estimates ---------------------------------------------------------------------

uint64_t held(const View& v) {
  uint64_t n = 0;
  for (int j = 0; j < v.subfilters; j++) n += count_of(v, j);
  return n;
}

uint64_t capacity(const View& v) {
  uint64_t n = 0;
  for (int j = 0; j < v.subfilters; j++) n += v.buckets[j] * v.bucket_size;
  return n;
}

double estimate_fpp(const View& v) {
  const double miss = std::log1p(-1.0 / (std::ldexp(1.0, v.fingerprint_bits) - 1.0));
  double log_none = 0.0;
  for (int j = 0; j < v.subfilters; j++) {
    const double load =
        static_cast<double>(count_of(v, j)) / (static_cast<double>(v.buckets[j]) * v.bucket_size);
    log_none += 2.0 * v.bucket_size * load * miss;
  }
  return -std::expm1(log_none) + 0.0;  // +0.0: an empty filter answers 0, not -0
}

}  // namespace sketch::cuckoo
