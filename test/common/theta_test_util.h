// Test helpers for the theta core: a std::vector-backed sketch that adds,
// merges and stores through the same aggregate-state mechanism as the
// PostgreSQL wrapper (core/common/working_state.h over theta::Family, see
// test/common/state_buffer.h), items named by integers (hash = the real
// element hash of the number's canonical encoding), deterministic hash
// streams, the set operations into vectors, and the reference sketch of a
// set computed directly from the definition (theta.h) to compare bytes with.
//
// No GoogleTest here: failures throw, which GoogleTest reports as a test
// failure and which the corpus generators and benchmarks can include too.
#pragma once

#include "number_items.h"
#include "state_buffer.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/element_kind.h"
#include "core/common/hash.h"
#include "core/theta/theta.h"
#include "core/theta/theta_family.h"
#include "core/theta/theta_internal.h"

namespace sketch::theta::test {

using sketch::test::item_hash;
using sketch::test::Random;

// The i-th hash of stream `seed`: hash64 of (seed, i) as 16 little-endian
// bytes; distinct (seed, i) give independent-looking, deterministic values.
inline uint64_t stream_hash(uint64_t seed, uint64_t i) {
  uint8_t bytes[16];
  store_le64(bytes, seed);
  store_le64(bytes + 8, i);
  return hash64(bytes, sizeof bytes);
}

inline View must_parse(const std::vector<uint8_t>& bytes,
                       Validation validation = Validation::kStructure) {
  View v;
  const Status st = parse(bytes.data(), bytes.size(), validation, &v);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return v;
}

// An empty stored sketch that takes the kind of its first value.
inline std::vector<uint8_t> empty_stored(int lg_k) {
  std::vector<uint8_t> out(empty_size());
  write_empty(lg_k, out.data());
  out[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kNone);
  return out;
}

// A new working state, as the aggregate starts one.
inline std::vector<uint8_t> new_working(int lg_k) {
  std::vector<uint8_t> out(new_working_size(lg_k));
  write_new_working(lg_k, out.data());
  out[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kNone);
  return out;
}

// A stored sketch with these fields and hashes, written as given (no
// checks): for the reference and for tests that break invariants.
inline std::vector<uint8_t> stored_bytes(int lg_k, uint64_t theta,
                                         const std::vector<uint64_t>& hashes) {
  std::vector<uint8_t> out(stored_size(static_cast<uint32_t>(hashes.size())));
  write_empty(lg_k, out.data());
  out[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kNone);
  store_le32(out.data() + detail::kCountOffset, static_cast<uint32_t>(hashes.size()));
  store_le64(out.data() + detail::kThetaOffset, theta);
  for (size_t i = 0; i < hashes.size(); i++)
    detail::set_hash(out.data(), static_cast<uint32_t>(i), hashes[i]);
  return out;
}

// The retained (63-bit, nonzero) hashes of 64-bit element hashes: sorted,
// distinct.
inline std::vector<uint64_t> retained(const std::vector<uint64_t>& hashes) {
  std::vector<uint64_t> h;
  h.reserve(hashes.size());
  for (uint64_t x : hashes)
    if (retained_hash(x) != 0) h.push_back(retained_hash(x));
  std::sort(h.begin(), h.end());
  h.erase(std::unique(h.begin(), h.end()), h.end());
  return h;
}

// The sketch of a set of 63-bit hashes (sorted, distinct) by the definition:
// at most k: exact; else θ = the (k+1)-th smallest and the k smallest.
inline std::vector<uint8_t> reference_of_retained(int lg_k, std::vector<uint64_t> h) {
  const size_t k = size_t{1} << lg_k;
  uint64_t theta = kThetaExact;
  if (h.size() > k) {
    theta = h[k];
    h.resize(k);
  }
  return stored_bytes(lg_k, theta, h);
}

// The same from 64-bit element hashes, in any order, repeats allowed.
inline std::vector<uint8_t> reference(int lg_k, const std::vector<uint64_t>& hashes) {
  return reference_of_retained(lg_k, retained(hashes));
}

// The hashes of a stored sketch, ascending.
inline std::vector<uint64_t> hashes_of(const std::vector<uint8_t>& stored) {
  const View v = must_parse(stored, Validation::kCanonical);
  std::vector<uint64_t> out(v.count);
  for (uint32_t i = 0; i < v.count; i++) out[i] = stored_hash(v, i);
  return out;
}

// A sketch through the real state mechanism.
class Sketch {
 public:
  // A new working state, as the aggregate starts one.
  explicit Sketch(int lg_k = kDefaultLgK) : buffer_(new_working(lg_k)) {}
  // Any bytes parse() accepts, stored or working.
  explicit Sketch(std::vector<uint8_t> bytes) : buffer_(std::move(bytes)) {}

  void reset(int lg_k) { buffer_.assign(new_working(lg_k)); }

  // Adds the element with this 64-bit hash; returns the growths it took.
  size_t add_hash(uint64_t hash) {
    Family::Element e{hash};
    return buffer_.add(e);
  }
  size_t add(int64_t item) { return add_hash(item_hash(item)); }

  Status merge(const Sketch& other) {
    const std::vector<uint8_t> bytes = other.stored();
    return buffer_.merge(must_parse(bytes));
  }
  // Merges whatever bytes the other holds (working or stored).
  Status merge_bytes(const std::vector<uint8_t>& bytes) { return buffer_.merge(must_parse(bytes)); }

  std::vector<uint8_t> stored() const { return buffer_.stored(); }
  const std::vector<uint8_t>& bytes() const { return buffer_.bytes(); }
  View view() const { return buffer_.view(); }

  double estimate() const {
    const std::vector<uint8_t> s = stored();
    return theta::estimate(must_parse(s));
  }

 private:
  sketch::test::StateBuffer<Family> buffer_;
};

// The set operations of two stored sketches, into new vectors; the element
// kind is the inputs' combined kind, as the SQL layer sets it.
enum class SetOp { kUnion, kIntersect, kANotB };

inline std::vector<uint8_t> set_op(SetOp op, const std::vector<uint8_t>& a_bytes,
                                   const std::vector<uint8_t>& b_bytes) {
  const View a = must_parse(a_bytes), b = must_parse(b_bytes);
  ElementKind kind;
  const Status st = combine_element_kinds(element_kind_of(a_bytes.data()),
                                          element_kind_of(b_bytes.data()), &kind);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  std::vector<uint8_t> out;
  switch (op) {
    case SetOp::kUnion:
      out.resize(merged_size(a, b));
      write_merged(a, b, out.data());
      break;
    case SetOp::kIntersect:
      out.resize(intersect_size(a, b));
      write_intersect(a, b, out.data());
      break;
    case SetOp::kANotB:
      out.resize(a_not_b_size(a, b));
      write_a_not_b(a, b, out.data());
      break;
  }
  out[kElementKindOffset] = static_cast<uint8_t>(kind);
  return out;
}

inline std::vector<uint8_t> united(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  return set_op(SetOp::kUnion, a, b);
}
inline std::vector<uint8_t> intersection(const std::vector<uint8_t>& a,
                                         const std::vector<uint8_t>& b) {
  return set_op(SetOp::kIntersect, a, b);
}
inline std::vector<uint8_t> difference(const std::vector<uint8_t>& a,
                                       const std::vector<uint8_t>& b) {
  return set_op(SetOp::kANotB, a, b);
}

inline double estimate_of(const std::vector<uint8_t>& stored) {
  return estimate(must_parse(stored));
}

}  // namespace sketch::theta::test
