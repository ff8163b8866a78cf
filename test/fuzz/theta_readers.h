// Runs every theta reader, writer and set operation over bytes that
// theta::parse accepted, for the theta fuzz targets (the theta counterpart
// of topk_readers.h and hll_readers.h).
//
// A theta sketch is a function of the set it was built from (theta.h): the
// k smallest 63-bit hashes below θ, θ the (k+1)-th when there are more. So
// every result here is compared, byte for byte, with a reference computed
// from the definition (Kmv below: sort the hashes, drop 0 and those at or
// above θ, keep the k smallest), not only with another path through the
// core.
//
// parse has two modes. kCanonical is what external input goes through (text
// input, recv, bytea casts): whatever it accepts must behave like a sketch
// we wrote, so the checks are strict: it is the sketch of its own hashes;
// stored_hash reads them ascending below θ; estimate is count / p (count in
// exact mode) and the bounds at several confidences hold it (lower >= count
// when not exact, [count, count] in exact mode) and widen with the
// confidence; its stored form is itself, by write_stored and through the
// mechanism, also through a working copy (the mechanism's and write_working
// agree byte for byte); a ∪ a = a ∩ a = a, a \ a = ∅ at θa, a ∪ ∅ = a, a ∩ ∅
// = ∅ at min θ, unions, intersections and differences (both ways round) with
// empty sketches of the same, a smaller and a larger lg_k, with unrelated
// sketches built by adds that share some of its hashes, with a copy cut at a
// lower θ and with an intersection's result all equal the reference, and so
// do write_intersect / write_a_not_b into a copy of a's own bytes (the API
// allows dst = a; intersect also into b's, and into a when b is a) and
// unions through the aggregate's mechanism (a working copy, state::merge,
// state::to_stored); Jaccard matches the reference's sample, shared count
// and exactness, is 1 with itself when defined and holds its estimate in
// its bounds; values added through the aggregate's add / grow / rebuild
// loop (new hashes, repeats, 0, hashes at or above θ, hashes sharing a home
// slot) give the reference of the set plus the values.
//
// kStructure also accepts aggregate working states and stored values that
// only the O(1) structure check was applied to (our own, possibly corrupt):
// every reader, writer and set operation must still run without a memory
// error or a hang, what each makes parses, the stored form is a fixed point
// of to_stored, write_intersect / write_a_not_b in place equal the
// out-of-place result, and what goes through a working copy (which keeps
// the hashes below θ, once each) equals the reference of the set the value
// stands for: for a working state that is also its stored form. As in the
// other *_parse targets, those bytes are also handed to the mechanism as the
// executor's own state (owned = true), merged (also with a sketch of a lower
// θ, which sweeps the table in place) and added to; when the table holds no
// hash twice the results equal the reference too.
//
// Every writer is given an exact-size std::vector (directly, or through
// state_ops.h's arena), so AddressSanitizer sees a write past a size the
// core computed. The core's writers leave the element kind (header byte 7)
// 0 and the mechanism carries it over (working_state.h); where a writer is
// called directly here, the kind is set as the SQL functions set it
// (theta_combined: the inputs' combined kind).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/element_kind.h"
#include "core/common/hash.h"
#include "core/common/normal.h"
#include "core/theta/theta.h"
#include "core/theta/theta_family.h"
#include "core/theta/theta_internal.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::theta_readers {

using namespace sketch::theta;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

inline bool canonical_input(const Bytes& bytes) {
  View v;
  return parse(bytes.data(), bytes.size(), Validation::kCanonical, &v).is_ok();
}

// --- the reference: the sketch of a set, from the definition ---------------

struct Kmv {
  int lg_k;
  uint64_t theta;
  std::vector<uint64_t> hashes;  // ascending, distinct, nonzero, below θ, at most k
};

// The sketch at lg_k of "every hash of R below θ": R's nonzero hashes below
// θ, sorted, once each; with more than k, θ = the (k+1)-th and the k
// smallest stay.
inline Kmv kmv_of(int lg_k, uint64_t theta, std::vector<uint64_t> r) {
  r.erase(std::remove_if(r.begin(), r.end(),
                         [theta](uint64_t h) { return h == 0 || h >= theta; }),
          r.end());
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  const size_t k = size_t{1} << lg_k;
  if (r.size() > k) {
    theta = r[k];
    r.resize(k);
  }
  return Kmv{lg_k, theta, std::move(r)};
}

// Every nonzero hash a view holds, in its order (stored: the count hashes;
// working: the slots).
inline std::vector<uint64_t> held(const View& v) {
  std::vector<uint64_t> out;
  detail::for_each_hash(v, [&out](uint64_t h) { out.push_back(h); });
  return out;
}

// The set a view stands for (what it holds below its θ) as a sketch at its
// lg_k.
inline Kmv kmv_of(const View& v) { return kmv_of(v.lg_k, v.theta, held(v)); }

