// Runs every cms reader and merger over bytes that cms::parse accepted, for
// the cms fuzz targets (the cms counterpart of hll_readers.h).
//
// parse has two modes. kCanonical is what external input goes through (text
// input, recv, bytea casts): whatever it accepts must behave exactly like a
// sketch we wrote, so the checks are strict (round trip, merge with an empty
// sketch is the identity, merge with itself doubles every estimate, merges
// commute, adding values keeps it valid). kStructure is only ever applied to
// our own values and aggregate states (both encodings), but a value that
// decays on disk or a bug elsewhere could hand it odd bytes, so every reader
// and merger must still neither crash, overrun nor hang.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/cms/cms.h"
#include "core/cms/cms_family.h"
#include "core/common/hash.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::cms_readers {

using namespace sketch::cms;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

inline uint64_t saturated_sum(uint64_t a, uint64_t b) {
  return a > kMaxCount - b ? kMaxCount : a + b;
}

// Hashes to probe: a few fixed ones and every candidate's.
inline std::vector<uint64_t> probes(const View& v) {
  std::vector<uint64_t> out = {0, 1, 0x9E3779B97F4A7C15ull, ~0ull};
  for (uint32_t i = 0; i < v.count; i++) out.push_back(candidate_at(v, i).hash);
  return out;
}

// Every reader that returns numbers or candidates (cms_frequency,
// cms_error_bound, cms_topk, cms_info). SQL hands estimates out as bigint,
// so they must fit one; candidate texts are read in full.
inline void check_readers(const View& v, bool canonical) {
  FUZZ_CHECK(error_bound(v.params.width, v.total) <= v.total);
  for (uint64_t h : probes(v)) {
    const uint64_t e = estimate(v, h);
    FUZZ_CHECK(e <= kMaxCount);
    if (canonical) FUZZ_CHECK(e <= v.total);
  }
  uint64_t text_bytes = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const Candidate c = candidate_at(v, i);
    if (c.len > 0) hash64(c.text, c.len);  // every byte of the text is readable
    text_bytes += c.len;
    if (canonical) {
      FUZZ_CHECK(c.len <= kMaxValueBytes);
      FUZZ_CHECK(estimate(v, c.hash) > 0);
    }
  }
  if (canonical) FUZZ_CHECK(text_bytes == v.value_bytes);
  std::vector<Ranked> ranked(v.count);
  rank_candidates(v, ranked.data());
  std::vector<bool> seen(v.count);
  for (uint32_t i = 0; i < v.count; i++) {
    FUZZ_CHECK(ranked[i].index < v.count && !seen[ranked[i].index]);
    seen[ranked[i].index] = true;
    FUZZ_CHECK(ranked[i].estimate == estimate(v, candidate_at(v, ranked[i].index).hash));
    if (i > 0) FUZZ_CHECK(ranked[i].estimate <= ranked[i - 1].estimate);
  }
}

// The stored form, through state::to_stored (the final function's path).
inline Bytes canonical_of(const View& v) { return states::stored<Family>(v.data, v.size); }

// An empty stored sketch with these parameters, holding values of `kind`
// (header byte 7, element_kind.h): every sketch built here takes the
// input's kind, so that merges with it are never refused for their kinds.
inline Bytes empty_sketch(const Params& p, uint8_t kind) {
  Bytes out(stored_size(p, 0, 0));
  write_empty(p, out.data());
  out[kElementKindOffset] = kind;
  return out;
}

// A value used as an aggregate state it does not own: a working copy
// (state::to_working, owned = false).
inline Bytes working_copy(const Bytes& bytes) {
  Bytes out = states::working_copy<Family>(bytes);
  FUZZ_CHECK(parsed(out, Validation::kStructure).encoding == Encoding::kWorking);
  return out;
}

// a ∪ b the way the union functions do it (aggregate_state.h): a working
// copy of a, then state::merge, in that copy's buffer when the plan allows,
// else into a new working copy of exactly plan.size bytes. Neither input is
// modified; a and b have the same width and depth.
inline Bytes merged(const Bytes& a_bytes, const Bytes& b_bytes, Validation validation) {
  const View a = parsed(a_bytes, validation);
  const View b = parsed(b_bytes, validation);
  FUZZ_CHECK(check_mergeable(a, b).is_ok());
  Bytes out = working_copy(a_bytes);
  const MergePlan plan = plan_merge(parsed(out, Validation::kStructure), b);
  FUZZ_CHECK(plan.candidates >= a.params.candidates && plan.candidates >= b.params.candidates);
  const size_t working_size = out.size();
  FUZZ_CHECK(states::merge<Family>(&out, b).is_ok());
  FUZZ_CHECK(out.size() == (plan.in_place ? working_size : plan.size));
  const View r = parsed(out, Validation::kStructure);
  FUZZ_CHECK(r.encoding == Encoding::kWorking);
  FUZZ_CHECK(r.params.width == a.params.width && r.params.depth == a.params.depth);
  FUZZ_CHECK(r.params.candidates == plan.candidates && r.count <= plan.candidates);
  if (validation == Validation::kCanonical) FUZZ_CHECK(r.total == saturated_sum(a.total, b.total));
  return out;
}

