// Runs every ddsketch reader and combiner over bytes that ddsketch::parse
// accepted, for the ddsketch fuzz targets (the ddsketch counterpart of
// hll_readers.h).
//
// parse has two modes. kCanonical is what external input goes through (text
// input, recv, bytea casts): whatever it accepts must behave exactly like a
// sketch we wrote, so the checks are strict: its stored form is itself (also
// through a working copy); a ∪ ∅ = ∅ ∪ a = a; a ∪ a doubles the counts and
// keeps every quantile whose rank is not 1 or n; unions with unrelated
// sketches of the same or other scales and limits commute and are valid
// input; folds compose (a folded to s1 then s2 = a folded to s2); unions at
// one scale are associative; values added through the aggregate's grow loop
// give the same bytes as a union with a sketch of those values; quantiles
// lie in [min, max], rise with q and are exactly min and max at 0 and 1;
// ranks lie in [0, 1]; the sum is a number; the dashboard readers agree
// with rank() and add up; values added 3 times at once give the bytes of 3
// adds. kStructure also accepts
// aggregate working states (our own, possibly corrupt): every reader and
// combiner must still run without a memory error or a hang, and the stored
// form of anything is a fixed point of to_stored.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "core/ddsketch/ddsketch.h"
#include "core/ddsketch/ddsketch_family.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::ddsketch_readers {

using namespace sketch::ddsketch;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

// The stored form of any sketch, through state::to_stored (the final
// function's path).
inline Bytes stored_of(const View& v) { return states::stored<Family>(v.data, v.size); }
inline Bytes stored_of(const Bytes& b) { return stored_of(parsed(b, Validation::kStructure)); }

inline Bytes empty_sketch(int scale, uint32_t max_buckets) {
  Bytes out(empty_size());
  write_empty(Params{scale, max_buckets}, out.data());
  return out;
}

// The dashboard readers (ddsketch_ranks, _cdf, _pmf, _trimmed_mean) at a
// few points around the sketch's range. For strict input: ranks are rank()
// of each value, the CDF rises to 1, the PMF's masses are >= 0 and add up
// to 1, trimmed means lie in [min, max].
inline void check_dashboard(const View& v, bool canonical) {
  const double span = std::isfinite(v.max - v.min) ? v.max - v.min : 1.0;
  double xs[7] = {v.max, v.min, 0.0, v.min + span / 3, v.min + span / 2, v.max, v.min - 1};
  for (double& x : xs)
    if (std::isnan(x)) x = 0;  // (a corrupt state's min or max): the readers take no NaN
  uint32_t order[7];
  uint64_t counts[7];
  double out[8];
  ranks(v, xs, 7, order, counts, out);
  if (canonical)
    for (int k = 0; k < 7; k++) FUZZ_CHECK(out[k] == rank(v, xs[k]));
  std::sort(xs, xs + 7);
  size_t m = 0;  // strictly increasing splits
  for (int k = 0; k < 7; k++)
    if (std::isfinite(xs[k]) && (m == 0 || xs[m - 1] < xs[k])) xs[m++] = xs[k];
  FUZZ_CHECK(check_splits(xs, m).is_ok());
  if (v.count > 0) {
    cdf(v, xs, m, counts, out);
    if (canonical) {
      FUZZ_CHECK(out[m] == 1.0);
      for (size_t k = 0; k < m; k++) FUZZ_CHECK(out[k] >= 0 && out[k] <= (k + 1 < m + 1 ? out[k + 1] : 1));
    }
    pmf(v, xs, m, counts, out);
    if (canonical) {
      double total = 0;
      for (size_t k = 0; k <= m; k++) {
        FUZZ_CHECK(out[k] >= 0);
        total += out[k];
      }
      FUZZ_CHECK(std::fabs(total - 1) < 1e-9);
    }
  }
  for (const auto& [lo, hi] : {std::pair{0.0, 1.0}, {0.25, 0.75}, {0.999, 1.0}}) {
    const double t = trimmed_mean(v, lo, hi);
    if (canonical && v.count > 0) FUZZ_CHECK(t >= v.min && t <= v.max);
  }
}