inline std::vector<uint64_t> sorted_distinct(std::vector<uint64_t> h) {
  std::sort(h.begin(), h.end());
  h.erase(std::unique(h.begin(), h.end()), h.end());
  return h;
}

inline bool holds_a_hash_twice(const View& v) {
  std::vector<uint64_t> h = held(v);
  std::sort(h.begin(), h.end());
  return std::adjacent_find(h.begin(), h.end()) != h.end();
}

// The hash identity of the input being exercised (header byte 4: 1, or 3
// for DataSketches' hashes): every sketch built here to compare or combine
// with it has the same, since theta never combines two identities
// (check_combinable). Set by exercise().
inline uint8_t& input_identity() {
  static uint8_t identity = kHashIdentity;
  return identity;
}

// The stored bytes of a reference sketch, holding values of `kind`.
inline Bytes bytes_of(const Kmv& s, uint8_t kind) {
  const auto n = static_cast<uint32_t>(s.hashes.size());
  Bytes out(stored_size(n));
  write_empty(s.lg_k, out.data());
  store_le32(out.data() + detail::kCountOffset, n);
  store_le64(out.data() + detail::kThetaOffset, s.theta);
  for (uint32_t i = 0; i < n; i++) detail::set_hash(out.data(), i, s.hashes[i]);
  out[kElementKindOffset] = kind;
  out[4] = input_identity();
  return out;
}

inline Bytes empty_sketch(int lg_k, uint8_t kind, uint64_t theta = kThetaExact) {
  return bytes_of(Kmv{lg_k, theta, {}}, kind);
}

enum class Op { kUnion, kIntersect, kANotB };

// a ∪ b, a ∩ b, a \ b by the definition (theta.h): at the smaller lg_k,
// the hashes below θ0 = min(θa, θb) that the operation keeps, trimmed to k.
inline Kmv expected_op(Op op, const Kmv& a, const Kmv& b) {
  std::vector<uint64_t> r;
  auto out = std::back_inserter(r);
  switch (op) {
    case Op::kUnion:
      std::set_union(a.hashes.begin(), a.hashes.end(), b.hashes.begin(), b.hashes.end(), out);
      break;
    case Op::kIntersect:
      std::set_intersection(a.hashes.begin(), a.hashes.end(), b.hashes.begin(), b.hashes.end(),
                            out);
      break;
    case Op::kANotB:
      std::set_difference(a.hashes.begin(), a.hashes.end(), b.hashes.begin(), b.hashes.end(), out);
      break;
  }
  return kmv_of(std::min(a.lg_k, b.lg_k), std::min(a.theta, b.theta), std::move(r));
}

// Jaccard by the definition: U the k smallest hashes of both below θ0 (k
// the smaller), x those held by both.
inline Similarity expected_jaccard(const Kmv& a, const Kmv& b) {
  const uint64_t theta = std::min(a.theta, b.theta);
  const size_t k = size_t{1} << std::min(a.lg_k, b.lg_k);
  std::vector<uint64_t> u;
  std::set_union(a.hashes.begin(), a.hashes.end(), b.hashes.begin(), b.hashes.end(),
                 std::back_inserter(u));
  u.erase(std::remove_if(u.begin(), u.end(), [theta](uint64_t h) { return h >= theta; }),
          u.end());
  const bool cut = u.size() > k;
  if (cut) u.resize(k);
  Similarity s{};
  for (uint64_t h : u)
    if (std::binary_search(a.hashes.begin(), a.hashes.end(), h) &&
        std::binary_search(b.hashes.begin(), b.hashes.end(), h))
      s.shared++;
  s.sample = static_cast<uint32_t>(u.size());
  s.defined = s.sample > 0;
  s.exact = s.defined && !cut && theta == kThetaExact;
  return s;
}

// --- the core's writers, into exact-size buffers ----------------------------

// The stored form through state::to_stored (the final function's path).
inline Bytes stored_of(const View& v) { return states::stored<Family>(v.data, v.size); }
inline Bytes stored_of(const Bytes& b) { return stored_of(parsed(b, Validation::kStructure)); }

inline Bytes direct_canonical(const View& v) {
  Bytes out(stored_size(v));
  write_stored(v, out.data());
  out[kElementKindOffset] = v.data[kElementKindOffset];
  return out;
}

