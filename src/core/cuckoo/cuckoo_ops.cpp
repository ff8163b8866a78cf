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

uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

void store_u32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }

Hash128 queued(const uint8_t* queue, uint32_t slot) {
  Hash128 h;
  std::memcpy(&h, queue + 8 + 16 * slot, 16);
  return h;
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
  uint8_t* queue = queue_of(c);
  const uint32_t count = load_u32(queue);
  const uint32_t head = load_u32(queue + 4);
  prefetch_buckets(c, h);
  if (count < kPendingSlots) {
    std::memcpy(queue + 8 + 16 * ((head + count) % kPendingSlots), &h, 16);
    store_u32(queue, count + 1);
    return AddResult::kAdded;
  }
  // The oldest hash's buckets were prefetched kPendingSlots adds ago.
  const AddResult r = add_in_chain(c, queued(queue, head), true);
  if (r == AddResult::kFull) return r;  // nothing changed: the caller grows
  std::memcpy(queue + 8 + 16 * head, &h, 16);
  store_u32(queue + 4, (head + 1) % kPendingSlots);
  return AddResult::kAdded;
}

uint32_t pending_of(const uint8_t* filter, size_t len) {
  if (encoding_of(filter) != Encoding::kDeferred || len < kQueueBytes) return 0;
  return load_u32(filter + len - kQueueBytes);
}

AddResult settle(uint8_t* filter) {
  if (encoding_of(filter) != Encoding::kDeferred) return AddResult::kAdded;
  Chain c;
  chain_of(filter, &c);
  uint8_t* queue = queue_of(c);
  uint32_t count = load_u32(queue);
  uint32_t head = load_u32(queue + 4);
  while (count > 0) {
    if (add_in_chain(c, queued(queue, head), true) == AddResult::kFull) return AddResult::kFull;
    head = (head + 1) % kPendingSlots;
    count--;
    store_u32(queue, count);
    store_u32(queue + 4, head);
  }
  return AddResult::kAdded;
}

AddResult add_new_hash(uint8_t* filter, Hash128 h) { return add_to_chain(filter, h, true); }

bool delete_hash(uint8_t* filter, Hash128 h) {
  Chain c;
  chain_of(filter, &c);
  const uint32_t fp = fingerprint_of(h, c.f);
  for (int j = c.s - 1; j >= 0; j--) {
    const uint64_t i1 = primary_bucket(h, c.sub[j].buckets);
    const uint64_t pair[2] = {i1, alt_bucket(i1, fp, c.sub[j].buckets)};
    for (uint64_t i : pair) {
      const uint64_t first = i * static_cast<uint64_t>(c.b);
      for (int k = 0; k < c.b; k++) {
        if (get_slot(c.sub[j].area, first + k, c.f) == fp) {
          set_slot(c.sub[j].area, first + k, c.f, 0);
          bump_count(c.sub[j].header, c.b, -1);
          return true;
        }
      }
    }
  }
  return false;
}

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
  const uint64_t total = layout + (v.encoding == Encoding::kDeferred ? kQueueBytes : 0);
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
  const uint64_t buckets = largest_buckets(v) * 2;
  const size_t at = v.used - kGuardBytes;
  std::memcpy(dst, v.data, at);
  const bool deferred = v.encoding == Encoding::kDeferred;
  dst[6] = static_cast<uint8_t>(deferred ? Encoding::kDeferred : Encoding::kWorking);
  dst[kSubfilterCountOffset] = static_cast<uint8_t>(v.subfilters + 1);
  const size_t bytes = subfilter_bytes(buckets, v.bucket_size, v.fingerprint_bits);
  std::memset(dst + at, 0, bytes + kGuardBytes);
  store_le64(dst + at, buckets);
  // The queue goes along, after the new guard.
  if (deferred) std::memcpy(dst + at + bytes + kGuardBytes, v.data + v.used, kQueueBytes);
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

Status plan_union(const View& a, const View& b, bool* in_place, size_t* size) {
  Status st = check_compatible(a, b);
  if (!st.is_ok()) return st;
  if (a.subfilters + b.subfilters > kMaxSubfilters)
    return Status::error(StatusCode::kOverflow,
                         "cuckoo union of %d and %d sub-filters could pass the maximum of %d "
                         "sub-filters", a.subfilters, b.subfilters, kMaxSubfilters);
  *in_place = a.encoding == Encoding::kWorking && a.size - a.used >= b.used;
  const uint64_t total = static_cast<uint64_t>(a.used) + b.used;
  if (!*in_place && total > kMaxDumpableBytes)
    return Status::error(StatusCode::kOverflow,
                         "cuckoo union needs up to %llu bytes, above the maximum of %zu bytes "
                         "(512 MiB less 64 KiB, the largest value that can be dumped as text)",
                         static_cast<unsigned long long>(total), kMaxDumpableBytes);
  *size = *in_place ? a.size : static_cast<size_t>(total);
  return Status::ok();
}

void union_into(uint8_t* target, size_t target_len, const View& a, const View& b) {
  if (target != a.data) {
    std::memcpy(target, a.data, a.used);
    std::memset(target + a.used, 0, target_len - a.used);
  }
  target[6] = static_cast<uint8_t>(Encoding::kWorking);
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
    for (uint64_t i = 0; i < buckets; i++) {
      for (int k = 0; k < bs; k++) {
        const uint32_t fp = get_slot(barea, i * bs + k, f);
        if (fp == 0) continue;
        Chain c;
        chain_of(target, &c);
        const uint64_t i2 = alt_bucket(i, fp, buckets);
        bool done = false;
        for (int j = 0; j < c.s && !done; j++)
          done = c.sub[j].buckets == buckets && in_pair(c.sub[j].area, buckets, bs, f, i, fp);
        for (int j = 0; j < original && !done; j++) {
          if (c.sub[j].buckets != buckets) continue;
          if (place(c.sub[j].area, i, bs, f, fp) || place(c.sub[j].area, i2, bs, f, fp) ||
              kick_in(c.sub[j].area, buckets, bs, f, i, i2, fp)) {
            bump_count(c.sub[j].header, c.b, 1);
            done = true;
          }
        }
        if (done) continue;
        if (overflow < 0) {
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
        place(c.sub[overflow].area, i, bs, f, fp);
        bump_count(c.sub[overflow].header, bs, 1);
      }
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
