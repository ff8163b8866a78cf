// Runs every bloom reader and combiner over bytes that bloom::parse
// accepted, for the bloom fuzz targets (the bloom counterpart of
// hll_readers.h).
//
// parse has two modes. kCanonical is what external input and every value SQL
// sees go through (text input, recv, bytea casts): whatever it accepts must
// behave exactly like a filter we wrote, so the checks are strict (stored
// form is itself; a | a = a & a = a | ∅ = ∅ | a = a, a & ∅ = ∅; union with
// an unrelated filter commutes and keeps every member; added values are
// present, the same whether added at once or through a working state's
// queue). kStructure also accepts aggregate working states (our own, possibly
// corrupt): every reader and combiner must still run without a memory error
// or a non-finite estimate.
#pragma once

#include <cmath>
#include <vector>

#include "core/bloom/bloom.h"
#include "core/bloom/bloom_family.h"
#include "core/common/hash.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::bloom_readers {

using namespace sketch::bloom;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

inline Hash128 probe(uint64_t seed, uint64_t i) {
  return Hash128{seed * 0x9E3779B97F4A7C15ull + i, (seed + 1) * 0xC2B2AE3D27D4EB4Full ^ i};
}

// The stored form of any filter, through state::to_stored (the final
// function's path).
inline Bytes stored_of(const View& v) { return states::stored<Family>(v.data, v.size); }

// Every reader of a stored filter (bloom_cardinality, bloom_fpp, bloom_info,
// @>): finite numbers in range.
inline void check_numbers(const View& v) {
  FUZZ_CHECK(v.encoding == Encoding::kStored);
  const uint64_t set = bits_set(v);
  FUZZ_CHECK(set <= v.bits);
  const double n = estimate_cardinality(v);
  FUZZ_CHECK(std::isfinite(n) && n >= 0);
  const double fpp = estimate_fpp(v);
  FUZZ_CHECK(std::isfinite(fpp) && fpp >= 0 && fpp <= 1);
  for (uint64_t i = 0; i < 4; i++) contains_hash(v, probe(7, i));
}

// An empty filter holding values of `kind` (header byte 7, element_kind.h):
// every filter built here takes the input's kind, so that unions with it
// are never refused for their kinds.
inline Bytes empty_filter(uint64_t bits, int hashes, uint8_t kind,
                          Layout layout = Layout::kClassic) {
  Bytes out(filter_size(bits));
  write_empty(out.data(), Params{bits, hashes, layout});
  out[kElementKindOffset] = kind;
  return out;
}

// a op b the way the functions bloom_union / bloom_intersect (not the
// aggregates) do it: a stored copy of a, then b combined into it. Neither
// input is modified.
inline Bytes combined(const Bytes& a_bytes, const Bytes& b_bytes, Validation validation,
                      bool intersect) {
  const View a = parsed(a_bytes, validation);
  const View b = parsed(b_bytes, validation);
  FUZZ_CHECK(check_compatible(a, b).is_ok());
  Bytes out = stored_of(a);
  if (intersect) {
    intersect_into(out.data(), parsed(stored_of(b), Validation::kCanonical));
  } else {
    merge(out.data(), b);
  }
  check_numbers(parsed(out, Validation::kCanonical));
  return out;
}

// The aggregate's union (bloom_union_trans): a working copy of a (either
// encoding; state::to_working, owned = false), then b (either encoding)
// through state::merge, in that copy's buffer.
inline Bytes combined_in_state(const Bytes& a_bytes, const Bytes& b_bytes) {
  const View a = parsed(a_bytes, Validation::kStructure);
  const View b = parsed(b_bytes, Validation::kStructure);
  FUZZ_CHECK(check_compatible(a, b).is_ok());
  Bytes out = states::working_copy<Family>(a_bytes);
  FUZZ_CHECK(out == a_bytes);  // every filter is a working state: the copy is a copy
  FUZZ_CHECK(states::merge<Family>(&out, b).is_ok());
  FUZZ_CHECK(out.size() == a_bytes.size());
  const View r = parsed(out, Validation::kStructure);
  FUZZ_CHECK(r.encoding == a.encoding);
  return stored_of(r);
}

// Values added as bloom_agg adds them, through state::add: at once to a
// stored filter, deferred through the queue of a working state, in a
// working copy of the input that is then taken back as the executor's own
// state (owned = true) and used in place. Returns the stored form.
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