// write_working called directly: a working state at v's lg_k and θ holding
// each hash of v below θ once (no insert may rebuild or ask to grow).
inline Bytes direct_working(const View& v) {
  Bytes out(working_size(v));
  write_working(v, out.data());
  out[kElementKindOffset] = v.data[kElementKindOffset];
  FUZZ_CHECK(Family::is_working(out.data(), out.size()));
  const View w = parsed(out, Validation::kStructure);
  FUZZ_CHECK(w.encoding == Encoding::kWorking && w.lg_k == v.lg_k && w.theta == v.theta);
  std::vector<uint64_t> expected = held(v);
  expected.erase(std::remove_if(expected.begin(), expected.end(),
                                [&v](uint64_t h) { return h >= v.theta; }),
                 expected.end());
  FUZZ_CHECK(sorted_distinct(held(w)) == sorted_distinct(expected));
  FUZZ_CHECK(w.count == sorted_distinct(expected).size());
  return out;
}

inline uint8_t combined_kind(const View& a, const View& b) {
  ElementKind kind;
  const Status st =
      combine_element_kinds(element_kind_of(a.data), element_kind_of(b.data), &kind);
  FUZZ_CHECK(st.is_ok());
  return static_cast<uint8_t>(kind);
}

inline size_t op_size(Op op, const View& a, const View& b) {
  switch (op) {
    case Op::kUnion:
      return merged_size(a, b);
    case Op::kIntersect:
      return intersect_size(a, b);
    case Op::kANotB:
      return a_not_b_size(a, b);
  }
  return 0;
}

inline void write_op(Op op, const View& a, const View& b, uint8_t* dst) {
  switch (op) {
    case Op::kUnion:
      write_merged(a, b, dst);
      break;
    case Op::kIntersect:
      write_intersect(a, b, dst);
      break;
    case Op::kANotB:
      write_a_not_b(a, b, dst);
      break;
  }
}

// A set operation of two stored views into a new exact-size buffer, the
// kind set as theta_combined sets it.
inline Bytes set_op(Op op, const View& a, const View& b) {
  FUZZ_CHECK(a.encoding == Encoding::kStored && b.encoding == Encoding::kStored);
  Bytes out(op_size(op, a, b));
  FUZZ_CHECK(out.size() >= detail::kFixedBytes);
  write_op(op, a, b, out.data());
  out[kElementKindOffset] = combined_kind(a, b);
  const View r = parsed(out, Validation::kStructure);
  FUZZ_CHECK(r.encoding == Encoding::kStored && r.lg_k == std::min(a.lg_k, b.lg_k));
  FUZZ_CHECK(r.theta <= std::min(a.theta, b.theta));
  return out;
}

// write_intersect / write_a_not_b with dst = a's bytes (the API allows it):
// a copy of a's bytes (exact size) is read as a and written as the result,
// whose bytes are its first op_size ones. With b_is_a, b is that same copy
// too (a ∩ a and a \ a in one buffer).
inline Bytes set_op_in_place(Op op, const View& a, const View& b, bool b_is_a) {
  FUZZ_CHECK(op != Op::kUnion);
  Bytes buffer(a.data, a.data + a.size);
  const View in = parsed(buffer, Validation::kStructure);
  const View other = b_is_a ? in : b;
  const size_t size = op_size(op, in, other);
  FUZZ_CHECK(size <= buffer.size());
  const uint8_t kind = combined_kind(in, other);  // before: the write overwrites a's header
  write_op(op, in, other, buffer.data());
  buffer.resize(size);
  buffer[kElementKindOffset] = kind;
  return buffer;
}

// write_intersect with dst = b's bytes ("or b's", theta.h).
inline Bytes intersect_into_b(const View& a, const View& b) {
  Bytes buffer(b.data, b.data + b.size);
  const View in = parsed(buffer, Validation::kStructure);
  const size_t size = intersect_size(a, in);
  FUZZ_CHECK(size <= buffer.size());
  const uint8_t kind = combined_kind(a, in);
  write_intersect(a, in, buffer.data());
  buffer.resize(size);
  buffer[kElementKindOffset] = kind;
  return buffer;
}

// --- the mechanism ---------------------------------------------------------

// a ∪ b the way theta_union and the combine function do it
// (aggregate_state.h): a working copy of a (state::to_working, owned =
// false), state::merge, state::to_stored. Any two theta sketches merge; the
// kinds here always agree.
inline Bytes united(const Bytes& a_bytes, const View& b) {
  Bytes state = states::working_copy<Family>(a_bytes);
  const View w = parsed(state, Validation::kStructure);
  const MergePlan plan = theta::plan_merge(w, b);
  FUZZ_CHECK(plan.lg_k == std::min(w.lg_k, b.lg_k));
  const size_t before = state.size();
  FUZZ_CHECK(states::merge<Family>(&state, b).is_ok());
  FUZZ_CHECK(state.size() == (plan.in_place ? before : plan.size));
  const View r = parsed(state, Validation::kStructure);
  FUZZ_CHECK(r.encoding == Encoding::kWorking && Family::is_working(state.data(), state.size()));
  FUZZ_CHECK(r.lg_k == plan.lg_k && r.capacity == (plan.in_place ? w.capacity : plan.capacity));
  FUZZ_CHECK(r.theta <= std::min(w.theta, b.theta));
  states::check_taken_in_place<Family>(&state);
  return stored_of(state);
}