// The element's text source (cms::Family::TextSource): a std::string,
// clipped to kMaxValueBytes as the wrapper clips a value's output.
inline Family::Text text_of(void* context) {
  const std::string& text = *static_cast<const std::string*>(context);
  const bool clipped = text.size() > kMaxValueBytes;
  return Family::Text{reinterpret_cast<const uint8_t*>(text.data()),
                      clipped ? kMaxValueBytes : static_cast<uint32_t>(text.size()), clipped};
}

// A value used as an aggregate state, as cms_agg's transition takes a state
// it does not own: its working copy, then a few values through state::add
// (count, then admit the text, growing the arena as often as asked), one of
// them with a text longer than kMaxValueBytes (clipped). The result, taken
// back as the executor's own state (owned = true), is used in place.
inline void add_values(Bytes* state, uint64_t seed) {
  for (uint64_t i = 0; i < 5; i++) {
    const std::string text =
        i == 3 ? std::string(kMaxValueBytes + 100, 'x') : "value " + std::to_string(i);
    Family::Element e = Family::element(seed * 0x9E3779B97F4A7C15ull + i, 1 + i % 3, text_of,
                                        const_cast<std::string*>(&text));
    states::add<Family>(state, e);
  }
}

inline Bytes with_values_added(const Bytes& bytes, Validation validation, uint64_t seed) {
  parsed(bytes, validation);
  Bytes state = working_copy(bytes);
  add_values(&state, seed);
  states::check_taken_in_place<Family>(&state);
  parsed(state, Validation::kStructure);
  return state;
}

// A small valid sketch of the same width and depth that the input shares
// nothing with by construction: a few values added to an empty one.
inline Bytes other_sketch(const Params& p, bool conservative, uint32_t candidates, uint8_t kind) {
  Params q = p;
  q.conservative = conservative;
  q.candidates = candidates;
  const Bytes state =
      with_values_added(empty_sketch(q, kind), Validation::kCanonical, 0x0123456789abcdefull);
  return canonical_of(parsed(state, Validation::kStructure));
}

// The candidates' hashes of a sketch, in storage order of its stored form.
inline std::vector<uint64_t> candidate_hashes(const Bytes& stored) {
  const View v = parsed(stored, Validation::kStructure);
  std::vector<uint64_t> out;
  for (uint32_t i = 0; i < v.count; i++) out.push_back(candidate_at(v, i).hash);
  return out;
}

