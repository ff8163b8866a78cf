// Cuckoo filter: set membership with deletes (Fan, Andersen, Kaminsky,
// Mitzenmacher, "Cuckoo Filter: Practically Better Than Bloom", CoNEXT 2014).
//
// A filter is an array of B buckets of b slots (b in {2, 4, 8}); a slot holds
// an f-bit fingerprint of a value or 0 (empty). A value hashes once (128-bit
// XXH3 of its canonical encoding, as bloom):
//
//   fp   = low 64 bits & (2^f - 1), with 0 replaced by 1 (0 marks empty)
//   i1   = floor(high 64 bits * B / 2^64)           (Lemire's multiply-shift)
//   i2   = alt(i1, fp),  alt(i, fp) = (H(fp) - i) mod B,
//          H(fp) = floor(mix64(fp) * B / 2^64)      (a fixed mix of fp)
//
// and lives in one slot of bucket i1 or i2 (partial-key cuckoo hashing). Any
// B works, not only powers of two, so sizing is tight: alt is an involution,
// alt(alt(i, fp), fp) = (H - (H - i)) mod B = i, so an entry can always move
// to its other bucket knowing only its bucket and its fingerprint.
//
// A lookup compares fp with the 2b slots of its two buckets: a value never
// added matches with probability <= 2b / 2^f (exactly 1 - (1 - 1/(2^f - 1))^
// (2b * load) at a load, since fingerprints are uniform over 1..2^f - 1).
// Sizing for n values at false-positive rate p: f = ceil(log2(2b/p)) (4..32)
// and B = ceil(n / (b * alpha)) at a design load alpha that inserts reach
// reliably within 500 relocations (design_load: 0.80 at b = 2, 0.90 at b = 4,
// 0.93 at b = 8). Fingerprints are packed bit-wise, so a member costs
// f / alpha bits: (log2(1/p) + log2(2b)) / alpha, (log2(1/p) + 3) / alpha at
// b = 4.
//
// Insert: the first empty slot of i1, then of i2; else relocation ("kicks"):
// up to kMaxKicks times, a victim slot of the current bucket, chosen by a
// function of the moving fingerprint and the kick number (no random state, so
// the same inserts in the same order give the same bytes), swaps with the
// moving fingerprint, which then goes to its alternate bucket. When the kicks
// run out, the whole kick path is undone in reverse (the filter is exactly as
// before: nothing is lost) and the filter grows as RedisBloom's CF does: a new
// sub-filter of twice the buckets of the largest one is appended to a chain,
// and the value goes there. Lookups check every sub-filter (each with its own
// B); at most kMaxSubfilters, and never past kMaxDumpableBytes.
//
// Copies and deletes (format version 2, issue 32). A filter is a multiset of
// fingerprint copies, and every copy stands for one add of one value that
// was not deleted since:
//   - cuckoo_add adds a copy; cuckoo_add_new adds one unless the fingerprint
//     is maybe-present (CF.ADDNX: the caller's choice of fingerprint set
//     semantics, see below);
//   - cuckoo_agg adds one copy per distinct value it sees. Its working state
//     (the distinct encoding) keeps the 128-bit hash of every value it added
//     in a seen set; a repeated row finds its hash there and is skipped.
//     Duplicates are removed by the whole 128-bit hash, never by the
//     fingerprint: two distinct values that share a fingerprint and a bucket
//     pair get two copies (values whose 128-bit hashes are equal count as
//     one: about n^2 / 2^129 of them, 1.5e-27 at n = 10^6);
//   - a union adds every copy of b to a (a multiset sum), at the bucket it
//     had in b, into a sub-filter of b's bucket count. A union of two
//     cuckoo_agg states (the combine step of a parallel plan) then removes
//     one copy for each hash both seen sets hold: that value was added on
//     both sides, and it keeps exactly one copy, as in one serial pass.
//     (When that removal is refused as ambiguous, below, both copies stay:
//     a count one too high, never a member lost.) Partial states that went
//     through text (Citus) carry no seen set: a value met on k shards keeps
//     k copies. A seen set holds at most kMaxSeenCapacity * 3/4 values
//     (12.5M); an aggregate past that continues with fingerprint set
//     semantics, and its filter is marked version 1 (below);
//
// Why no delete of a value added (and not yet deleted as often) can make
// another value absent. Call two values alike in a sub-filter of B buckets
// when they have the same fingerprint fp and the same bucket pair there.
// Every slot holding fp in bucket i of a sub-filter of B buckets belongs to
// a value whose pair is {i, alt(i, fp)}: the pair is a function of (i, fp),
// so the copies of fp in a pair are exactly the copies of the alike values.
// Invariant: for every sub-filter size B and every class of alike values,
// the copies of fp in that pair over the sub-filters of size B equal the
// sum, over the class's values, of their copies placed at size B (added,
// not yet deleted). Adds and unions keep it (a copy goes to a pair of its
// value at size B; kicks move a copy to the other bucket of its own pair;
// a union re-inserts a copy of b's size-B sub-filter at its bucket into a
// size-B sub-filter). A delete of a value x with a copy left has one copy
// placed at some size B_x, so the class of x at B_x holds a copy; if every
// sub-filter holding fp in x's pair has the same size, that size is B_x,
// and removing any copy there lowers the class's copies and x's by one
// (the copies are interchangeable within the class): every other value
// keeps all of its copies. If sub-filters of two sizes hold fp in x's pairs,
// which size holds x's copy is unknown, and nothing is removed (kAmbiguous:
// x stays maybe-present, a false positive, never a false negative). This
// needs a filter that grew and a fingerprint match in another size, about
// cuckoo_fpp of deletes. Within one size a delete is never refused.
// Counts: every copy is one add, so cuckoo_cardinality (the copies held)
// is the adds minus the deletes; nothing is merged by fingerprint, so it
// stays exact after unions and growth (a value two parallel workers met
// keeps one copy: the combine removes the other by its hash).
//
// What breaks the promise: deleting a value never added (or more often than
// added), when it is a false positive, removes another value's copy; and
// cuckoo_add_new skips a value whose fingerprint is maybe-present, so a
// value it skipped shares another's copy. Version 1 filters (written before
// issue 32) were built by aggregates and unions with fingerprint set
// semantics, so their alike values may share one copy: every value added
// is present (no false negative until a delete), but a delete may remove
// an alike value, and their counts are a lower bound. A filter keeps its
// version when written to, and a union of a version 1 filter is version 1.
//
// Cost of repeats: a value on 10^6 rows of one cuckoo_agg costs one
// fingerprint copy and one 16-byte seen-set slot while the aggregate runs
// (the set is dropped from the stored form). cuckoo_add of one value k
// times stores k copies: past 2b of them (its two buckets full) each 2b more
// need a new sub-filter, so about 2b * 32 adds of one value reach the chain
// limit (ERROR 54000, nothing lost): use cuckoo_agg or cuckoo_add_new for
// repeated values.
//
// Stored format (versions 1 and 2, one layout), all integers little-endian:
//
//   byte 0-7    common header (header.h): kind cuckoo, version 1 or 2, hash
//               identity; param[0] = f (4..32), param[1] = encoding (0 =
//               stored, 1 = working, 2 = deferred, 3 = distinct), byte 7 =
//               element kind
//   byte 8      b, the bucket size (2, 4 or 8)
//   byte 9      S, the number of sub-filters (1..kMaxSubfilters)
//   byte 10-15  zero
//   then S sub-filters, each:
//     8 bytes   B, its bucket count (>= 1)
//     8 bytes   its count: non-zero slots it holds
//     slots     B*b fingerprints of f bits, slot s (bucket s / b) at bits
//               s*f .. s*f + f - 1 of the area (bit j = bit j%8 of byte j/8),
//               in ceil(B*b*f / 64) 64-bit words; the padding bits are zero
//   8 bytes     zero (a guard: every slot reads with one unaligned 64-bit load)
//
// Working encoding (param[1] = 1, aggregate states only): the same layout
// followed by a tail of zero bytes, spare room into which a union appends
// sub-filters in place. write_stored drops the tail; every input path refuses
// encoding 1.
//
// Deferred encoding (param[1] = 2, cuckoo_agg states of 1 MiB or more): the
// same layout followed by a queue of up to kPendingSlots hashes still to add
// (uint32 count, uint32 head, then the slots as native 16-byte hashes). An
// add prefetches its buckets and queues the hash; the oldest queued hash is
// added when the queue is full, kPendingSlots rows later, by which time its
// buckets are in the cache: in a filter larger than the caches this overlaps
// the misses of successive rows instead of waiting for each (the gain:
// docs/benchmarks.md). Hashes are added in the order they
// came, so the bytes are those of adding each at once. A deferred state is
// settled (its queue emptied, growing when an add needs room) before
// anything but an add reads it: the state mechanism does that for the stored
// form and merges (working_state.h), the server before a delete.
//
// Distinct encoding (param[1] = 3, cuckoo_agg states): the layout followed
// by the seen set (kSeenHeaderBytes + 16 * capacity bytes), then any zero
// tail. write_stored drops the set; every input path refuses encoding 3.
//
// Distinct deferred encoding (param[1] = 4, cuckoo_agg states whose layout
// has kDeferredMinBytes or more, issue 29): the layout, the deferred
// encoding's queue (kQueueBytes), then the seen set; no tail. A row's hash
// is queued behind a prefetch of its two buckets in every sub-filter and of
// the seen-set slot it probes first; the hash queued kPendingSlots rows
// earlier is then added as in the distinct encoding (looked up in the seen
// set, a copy when new). Hashes are added in the order they came, so the
// filter and its stored bytes are exactly those of the distinct encoding
// for the same rows: only the working state differs. A repeat of a value
// still queued is found in the seen set when its turn comes, after the
// first one was added. The state is settled (its queue added) before
// anything but an add reads it, as a deferred state is. write_stored drops
// the queue and the set; every input path refuses encoding 4.
//
// Every function here works on caller-owned byte buffers and never allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/common/bytes.h"
#include "core/common/hash.h"
#include "core/common/header.h"
#include "core/common/prefetch_queue.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::cuckoo {