inline uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// 64-bit element hashes to add for a seed: 0 and 1 (kept hash 0: skipped),
// the largest kept hash (2^63 - 1, below θ only in exact mode), 2^63; both
// element hashes of a few held hashes (repeats); n new ones, every fourth
// sharing the low bits of its kept hash (one run of slots to probe and
// rebuild), some repeated.
inline std::vector<uint64_t> values_for(uint64_t seed, const std::vector<uint64_t>& held_hashes,
                                        size_t n) {
  std::vector<uint64_t> out = {0, 1, ~uint64_t{0}, uint64_t{1} << 63};
  for (size_t i = 0; i < held_hashes.size() && i < 8; i++) {
    out.push_back(held_hashes[i] << 1);
    out.push_back(held_hashes[i] << 1 | 1);
  }
  for (size_t i = 0; i < n; i++) {
    uint64_t h = mix(seed + i);
    if (i % 4 == 1) h = (h & ~uint64_t{0x1fe}) | 0x54;  // kept hash ends in 0x2a
    out.push_back(h);
    if (i % 9 == 4) out.push_back(h);
  }
  return out;
}

// Adds element hashes to a working state through state::add (growing, and
// rebuilding a full-size table, as the aggregate does).
inline void add_values(Bytes* state, const std::vector<uint64_t>& hashes) {
  for (uint64_t hash : hashes) {
    Family::Element e{hash};
    states::add<Family>(state, e);
    FUZZ_CHECK(Family::is_working(state->data(), state->size()));
    if (state->size() <= detail::working_bytes(256)) parsed(*state, Validation::kStructure);
  }
  parsed(*state, Validation::kStructure);
}

inline std::vector<uint64_t> kept_hashes(const std::vector<uint64_t>& element_hashes) {
  std::vector<uint64_t> out;
  for (uint64_t h : element_hashes) out.push_back(retained_hash(h));
  return out;
}

// A sketch of lg_k built by adds through the mechanism: every second hash
// of `shared` (so that it overlaps the input) and n new ones from the seed.
// Checked against the reference.
inline Bytes other_sketch(const std::vector<uint64_t>& shared, int lg_k, uint8_t kind,
                          uint64_t seed, size_t n) {
  Bytes state = states::working_copy<Family>(empty_sketch(lg_k, kind));
  std::vector<uint64_t> adds;
  for (size_t i = 0; i < shared.size(); i += 2) adds.push_back(shared[i] << 1 | (i & 1));
  for (size_t i = 0; i < n; i++) adds.push_back(mix(seed ^ (0x51ed27 + i)));
  add_values(&state, adds);
  const Bytes stored = stored_of(state);
  FUZZ_CHECK(stored == bytes_of(kmv_of(lg_k, kThetaExact, kept_hashes(adds)), kind));
  return stored;
}

// A sketch of the same lg_k at a lower θ (the middle held hash, at least
// 2): every third held hash below it and a few new ones below it. Canonical
// by construction. False when the input holds fewer than 2 hashes.
inline bool cut_sketch(const Kmv& self, uint8_t kind, uint64_t seed, Bytes* out) {
  if (self.hashes.size() < 2) return false;
  const uint64_t theta = self.hashes[self.hashes.size() / 2];
  std::vector<uint64_t> h;
  for (size_t i = 0; i < self.hashes.size() / 2; i += 3) h.push_back(self.hashes[i]);
  for (uint64_t i = 0; i < 3; i++) h.push_back(1 + mix(seed + 77 * i) % (theta - 1));
  *out = bytes_of(kmv_of(self.lg_k, theta, h), kind);
  return true;
}

// --- readers ---------------------------------------------------------------

constexpr double kConfidences[] = {1e-9, 0.5, 0.8, 0.95, 0.99, 0.999999};

// A Jaccard answer that makes sense for any inputs.
inline void check_similarity(const Similarity& s, uint32_t k) {
  if (!s.defined) {
    FUZZ_CHECK(s.sample == 0 && !s.exact);
    return;
  }
  FUZZ_CHECK(s.sample >= 1 && s.sample <= k && s.shared <= s.sample);
  FUZZ_CHECK(s.estimate == static_cast<double>(s.shared) / s.sample);
  FUZZ_CHECK(std::isfinite(s.lower) && std::isfinite(s.upper));
  FUZZ_CHECK(0.0 <= s.lower && s.lower <= s.estimate && s.estimate <= s.upper && s.upper <= 1.0);
  if (s.exact) FUZZ_CHECK(s.lower == s.estimate && s.upper == s.estimate);
}

