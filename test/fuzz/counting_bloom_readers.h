// Runs every counting_bloom reader and combiner over bytes that
// counting_bloom::parse accepted, for the counting_bloom fuzz targets (the
// counterpart of bloom_readers.h).
//
// kCanonical input (text input, recv, bytea casts) must behave exactly like a
// filter we wrote: its stored form is itself; a ∪ ∅ = ∅ ∪ a = a; a ∪ a is
// every counter doubled (saturating at 15); union with an unrelated filter
// commutes and keeps every member; added values are present and deleting
// them again gives back the input (unless a counter saturated); a value
// whose counter is 0 deletes as a no-op; to_bloom is a valid bloom filter
// whose bits are the non-zero cells. kStructure input (aggregate working
// states, possibly corrupt) must run through every reader and combiner
// without a memory error or a non-finite estimate.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/bloom/bloom.h"
#include "core/common/hash.h"
#include "core/counting_bloom/counting_bloom.h"
#include "core/counting_bloom/counting_bloom_family.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::counting_bloom_readers {

using namespace sketch::counting_bloom;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

inline Hash128 probe(uint64_t seed, uint64_t i) {
  return Hash128{seed * 0x9E3779B97F4A7C15ull + i, (seed + 1) * 0xC2B2AE3D27D4EB4Full ^ i};
}

inline Bytes stored_of(const View& v) { return states::stored<Family>(v.data, v.size); }

// Every reader of a stored filter: counts in range, finite estimates, and
// to_bloom a valid bloom filter with one bit per non-zero cell.
inline void check_numbers(const View& v) {
  FUZZ_CHECK(v.encoding == Encoding::kStored);
  const Counts c = count_cells(v);
  FUZZ_CHECK(c.cells_set <= v.cells && c.saturated <= c.cells_set);
  FUZZ_CHECK(c.sum <= 15 * c.cells_set && c.sum >= c.cells_set);
  Bytes b(bloom_size(v));
  to_bloom(v, b.data());
  bloom::View bv;
  FUZZ_CHECK(bloom::parse(b.data(), b.size(), Validation::kCanonical, &bv).is_ok());
  FUZZ_CHECK(bloom::bits_set(bv) == c.cells_set);
  for (uint64_t j = 0; j < v.cells; j += 1 + v.cells / 64)
    FUZZ_CHECK(((bv.words[j >> 3] >> (j & 7)) & 1) == (counter(v.words, j) != 0));
  Bytes scratch(bloom_size(v));
  const double n = estimate_cardinality(v, scratch.data());
  FUZZ_CHECK(std::isfinite(n) && n >= 0);
  const double fpp = estimate_fpp(v, scratch.data());
  FUZZ_CHECK(std::isfinite(fpp) && fpp >= 0 && fpp <= 1);
  for (uint64_t i = 0; i < 4; i++)
    FUZZ_CHECK(contains_hash(v, probe(7, i)) == bloom::contains_hash(bv, probe(7, i)));
}

inline Bytes empty_filter(uint64_t cells, int hashes, uint8_t kind) {
  Bytes out(filter_size(cells));
  write_empty(out.data(), Params{cells, hashes});
  out[kElementKindOffset] = kind;
  return out;
}

// counting_bloom_union(a, b): a stored copy of a, b added into it.
inline Bytes combined(const Bytes& a_bytes, const Bytes& b_bytes, Validation validation) {
  const View a = parsed(a_bytes, validation);
  const View b = parsed(b_bytes, validation);
  FUZZ_CHECK(check_compatible(a, b).is_ok());
  Bytes out = stored_of(a);
  merge(out.data(), b);
  check_numbers(parsed(out, Validation::kCanonical));
  return out;
}

// The aggregate's union (counting_bloom_union_trans) through state::merge.
inline Bytes combined_in_state(const Bytes& a_bytes, const Bytes& b_bytes) {
  const View b = parsed(b_bytes, Validation::kStructure);
  Bytes out = states::working_copy<Family>(a_bytes);
  FUZZ_CHECK(out == a_bytes);
  FUZZ_CHECK(states::merge<Family>(&out, b).is_ok());
  FUZZ_CHECK(out.size() == a_bytes.size());
  return stored_of(parsed(out, Validation::kStructure));
}

// Values added as counting_bloom_agg adds them (state::add, in a working
// copy taken back as the executor's own state). Returns the stored form.
inline Bytes with_values_added(const Bytes& bytes, Validation validation, uint64_t seed,
                               uint64_t count) {
  parsed(bytes, validation);
  Bytes state = states::working_copy<Family>(bytes);
  for (uint64_t i = 0; i < count; i++) {
    Family::Element e{probe(seed, i)};
    states::add<Family>(&state, e);
  }
  states::check_taken_in_place<Family>(&state);
  const Bytes stored = stored_of(parsed(state, Validation::kStructure));
  const View sv = parsed(stored, Validation::kCanonical);
  for (uint64_t i = 0; i < count; i++) FUZZ_CHECK(contains_hash(sv, probe(seed, i)));
  return stored;
}