// Version 2 (written since issue 32) has version 1's layout; what changed is
// what a fingerprint copy means (see "Copies and deletes" above). Both read.
constexpr uint8_t kFormatVersion = 2;
constexpr uint8_t kOldestFormatVersion = 1;

constexpr int kMinFingerprintBits = 4;
constexpr int kMaxFingerprintBits = 32;
constexpr int kMaxSubfilters = 32;
constexpr int kMaxKicks = 500;

constexpr size_t kBucketSizeOffset = 8;
constexpr size_t kSubfilterCountOffset = 9;
constexpr size_t kFirstSubfilterOffset = 16;
constexpr size_t kSubfilterHeaderBytes = 16;
constexpr size_t kGuardBytes = 8;

enum class Encoding : uint8_t {
  kStored = 0, kSpareTail = 1, kDeferred = 2, kDistinct = 3, kDistinctDeferred = 4
};

// Encodings followed by the seen set, and those with a prefetch queue right
// after the layout's guard.
inline bool has_seen_set(Encoding e) {
  return e == Encoding::kDistinct || e == Encoding::kDistinctDeferred;
}
inline bool has_queue(Encoding e) {
  return e == Encoding::kDeferred || e == Encoding::kDistinctDeferred;
}

// The seen set of the distinct encoding, after the layout: 8 bytes entries,
// 8 bytes capacity (a power of two, kMinSeenCapacity..kMaxSeenCapacity),
// then capacity 16-byte slots (a value's 128-bit hash, all zero = empty).
constexpr uint64_t kMinSeenCapacity = 4;  // small groups stay small (memory.sh)
constexpr uint64_t kMaxSeenCapacity = uint64_t{1} << 24;  // 256 MiB, 12.5M values
constexpr size_t kSeenHeaderBytes = 16;
inline size_t seen_region_bytes(uint64_t capacity) {
  return kSeenHeaderBytes + static_cast<size_t>(capacity) * 16;
}
// The capacity that holds `entries` at a load of at most 3/4.
inline uint64_t seen_capacity_for(uint64_t entries) {
  uint64_t cap = kMinSeenCapacity;
  while (cap < kMaxSeenCapacity && entries * 4 >= cap * 3) cap *= 2;
  return cap;
}

