// A sketch with the question its aggregate was asked: the state of a
// one-step aggregate whose answer needs an argument of the query, such as
// approx_percentile(v, q) and approx_percentiles(v, qs).
//
// PostgreSQL hands a final function the state and nothing else, and in a
// parallel or distributed plan the finalizing node never sees the query's
// arguments at all (AggGetAggref there names the partial aggregate's output,
// not q). So the question travels inside the state: the inner sketch's bytes,
// exactly as the inner family writes them, followed by a request tail
//
//   f64 fraction[count]     little-endian, each finite, in [0, 1], never -0
//   u16 count               1..kMaxRequested
//   u8  version             kRequestVersion
//   u8  tag                 kRequestTag
//
// which every copy, growth, merge and stored form carries along, and which a
// merge compares: two states asked different questions never merge (the
// combine function of one aggregate call only ever sees equal ones, so a
// difference means hostile or mixed input, refused with kMismatch).
//
// WithRequest<Inner> is the family of such states for the shared mechanism
// (working_state.h): every hook forwards to Inner on the bytes before the
// tail. The tail is found from the end in O(1), so is_working stays O(1).
// Inner families that defer adds, have an O(1) working view or merge stored
// forms directly would need those hooks forwarded too; none that needs a
// request does, so they are refused at compile time rather than dropped.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/common/bytes.h"
#include "core/common/family_contract.h"
#include "core/common/status.h"

namespace sketch::state {

inline constexpr uint32_t kMaxRequested = 10000;
inline constexpr size_t kRequestTailSize = 4;
inline constexpr uint8_t kRequestVersion = 1;
inline constexpr uint8_t kRequestTag = 0x51;  // 'Q': fractions of the rank

// The request tail of a state: `count` fractions at `fractions`, `size`
// bytes in all (the fractions and the 4-byte tail).
struct Request {
  const uint8_t* fractions;
  uint32_t count;
  size_t size;
};

constexpr size_t request_size(uint32_t count) { return 8 * size_t{count} + kRequestTailSize; }

inline double request_fraction(const Request& r, uint32_t i) {
  const uint64_t bits = load_le64(r.fractions + 8 * size_t{i});
  double q;
  std::memcpy(&q, &bits, sizeof q);
  return q;
}

// A fraction as a request holds it: finite, in [0, 1], and 0 written as +0
// so that equal requests are equal bytes.
inline bool is_request_fraction(double q) {
  return std::isfinite(q) && q >= 0.0 && q <= 1.0 && !(q == 0.0 && std::signbit(q));
}

// The tail's shape, O(1): the request of `len` bytes ending a state, or
// false. The fractions themselves are checked by parse_request.
inline bool find_request(const uint8_t* data, size_t len, Request* out) {
  if (len < kRequestTailSize) return false;
  const uint8_t* tail = data + len - kRequestTailSize;
  if (tail[3] != kRequestTag || tail[2] != kRequestVersion) return false;
  const uint32_t count = uint32_t{tail[0]} | uint32_t{tail[1]} << 8;
  if (count == 0 || count > kMaxRequested || request_size(count) > len) return false;
  out->count = count;
  out->size = request_size(count);
  out->fractions = data + len - out->size;
  return true;
}

inline Status parse_request(const uint8_t* data, size_t len, Request* out) {
  if (!find_request(data, len, out))
    return Status::error(StatusCode::kInvalidFormat,
                         "the state does not end with a valid request of 1 to %u fractions",
                         kMaxRequested);
  for (uint32_t i = 0; i < out->count; i++)
    if (!is_request_fraction(request_fraction(*out, i)))
      return Status::error(StatusCode::kInvalidFormat,
                           "requested fraction %u is not a number in [0, 1]", i + 1);
  return Status::ok();
}

// Writes the tail for `count` fractions (each is_request_fraction, count
// 1..kMaxRequested) into request_size(count) bytes at dst.
inline void write_request(const double* fractions, uint32_t count, uint8_t* dst) {
  for (uint32_t i = 0; i < count; i++) {
    uint64_t bits;
    std::memcpy(&bits, &fractions[i], sizeof bits);
    store_le64(dst + 8 * size_t{i}, bits);
  }
  uint8_t* tail = dst + 8 * size_t{count};
  tail[0] = static_cast<uint8_t>(count);
  tail[1] = static_cast<uint8_t>(count >> 8);
  tail[2] = kRequestVersion;
  tail[3] = kRequestTag;
}

inline bool same_request(const Request& a, const Request& b) {
  return a.size == b.size && std::memcmp(a.fractions, b.fractions, a.size) == 0;
}

template <class Inner>
struct WithRequest : FamilyDefaults {
  static_assert(Inner::kAddsElements && !Inner::kDefersAdds && !Inner::kHasWorkingView &&
                    !Inner::kMergesStored,
                "WithRequest forwards only the required hooks of its inner family");

