// Runs every kll reader and combiner over bytes that kll::parse accepted,
// for the kll fuzz target (the kll counterpart of ddsketch_readers.h).
//
// kCanonical (text input, recv, bytea casts): what it accepts must behave
// like a sketch we wrote: its stored form is itself (also through a working
// copy); a ∪ ∅ = a; a ∪ a is valid input with twice the count and the same
// min and max; quantiles lie in [min, max], rise with q and are min and max
// at 0 and 1; ranks lie in [0, 1] and rise with the value; values added
// through the aggregate's grow loop (one at a time and weighted) keep it
// valid input. kStructure also accepts aggregate working states (our own,
// possibly corrupt): every reader and combiner must still run without a
// memory error or a hang.
#pragma once

#include <cstring>
#include <vector>

#include "core/kll/kll.h"
#include "core/kll/kll_family.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::kll_readers {

using namespace sketch::kll;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

inline bool canonical(const Bytes& bytes) {
  View v;
  return parse(bytes.data(), bytes.size(), Validation::kCanonical, &v).is_ok();
}

// Quantiles and ranks; for strict input also their promises.
inline void check_queries(const View& v, bool strict) {
  std::vector<uint64_t> scratch(query_scratch_size(v) / 8 + 1);
  const Sorted s = sort_items(v, reinterpret_cast<uint8_t*>(scratch.data()));
  uint64_t previous = 0;
  for (int i = 0; i <= 16; ++i) {
    const uint64_t key = quantile_key(v, s, i / 16.0);
    const double rank = rank_of_key(v, s, key);
    if (!strict || v.n == 0) continue;
    FUZZ_CHECK(key >= v.min_key && key <= v.max_key);
    FUZZ_CHECK(key >= previous);
    FUZZ_CHECK(rank >= 0.0 && rank <= 1.0);
    previous = key;
  }
  if (strict && v.n > 0) {
    FUZZ_CHECK(quantile_key(v, s, 0.0) == v.min_key);
    FUZZ_CHECK(quantile_key(v, s, 1.0) == v.max_key);
    FUZZ_CHECK(rank_of_key(v, s, v.max_key) == 1.0);
    FUZZ_CHECK(rank_error(v, false) >= 0.0 && rank_error(v, true) >= 0.0);
  }
}

// Values through the aggregate's grow loop: one at a time and weighted.
inline Bytes with_values(const Bytes& input, uint64_t key) {
  Bytes state = states::working_copy<Family>(input);
  for (uint64_t i = 0; i < 300; ++i) {
    Family::Element e{key + i * 7919};
    if (!fits_count(state.data(), 1)) break;
    states::add<Family>(&state, e);
  }
  Family::Element weighted{key, 1000003};
  if (fits_count(state.data(), weighted.times)) states::add<Family>(&state, weighted);
  return states::stored<Family>(state);
}

inline void on_strict(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  check_queries(v, true);
  FUZZ_CHECK(states::stored<Family>(input) == input);
  FUZZ_CHECK(states::stored<Family>(states::working_copy<Family>(input)) == input);
  // a ∪ ∅ = a.
  Bytes empty(empty_size(Encoding::kStored, v.k));
  write_empty(empty.data(), v.k, Encoding::kStored);
  Bytes state = states::working_copy<Family>(input);
  FUZZ_CHECK(states::merge<Family>(&state, parsed(empty, Validation::kCanonical)).is_ok());
  FUZZ_CHECK(states::stored<Family>(state) == input);
  // a ∪ a.
  if (v.n <= UINT64_MAX / 2) {
    Bytes twice = states::working_copy<Family>(input);
    FUZZ_CHECK(states::merge<Family>(&twice, v).is_ok());
    const Bytes stored = states::stored<Family>(twice);
    FUZZ_CHECK(canonical(stored));
    const View t = parsed(stored, Validation::kCanonical);
    FUZZ_CHECK(t.n == 2 * v.n && t.min_key == v.min_key && t.max_key == v.max_key);
    check_queries(t, true);
  }
  // Values of the sketch's own kind (a float kind gets finite double keys).
  if (v.kind != ElementKind::kNone && v.n <= UINT64_MAX / 2) {
    const uint64_t key = is_float_kind(v.kind) ? key_of_double(1.5) : v.min_key;
    FUZZ_CHECK(canonical(with_values(input, key)));
  }
}

inline void on_lenient(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  check_queries(v, false);
  const Bytes stored = states::stored<Family>(input);
  parsed(stored, Validation::kStructure);
  FUZZ_CHECK(states::stored<Family>(stored) == stored);
  Bytes state = states::working_copy<Family>(input);
  states::check_taken_in_place<Family>(&state);
  if (v.n <= UINT64_MAX / 4) {
    (void)states::merge<Family>(&state, v);
    with_values(stored, key_of_double(2.0));
  }
}

inline void exercise(const uint8_t* data, size_t size) {
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure,
                                        data, size, on_strict, on_lenient);
}

}  // namespace sketch::fuzz::kll_readers
