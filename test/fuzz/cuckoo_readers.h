// Runs every cuckoo reader and operation over bytes that cuckoo::parse
// accepted, for the cuckoo fuzz targets (the cuckoo counterpart of
// bloom_readers.h and theta_readers.h).
//
// parse has two modes. kCanonical is what external input and every value SQL
// sees go through (text input, recv, bytea casts): whatever it accepts must
// behave exactly like a filter we wrote, so the checks are strict: its stored
// form is itself, also through a working copy; every count is the number of
// non-zero slots of its sub-filter; every fingerprint held is found by a
// value that hashes to its bucket; an add puts exactly one more copy in the
// value's bucket pair (growing when the filter is full, as the server does
// after plan_grow's limits), an add_new adds only what is not maybe-present
// and changes nothing else, a delete after an add restores the value's count
// and the filter's total; a ∪ a = a ∪ ∅ = a; ∅ ∪ a, unions with a second
// filter split from the input (every second fingerprint it holds, plus
// values of its own) and with unrelated filters of the same and other bucket
// counts lose no member of either side, both ways round, and are valid
// stored values once stored; filters of another f or b do not combine and
// the error names both. kStructure also accepts aggregate working states
// (our own, possibly corrupt): every reader and operation must still run
// without a memory error, what it makes parses, and the stored form is a
// fixed point of to_stored.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/common/element_kind.h"
#include "core/common/hash.h"
#include "core/cuckoo/cuckoo.h"
#include "core/cuckoo/cuckoo_family.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::cuckoo_readers {

using namespace sketch::cuckoo;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

inline Hash128 probe(uint64_t seed, uint64_t i) {
  return Hash128{seed * 0x9E3779B97F4A7C15ull + i, (seed + 1) * 0xC2B2AE3D27D4EB4Full ^ i};
}

// A hash whose fingerprint is fp and whose primary bucket in a sub-filter of
// `buckets` buckets is i (i < buckets): high = ceil(i * 2^64 / buckets).
inline Hash128 hash_at(uint64_t buckets, uint64_t i, uint32_t fp) {
  const unsigned __int128 num = (static_cast<unsigned __int128>(i) << 64) + (buckets - 1);
  const uint64_t high = static_cast<uint64_t>(num / buckets);
  FUZZ_CHECK(primary_bucket(Hash128{fp, high}, buckets) == i);
  return Hash128{fp, high};
}

// One fingerprint held: the sub-filter's bucket count, its bucket, its value.
struct Member {
  uint64_t buckets;
  uint64_t bucket;
  uint32_t fp;
  Hash128 hash() const { return hash_at(buckets, bucket, fp); }
};

// Every fingerprint a filter holds (at most `limit`).
inline std::vector<Member> members(const View& v, size_t limit = 4096) {
  std::vector<Member> out;
  for (int j = 0; j < v.subfilters; j++) {
    const uint8_t* area = area_of(v, j);
    const uint64_t slots = v.buckets[j] * v.bucket_size;
    for (uint64_t s = 0; s < slots && out.size() < limit; s++) {
      const uint32_t fp = get_slot(area, s, v.fingerprint_bits);
      if (fp != 0) out.push_back(Member{v.buckets[j], s / v.bucket_size, fp});
    }
  }
  return out;
}

inline uint64_t nonzero_slots(const View& v, int j) {
  const uint64_t slots = v.buckets[j] * v.bucket_size;
  uint64_t n = 0;
  for (uint64_t s = 0; s < slots; s++) n += get_slot(area_of(v, j), s, v.fingerprint_bits) != 0;
  return n;
}

// Every member of `from` is maybe-present in `in`.
inline void check_keeps(const View& in, const View& from) {
  for (const Member& m : members(from)) FUZZ_CHECK(contains_hash(in, m.hash()));
}

// The stored form of any filter, through state::to_stored (the final
// function's path).
inline Bytes stored_of(const View& v) { return states::stored<Family>(v.data, v.size); }

