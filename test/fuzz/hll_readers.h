// Runs every hll reader over bytes that hll::parse accepted, for the hll
// fuzz targets.
//
// parse has two modes. kCanonical is what external input goes through (text
// input, recv, bytea casts): whatever it accepts must behave exactly like a
// sketch we wrote, so the checks below are strict (round trips, idempotent
// union, exact folding). kStructure is only ever applied to our own values
// and aggregate states, but a stored value that decays on disk or a bug
// elsewhere could hand it odd bytes, so the readers must still neither crash,
// overrun, hang, nor produce an estimate that is not a finite number.
#pragma once

#include <cmath>
#include <cstring>

#include "core/common/hash.h"
#include "core/hll/hll.h"
#include "core/hll/hll_family.h"
#include "core/hll/pghll.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::hll_readers {

using namespace sketch::hll;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

// Everything that reads a view and returns numbers. What the SQL functions
// then do with them (round to bigint, floor, ceil) is only defined for finite
// values in [0, 2^64], so that is checked here.
inline void check_numbers(const View& v) {
  constexpr double kMax = 18446744073709551616.0;  // 2^64, the documented cap
  const double e = estimate(v);
  FUZZ_CHECK(std::isfinite(e) && e >= 0 && e <= kMax);
  const double se = standard_error(v);
  FUZZ_CHECK(std::isfinite(se) && se >= 0);
  for (double confidence : {0.5, 0.95, 0.999999}) {
    const Bounds b = bounds(v, confidence);
    FUZZ_CHECK(std::isfinite(b.lower) && b.lower >= 0);
    FUZZ_CHECK(std::isfinite(b.upper) && b.upper >= 0);
  }
}

// The stored form, through state::to_stored (the final function's path).
inline Bytes canonical_of(const View& v) {
  return states::stored<Family>(v.body - kHeaderSize, v.size);
}

// An empty sketch holding values of `kind` (header byte 7, element_kind.h):
// every sketch built here takes the input's kind, so that unions with it
// are never refused for their kinds.
inline Bytes empty_sketch(int p, uint8_t kind) {
  Bytes out(sparse_size(0));
  write_empty(out.data(), p);
  out[kElementKindOffset] = kind;
  return out;
}

// a ∪ b the way the union functions do it (aggregate_state.h): a working
// copy of a (state::to_working, owned = false), then state::merge, in that
// copy's buffer when the plan allows, else into a new buffer of exactly
// plan.size bytes. Neither input is modified. The result must be a
// structurally valid sketch of the planned precision and encoding.
inline Bytes united(const Bytes& a_bytes, const Bytes& b_bytes, Validation validation) {
  const View a = parsed(a_bytes, validation);
  const View b = parsed(b_bytes, validation);
  Bytes out = states::working_copy<Family>(a_bytes);
  const MergePlan plan = plan_merge(parsed(out, Validation::kStructure), b);
  FUZZ_CHECK(plan.p == (a.p < b.p ? a.p : b.p));
  const size_t working_size = out.size();
  FUZZ_CHECK(states::merge<Family>(&out, b).is_ok());
  FUZZ_CHECK(out.size() == (plan.in_place ? working_size : plan.size));
  const View r = parsed(out, Validation::kStructure);
  FUZZ_CHECK(r.p == plan.p);
  FUZZ_CHECK(r.encoding == plan.encoding);
  return out;
}

// A value used as an aggregate state, as hll_agg's transition takes a state
// it does not own: a working copy (state::to_working), then a few more
// values through state::add, which grows the set and promotes it to dense
// as often as asked. The result, taken back as the executor's own state
// (owned = true), is used in place.
inline void add_values(Bytes* state, uint64_t seed) {
  for (uint64_t i = 0; i < 4; i++) {
    Family::Element e{seed * 0x9E3779B97F4A7C15ull + i};
    states::add<Family>(state, e);
  }
}

inline Bytes with_values_added(const Bytes& bytes, Validation validation, uint64_t seed) {
  parsed(bytes, validation);
  Bytes state = states::working_copy<Family>(bytes);
  add_values(&state, seed);
  states::check_taken_in_place<Family>(&state);
  parsed(state, Validation::kStructure);
  return state;
}

// A small valid sketch that shares nothing with the input: a few sparse
// entries at precision p, or every register of a dense p = 4 sketch set,
// added to an empty sketch through state::add.
inline Bytes other_sketch(int p, bool dense, uint8_t kind) {
  Bytes state = states::working_copy<Family>(empty_sketch(dense ? kMinPrecision : p, kind));
  if (dense) {
    for (uint64_t i = 0; i < register_count(kMinPrecision); i++) {
      Family::Element e{i << 60 | uint64_t{1} << 40};
      states::add<Family>(&state, e);
    }
    FUZZ_CHECK(parsed(state, Validation::kStructure).encoding == Encoding::kDense);
    return state;
  }
  for (uint64_t h : {0x0123456789abcdefull, 0xfedcba9876543210ull, 0x5555555555555555ull}) {
    Family::Element e{h};
    states::add<Family>(&state, e);
  }
  return canonical_of(parsed(state, Validation::kStructure));
}

inline Bytes dense_at(const Bytes& bytes, Validation validation, int p) {
  Bytes out(dense_size(p));
  write_dense(parsed(bytes, validation), p, out.data());
  return out;
}