// Every reader (ddsketch_quantile(s), _rank, _sum, _mean, _info). For
// strictly parsed sketches the answers must make sense; for anything else
// they must merely come back.
inline void check_readers(const View& v, bool canonical) {
  check_dashboard(v, canonical);
  const double total = sum(v);
  FUZZ_CHECK(!std::isnan(total));
  const Guarantee g = unguaranteed_ranks(v);
  uint64_t buckets = 0;
  for (const Store* s : {&v.positive, &v.negative}) {
    for_each_bucket(*s, [&](int32_t index, uint64_t count) {
      buckets++;
      FUZZ_CHECK(count > 0);
      FUZZ_CHECK(index >= lowest_index(v.scale) && index <= highest_index(v.scale));
      const double rep = bucket_value(index, v.scale);
      FUZZ_CHECK(std::isfinite(rep) && rep > 0);
    });
  }
  if (!canonical) {
    if (v.count > 0)
      for (double q : {0.0, 0.001, 0.5, 0.999, 1.0}) (void)quantile(v, q);
    (void)rank(v, 0.0);
    (void)rank(v, v.max);
    return;
  }
  FUZZ_CHECK(buckets == uint64_t{v.positive.buckets} + v.negative.buckets);
  if (v.count == 0) {
    FUZZ_CHECK(std::isnan(quantile(v, 0.5)));
    FUZZ_CHECK(rank(v, 1.0) == 0.0);
    FUZZ_CHECK(total == 0.0);
    FUZZ_CHECK(g.from > g.to);
    return;
  }
  FUZZ_CHECK(g.from > g.to || (1 <= g.from && g.from <= g.to && g.to <= v.count));
  FUZZ_CHECK(quantile(v, 0) == v.min && quantile(v, 1) == v.max);
  double previous = v.min;
  for (int i = 0; i <= 64; i++) {
    const double x = quantile(v, i / 64.0);
    FUZZ_CHECK(x >= v.min && x <= v.max && x >= previous);
    previous = x;
    const double r = rank(v, x);
    FUZZ_CHECK(r >= 0 && r <= 1);
  }
  FUZZ_CHECK(rank(v, v.max) == 1.0);
  if (v.min > -1.7976931348623157e308) FUZZ_CHECK(rank(v, std::nextafter(v.min, -INFINITY)) == 0.0);
  if (v.min >= 0) FUZZ_CHECK(total >= 0);
  if (v.max <= 0) FUZZ_CHECK(total <= 0);
}

// a ∪ b the way the union functions do it (aggregate_state.h): a working
// copy of a (state::to_working, owned = false), then state::merge. The
// result has the smaller scale and max_buckets; the only refusal is a union
// of more than 2^64 - 1 values.
inline bool united(const Bytes& a_bytes, const Bytes& b_bytes, Validation validation, Bytes* out) {
  const View a = parsed(a_bytes, validation);
  const View b = parsed(b_bytes, validation);
  Bytes state = states::working_copy<Family>(a_bytes);
  const Status st = states::merge<Family>(&state, b);
  if (!st.is_ok()) {
    FUZZ_CHECK(st.code() == StatusCode::kInvalidParameter && a.count > kMaxCount - b.count);
    return false;
  }
  const View r = parsed(state, Validation::kStructure);
  FUZZ_CHECK(r.scale == (a.scale < b.scale ? a.scale : b.scale));
  FUZZ_CHECK(r.max_buckets == (a.max_buckets < b.max_buckets ? a.max_buckets : b.max_buckets));
  FUZZ_CHECK(r.count == a.count + b.count);
  *out = state;
  return true;
}

inline Bytes united(const Bytes& a_bytes, const Bytes& b_bytes, Validation validation) {
  Bytes out;
  FUZZ_CHECK(united(a_bytes, b_bytes, validation, &out));
  return out;
}

// A few values: a seed-derived double (any finite one), its negation, a
// neighbour, a zero. (Values far apart make a store span max_buckets and
// its window 2 max_buckets slots, up to 1 MiB, which only slows the
// fuzzer down; the inputs bring their own ranges.)
inline std::vector<double> values_for(uint64_t seed) {
  uint64_t bits = seed * 0x9E3779B97F4A7C15ull;
  if ((bits >> 52 & 0x7ff) == 0x7ff) bits ^= uint64_t{1} << 62;
  double x;
  std::memcpy(&x, &bits, 8);
  return {x, -x, x * 1.001, 0.0};
}