// Every reader (cuckoo_contains / @>, cuckoo_count, cuckoo_cardinality,
// cuckoo_fpp, cuckoo_info): finite numbers in range; with `exact`, every
// count is its sub-filter's non-zero slots.
inline void check_numbers(const View& v, bool exact) {
  uint64_t total = 0;
  uint64_t slots = 0;
  for (int j = 0; j < v.subfilters; j++) {
    FUZZ_CHECK(v.buckets[j] >= 1);
    FUZZ_CHECK(count_of(v, j) <= v.buckets[j] * v.bucket_size);
    if (exact) FUZZ_CHECK(count_of(v, j) == nonzero_slots(v, j));
    total += count_of(v, j);
    slots += v.buckets[j] * v.bucket_size;
  }
  FUZZ_CHECK(held(v) == total);
  FUZZ_CHECK(capacity(v) == slots);
  FUZZ_CHECK(held(v) <= capacity(v));
  const double fpp = estimate_fpp(v);
  FUZZ_CHECK(std::isfinite(fpp) && fpp >= 0 && fpp <= 1);
  if (total == 0) FUZZ_CHECK(fpp == 0);
  const int64_t most = 2 * static_cast<int64_t>(v.bucket_size) * v.subfilters;
  for (uint64_t i = 0; i < 8; i++) {
    const Hash128 h = probe(v.size, i);
    const int64_t c = count_hash(v, h);
    FUZZ_CHECK(c >= 0 && c <= most);
    FUZZ_CHECK(contains_hash(v, h) == (c > 0));
  }
  // Every fingerprint held is found by a value hashing to its bucket.
  for (const Member& m : members(v, 512)) {
    FUZZ_CHECK(contains_hash(v, m.hash()));
    FUZZ_CHECK(count_hash(v, m.hash()) >= 1);
  }
}

// An empty filter holding values of `kind` (header byte 7, element_kind.h):
// every filter built here takes the input's kind, so that unions with it
// are never refused for their kinds.
inline uint64_t largest_of(const View& v) {
  uint64_t largest = 0;
  for (int j = 0; j < v.subfilters; j++) largest = v.buckets[j] > largest ? v.buckets[j] : largest;
  return largest;
}

inline Bytes empty_filter(uint64_t buckets, int f, int b, uint8_t kind) {
  const Params p{buckets, f, b};
  Bytes out(filter_size(p));
  write_empty(out.data(), p);
  out[kElementKindOffset] = kind;
  return out;
}

// One value added the way the server does (cuckoo_add_element): in place,
// and when no sub-filter takes it, through the mechanism's growth loop
// unless plan_grow refuses (an ERROR in the server: kFull is returned and the
// state is unchanged). With `exact`, the value's count rises by exactly one
// when it is added, and nothing changes when it is present or refused.
// A deferred state (cuckoo_agg's queue of values added later, with or
// without a seen set) with its queued values added through the mechanism,
// as the server settles one, and made an ordinary working state (its
// emptied queue and any seen set a zero tail), so that the adds below take
// effect at once and can be checked one by one.
inline void settle_to_working(Bytes* state) {
  if (!has_queue(encoding_of(state->data()))) return;
  test::Arena arena;
  states::Allocator alloc{&arena};
  size_t len = state->size();
  uint8_t* out = nullptr;
  FUZZ_CHECK(state::settle<Family>(state->data(), &len, alloc, &out).is_ok());
  if (out != state->data()) *state = arena.take(out);
  const View v = parsed(*state, Validation::kStructure);
  FUZZ_CHECK(v.pending == 0);
  std::fill(state->begin() + static_cast<std::ptrdiff_t>(v.used), state->end(), uint8_t{0});
  (*state)[6] = static_cast<uint8_t>(Encoding::kSpareTail);
}

inline AddResult add_value(Bytes* state, Hash128 h, bool only_new, bool exact) {
  settle_to_working(state);
  const Bytes before = *state;
  const View v0 = parsed(*state, Validation::kStructure);
  const int64_t c0 = count_hash(v0, h);
  const uint64_t held0 = held(v0);
  AddResult r = only_new ? add_new_hash(state->data(), h) : add_hash(state->data(), h);
  if (r == AddResult::kFull) {
    FUZZ_CHECK(*state == before);  // the kick path is undone
    size_t size = 0;
    const Status limit = plan_grow(v0, &size);
    if (!limit.is_ok()) {
      FUZZ_CHECK(limit.code() == StatusCode::kOverflow && limit.message()[0] != '\0');
      return r;
    }
    // (What follows the layout goes along: a distinct state's seen set.)
    FUZZ_CHECK(size == working_size(v0) + subfilter_bytes(2 * largest_of(v0), v0.bucket_size,
                                                          v0.fingerprint_bits));
    Family::Element e{h, only_new};
    states::add<Family>(state, e);
    const View g = parsed(*state, Validation::kStructure);
    // A distinct state keeps its encoding (and its seen set) when it grows.
    FUZZ_CHECK((g.encoding == Encoding::kSpareTail || g.encoding == v0.encoding) &&
               g.subfilters == v0.subfilters + 1);
    r = AddResult::kAdded;
  }
  const View v = parsed(*state, Validation::kStructure);
  FUZZ_CHECK(contains_hash(v, h));
  if (r == AddResult::kPresent) {
    FUZZ_CHECK(only_new && c0 > 0 && *state == before);
  } else if (exact) {
    FUZZ_CHECK(!only_new || c0 == 0);
    FUZZ_CHECK(count_hash(v, h) == c0 + 1);
    FUZZ_CHECK(held(v) == held0 + 1);
  }
  return r;
}