// Strict checks for bytes that parse(kCanonical) accepted.
inline void exercise_stored(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  FUZZ_CHECK(v.size == input.size() && v.encoding == Encoding::kStored);
  const uint8_t kind = input[kElementKindOffset];
  parsed(input, Validation::kStructure);  // states accept stored filters too
  check_numbers(v);
  FUZZ_CHECK(stored_of(v) == input);

  // Identities with itself and with the empty filter of the same parameters.
  const Bytes empty = empty_filter(v.bits, v.hashes, kind, v.layout);
  FUZZ_CHECK(combined(input, input, Validation::kCanonical, false) == input);
  FUZZ_CHECK(combined(input, input, Validation::kCanonical, true) == input);
  FUZZ_CHECK(combined(input, empty, Validation::kCanonical, false) == input);
  FUZZ_CHECK(combined(empty, input, Validation::kCanonical, false) == input);
  FUZZ_CHECK(combined(input, empty, Validation::kCanonical, true) == empty);
  FUZZ_CHECK(combined_in_state(input, input) == input);
  FUZZ_CHECK(combined_in_state(input, empty) == input);

  // Union with an unrelated filter commutes and keeps the members of both;
  // the intersection holds the bits both have.
  const Bytes other = with_values_added(empty, Validation::kCanonical, 11, 5);
  const Bytes ab = combined(input, other, Validation::kCanonical, false);
  FUZZ_CHECK(ab == combined(other, input, Validation::kCanonical, false));
  const View abv = parsed(ab, Validation::kCanonical);
  for (uint64_t i = 0; i < 5; i++) FUZZ_CHECK(contains_hash(abv, probe(11, i)));
  FUZZ_CHECK(bits_set(abv) >= bits_set(v));
  const Bytes both = combined(input, other, Validation::kCanonical, true);
  FUZZ_CHECK(both == combined(other, input, Validation::kCanonical, true));
  FUZZ_CHECK(bits_set(parsed(both, Validation::kCanonical)) <= bits_set(v));

  // Filters of other parameters do not combine, naming both.
  // A split-block filter: one of another size, and a classic one of its m
  // and k (another layout; a classic kind, since kinds are per layout).
  const bool split = v.layout == Layout::kSplitBlock;
  const uint64_t other_split_bits =
      v.bits == split_block::kMaxBits ? v.bits - split_block::kBlockBits : v.bits + split_block::kBlockBits;
  const std::vector<Bytes> mismatches =
      split ? std::vector<Bytes>{empty_filter(other_split_bits, v.hashes, kind, v.layout),
                                 empty_filter(v.bits, v.hashes, 0)}
            : std::vector<Bytes>{
                  empty_filter(v.bits == kMaxBits ? v.bits - 1 : v.bits + 1, v.hashes, kind),
                  empty_filter(v.bits, v.hashes == kMaxHashes ? 1 : v.hashes + 1, kind)};
  for (const Bytes& mismatched : mismatches) {
    const Status st = check_compatible(v, parsed(mismatched, Validation::kCanonical));
    FUZZ_CHECK(st.code() == StatusCode::kMismatch && st.message()[0] != '\0');
  }

  // Values added at once, and through an aggregate's working state (an empty
  // state, the input merged in, the same values queued), give one filter.
  const uint64_t seed = hash64(input.data(), input.size());
  const Bytes direct = with_values_added(input, Validation::kCanonical, seed, 20);
  Bytes working(working_size(v.bits));
  write_empty(working.data(), Params{v.bits, v.hashes, v.layout}, Encoding::kQueued);
  working[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kNone);  // a new state's kind
  FUZZ_CHECK(states::merge<Family>(&working, v).is_ok());
  FUZZ_CHECK(with_values_added(working, Validation::kStructure, seed, 20) == direct);
  check_numbers(parsed(direct, Validation::kCanonical));
}

// Lenient checks for bytes that only parse(kStructure) accepted (working
// states): everything SQL does with a state must run to completion.
inline void exercise_state(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size());
  const uint8_t kind = input[kElementKindOffset];
  const Bytes stored = stored_of(v);
  check_numbers(parsed(stored, Validation::kCanonical));
  const Bytes empty = empty_filter(v.bits, v.hashes, kind, v.layout);
  for (const Bytes& r : {combined_in_state(input, input), combined_in_state(input, empty),
                         combined_in_state(empty, input), combined_in_state(input, stored),
                         combined(input, input, Validation::kStructure, false),
                         combined(input, input, Validation::kStructure, true),
                         combined(input, empty, Validation::kStructure, false)}) {
    check_numbers(parsed(r, Validation::kCanonical));
  }
  with_values_added(input, Validation::kStructure, v.size, 20);
}

// Parses in both modes and runs the matching readers.
inline void exercise(const uint8_t* data, size_t size) {
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure, data, size,
                                        exercise_stored, exercise_state);
}

}  // namespace sketch::fuzz::bloom_readers
