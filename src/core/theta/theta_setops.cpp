// theta set operations on stored sketches: union, intersection and
// difference as merges of the two sorted hash arrays (theta.h).

#include <algorithm>

#include "core/theta/theta_internal.h"

namespace sketch::theta {

using namespace detail;

namespace {

// Calls f(h, in_a, in_b) for every hash below θ that a or b holds, in
// ascending order, until f returns false. Each step reads past the hashes it
// reports (so a writer into a's or b's own bytes, writing one hash per hash
// read or fewer, never overwrites one still to be read) and every step
// advances through a or b, so it ends whatever the bytes.
template <class F>
void walk(const View& a, const View& b, uint64_t theta, F f) {
  uint32_t i = 0, j = 0;
  for (;;) {
    const uint64_t x = i < a.count ? hash_at(a.data, i) : theta;
    const uint64_t y = j < b.count ? hash_at(b.data, j) : theta;
    const uint64_t h = std::min(x, y);
    if (h >= theta) return;
    const bool in_a = x == h, in_b = y == h;
    if (in_a) i++;
    if (in_b) j++;
    if (!f(h, in_a, in_b)) return;
  }
}

struct Shape {
  int lg_k;
  uint32_t count;
  uint64_t theta;
};

// The result of keeping the hashes below min(θa, θb) for which
// keep(in_a, in_b) holds, at the smaller k: its count, and θ, lowered to
// the (k+1)-th kept hash if there are more than k.
template <class Keep>
Shape shape_of(const View& a, const View& b, Keep keep) {
  Shape s{std::min(a.lg_k, b.lg_k), 0, std::min(a.theta, b.theta)};
  const uint32_t k = k_of(s.lg_k);
  walk(a, b, s.theta, [&](uint64_t h, bool in_a, bool in_b) {
    if (!keep(in_a, in_b)) return true;
    if (s.count == k) {
      s.theta = h;
      return false;
    }
    s.count++;
    return true;
  });
  return s;
}

const char* identity_name(uint8_t identity) {
  return identity == kDatasketchesIdentity ? "DataSketches' MurmurHash3 (hash identity 3)"
                                           : "xxh3_64 (hash identity 1)";
}

}  // namespace

Status check_combinable(const View& a, const View& b) {
  const uint8_t ia = identity_of(a.data), ib = identity_of(b.data);
  if (ia != ib)
    return Status::error(StatusCode::kMismatch,
                         "cannot combine a theta sketch hashed with %s with one hashed with %s",
                         identity_name(ia), identity_name(ib));
  return check_element_kind(element_kind_of(a.data), element_kind_of(b.data));
}

namespace {

// The kind of a result of a and b. Callers refuse mismatched kinds before
// they write (theta_combined in the server); were one to pass them anyway,
// the result keeps a's kind, never 0.
ElementKind result_kind(const View& a, const View& b) {
  ElementKind kind = element_kind_of(a.data);
  if (!combine_element_kinds(kind, element_kind_of(b.data), &kind).is_ok())
    kind = element_kind_of(a.data);
  return kind;
}

template <class Keep>
void write_result(const View& a, const View& b, Keep keep, uint8_t* dst) {
  // Read before the walks: dst may be a's bytes.
  const ElementKind kind = result_kind(a, b);
  const uint8_t identity = identity_of(a.data);
  const Shape s = shape_of(a, b, keep);
  uint32_t n = 0;
  // The same walk as shape_of's (same θ), stopped after the hashes it
  // counted: exactly s.count written, whatever the order of the bytes.
  walk(a, b, std::min(a.theta, b.theta), [&](uint64_t h, bool in_a, bool in_b) {
    if (!keep(in_a, in_b)) return true;
    if (n == s.count) return false;
    set_hash(dst, n++, h);
    return true;
  });
  // The fixed fields last, and every byte written (no memset): dst may be
  // a's bytes, read by the walks above.
  write_theta_header(dst, s.lg_k, Encoding::kStored, kind, identity);
  store_le32(dst + kCountOffset, s.count);
  store_le32(dst + kReservedOffset, 0);
  store_le64(dst + kThetaOffset, s.theta);
}

constexpr auto kEither = [](bool, bool) { return true; };
constexpr auto kBoth = [](bool in_a, bool in_b) { return in_a && in_b; };
constexpr auto kOnlyA = [](bool in_a, bool in_b) { return in_a && !in_b; };

}  // namespace

size_t merged_size(const View& a, const View& b) {
  return stored_size(shape_of(a, b, kEither).count);
}
void write_merged(const View& a, const View& b, uint8_t* dst) { write_result(a, b, kEither, dst); }

size_t intersect_size(const View& a, const View& b) {
  return stored_size(shape_of(a, b, kBoth).count);
}
void write_intersect(const View& a, const View& b, uint8_t* dst) {
  write_result(a, b, kBoth, dst);
}

size_t a_not_b_size(const View& a, const View& b) {
  return stored_size(shape_of(a, b, kOnlyA).count);
}
void write_a_not_b(const View& a, const View& b, uint8_t* dst) {
  write_result(a, b, kOnlyA, dst);
}

}  // namespace sketch::theta