// Strict checks for bytes that parse(kCanonical) accepted.
inline void exercise_canonical(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  FUZZ_CHECK(v.size == input.size());
  const uint8_t kind = input[kElementKindOffset];
  FUZZ_CHECK(v.encoding == Encoding::kStored);
  parsed(input, Validation::kStructure);  // our own values pass the weaker check too
  check_readers(v, true);

  // Stored form of a stored form: itself.
  FUZZ_CHECK(canonical_of(v) == input);

  // a ∪ ∅ = ∅ ∪ a = a for the empty sketch of the same parameters.
  const Bytes empty = empty_sketch(v.params, kind);
  for (const Bytes& r : {merged(input, empty, Validation::kCanonical),
                         merged(empty, input, Validation::kCanonical)}) {
    const View rv = parsed(r, Validation::kStructure);
    check_readers(rv, false);
    FUZZ_CHECK(canonical_of(rv) == input);
  }

  // a ∪ a: every estimate doubles (saturating), the candidates stay.
  const Bytes twice = canonical_of(parsed(merged(input, input, Validation::kCanonical),
                                          Validation::kStructure));
  const View tv = parsed(twice, Validation::kCanonical);
  check_readers(tv, true);
  FUZZ_CHECK(tv.total == saturated_sum(v.total, v.total));
  for (uint64_t h : probes(v)) FUZZ_CHECK(estimate(tv, h) == saturated_sum(estimate(v, h), estimate(v, h)));
  FUZZ_CHECK(candidate_hashes(twice) == candidate_hashes(input));

  // Merging with a sketch of another update mode and list size commutes
  // (counters, N and the candidate list), and the result is valid input.
  for (uint32_t k : {0u, 2u, v.params.candidates + 1}) {
    if (k > kMaxCandidates) continue;
    const Bytes other = other_sketch(v.params, !v.params.conservative, k, kind);
    const Bytes ab = canonical_of(parsed(merged(input, other, Validation::kCanonical),
                                         Validation::kStructure));
    const Bytes ba = canonical_of(parsed(merged(other, input, Validation::kCanonical),
                                         Validation::kStructure));
    const View abv = parsed(ab, Validation::kCanonical);
    check_readers(abv, true);
    const View bav = parsed(ba, Validation::kCanonical);
    FUZZ_CHECK(abv.total == bav.total && abv.count == bav.count);
    FUZZ_CHECK(abv.params.conservative && bav.params.conservative);
    FUZZ_CHECK(candidate_hashes(ab) == candidate_hashes(ba));
    const size_t counters = 8 * size_t{v.params.width} * v.params.depth;
    FUZZ_CHECK(std::equal(ab.begin() + kFixedBytes, ab.begin() + kFixedBytes + counters,
                          ba.begin() + kFixedBytes));
  }

  // A sketch of another width or depth does not merge, naming both.
  Params wider = v.params;
  wider.width++;
  const Bytes mismatched = empty_sketch(wider, kind);
  const Status st = check_mergeable(v, parsed(mismatched, Validation::kCanonical));
  FUZZ_CHECK(st.code() == StatusCode::kMismatch && st.message()[0] != '\0');

  // Used as an aggregate state: values added, stored again, read again.
  const Bytes state = with_values_added(input, Validation::kCanonical, hash64(input.data(), input.size()));
  const View sv = parsed(state, Validation::kStructure);
  check_readers(sv, false);
  const Bytes stored = canonical_of(sv);
  check_readers(parsed(stored, Validation::kCanonical), true);
}

// The bytes as the executor's own state (state::to_working, owned = true):
// a working state is updated in place by state::merge and state::add. In the
// server only states this code made are ever owned, but a corrupt one must
// not take it down.
inline void exercise_as_own_state(const Bytes& input, uint8_t kind, uint64_t seed) {
  const View v = parsed(input, Validation::kStructure);
  Bytes merged = input;
  states::take_owned<Family>(&merged);
  const Bytes other = other_sketch(v.params, false, 2, kind);
  FUZZ_CHECK(states::merge<Family>(&merged, parsed(other, Validation::kStructure)).is_ok());
  check_readers(parsed(merged, Validation::kStructure), false);
  canonical_of(parsed(merged, Validation::kStructure));
  Bytes added = input;
  states::take_owned<Family>(&added);
  add_values(&added, seed);
  check_readers(parsed(added, Validation::kStructure), false);
  canonical_of(parsed(added, Validation::kStructure));
}

// Lenient checks for bytes that only parse(kStructure) accepted: every
// reader and merger must run to completion without a memory error.
inline void exercise_structure(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size());
  const uint8_t kind = input[kElementKindOffset];
  check_readers(v, false);
  const Bytes stored = canonical_of(v);
  check_readers(parsed(stored, Validation::kStructure), false);
  if (v.encoding == Encoding::kStored)
    check_readers(parsed(working_copy(input), Validation::kStructure), false);

  const Bytes empty = empty_sketch(v.params, kind);
  const Bytes other = other_sketch(v.params, false, 2, kind);
  for (const Bytes& r : {merged(input, input, Validation::kStructure),
                         merged(input, empty, Validation::kStructure),
                         merged(empty, input, Validation::kStructure),
                         merged(input, other, Validation::kStructure),
                         merged(other, input, Validation::kStructure)}) {
    const View rv = parsed(r, Validation::kStructure);
    check_readers(rv, false);
    canonical_of(rv);
  }
  const Bytes state = with_values_added(input, Validation::kStructure, v.size);
  const View sv = parsed(state, Validation::kStructure);
  check_readers(sv, false);
  canonical_of(sv);
  exercise_as_own_state(input, kind, v.size);
}

// Parses in both modes and runs the matching readers.
inline void exercise(const uint8_t* data, size_t size) {
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure, data, size,
                                        exercise_canonical, exercise_structure);
}

}  // namespace sketch::fuzz::cms_readers
