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

#include "core/hash.h"
#include "core/hll.h"
#include "fuzz_check.h"

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

inline Bytes canonical_of(const View& v) {
  Bytes out(canonical_size(v));
  write_canonical(v, out.data());
  return out;
}

inline Bytes empty_sketch(int p) {
  Bytes out(sparse_size(0));
  write_empty(out.data(), p);
  return out;
}

// a ∪ b the way the wrapper does it (hll_state_union): in a's own buffer when
// the plan allows, else into a new buffer of exactly plan.size bytes. Neither
// input is modified. The result must be a structurally valid sketch of the
// planned precision and encoding.
inline Bytes united(const Bytes& a_bytes, const Bytes& b_bytes, Validation validation) {
  const View a = parsed(a_bytes, validation);
  const View b = parsed(b_bytes, validation);
  const UnionPlan plan = plan_union(a, b);
  FUZZ_CHECK(plan.p == (a.p < b.p ? a.p : b.p));
  Bytes out;
  if (plan.in_place) {
    out = a_bytes;
    const View own = parsed(out, validation);
    apply_union(out.data(), own, b, plan, nullptr);
    FUZZ_CHECK(out.size() == a_bytes.size());
  } else {
    out.resize(plan.size);
    apply_union(nullptr, a, b, plan, out.data());
  }
  const View r = parsed(out, Validation::kStructure);
  FUZZ_CHECK(r.p == plan.p);
  FUZZ_CHECK(r.encoding == plan.encoding);
  return out;
}

// The aggregate's working copy of a stored value (hll_state_copy), then a few
// more values added with the wrapper's grow / promote / retry loop
// (hll_state_add): a stored sketch must be usable as an aggregate state.
inline Bytes with_values_added(const Bytes& bytes, Validation validation, uint64_t seed) {
  const View v = parsed(bytes, validation);
  Bytes state;
  if (v.encoding == Encoding::kDense) {
    state = bytes;
  } else {
    const uint32_t capacity = set_capacity_for(v.count + 1);
    state.resize(sparse_set_size(capacity));
    write_set(v, capacity, state.data());
  }
  for (uint64_t i = 0; i < 4; i++) {
    const uint64_t hash = seed * 0x9E3779B97F4A7C15ull + i;
    int rebuilds = 0;
    for (AddOutcome outcome; (outcome = add_hash(state.data(), hash)) != AddOutcome::kDone;) {
      FUZZ_CHECK(++rebuilds <= 3);
      const View s = parsed(state, Validation::kStructure);
      Bytes rebuilt;
      if (outcome == AddOutcome::kNeedsGrowth) {
        const uint32_t capacity = grown_capacity(s);
        rebuilt.resize(sparse_set_size(capacity));
        write_set(s, capacity, rebuilt.data());
      } else {
        rebuilt.resize(dense_size(s.p));
        write_dense(s, s.p, rebuilt.data());
      }
      state.swap(rebuilt);
    }
  }
  parsed(state, Validation::kStructure);
  return state;
}

// A small valid sketch that shares nothing with the input: a few sparse
// entries at precision p, or every register of a dense p = 4 sketch set.
inline Bytes other_sketch(int p, bool dense) {
  if (dense) {
    Bytes out(dense_size(kMinPrecision));
    write_dense(parsed(empty_sketch(kMinPrecision), Validation::kCanonical), kMinPrecision,
                out.data());
    for (uint64_t i = 0; i < register_count(kMinPrecision); i++)
      add_hash(out.data(), i << 60 | uint64_t{1} << 40);
    return out;
  }
  Bytes set(sparse_set_size(set_capacity_for(3)));
  write_empty_set(set.data(), p, set_capacity_for(3));
  for (uint64_t h : {0x0123456789abcdefull, 0xfedcba9876543210ull, 0x5555555555555555ull})
    add_hash(set.data(), h);
  return canonical_of(parsed(set, Validation::kStructure));
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
  FUZZ_CHECK(v.encoding == Encoding::kSparse || v.encoding == Encoding::kDense);
  // Our own values pass the weaker check too.
  parsed(input, Validation::kStructure);
  check_numbers(v);

  // Stored form of a stored form: itself.
  FUZZ_CHECK(canonical_of(v) == input);

  // a ∪ a = a, a ∪ empty = empty ∪ a = a (same precision).
  const Bytes empty = empty_sketch(v.p);
  for (const Bytes& r : {united(input, input, Validation::kCanonical),
                         united(input, empty, Validation::kCanonical),
                         united(empty, input, Validation::kCanonical)}) {
    const View rv = parsed(r, Validation::kStructure);
    check_numbers(rv);
    FUZZ_CHECK(canonical_of(rv) == input);
  }

  // Union with a sketch that shares nothing with the input commutes.
  for (bool dense : {false, true}) {
    const Bytes other = other_sketch(v.p, dense);
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
  const Bytes folded = united(input, empty_sketch(kMinPrecision), Validation::kCanonical);
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

// Lenient checks for bytes that only parse(kStructure) accepted: every reader
// must run to completion without a memory error.
inline void exercise_structure(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size());
  check_numbers(v);
  const Bytes stored = canonical_of(v);
  FUZZ_CHECK(stored.size() == canonical_size(v));

  const Bytes empty = empty_sketch(v.p);
  for (const Bytes& r : {united(input, input, Validation::kStructure),
                         united(input, empty, Validation::kStructure),
                         united(empty, input, Validation::kStructure),
                         united(input, empty_sketch(kMinPrecision), Validation::kStructure),
                         united(input, other_sketch(v.p, false), Validation::kStructure),
                         united(other_sketch(v.p, false), input, Validation::kStructure),
                         united(input, other_sketch(v.p, true), Validation::kStructure)}) {
    const View rv = parsed(r, Validation::kStructure);
    check_numbers(rv);
    canonical_of(rv);
  }
  const Bytes state = with_values_added(input, Validation::kStructure, v.size);
  canonical_of(parsed(state, Validation::kStructure));
}

// Parses in both modes and runs the matching readers.
inline void exercise(const uint8_t* data, size_t size) {
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure, data, size,
                                        exercise_canonical, exercise_structure);
}

}  // namespace sketch::fuzz::hll_readers