// Values added to a working copy of `bytes`, each checked, then (in a copy)
// every one deleted again in reverse order; the working state with the
// values is then taken back as the executor's own state (owned = true) and
// used in place. Returns the stored form with the values.
inline Bytes with_values_added(const Bytes& bytes, Validation validation, uint64_t seed,
                               uint64_t count, bool exact) {
  parsed(bytes, validation);
  Bytes state = states::working_copy<Family>(bytes);
  const uint64_t held0 = held(parsed(state, Validation::kStructure));
  std::vector<Hash128> added;  // kAdded: one more copy
  std::vector<Hash128> kept;   // added or already present
  for (uint64_t i = 0; i < count; i++) {
    const Hash128 h = probe(seed, i % 7 == 6 ? i - 3 : i);  // some repeats
    const bool only_new = i % 3 == 1;
    // A delete right after the add restores the value's count and the total.
    if (i % 5 == 2) {
      Bytes copy = state;
      const View c0 = parsed(copy, Validation::kStructure);
      const int64_t before = count_hash(c0, h);
      const uint64_t total = held(c0);
      const AddResult r = add_value(&copy, h, only_new, exact);
      if (r == AddResult::kAdded) {
        // Deleted, or refused as ambiguous (sub-filters of two sizes hold
        // its fingerprint: cuckoo.h), never absent.
        const DeleteResult d = remove_hash(copy.data(), h);
        FUZZ_CHECK(d != DeleteResult::kAbsent);
        const View c1 = parsed(copy, Validation::kStructure);
        if (exact && d == DeleteResult::kDeleted) {
          FUZZ_CHECK(count_hash(c1, h) == before);
          FUZZ_CHECK(held(c1) == total);
        }
      }
    }
    const AddResult r = add_value(&state, h, only_new, exact);
    if (r == AddResult::kAdded) added.push_back(h);
    if (r != AddResult::kFull) kept.push_back(h);
  }
  states::check_taken_in_place<Family>(&state);
  const View sv0 = parsed(state, Validation::kStructure);
  for (const Hash128& h : kept) FUZZ_CHECK(contains_hash(sv0, h));

  // Every added copy deleted again, newest first: each delete finds a copy
  // exactly when the value's count says so, and the counts stay exact.
  Bytes removed = state;
  uint64_t deleted = 0;
  for (size_t k = added.size(); k-- > 0;) {
    const bool present = count_hash(parsed(removed, Validation::kStructure), added[k]) > 0;
    const Bytes before = removed;
    const DeleteResult d = remove_hash(removed.data(), added[k]);
    FUZZ_CHECK((d == DeleteResult::kAbsent) == !present);
    if (d != DeleteResult::kDeleted) FUZZ_CHECK(removed == before);
    deleted += d == DeleteResult::kDeleted;
  }
  const View rv = parsed(removed, Validation::kStructure);
  if (exact) {
    FUZZ_CHECK(held(rv) == held0 + added.size() - deleted);
    check_numbers(rv, true);
  }
  // A delete of what is absent changes nothing.
  for (uint64_t i = 0; i < 4; i++) {
    const Hash128 h = probe(seed + 1, i);
    const Bytes before = removed;
    const bool present = count_hash(parsed(removed, Validation::kStructure), h) > 0;
    const DeleteResult d = remove_hash(removed.data(), h);
    FUZZ_CHECK((d == DeleteResult::kAbsent) == !present);
    if (d != DeleteResult::kDeleted) FUZZ_CHECK(removed == before);
  }

  const Bytes stored = stored_of(parsed(state, Validation::kStructure));
  const View sv = parsed(stored, exact ? Validation::kCanonical : Validation::kStructure);
  FUZZ_CHECK(sv.encoding == Encoding::kStored);
  for (const Hash128& h : added) FUZZ_CHECK(contains_hash(sv, h));
  return stored;
}