// Strict checks for bytes that parse(kCanonical) accepted.
inline void exercise_canonical(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  FUZZ_CHECK(v.size == input.size());
  const uint8_t kind = input[kElementKindOffset];
  FUZZ_CHECK(v.encoding == Encoding::kSparse || v.encoding == Encoding::kDense);
  // Our own values pass the weaker check too.
  parsed(input, Validation::kStructure);
  check_numbers(v);

  // Stored form of a stored form: itself.
  FUZZ_CHECK(canonical_of(v) == input);

  // a ∪ a = a, a ∪ empty = empty ∪ a = a (same precision).
  const Bytes empty = empty_sketch(v.p, kind);
  for (const Bytes& r : {united(input, input, Validation::kCanonical),
                         united(input, empty, Validation::kCanonical),
                         united(empty, input, Validation::kCanonical)}) {
    const View rv = parsed(r, Validation::kStructure);
    check_numbers(rv);
    FUZZ_CHECK(canonical_of(rv) == input);
  }

  // Union with a sketch that shares nothing with the input commutes.
  for (bool dense : {false, true}) {
    const Bytes other = other_sketch(v.p, dense, kind);
    const Bytes ab = united(input, other, Validation::kCanonical);
    const Bytes ba = united(other, input, Validation::kCanonical);
    const View abv = parsed(ab, Validation::kStructure);
    check_numbers(abv);
    const Bytes stored = canonical_of(abv);
    parsed(stored, Validation::kCanonical);
    FUZZ_CHECK(stored == canonical_of(parsed(ba, Validation::kStructure)));
  }

  // Folding to the smallest precision (a union with an empty p = 4 sketch)
  // is exact: the same registers as converting straight to dense p = 4.
  const Bytes folded = united(input, empty_sketch(kMinPrecision, kind), Validation::kCanonical);
  const View fv = parsed(folded, Validation::kStructure);
  check_numbers(fv);
  const Bytes folded_stored = canonical_of(fv);
  parsed(folded_stored, Validation::kCanonical);
  FUZZ_CHECK(dense_at(folded_stored, Validation::kCanonical, kMinPrecision) ==
             dense_at(input, Validation::kCanonical, kMinPrecision));

  // Used as an aggregate state: values added, stored again, read again.
  const Bytes state = with_values_added(input, Validation::kCanonical, hash64(input.data(), input.size()));
  const View sv = parsed(state, Validation::kStructure);
  check_numbers(sv);
  const Bytes stored = canonical_of(sv);
  check_numbers(parsed(stored, Validation::kCanonical));
}

// The bytes as the executor's own state (state::to_working, owned = true):
// a working encoding (a set, dense registers) is updated in place by
// state::merge and state::add. In the server only states this code made are
// ever owned, but a corrupt one must not take it down: the kept regressions
// set_* were found by writing into such bytes.
inline void exercise_as_own_state(const Bytes& input, uint8_t kind, uint64_t seed) {
  const View v = parsed(input, Validation::kStructure);
  Bytes merged = input;
  states::take_owned<Family>(&merged);
  const Bytes other = other_sketch(v.p, false, kind);
  FUZZ_CHECK(states::merge<Family>(&merged, parsed(other, Validation::kStructure)).is_ok());
  check_numbers(parsed(canonical_of(parsed(merged, Validation::kStructure)), Validation::kStructure));
  Bytes added = input;
  states::take_owned<Family>(&added);
  add_values(&added, seed);
  check_numbers(parsed(canonical_of(parsed(added, Validation::kStructure)), Validation::kStructure));
}

// Lenient checks for bytes that only parse(kStructure) accepted: every reader
// must run to completion without a memory error.
inline void exercise_structure(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size());
  const uint8_t kind = input[kElementKindOffset];
  check_numbers(v);
  const Bytes stored = canonical_of(v);
  FUZZ_CHECK(stored.size() == stored_size(v));

  const Bytes empty = empty_sketch(v.p, kind);
  for (const Bytes& r : {united(input, input, Validation::kStructure),
                         united(input, empty, Validation::kStructure),
                         united(empty, input, Validation::kStructure),
                         united(input, empty_sketch(kMinPrecision, kind), Validation::kStructure),
                         united(input, other_sketch(v.p, false, kind), Validation::kStructure),
                         united(other_sketch(v.p, false, kind), input, Validation::kStructure),
                         united(input, other_sketch(v.p, true, kind), Validation::kStructure)}) {
    const View rv = parsed(r, Validation::kStructure);
    check_numbers(rv);
    canonical_of(rv);
  }
  const Bytes state = with_values_added(input, Validation::kStructure, v.size);
  canonical_of(parsed(state, Validation::kStructure));
  exercise_as_own_state(input, kind, v.size);
}

// Parses in both modes and runs the matching readers.
inline void exercise(const uint8_t* data, size_t size) {
  // postgresql-hll's sketches (hash identity 2) have a target of their own
  // (fuzz_pghll_parse): the checks here are those of identity 1.
  if (size > 4 && data[4] == pghll::kIdentity) return;
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure, data, size,
                                        exercise_canonical, exercise_structure);
}

}  // namespace sketch::fuzz::hll_readers