inline void add_values(Bytes* state, const std::vector<double>& values) {
  for (double x : values) {
    Family::Element e{x};
    states::add<Family>(state, e);
  }
}

// A small valid sketch that shares nothing with the input, built through
// state::add.
inline Bytes other_sketch(int scale, uint32_t max_buckets, uint64_t seed) {
  Bytes state = states::working_copy<Family>(empty_sketch(scale, max_buckets));
  add_values(&state, {1.0, 2.5, -3.0, 0.0, 0.125, 700.0, static_cast<double>(seed % 1000)});
  return stored_of(state);
}

// Strict checks for bytes that parse(kCanonical) accepted.
inline void exercise_canonical(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  FUZZ_CHECK(v.size == input.size() && v.encoding == Encoding::kStored);
  parsed(input, Validation::kStructure);
  check_readers(v, true);

  // The stored form of a stored form is itself, also through a working copy.
  FUZZ_CHECK(stored_of(v) == input);
  const Bytes working = states::working_copy<Family>(input);
  FUZZ_CHECK(stored_of(working) == input);

  // a ∪ ∅ = ∅ ∪ a = a.
  const Bytes empty = empty_sketch(v.scale, v.max_buckets);
  FUZZ_CHECK(stored_of(united(input, empty, Validation::kCanonical)) == input);
  FUZZ_CHECK(stored_of(united(empty, input, Validation::kCanonical)) == input);

  // a ∪ a: counts double, every rank but 1 and n keeps its value.
  Bytes doubled;
  if (united(input, input, Validation::kCanonical, &doubled)) {
    const Bytes stored = stored_of(doubled);
    const View d = parsed(stored, Validation::kCanonical);
    check_readers(d, true);
    FUZZ_CHECK(d.count == 2 * v.count && d.zero_count == 2 * v.zero_count);
    for (int i = 0; i <= 32; i++) {
      const double q = i / 32.0;
      const double k = std::ceil(q * static_cast<double>(v.count));
      if (k > 1 && k < static_cast<double>(v.count)) FUZZ_CHECK(quantile(d, q) == quantile(v, q));
    }
  }

  // Unions with unrelated sketches (the same parameters, a coarser and a
  // finer scale, other limits) commute and give valid input.
  const uint64_t seed = v.count ^ v.size;
  const Bytes others[] = {
      other_sketch(v.scale, v.max_buckets, seed),
      other_sketch(v.scale > 0 ? v.scale - 1 : 0, 16, seed + 1),
      other_sketch(v.scale < kMaxScale ? v.scale + 1 : kMaxScale, 2048, seed + 2),
  };
  for (const Bytes& other : others) {
    Bytes ab, ba;
    if (!united(input, other, Validation::kCanonical, &ab)) continue;
    FUZZ_CHECK(united(other, input, Validation::kCanonical, &ba));
    const Bytes stored = stored_of(ab);
    check_readers(parsed(stored, Validation::kCanonical), true);
    FUZZ_CHECK(stored == stored_of(ba));
  }

  // At one scale unions are associative: (a ∪ o1) ∪ o2 = a ∪ (o1 ∪ o2).
  const Bytes o1 = other_sketch(v.scale, 16, seed + 3);
  const Bytes o2 = other_sketch(v.scale, 2048, seed + 4);
  Bytes left, right, a_o1;
  if (united(input, o1, Validation::kCanonical, &a_o1) &&
      united(stored_of(a_o1), o2, Validation::kCanonical, &left) &&
      united(input, stored_of(united(o1, o2, Validation::kCanonical)), Validation::kCanonical,
             &right))
    FUZZ_CHECK(stored_of(left) == stored_of(right));

  // Folds compose: a folded to s/2 and then to 0 is a folded to 0.
  const Bytes to_zero =
      stored_of(united(input, empty_sketch(0, v.max_buckets), Validation::kCanonical));
  const Bytes to_half =
      stored_of(united(input, empty_sketch(v.scale / 2, v.max_buckets), Validation::kCanonical));
  FUZZ_CHECK(stored_of(united(to_half, empty_sketch(0, v.max_buckets), Validation::kCanonical)) ==
             to_zero);
  check_readers(parsed(to_zero, Validation::kCanonical), true);

  // Used as an aggregate state: values added (at one scale) give the bytes
  // of a union with a sketch of those values.
  const std::vector<double> values = values_for(seed);
  Bytes state = states::working_copy<Family>(input);
  add_values(&state, values);
  states::check_taken_in_place<Family>(&state);
  const Bytes added = stored_of(state);
  check_readers(parsed(added, Validation::kCanonical), true);
  if (v.count <= kMaxCount - values.size()) {
    Bytes only = states::working_copy<Family>(empty);
    add_values(&only, values);
    FUZZ_CHECK(stored_of(united(input, stored_of(only), Validation::kCanonical)) == added);
  }

  // Weighted: each value 3 times in one add gives the bytes of 3 adds.
  if (v.count <= kMaxCount - 3 * values.size()) {
    Bytes weighted = states::working_copy<Family>(input);
    Bytes repeated = states::working_copy<Family>(input);
    for (double x : values) {
      Family::Element e{x, 3};
      states::add<Family>(&weighted, e);
      add_values(&repeated, {x, x, x});
    }
    FUZZ_CHECK(stored_of(weighted) == stored_of(repeated));
  }
}