// Every sub-filter's count is the number of its non-zero slots.
inline bool counts_exact(const View& v) {
  for (int j = 0; j < v.subfilters; j++) {
    uint64_t nonzero = 0;
    for (uint64_t s = 0; s < v.buckets[j] * v.bucket_size; s++)
      nonzero += get_slot(area_of(v, j), s, v.fingerprint_bits) != 0;
    if (nonzero != count_of(v, j)) return false;
  }
  return true;
}

// a ∪ b the way cuckoo_union and cuckoo_union_agg do it: a working copy of a
// (state::to_working, owned = false), b merged into it through state::merge
// (in its tail when it has room, else into a new buffer). The result keeps
// every member of both. nullopt-like: false when the union is refused for a
// limit (kOverflow, more than kMaxSubfilters or bytes).
inline bool united(const Bytes& a_bytes, const Bytes& b_bytes, Bytes* out,
                   Validation validation = Validation::kStructure) {
  const View a = parsed(a_bytes, validation);
  const Bytes b_copy = b_bytes;  // never the state's own buffer
  const View b = parsed(b_copy, validation);
  FUZZ_CHECK(check_compatible(a, b).is_ok());
  // The merge settles deferred sides first (their queued adds may grow
  // them): the limits apply to the settled chains.
  // (A settle refused at a limit: the merge is refused as well.)
  auto settled_subfilters = [](const Bytes& bytes) {
    Bytes copy = bytes;
    test::Arena arena;
    states::Allocator alloc{&arena};
    size_t len = copy.size();
    uint8_t* out = nullptr;
    if (!state::settle<Family>(copy.data(), &len, alloc, &out).is_ok()) return kMaxSubfilters + 1;
    return subfilter_count_of(out);
  };
  const int a_subfilters = settled_subfilters(a_bytes);
  const int b_subfilters = settled_subfilters(b_bytes);
  Bytes state = states::working_copy<Family>(a_bytes);
  const Status st = states::merge<Family>(&state, b);
  if (!st.is_ok()) {
    FUZZ_CHECK(st.code() == StatusCode::kOverflow);
    FUZZ_CHECK(a_subfilters + b_subfilters > kMaxSubfilters);
    return false;
  }
  const View r = parsed(state, Validation::kStructure);
  // A cuckoo_agg state (a seen set) stays one; united with another (the
  // combine step) it drops one copy of each hash both seen sets hold, which
  // keeps every member only when the sets hold exactly the hashes added:
  // fuzzed bytes need not, so membership is checked for the other unions.
  const bool combine = has_seen_set(a.encoding) && has_seen_set(b.encoding);
  FUZZ_CHECK(r.encoding == (has_seen_set(a.encoding) ? Encoding::kDistinct : Encoding::kSpareTail));
  FUZZ_CHECK(r.subfilters <= a_subfilters + b_subfilters);
  if (!combine) {
    check_keeps(r, a);
    check_keeps(r, b);
  }
  // The union of the union with b again adds every copy of b once more (a
  // multiset sum), when the counts are exact (the union's bump_count keeps
  // inexact ones within their slots instead).
  const uint64_t total = held(r);
  if (r.subfilters + b.subfilters <= kMaxSubfilters) {
    Bytes again = state;
    FUZZ_CHECK(states::merge<Family>(&again, b).is_ok());
    const View g = parsed(again, Validation::kStructure);
    // (A deferred b adds its queue first, at set semantics: not counted.)
    if (!combine && counts_exact(r) && counts_exact(b) && b.pending == 0)
      FUZZ_CHECK(held(g) == total + held(b));
    if (!combine) check_keeps(g, b);
  }
  *out = stored_of(r);
  return true;
}

// A second filter split from the input: every second fingerprint it holds,
// re-added at its bucket into an empty filter of the first sub-filter's
// bucket count (when the sub-filter has that count: else at its own), plus
// a few values of its own.
inline Bytes split_of(const View& v, uint8_t kind, uint64_t seed) {
  Bytes other = empty_filter(v.buckets[0], v.fingerprint_bits, v.bucket_size, kind);
  Bytes state = states::working_copy<Family>(other);
  const std::vector<Member> all = members(v, 256);
  for (size_t k = 0; k < all.size(); k += 2)
    add_value(&state, all[k].hash(), false, true);
  for (uint64_t i = 0; i < 3; i++) add_value(&state, probe(seed, i), true, true);
  return stored_of(parsed(state, Validation::kStructure));
}