// The capacity a full seen set of `capacity` slots grows to, in a state whose
// layout (the filter) has `layout_bytes`: twice its slots, and at least a
// quarter of the layout's bytes. Every growth copies the whole state into a
// new buffer, the filter included; doubling from 4 slots would copy a 5 MB
// filter 16 times on the way to 126,000 values (43% of cuckoo_agg's
// instructions, docs/cuckoo.md "Speed"). A set of at least a quarter of the
// filter's bytes makes each growth copy at most 5 bytes per set byte, and a
// small filter (a small n) still starts with a small set (4 slots).
inline uint64_t grown_seen_capacity(uint64_t capacity, size_t layout_bytes) {
  uint64_t cap = capacity * 2;
  while (cap < kMaxSeenCapacity && cap * 16 * 4 < layout_bytes) cap *= 2;
  return cap < kMaxSeenCapacity ? cap : kMaxSeenCapacity;
}

// The queue of the deferred encoding, after the layout
// (core/common/prefetch_queue.h).
constexpr uint32_t kPendingSlots = prefetch_queue::kSlots;
constexpr size_t kQueueBytes = prefetch_queue::kBytes;

// The design load alpha of a bucket size (2, 4 or 8): the share of slots that
// inserts fill reliably within kMaxKicks relocations (measured in
// test/accuracy/cuckoo_accuracy_test.cpp).
double design_load(int bucket_size);