inline void exercise_stored(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  FUZZ_CHECK(v.size == input.size() && v.encoding == Encoding::kStored);
  FUZZ_CHECK(Family::is_working(input.data(), input.size()));
  const uint8_t kind = input[kElementKindOffset];
  check_numbers(v);
  FUZZ_CHECK(stored_of(v) == input);

  const Bytes empty = empty_filter(v.cells, v.hashes, kind);
  FUZZ_CHECK(combined(input, empty, Validation::kCanonical) == input);
  FUZZ_CHECK(combined(empty, input, Validation::kCanonical) == input);
  FUZZ_CHECK(combined_in_state(input, empty) == input);
  // a ∪ a: every counter doubled, saturating.
  const Bytes doubled = combined(input, input, Validation::kCanonical);
  FUZZ_CHECK(combined_in_state(input, input) == doubled);
  const View dv = parsed(doubled, Validation::kCanonical);
  for (uint64_t j = 0; j < v.cells; j++)
    FUZZ_CHECK(counter(dv.words, j) == std::min(15u, 2 * counter(v.words, j)));

  // Union with an unrelated filter commutes and keeps both sets.
  const Bytes other = with_values_added(empty, Validation::kCanonical, 11, 5);
  const Bytes ab = combined(input, other, Validation::kCanonical);
  FUZZ_CHECK(ab == combined(other, input, Validation::kCanonical));
  const View abv = parsed(ab, Validation::kCanonical);
  for (uint64_t i = 0; i < 5; i++) FUZZ_CHECK(contains_hash(abv, probe(11, i)));

  for (const Bytes& mismatched :
       {empty_filter(v.cells == kMaxCells ? v.cells - 1 : v.cells + 1, v.hashes, kind),
        empty_filter(v.cells, v.hashes == kMaxHashes ? 1 : v.hashes + 1, kind)}) {
    const Status st = check_compatible(v, parsed(mismatched, Validation::kCanonical));
    FUZZ_CHECK(st.code() == StatusCode::kMismatch && st.message()[0] != '\0');
  }

  // Added values, then deleted again: the input back unless a counter
  // saturated on the way (then nothing below 15 changed either way).
  const uint64_t seed = hash64(input.data(), input.size());
  const Bytes added = with_values_added(input, Validation::kCanonical, seed, 20);
  Bytes back = added;
  for (uint64_t i = 0; i < 20; i++) FUZZ_CHECK(delete_hash(back.data(), probe(seed, i)));
  parsed(back, Validation::kCanonical);
  if (count_cells(parsed(added, Validation::kCanonical)).saturated == count_cells(v).saturated &&
      count_cells(v).saturated == 0)
    FUZZ_CHECK(back == input);
  // The same values through a working state's queue give the same filter.
  Bytes working(working_size(v.cells));
  write_empty(working.data(), Params{v.cells, v.hashes}, Encoding::kQueued);
  working[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kNone);
  FUZZ_CHECK(states::merge<Family>(&working, v).is_ok());
  FUZZ_CHECK(with_values_added(working, Validation::kStructure, seed, 20) == added);

  // A delete is a no-op when a counter is 0, and never leaves the buffer.
  Bytes d = input;
  for (uint64_t i = 0; i < 8; i++) {
    const Hash128 h = probe(seed + 1, i);
    const Bytes before = d;
    const bool present = contains_hash(parsed(d, Validation::kCanonical), h);
    FUZZ_CHECK(delete_hash(d.data(), h) == present);
    if (!present) FUZZ_CHECK(d == before);
    check_numbers(parsed(d, Validation::kCanonical));
  }
}

inline void exercise_state(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size());
  FUZZ_CHECK(Family::is_working(input.data(), input.size()));
  const uint8_t kind = input[kElementKindOffset];
  const Bytes stored = stored_of(v);
  check_numbers(parsed(stored, Validation::kCanonical));
  const Bytes empty = empty_filter(v.cells, v.hashes, kind);
  for (const Bytes& r : {combined_in_state(input, input), combined_in_state(input, empty),
                         combined_in_state(empty, input), combined_in_state(input, stored),
                         combined(input, input, Validation::kStructure),
                         combined(input, empty, Validation::kStructure)}) {
    check_numbers(parsed(r, Validation::kCanonical));
  }
  with_values_added(input, Validation::kStructure, v.size, 20);
}

inline void exercise(const uint8_t* data, size_t size) {
  // The per-row shape check agrees with parse(kStructure) on every input.
  View unused;
  FUZZ_CHECK(Family::is_working(data, size) ==
             parse(data, size, Validation::kStructure, &unused).is_ok());
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure,
                                        data, size, exercise_stored, exercise_state);
}

}  // namespace sketch::fuzz::counting_bloom_readers