// Strict checks for bytes that parse(kCanonical) accepted.
inline void exercise_stored(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  FUZZ_CHECK(v.size == input.size() && v.used == input.size());
  FUZZ_CHECK(v.encoding == Encoding::kStored);
  FUZZ_CHECK(Family::is_working(input.data(), input.size()));
  const uint8_t kind = input[kElementKindOffset];
  parsed(input, Validation::kStructure);  // states accept stored filters too
  check_numbers(v, true);
  FUZZ_CHECK(stored_of(v) == input);

  // A working copy: the same layout, encoding 1; its stored form is the input.
  const Bytes working = states::working_copy<Family>(input);
  const View wv = parsed(working, Validation::kStructure);
  FUZZ_CHECK(wv.encoding == Encoding::kSpareTail && wv.used == v.used);
  FUZZ_CHECK(stored_of(wv) == input);
  Bytes direct(v.used);
  write_working(v, direct.data());
  direct[kElementKindOffset] = kind;
  FUZZ_CHECK(direct == working);
  View refused;
  FUZZ_CHECK(parse(working.data(), working.size(), Validation::kCanonical, &refused).code() ==
             StatusCode::kInvalidFormat);  // no input path takes a working state

  // Identities with itself and with the empty filter of the same parameters.
  const Bytes empty = empty_filter(v.buckets[0], v.fingerprint_bits, v.bucket_size, kind);
  Bytes r;
  // A union is a multiset sum (cuckoo.h): f with itself holds every copy
  // twice; with the empty filter it holds f's copies, at the lower version.
  if (united(input, input, &r, Validation::kCanonical)) {
    const View rv = parsed(r, Validation::kCanonical);
    FUZZ_CHECK(held(rv) == 2 * held(v) && rv.version == v.version);
    check_keeps(rv, v);
  }
  if (united(input, empty, &r, Validation::kCanonical)) FUZZ_CHECK(r == input);
  if (united(empty, input, &r, Validation::kCanonical)) {
    const View rv = parsed(r, Validation::kCanonical);
    FUZZ_CHECK(held(rv) == held(v) && rv.version == v.version);
    check_numbers(rv, true);
  }

  // Growth: one more sub-filter of twice the largest bucket count, every
  // member kept, the stored form valid.
  size_t grown_size = 0;
  if (plan_grow(v, &grown_size).is_ok()) {
    Bytes grown(grown_size);
    Family::grow(v, Family::Growth{grown_size}, grown.data());
    grown[kElementKindOffset] = kind;
    const View gv = parsed(grown, Validation::kStructure);
    FUZZ_CHECK(gv.subfilters == v.subfilters + 1 && gv.used == grown_size);
    check_keeps(gv, v);
    const Bytes gs = stored_of(gv);
    const View gsv = parsed(gs, Validation::kCanonical);
    FUZZ_CHECK(held(gsv) == held(v));
    check_numbers(gsv, true);
  } else {
    FUZZ_CHECK(v.subfilters >= kMaxSubfilters || grown_size == SIZE_MAX);
  }

  // Unions with a filter split from the input and with unrelated filters of
  // the same and other bucket counts, both ways round.
  const uint64_t seed = hash64(input.data(), input.size());
  const Bytes split = split_of(v, kind, seed);
  const Bytes other = with_values_added(empty, Validation::kCanonical, seed + 11, 6, true);
  const uint64_t b0 = v.buckets[0];
  const Bytes wider = with_values_added(
      empty_filter(b0 < 1024 ? 2 * b0 + 1 : b0 / 2 + 1, v.fingerprint_bits, v.bucket_size, kind),
      Validation::kCanonical, seed + 12, 6, true);
  for (const Bytes* b : {&split, &other, &wider}) {
    for (int way = 0; way < 2; way++) {
      if (united(way ? *b : input, way ? input : *b, &r, Validation::kCanonical))
        check_numbers(parsed(r, Validation::kCanonical), true);
    }
  }

  // Filters of another f or b do not combine, naming both.
  for (const Bytes& mismatched :
       {empty_filter(b0, v.fingerprint_bits == kMaxFingerprintBits ? 4 : v.fingerprint_bits + 1,
                     v.bucket_size, kind),
        empty_filter(b0, v.fingerprint_bits, v.bucket_size == 8 ? 2 : v.bucket_size * 2, kind)}) {
    const Status st = check_compatible(v, parsed(mismatched, Validation::kCanonical));
    FUZZ_CHECK(st.code() == StatusCode::kMismatch && st.message()[0] != '\0');
    Bytes state = states::working_copy<Family>(input);
    const Status ms = states::merge<Family>(&state, parsed(mismatched, Validation::kCanonical));
    FUZZ_CHECK(ms.code() == StatusCode::kMismatch);
  }

  // Values added, with add, add_new and delete (the counts exact).
  const Bytes added = with_values_added(input, Validation::kCanonical, seed, 24, true);
  check_numbers(parsed(added, Validation::kCanonical), true);
  check_keeps(parsed(added, Validation::kCanonical), v);
}