inline bool valid_bucket_size(int64_t b) { return b == 2 || b == 4 || b == 8; }

struct Params {
  uint64_t buckets;      // B of the first sub-filter
  int fingerprint_bits;  // f
  int bucket_size;       // b
};

// Bytes of a sub-filter's slot area: ceil(B*b*f / 64) 64-bit words. Callers
// keep B <= kMaxPlannedBuckets so that nothing overflows.
constexpr uint64_t kMaxPlannedBuckets = uint64_t{1} << 55;
inline uint64_t area_bytes(uint64_t buckets, int b, int f) {
  const unsigned __int128 bits = static_cast<unsigned __int128>(buckets) * b * f;
  return static_cast<uint64_t>((bits + 63) / 64 * 8);
}
inline uint64_t subfilter_bytes(uint64_t buckets, int b, int f) {
  return kSubfilterHeaderBytes + area_bytes(buckets, b, f);
}
// Bytes of a one-sub-filter filter, header and guard included.
inline uint64_t filter_size(const Params& p) {
  return kFirstSubfilterOffset + subfilter_bytes(p.buckets, p.bucket_size, p.fingerprint_bits) +
         kGuardBytes;
}

// f and B for n values at false-positive rate p and bucket size b, also when
// the filter would be too large to build (cuckoo_sizing reports `fits`).
// kInvalidParameter for n < 1, p outside (0, 1), b not 2, 4 or 8, p below
// 2b / 2^32 (more than 32 fingerprint bits).
Status plan_size(int64_t n, double p, int64_t bucket_size, Params* out);

// plan_size, refusing (kOverflow: a limit) filters larger than kMaxDumpableBytes.
Status size_for(int64_t n, double p, int64_t bucket_size, Params* out);

// A parsed, read-only look at a filter.
struct View {
  uint8_t version;  // 1 or 2: what a copy means (see the top)
  int fingerprint_bits;
  int bucket_size;
  uint8_t hash_identity;
  Encoding encoding;
  int subfilters;
  size_t used;  // bytes of the layout (header to guard); size - used is the tail
                // (the queue of the deferred encoding)
  uint32_t pending;  // hashes queued in a deferred state, not added yet
  uint64_t seen_entries;   // the distinct encoding's seen set (0, 0 otherwise)
  uint64_t seen_capacity;
  const uint8_t* data;
  size_t size;
  uint64_t buckets[kMaxSubfilters];
  size_t offset[kMaxSubfilters];  // of each sub-filter's 16-byte header
};

using sketch::Validation;

// kCanonical: stored encoding only, every byte (reserved bytes, padding, the
// guard, each count against the non-zero slots: O(slots)). kStructure: both
// encodings; the header, the chain and the lengths, O(S).
Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

// The O(1) (at most kMaxSubfilters steps) check of parse(kStructure) without
// a Status: the chain fits the buffer, so every slot, count and the guard
// are inside it. Stored: the layout is the whole buffer; working: at most.
bool is_valid_structure(const uint8_t* data, size_t len);