inline void check_jaccard(const View& a, const View& b, const Similarity* expected) {
  const uint32_t k = uint32_t{1} << std::min(a.lg_k, b.lg_k);
  for (double confidence : {0.5, 0.95}) {
    const Similarity s = jaccard(a, b, confidence);
    check_similarity(s, k);
    if (expected) {
      FUZZ_CHECK(s.defined == expected->defined && s.exact == expected->exact &&
                 s.sample == expected->sample && s.shared == expected->shared);
    }
  }
}

// Every reader (stored_hash, estimate, bounds, count_bounds; theta_info
// reads the same). For strictly parsed sketches the hashes must be the
// sketch's; for anything else the answers must come back finite, without
// reading outside the sketch.
inline void check_readers(const View& v, bool canonical) {
  FUZZ_CHECK(v.lg_k >= kMinLgK && v.lg_k <= kMaxLgK && v.k == uint32_t{1} << v.lg_k);
  FUZZ_CHECK(v.theta > 0 && v.theta <= kThetaExact);
  if (v.encoding == Encoding::kStored) {
    FUZZ_CHECK(v.count <= v.k && v.size == stored_size(v.count));
    uint64_t previous = 0;
    for (uint32_t i = 0; i < v.count; i++) {
      const uint64_t h = stored_hash(v, i);
      if (canonical) FUZZ_CHECK(h > previous && h < v.theta);
      previous = h;
    }
  } else {
    FUZZ_CHECK(!canonical);
    FUZZ_CHECK(v.encoding == Encoding::kWorking);
    FUZZ_CHECK(detail::is_power_of_two(v.capacity) && v.capacity <= detail::full_capacity(v.lg_k));
    FUZZ_CHECK(v.count <= detail::load_limit(v.capacity) &&
               v.size == detail::working_bytes(v.capacity));
    const std::vector<uint64_t> h = held(v);
    FUZZ_CHECK(h.size() == v.count);
    for (uint64_t x : h) FUZZ_CHECK(x < v.theta);
  }
  const bool exact = v.theta == kThetaExact;
  const double c = v.count;
  const double e = estimate(v);
  FUZZ_CHECK(std::isfinite(e) && e >= c);
  if (exact) FUZZ_CHECK(e == c);
  else FUZZ_CHECK(e == c / std::ldexp(static_cast<double>(v.theta), -63));
  Bounds previous{e, e};
  for (double confidence : kConfidences) {
    FUZZ_CHECK(check_confidence(confidence).is_ok());
    const Bounds b = bounds(v, confidence);
    FUZZ_CHECK(std::isfinite(b.lower) && std::isfinite(b.upper));
    FUZZ_CHECK(b.lower <= e && e <= b.upper);
    if (exact) {
      FUZZ_CHECK(b.lower == c && b.upper == c);
    } else {
      FUZZ_CHECK(b.lower >= c);
      if (v.count == 0) FUZZ_CHECK(b.lower == 0.0);
    }
    // Wider at a higher confidence (up to the last bits).
    FUZZ_CHECK(b.lower <= previous.lower * (1 + 1e-12) && b.upper >= previous.upper * (1 - 1e-12));
    previous = b;
    const Bounds same = count_bounds(v.count, v.theta, two_sided_z(confidence));
    FUZZ_CHECK(same.lower == b.lower && same.upper == b.upper);
    // The bounds are the roots of (c - n p)^2 = z^2 n p q (theta.h): the
    // upper one, and the lower one unless it is clamped to [c, c / p].
    if (!exact && v.count > 0) {
      const double z = two_sided_z(confidence);
      const double p = std::ldexp(static_cast<double>(v.theta), -63), q = 1 - p;
      auto residual = [&](double n) {
        const double d = c - n * p;
        return std::fabs(d * d - z * z * n * p * q) / (c * c + z * z * n * p * q + 1);
      };
      FUZZ_CHECK(residual(b.upper) < 1e-6);
      if (b.lower > c && b.lower < e) FUZZ_CHECK(residual(b.lower) < 1e-6);
    }
  }
}

// --- the checks ------------------------------------------------------------

// Every set operation of two canonical sketches, both directly (out of
// place, and in place where the API allows it) and through the mechanism,
// against the reference; Jaccard against the reference.
inline void check_pair(const Bytes& a_bytes, const Bytes& b_bytes) {
  const View a = parsed(a_bytes, Validation::kCanonical);
  const View b = parsed(b_bytes, Validation::kCanonical);
  const Kmv ka = kmv_of(a), kb = kmv_of(b);
  const uint8_t kind = combined_kind(a, b);
  for (Op op : {Op::kUnion, Op::kIntersect, Op::kANotB}) {
    const Bytes expected = bytes_of(expected_op(op, ka, kb), kind);
    const Bytes r = set_op(op, a, b);
    FUZZ_CHECK(r == expected);
    check_readers(parsed(r, Validation::kCanonical), true);
    if (op == Op::kUnion) {
      FUZZ_CHECK(united(a_bytes, b) == expected);
    } else {
      FUZZ_CHECK(set_op_in_place(op, a, b, false) == expected);
    }
    if (op == Op::kIntersect) FUZZ_CHECK(intersect_into_b(a, b) == expected);
  }
  const Similarity js = expected_jaccard(ka, kb);
  check_jaccard(a, b, &js);
}