// Lenient checks for bytes that only parse(kStructure) accepted (working
// states, stored values with only the O(S) checks): everything SQL does with
// a state must run to completion and what it makes parses.
inline void exercise_state(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size() && v.used <= v.size);
  FUZZ_CHECK(Family::is_working(input.data(), input.size()));
  const uint8_t kind = input[kElementKindOffset];
  check_numbers(v, false);

  // The stored form: the layout without the tail, a fixed point of to_stored.
  const Bytes stored = stored_of(v);
  const View sv = parsed(stored, Validation::kStructure);
  FUZZ_CHECK(sv.encoding == Encoding::kStored);
  FUZZ_CHECK(stored_of(sv) == stored);
  if (v.pending == 0) {
    FUZZ_CHECK(stored.size() == v.used);
    FUZZ_CHECK(std::equal(stored.begin() + 7, stored.end(), input.begin() + 7));
  } else {
    // A deferred state adds its queued values first (the mechanism settles
    // it, growing if one needs room): every entry of its layout is kept.
    FUZZ_CHECK(stored.size() >= v.used);
    check_keeps(sv, v);
  }
  check_numbers(sv, false);

  const Bytes empty = empty_filter(v.buckets[0], v.fingerprint_bits, v.bucket_size, kind);
  Bytes r;
  for (const auto& pair : {std::make_pair(&input, &input), std::make_pair(&input, &empty),
                           std::make_pair(&empty, &input), std::make_pair(&input, &stored)}) {
    if (united(*pair.first, *pair.second, &r)) check_numbers(parsed(r, Validation::kStructure), false);
  }

  // Growth, when the limits allow it.
  size_t grown_size = 0;
  if (plan_grow(v, &grown_size).is_ok()) {
    Bytes grown(grown_size);
    Family::grow(v, Family::Growth{grown_size}, grown.data());
    const View gv = parsed(grown, Validation::kStructure);
    FUZZ_CHECK(gv.subfilters == v.subfilters + 1);
    check_keeps(gv, v);
  }

  with_values_added(input, Validation::kStructure, v.size, 20, false);

  // As the executor's own state (owned = true): used in place, values added
  // and a union merged into it.
  Bytes owned = input;
  states::take_owned<Family>(&owned);
  for (uint64_t i = 0; i < 8; i++) add_value(&owned, probe(v.size + 3, i), i % 2 == 1, false);
  const View ov = parsed(owned, Validation::kStructure);
  if (check_compatible(ov, parsed(stored, Validation::kStructure)).is_ok()) {
    const Status st = states::merge<Family>(&owned, parsed(stored, Validation::kStructure));
    FUZZ_CHECK(st.is_ok() || st.code() == StatusCode::kOverflow);
  }
  const View fin = parsed(owned, Validation::kStructure);
  check_numbers(fin, false);
  stored_of(fin);
}

// Parses in both modes and runs the matching readers; is_working (the
// mechanism's O(1) check) agrees with parse(kStructure).
inline void exercise(const uint8_t* data, size_t size) {
  const Bytes input = copy_of(data, size);
  View v;
  FUZZ_CHECK(Family::is_working(input.data(), input.size()) ==
             parse(input.data(), input.size(), Validation::kStructure, &v).is_ok());
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure, data,
                                        size, exercise_stored, exercise_state);
}

}  // namespace sketch::fuzz::cuckoo_readers