// Writes an empty filter: filter_size(params) bytes.
void write_empty(uint8_t* dst, const Params& params);

// Writes an empty deferred state: filter_size(params) + kQueueBytes bytes.
void write_empty_deferred(uint8_t* dst, const Params& params);

// Writes an empty cuckoo_agg state: the empty filter, an empty queue when
// distinct_encoding_for its size has one, and an empty seen set of
// kMinSeenCapacity slots: empty_distinct_size(params) bytes. (One buffer:
// writing the stored form first and copying it would zero and copy the
// filter twice more.)
size_t empty_distinct_size(const Params& params);
void write_empty_distinct(uint8_t* dst, const Params& params);

// Deferring pays off only when most bucket reads miss the CPU caches; below
// this size (about a core's L2 cache) a state adds at once.
constexpr size_t kDeferredMinBytes = size_t{1} << 20;

// The distinct encoding a new cuckoo_agg state of a layout of `layout_bytes`
// gets: with a prefetch queue (kDistinctDeferred) from kDeferredMinBytes,
// where its filter and its seen set miss the caches; without one below, so
// that the states of small groups stay small (test/hardening/memory.sh).
inline Encoding distinct_encoding_for(size_t layout_bytes) {
  return layout_bytes >= kDeferredMinBytes ? Encoding::kDistinctDeferred : Encoding::kDistinct;
}

// Writes the stored form (v.used bytes) of v, which has nothing queued
// (settle() first), and a working copy of v (working_size(v) bytes: a
// deferred state keeps its queue and encoding, any other becomes working
// without a tail).
void write_stored(const View& v, uint8_t* dst);
void write_working(const View& v, uint8_t* dst);
inline size_t working_size(const View& v) {
  return v.used + (has_queue(v.encoding) ? kQueueBytes : 0) +
         (has_seen_set(v.encoding) ? seen_region_bytes(v.seen_capacity) : 0);
}

// Where the seen set of a state with one (has_seen_set) starts: after the
// layout, and after the queue of the deferred distinct encoding.
inline size_t seen_offset(const View& v) {
  return v.used + (has_queue(v.encoding) ? kQueueBytes : 0);
}

// --- the distinct encoding (cuckoo_agg's state) -------------------------------

// The encoding write_distinct gives v: its own when it has a seen set, else
// distinct_encoding_for its layout.
inline Encoding distinct_target(const View& v) {
  return has_seen_set(v.encoding) ? v.encoding : distinct_encoding_for(v.used);
}

// Writes v's layout followed by v's queue (distinct deferred; an empty queue
// when v has none and the target has one) and a seen set of `capacity` slots
// holding v's entries when v has a seen set (empty otherwise):
// distinct_size(v, capacity) bytes, encoding distinct_target(v). v has
// nothing queued unless it is distinct deferred itself (a deferred state's
// set-semantics queue is settled first). capacity must hold v.seen_entries
// at a load below 1 (seen_capacity_for).
inline size_t distinct_size(const View& v, uint64_t capacity) {
  return v.used + (has_queue(distinct_target(v)) ? kQueueBytes : 0) +
         seen_region_bytes(capacity);
}
void write_distinct(const View& v, uint64_t capacity, uint8_t* dst);

enum class DistinctResult { kAdded, kSeen, kFilterFull, kSetFull };

// cuckoo_agg's add into a distinct state: a value whose 128-bit hash the seen
// set holds was added before and is skipped (kSeen: duplicates of one value
// are removed by the whole hash, not by the fingerprint, so two distinct
// values that share a fingerprint and bucket pair each get a copy); any
// other value adds one fingerprint copy (add_hash) and enters the set.
// kFilterFull: no sub-filter takes it; kSetFull: the set is at 3/4 load;
// in both cases nothing changed and the caller grows.
//
// In a distinct deferred state (kDistinctDeferred) h is queued behind a
// prefetch of its seen-set slot and its buckets, and the value queued
// kPendingSlots adds ago is the one added as above (kSeen/kAdded are then
// its result; kFilterFull and kSetFull leave the queue as it was, the caller
// grows and calls again with h). Values are added in the order they came,
// so the filter's bytes are those of adding each at once.
DistinctResult add_distinct(uint8_t* state, Hash128 h);