// Strict checks for a canonical sketch (the input, or the stored form of a
// working state).
inline void exercise_valid(const Bytes& input, uint64_t seed, bool deep) {
  const View v = parsed(input, Validation::kCanonical);
  const uint8_t kind = input[kElementKindOffset];
  const Kmv self = kmv_of(v);
  // It is the sketch of its own hashes.
  FUZZ_CHECK(bytes_of(self, kind) == input);
  check_readers(v, true);

  // The stored form of a stored form is itself, by the mechanism and by the
  // writer; also through a working copy (the mechanism's is write_working's).
  FUZZ_CHECK(direct_canonical(v) == input);
  FUZZ_CHECK(stored_of(v) == input);
  const Bytes working = states::working_copy<Family>(input);
  FUZZ_CHECK(direct_working(v) == working);
  const View wv = parsed(working, Validation::kStructure);
  check_readers(wv, false);
  FUZZ_CHECK(wv.count == v.count && wv.theta == v.theta && wv.lg_k == v.lg_k);
  FUZZ_CHECK(stored_of(working) == input);
  FUZZ_CHECK(direct_canonical(wv) == input);

  // With itself: a ∪ a = a ∩ a = a, a \ a = ∅ at θa; in place too (dst and
  // both inputs one buffer); Jaccard 1 when defined.
  const Bytes nothing = empty_sketch(v.lg_k, kind, v.theta);
  FUZZ_CHECK(set_op(Op::kUnion, v, v) == input);
  FUZZ_CHECK(set_op(Op::kIntersect, v, v) == input);
  FUZZ_CHECK(set_op(Op::kANotB, v, v) == nothing);
  FUZZ_CHECK(set_op_in_place(Op::kIntersect, v, v, true) == input);
  FUZZ_CHECK(set_op_in_place(Op::kANotB, v, v, true) == nothing);
  FUZZ_CHECK(united(input, v) == input);
  for (double confidence : {0.5, 0.95}) {
    const Similarity s = jaccard(v, v, confidence);
    check_similarity(s, v.k);
    FUZZ_CHECK(s.defined == (v.count > 0));
    if (s.defined)
      FUZZ_CHECK(s.estimate == 1.0 && s.sample == v.count && s.exact == (v.theta == kThetaExact));
  }

  // With an empty sketch of the same lg_k: a ∪ ∅ = ∅ ∪ a = a, a ∩ ∅ = ∅ ∩ a
  // = ∅ at θa, a \ ∅ = a, ∅ \ a = ∅ at θa; then every operation against the
  // reference with empty sketches of the same, the smallest, a smaller and
  // a larger lg_k, of the input's kind and of none.
  {
    const Bytes empty = empty_sketch(v.lg_k, kind);
    const View e = parsed(empty, Validation::kCanonical);
    FUZZ_CHECK(set_op(Op::kUnion, v, e) == input && set_op(Op::kUnion, e, v) == input);
    FUZZ_CHECK(set_op(Op::kIntersect, v, e) == nothing && set_op(Op::kIntersect, e, v) == nothing);
    FUZZ_CHECK(set_op(Op::kANotB, v, e) == input && set_op(Op::kANotB, e, v) == nothing);
    FUZZ_CHECK(united(input, e) == input && united(empty, v) == input);
  }
  for (int lg : {v.lg_k, kMinLgK, v.lg_k - 1, std::min(kMaxLgK, v.lg_k + 1)}) {
    if (lg < kMinLgK) continue;
    for (uint8_t empty_kind : {kind, static_cast<uint8_t>(ElementKind::kNone)}) {
      const Bytes empty = empty_sketch(lg, empty_kind);
      check_pair(input, empty);
      check_pair(empty, input);
    }
    if (!deep) break;
  }

  // Unrelated sketches built by adds, sharing every second hash of the
  // input: of the same lg_k, the smallest (its θ below 2^63) and a larger
  // one; a copy cut at a lower θ; an intersection's result. Both ways round.
  std::vector<Bytes> others;
  others.push_back(other_sketch(self.hashes, v.lg_k, kind, seed, 5));
  if (deep) {
    others.push_back(other_sketch(self.hashes, kMinLgK, kind, seed + 1, 40));
    others.push_back(
        other_sketch(self.hashes, std::min(kMaxLgK, v.lg_k + 2), kind, seed + 2, 7));
    Bytes cut;
    if (cut_sketch(self, kind, seed, &cut)) others.push_back(cut);
    others.push_back(set_op(Op::kIntersect, v, parsed(others[1], Validation::kCanonical)));
  }
  for (const Bytes& other : others) {
    check_pair(input, other);
    check_pair(other, input);
  }

  // Used as an aggregate state: values added through the add / grow /
  // rebuild loop (enough to rebuild a full-size table while k <= 64); the
  // stored result is the reference of the set plus the values.
  Bytes state = working;
  const std::vector<uint64_t> adds =
      values_for(seed, self.hashes, v.k <= 64 ? 3 * v.k / 2 + 20 : (deep ? 40 : 10));
  add_values(&state, adds);
  states::check_taken_in_place<Family>(&state);
  std::vector<uint64_t> all = self.hashes;
  for (uint64_t h : kept_hashes(adds)) all.push_back(h);
  const Bytes with_values = stored_of(state);
  FUZZ_CHECK(with_values == bytes_of(kmv_of(v.lg_k, v.theta, all), kind));
  check_readers(parsed(with_values, Validation::kCanonical), true);
}

