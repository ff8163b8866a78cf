// Runs every ell reader over bytes that ell::parse accepted, for the ell
// fuzz target. kCanonical (external input: recv, casts from bytea): whatever
// it accepts behaves exactly like a sketch we wrote (round trips, idempotent
// union, commuting unions, the hll conversion). kStructure (our own values and
// states): every reader runs to completion, in bounds, with finite numbers.
#pragma once

#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

#include "core/common/hash.h"
#include "core/ell/ell.h"
#include "core/ell/ell_family.h"
#include "core/ell/ell_internal.h"
#include "core/hll/hll.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::ell_readers {

using namespace sketch::ell;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

inline void check_numbers(const View& v) {
  constexpr double kMax = 18446744073709551616.0;  // 2^64
  for (double e : {estimate(v), ml_estimate(v)}) FUZZ_CHECK(std::isfinite(e) && e >= 0 && e <= kMax);
  const double se = standard_error(v);
  FUZZ_CHECK(std::isfinite(se) && se >= 0);
  for (double confidence : {0.5, 0.999999}) {
    const Bounds b = bounds(v, confidence);
    FUZZ_CHECK(std::isfinite(b.lower) && b.lower >= 0 && std::isfinite(b.upper) && b.upper >= b.lower);
  }
  Bytes hll_bytes(hll::dense_size(v.p));
  write_hll(v, hll_bytes.data());
  hll::View hv;
  FUZZ_CHECK(hll::parse(hll_bytes.data(), hll_bytes.size(), Validation::kStructure, &hv).is_ok());
}

inline Bytes canonical_of(const View& v) { return states::stored<Family>(v.data, v.size); }

inline Bytes empty_sketch(int p, uint8_t kind) {
  Bytes out(sparse_size(0));
  write_empty(out.data(), p);
  out[kElementKindOffset] = kind;
  return out;
}

// a ∪ b as the union functions will do it: a working copy of a, then
// state::merge.
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
  FUZZ_CHECK(r.p == plan.p && r.encoding == plan.encoding);
  return out;
}

inline void add_values(Bytes* state, uint64_t seed) {
  for (uint64_t i = 0; i < 4; i++) {
    Family::Element e{seed * 0x9E3779B97F4A7C15ull + i};
    states::add<Family>(state, e);
  }
}

// A few tokens, or a dense p = 4 sketch with every register set; made once
// per (p, dense, kind) and kept, since every input needs them.
inline Bytes make_other_sketch(int p, bool dense, uint8_t kind) {
  Bytes state = states::working_copy<Family>(empty_sketch(dense ? kMinPrecision : p, kind));
  const uint64_t n = dense ? 64 * register_count(kMinPrecision) : 3;
  for (uint64_t i = 0; i < n; i++) {
    Family::Element e{(i + 1) * 0xD6E8FEB86659FD93ull};
    states::add<Family>(&state, e);
  }
  return canonical_of(parsed(state, Validation::kStructure));
}

inline const Bytes& other_sketch(int p, bool dense, uint8_t kind) {
  static std::map<std::tuple<int, bool, uint8_t>, Bytes> made;
  const auto key = std::make_tuple(p, dense, kind);
  auto it = made.find(key);
  if (it == made.end()) it = made.emplace(key, make_other_sketch(p, dense, kind)).first;
  return it->second;
}

// The canonical bytes of a merged copy: kUnmerged and the martingale cleared.
inline Bytes merged_form(const Bytes& canonical) {
  Bytes out = canonical;
  store_le32(out.data() + kFlagsOffset, 0);
  if (out[6] == static_cast<uint8_t>(Encoding::kDense))
    std::memset(out.data() + detail::kMartingaleOffset, 0,
                detail::kRegistersOffset - detail::kMartingaleOffset);
  return out;
}

inline void exercise_canonical(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  FUZZ_CHECK(v.size == input.size());
  FUZZ_CHECK(v.encoding == Encoding::kSparse || v.encoding == Encoding::kDense);
  const uint8_t kind = input[kElementKindOffset];
  parsed(input, Validation::kStructure);
  check_numbers(v);
  FUZZ_CHECK(canonical_of(v) == input);

  // a ∪ empty = empty ∪ a = a; a ∪ a is a, merged.
  const Bytes empty = empty_sketch(v.p, kind);
  for (const Bytes& r : {united(input, empty, Validation::kCanonical),
                         united(empty, input, Validation::kCanonical)})
    FUZZ_CHECK(canonical_of(parsed(r, Validation::kStructure)) == input);
  const Bytes self = canonical_of(parsed(united(input, input, Validation::kCanonical), Validation::kStructure));
  FUZZ_CHECK(self == (detail::is_empty(v) ? input : merged_form(input)));
  parsed(self, Validation::kCanonical);

  // Unions commute, and their stored forms parse canonically.
  for (bool dense : {false, true}) {
    const Bytes other = other_sketch(v.p, dense, kind);
    const Bytes ab = canonical_of(parsed(united(input, other, Validation::kCanonical), Validation::kStructure));
    const Bytes ba = canonical_of(parsed(united(other, input, Validation::kCanonical), Validation::kStructure));
    FUZZ_CHECK(ab == ba);
    check_numbers(parsed(ab, Validation::kCanonical));
  }

  // A fold to p = 4 (a union with an empty p = 4 sketch) parses canonically.
  const Bytes folded = canonical_of(parsed(united(input, empty_sketch(kMinPrecision, kind), Validation::kCanonical), Validation::kStructure));
  check_numbers(parsed(folded, Validation::kCanonical));

  // Used as an aggregate state: values added, stored again, read again.
  Bytes state = states::working_copy<Family>(input);
  add_values(&state, hash64(input.data(), input.size()));
  states::check_taken_in_place<Family>(&state);
  check_numbers(parsed(canonical_of(parsed(state, Validation::kStructure)), Validation::kCanonical));
}

inline void exercise_structure(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size());
  const uint8_t kind = input[kElementKindOffset];
  check_numbers(v);
  FUZZ_CHECK(canonical_of(v).size() == stored_size(v));
  const Bytes empty = empty_sketch(v.p, kind);
  for (const Bytes& r : {united(input, input, Validation::kStructure),
                         united(input, empty, Validation::kStructure),
                         united(empty, input, Validation::kStructure),
                         united(input, empty_sketch(kMinPrecision, kind), Validation::kStructure),
                         united(input, other_sketch(v.p, false, kind), Validation::kStructure),
                         united(other_sketch(v.p, true, kind), input, Validation::kStructure)}) {
    const View rv = parsed(r, Validation::kStructure);
    check_numbers(rv);
    canonical_of(rv);
  }
  Bytes state = states::working_copy<Family>(input);
  add_values(&state, v.size);
  check_numbers(parsed(canonical_of(parsed(state, Validation::kStructure)), Validation::kStructure));
}

inline void exercise(const uint8_t* data, size_t size) {
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure, data,
                                        size, exercise_canonical, exercise_structure);
}

}  // namespace sketch::fuzz::ell_readers