// A distinct deferred state's queue added in order (add_distinct's rules for
// each); kFilterFull or kSetFull when one needs room (it and those after it
// stay queued): the caller grows and calls again. kAdded once the queue is
// empty, and at once for any other encoding.
DistinctResult settle_distinct(uint8_t* state);

// --- hashing ------------------------------------------------------------------

inline uint64_t mix64(uint64_t x) {  // MurmurHash3's fmix64
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

inline uint64_t reduce(uint64_t x, uint64_t n) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(x) * n) >> 64);
}

inline uint32_t fingerprint_mask(int f) {
  return f >= 32 ? 0xffffffffu : (uint32_t{1} << f) - 1;
}

inline uint32_t fingerprint_of(Hash128 h, int f) {
  const uint32_t fp = static_cast<uint32_t>(h.low) & fingerprint_mask(f);
  return fp == 0 ? 1 : fp;
}

inline uint64_t primary_bucket(Hash128 h, uint64_t buckets) { return reduce(h.high, buckets); }

inline uint64_t alt_bucket(uint64_t i, uint32_t fp, uint64_t buckets) {
  const uint64_t h = reduce(mix64(fp), buckets);
  return h >= i ? h - i : h + buckets - i;
}

// --- slots ----------------------------------------------------------------------

// Slot s of an area of f-bit slots (one unaligned 64-bit load: the guard or
// the next sub-filter's header follows every area).
inline uint32_t get_slot(const uint8_t* area, uint64_t s, int f) {
  const uint64_t bit = s * static_cast<uint64_t>(f);
  return static_cast<uint32_t>(load_le64(area + (bit >> 3)) >> (bit & 7)) & fingerprint_mask(f);
}

inline void set_slot(uint8_t* area, uint64_t s, int f, uint32_t value) {
  const uint64_t bit = s * static_cast<uint64_t>(f);
  const uint64_t mask = static_cast<uint64_t>(fingerprint_mask(f)) << (bit & 7);
  uint64_t w = load_le64(area + (bit >> 3));
  w = (w & ~mask) | (static_cast<uint64_t>(value) << (bit & 7));
  store_le64(area + (bit >> 3), w);
}

// Copies of fp in bucket i.
inline int count_in_bucket(const uint8_t* area, uint64_t i, int b, int f, uint32_t fp) {
  int n = 0;
  const uint64_t first = i * static_cast<uint64_t>(b);
  if (b * f + 7 <= 64) {  // the whole bucket in one load
    const uint64_t bit = first * static_cast<uint64_t>(f);
    const uint64_t w = load_le64(area + (bit >> 3)) >> (bit & 7);
    const uint32_t mask = fingerprint_mask(f);
    for (int k = 0; k < b; k++) n += ((w >> (k * f)) & mask) == fp;
    return n;
  }
  for (int k = 0; k < b; k++) n += get_slot(area, first + k, f) == fp;
  return n;
}

// --- sub-filters of a buffer ------------------------------------------------------

inline int fingerprint_bits_of(const uint8_t* filter) { return filter[5]; }
inline Encoding encoding_of(const uint8_t* filter) { return static_cast<Encoding>(filter[6]); }
inline int bucket_size_of(const uint8_t* filter) { return filter[kBucketSizeOffset]; }
inline int subfilter_count_of(const uint8_t* filter) { return filter[kSubfilterCountOffset]; }

// --- operations (on a buffer parse() or is_valid_structure() accepted) ------------
//
// Every count they write stays within 0..B*b: exact in a valid filter, and
// in a working state whose count is off (kStructure reads any count up to
// B*b) still a state that parses after the write.

enum class AddResult { kAdded, kPresent, kFull };

// Adds a fingerprint copy (multiset: CF.ADD). kFull when no sub-filter takes
// it (the buffer is then exactly as before): the caller grows.
AddResult add_hash(uint8_t* filter, Hash128 h);

// Adds unless maybe-present (CF.ADDNX; set semantics of cuckoo_agg).
AddResult add_new_hash(uint8_t* filter, Hash128 h);