// Strict checks for bytes that parse(kCanonical) accepted.
inline void exercise_canonical(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  FUZZ_CHECK(v.size == input.size() && v.encoding == Encoding::kStored);
  FUZZ_CHECK(!Family::is_working(input.data(), input.size()));
  parsed(input, Validation::kStructure);  // our own values pass the weaker check too
  exercise_valid(input, hash64(input.data(), input.size()), true);
  for (double bad : {0.0, 1.0, -0.5, 2.0, std::nan(""), double{INFINITY}})
    FUZZ_CHECK(check_confidence(bad).code() == StatusCode::kInvalidParameter);
}

// The bytes as the executor's own state (state::to_working, owned = true):
// a working state is updated in place by state::merge and state::add. In
// the server only states this code made are ever owned, but a corrupt one
// must not take it down. When the table holds no hash twice (as every
// table this code makes), the results are the reference's.
inline void exercise_as_own_state(const Bytes& input, uint64_t seed) {
  const View v = parsed(input, Validation::kStructure);
  const uint8_t kind = input[kElementKindOffset];
  const bool exact = v.encoding == Encoding::kStored || !holds_a_hash_twice(v);
  const Kmv self = kmv_of(v);

  std::vector<Bytes> others = {other_sketch(self.hashes, v.lg_k, kind, seed, 5)};
  Bytes cut;
  if (cut_sketch(self, kind, seed, &cut)) others.push_back(cut);  // sweeps a full table in place
  for (const Bytes& other : others) {
    Bytes merged = input;
    states::take_owned<Family>(&merged);
    const View ov = parsed(other, Validation::kCanonical);
    FUZZ_CHECK(states::merge<Family>(&merged, ov).is_ok());
    const View mv = parsed(merged, Validation::kStructure);
    check_readers(mv, false);
    const Bytes stored = stored_of(mv);
    check_readers(parsed(stored, Validation::kStructure), false);
    if (exact) FUZZ_CHECK(stored == bytes_of(expected_op(Op::kUnion, self, kmv_of(ov)), kind));
  }

  Bytes added = input;
  states::take_owned<Family>(&added);
  const std::vector<uint64_t> adds =
      values_for(seed, self.hashes, v.k <= 64 ? 3 * v.k / 2 + 20 : 20);
  add_values(&added, adds);
  states::check_taken_in_place<Family>(&added);
  const Bytes stored = stored_of(added);
  check_readers(parsed(stored, Validation::kStructure), false);
  if (exact) {
    std::vector<uint64_t> all = held(v);  // untrimmed: what the table holds
    for (uint64_t h : kept_hashes(adds)) all.push_back(h);
    FUZZ_CHECK(stored == bytes_of(kmv_of(v.lg_k, v.theta, all), kind));
  }
}