// The bytes as the executor's own state (state::to_working, owned = true):
// a working state is updated in place by state::merge and state::add. In
// the server only states this code made are ever owned, but a corrupt one
// must not take it down.
inline void exercise_as_own_state(const Bytes& input, uint64_t seed) {
  const View v = parsed(input, Validation::kStructure);
  Bytes merged = input;
  states::take_owned<Family>(&merged);
  const Status st = states::merge<Family>(
      &merged, parsed(other_sketch(v.scale, v.max_buckets, seed), Validation::kStructure));
  FUZZ_CHECK(st.is_ok() || st.code() == StatusCode::kInvalidParameter);
  check_readers(parsed(stored_of(merged), Validation::kStructure), false);
  Bytes added = input;
  states::take_owned<Family>(&added);
  add_values(&added, values_for(seed));
  check_readers(parsed(stored_of(added), Validation::kStructure), false);
}

// Lenient checks for bytes that only parse(kStructure) accepted: every reader
// and combiner must run to completion without a memory error.
inline void exercise_structure(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size());
  check_readers(v, false);
  const Bytes stored = stored_of(v);
  FUZZ_CHECK(stored.size() == stored_size(v));
  const View sv = parsed(stored, Validation::kStructure);
  check_readers(sv, false);
  FUZZ_CHECK(stored_of(sv) == stored);  // to_stored is idempotent

  const uint64_t seed = v.size;
  const Bytes others[] = {
      input,
      empty_sketch(v.scale, v.max_buckets),
      empty_sketch(0, 16),
      other_sketch(v.scale, v.max_buckets, seed),
      other_sketch(kMaxScale, 256, seed + 1),
  };
  for (const Bytes& other : others) {
    for (int order = 0; order < 2; order++) {
      Bytes r;
      if (!united(order == 0 ? input : other, order == 0 ? other : input, Validation::kStructure,
                  &r))
        continue;
      const View rv = parsed(r, Validation::kStructure);
      check_readers(rv, false);
      const Bytes rs = stored_of(rv);
      FUZZ_CHECK(stored_of(rs) == rs);
    }
  }
  Bytes state = states::working_copy<Family>(input);
  add_values(&state, values_for(seed));
  states::check_taken_in_place<Family>(&state);
  check_readers(parsed(stored_of(state), Validation::kStructure), false);
  exercise_as_own_state(input, seed);
}

// Parses in both modes and runs the matching readers.
inline void exercise(const uint8_t* data, size_t size) {
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure, data,
                                        size, exercise_canonical, exercise_structure);
}

}  // namespace sketch::fuzz::ddsketch_readers