// Removes one copy of the fingerprint from its candidate buckets, unless that
// could remove another value's copy (see "Copies and deletes" above): when
// sub-filters of two different bucket counts hold the fingerprint in the
// value's candidate buckets, nothing is removed (kAmbiguous). Otherwise the
// newest matching sub-filter loses one copy: bucket i1 before i2, lowest
// slot first. kAbsent: no copy anywhere (nothing changed).
enum class DeleteResult { kDeleted, kAbsent, kAmbiguous };
DeleteResult remove_hash(uint8_t* filter, Hash128 h);

// remove_hash(...) == kDeleted.
bool delete_hash(uint8_t* filter, Hash128 h);

// A deferred state (and only one): queues h, prefetching its buckets; when
// the queue is full its oldest hash is added first (set semantics, as
// add_new_hash). kFull when that one finds no room: nothing changed, the
// caller grows (keeping the queue) and calls again.
AddResult add_deferred(uint8_t* filter, Hash128 h);

// Hashes a deferred state has queued (0 for the other encodings); `len` is
// the buffer's length (a deferred state's queue ends it).
uint32_t pending_of(const uint8_t* filter, size_t len);

// Adds a deferred state's queued hashes in the order they came, dequeuing
// each; kFull when one finds no room (it and those after it stay queued):
// the caller grows and calls again. Any other encoding: nothing to do.
AddResult settle(uint8_t* filter);

// Maybe-present?
bool contains_hash(const View& v, Hash128 h);

// Copies of the fingerprint in its candidate buckets, over every sub-filter.
int64_t count_hash(const View& v, Hash128 h);

// --- growth ------------------------------------------------------------------------

// Bytes of v with one more sub-filter of twice the largest B (the stored
// layout, no tail; a deferred state's queue after it), or kOverflow when
// that passes kMaxSubfilters or kMaxDumpableBytes. `*size` is set either way
// (saturated).
Status plan_grow(const View& v, size_t* size);

// Writes v (its layout, the tail dropped) plus the empty new sub-filter: the
// size plan_grow gave; encoding working, or deferred with v's queue after
// the new layout.
void grow(const View& v, uint8_t* dst);

// --- combining ---------------------------------------------------------------------

// kMismatch, naming both, unless f, b and hash identity agree.
Status check_compatible(const View& a, const View& b);

// kOverflow when a ∪ b could pass kMaxSubfilters (a.S + b.S) or
// kMaxDumpableBytes (a.used + b.used). *in_place when a is a working state
// whose zero tail holds b.used bytes; else *size = a.used + b.used.
Status plan_merge(const View& a, const View& b, bool* in_place, size_t* size);

// a ∪ b into `target` (a's own buffer when in place, else a new zeroed buffer
// of the planned size, into which a's layout is copied first): every
// fingerprint copy of each sub-filter of b with B buckets is added at its
// bucket into the sub-filters of a with that B (a multiset sum: the first
// with a free slot in the pair, else relocation, tried until it fails once
// per sub-filter of b); what none takes goes to a sub-filter with that B
// appended for it. The result has the lower of a's and b's versions.
// Cannot fail.
void merge(uint8_t* target, size_t target_len, const View& a, const View& b);

// The union of a distinct state a (cuckoo_agg's) with b into `target`, a
// zeroed buffer of plan_merge's size plus seen_region_bytes(capacity): the
// merge of their layouts, then a's seen set (capacity slots, at least
// seen_capacity_for of both sets' entries); when b is distinct too (the
// combine step of a parallel plan) each hash of b's set that a's holds loses
// one of its two copies (remove_hash), the others enter the set. Encoding
// distinct.
void merge_distinct(uint8_t* target, size_t target_len, const View& a, const View& b,
                    uint64_t capacity);

// --- estimates ---------------------------------------------------------------------

// Fingerprints held: the sum of the counts.
uint64_t held(const View& v);

// Slots over all sub-filters.
uint64_t capacity(const View& v);

// 1 - prod_i (1 - 1/(2^f - 1))^(2 b load_i), load_i = count_i / (B_i b): the
// chance that a value never added finds its fingerprint.
double estimate_fpp(const View& v);

inline const uint8_t* area_of(const View& v, int j) {
  return v.data + v.offset[j] + kSubfilterHeaderBytes;
}
inline uint64_t count_of(const View& v, int j) { return load_le64(v.data + v.offset[j] + 8); }

}  // namespace sketch::cuckoo