// Lenient checks for bytes that only parse(kStructure) accepted: every
// reader, writer and set operation runs to completion without a memory
// error, what it makes parses, and what goes through a working copy is the
// reference of the set the bytes stand for.
inline void exercise_structure(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size());
  FUZZ_CHECK(Family::is_working(input.data(), input.size()) == (v.encoding == Encoding::kWorking));
  const uint8_t kind = input[kElementKindOffset];
  const uint64_t seed = hash64(input.data(), input.size());
  check_readers(v, false);
  const Kmv self = kmv_of(v);
  const Bytes clean = bytes_of(self, kind);

  // The stored form: what the writer makes, parses, and is a fixed point.
  // A stored value's is itself (copied); a working state's is the sketch of
  // what its table holds, valid input.
  const Bytes stored = stored_of(v);
  FUZZ_CHECK(stored.size() == stored_size(v));
  FUZZ_CHECK(direct_canonical(v) == stored);
  const View sv = parsed(stored, Validation::kStructure);
  FUZZ_CHECK(sv.encoding == Encoding::kStored && sv.lg_k == v.lg_k && sv.theta <= v.theta);
  FUZZ_CHECK(sv.count == std::min(v.count, v.k));
  check_readers(sv, false);
  FUZZ_CHECK(stored_of(sv) == stored && direct_canonical(sv) == stored);
  if (v.encoding == Encoding::kStored) {
    FUZZ_CHECK(stored == input);
  } else {
    FUZZ_CHECK(stored == clean);
    exercise_valid(stored, seed, false);
  }

  // A working copy (by the mechanism and by write_working, the same bytes)
  // holds each hash below θ once; its stored form is the reference.
  const Bytes working = states::working_copy<Family>(input);
  FUZZ_CHECK(direct_working(v) == working);
  const View wv = parsed(working, Validation::kStructure);
  check_readers(wv, false);
  FUZZ_CHECK(stored_of(working) == clean);
  FUZZ_CHECK(canonical_input(clean));

  // Set operations on the value as it is (a stored value the SQL functions
  // read after the O(1) check): with itself, empty sketches and unrelated
  // ones, both ways round; in place as out of place; the results parse.
  if (v.encoding == Encoding::kStored) {
    const Bytes others[] = {
        input,
        empty_sketch(v.lg_k, kind),
        empty_sketch(kMinLgK, kind),
        other_sketch(self.hashes, v.lg_k, kind, seed, 5),
        other_sketch(self.hashes, kMinLgK, kind, seed + 1, 30),
    };
    for (const Bytes& other_bytes : others) {
      const View o = parsed(other_bytes, Validation::kStructure);
      for (int order = 0; order < 2; order++) {
        const View& a = order == 0 ? v : o;
        const View& b = order == 0 ? o : v;
        for (Op op : {Op::kUnion, Op::kIntersect, Op::kANotB}) {
          const Bytes r = set_op(op, a, b);
          const View rv = parsed(r, Validation::kStructure);
          check_readers(rv, false);
          FUZZ_CHECK(stored_of(rv) == r);
          if (op != Op::kUnion) FUZZ_CHECK(set_op_in_place(op, a, b, false) == r);
          if (op == Op::kIntersect) FUZZ_CHECK(intersect_into_b(a, b) == r);
        }
        check_jaccard(a, b, nullptr);
        // Through the mechanism: the union of the sets both stand for.
        const Bytes& a_bytes = order == 0 ? input : other_bytes;
        FUZZ_CHECK(united(a_bytes, b) ==
                   bytes_of(expected_op(Op::kUnion, kmv_of(a), kmv_of(b)), kind));
      }
    }
    for (Op op : {Op::kIntersect, Op::kANotB}) {
      FUZZ_CHECK(set_op_in_place(op, v, v, true) == set_op(op, v, v));
    }
    const Similarity s = jaccard(v, v, 0.95);
    check_similarity(s, v.k);
    if (s.defined) FUZZ_CHECK(s.estimate == 1.0);
  } else {
    // A working state (a partial aggregate) merged into copies of others.
    const Bytes others[] = {empty_sketch(v.lg_k, kind), empty_sketch(kMinLgK, kind),
                            other_sketch(self.hashes, v.lg_k, kind, seed, 5)};
    for (const Bytes& other_bytes : others) {
      const View o = parsed(other_bytes, Validation::kCanonical);
      FUZZ_CHECK(united(other_bytes, v) ==
                 bytes_of(expected_op(Op::kUnion, kmv_of(o), self), kind));
      FUZZ_CHECK(united(input, o) == bytes_of(expected_op(Op::kUnion, self, kmv_of(o)), kind));
    }
  }

  // Values added to a working copy: the reference of the set plus them.
  Bytes state = working;
  const std::vector<uint64_t> adds =
      values_for(seed, self.hashes, v.k <= 64 ? 3 * v.k / 2 + 20 : 20);
  add_values(&state, adds);
  states::check_taken_in_place<Family>(&state);
  std::vector<uint64_t> all = held(wv);
  for (uint64_t h : kept_hashes(adds)) all.push_back(h);
  FUZZ_CHECK(stored_of(state) == bytes_of(kmv_of(v.lg_k, v.theta, all), kind));

  exercise_as_own_state(input, seed);
}

// Parses in both modes and runs the matching readers.
inline void exercise(const uint8_t* data, size_t size) {
  input_identity() = size > 4 && data[4] == kDatasketchesIdentity ? kDatasketchesIdentity
                                                                  : kHashIdentity;
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure, data,
                                        size, exercise_canonical, exercise_structure);
}

}  // namespace sketch::fuzz::theta_readers