  struct View {
    typename Inner::View inner;
    Request request;
    const uint8_t* data;  // the whole state, inner sketch first
    size_t size;
  };

  static const uint8_t* bytes_of(const View& v) { return v.data; }
  static bool is_stored(const View& v) { return Inner::is_stored(v.inner); }

  static Status parse(const uint8_t* data, size_t len, View* out) {
    Status st = parse_request(data, len, &out->request);
    if (!st.is_ok()) return st;
    out->data = data;
    out->size = len;
    return Inner::parse(data, len - out->request.size, &out->inner);
  }

  static bool is_working(const uint8_t* data, size_t len) {
    Request r{};
    return find_request(data, len, &r) && Inner::is_working(data, len - r.size);
  }

  static size_t working_size(const View& v) {
    return Inner::working_size(v.inner) + v.request.size;
  }
  static void write_working(const View& v, uint8_t* dst) {
    Inner::write_working(v.inner, dst);
    append_request(v.request, dst + Inner::working_size(v.inner));
  }

  static size_t stored_size(const View& v) { return Inner::stored_size(v.inner) + v.request.size; }
  static void write_stored(const View& v, uint8_t* dst) {
    Inner::write_stored(v.inner, dst);
    append_request(v.request, dst + Inner::stored_size(v.inner));
  }

  struct MergePlan {
    typename Inner::MergePlan inner;
    bool in_place;
    size_t size;
  };

  static Status plan_merge(const View& a, const View& b, MergePlan* plan) {
    if (!same_request(a.request, b.request))
      return Status::error(StatusCode::kMismatch,
                           "states asking for different fractions cannot be merged");
    Status st = Inner::plan_merge(a.inner, b.inner, &plan->inner);
    if (!st.is_ok()) return st;
    plan->in_place = plan->inner.in_place;
    plan->size = plan->inner.size + a.request.size;
    return Status::ok();
  }

  // In place, the inner merge rewrites the inner bytes without moving the
  // tail; into dst, the tail follows the merged inner sketch.
  static void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan,
                    uint8_t* dst) {
    Inner::merge(a_buffer, a.inner, b.inner, plan.inner, dst);
    if (!plan.in_place) append_request(a.request, dst + plan.inner.size);
  }

  using Element = typename Inner::Element;

  struct Growth {
    typename Inner::Growth inner;
    size_t size;
  };

  // The inner sketch starts the state, so its in-place add is the state's.
  static bool add(uint8_t* state, Element& e, Growth* growth) {
    return Inner::add(state, e, &growth->inner);
  }

  static Status plan_growth(const View& v, Growth* growth) {
    Status st = Inner::plan_growth(v.inner, &growth->inner);
    growth->size = growth->inner.size + v.request.size;
    return st;
  }

  static void grow(const View& v, const Growth& growth, uint8_t* dst) {
    Inner::grow(v.inner, growth.inner, dst);
    append_request(v.request, dst + growth.inner.size);
  }

 private:
  static void append_request(const Request& r, uint8_t* dst) {
    std::memmove(dst, r.fractions, r.size);
  }
};

// The input validator of a WithRequest type: the tail, then the inner
// sketch by the inner type's own validator (its stored form only).
template <Status (*kInnerValidate)(const uint8_t*, size_t)>
Status validate_with_request(const uint8_t* data, size_t len) {
  Request r{};
  Status st = parse_request(data, len, &r);
  if (!st.is_ok()) return st;
  return kInnerValidate(data, len - r.size);
}

}  // namespace sketch::state
