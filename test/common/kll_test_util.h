// Test helpers for the kll core: a std::vector-backed sketch that adds,
// merges and stores through the aggregate-state mechanism the PostgreSQL
// wrapper runs (core/common/working_state.h over kll::Family), and exact
// ranks to compare its answers with.
//
// No GoogleTest here: failures throw.
#pragma once

#include "ddsketch_test_util.h"  // Random: the fixed splitmix64 stream
#include "state_buffer.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/kll/kll.h"
#include "core/kll/kll_family.h"

namespace sketch::kll::test {

using sketch::ddsketch::test::Random;

inline View must_parse(const std::vector<uint8_t>& bytes,
                       Validation validation = Validation::kStructure) {
  View v;
  const Status st = parse(bytes.data(), bytes.size(), validation, &v);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return v;
}

class Sketch {
 public:
  // An empty working sketch of values of `kind`, as an aggregate starts one
  // (the wrapper's accept_kind sets the kind before the first value).
  explicit Sketch(uint32_t k = kDefaultK, ElementKind kind = ElementKind::kFloat) : kind_(kind) {
    std::vector<uint8_t> bytes(empty_size(Encoding::kWorking, k));
    write_empty(bytes.data(), k, Encoding::kWorking);
    state_.assign(std::move(bytes));
  }

  static Sketch from_bytes(std::vector<uint8_t> bytes) {
    const View v = must_parse(bytes);
    Sketch s(v.k, v.kind);
    s.state_.assign(std::move(bytes));
    return s;
  }

  size_t add_key(uint64_t key, uint64_t times = 1) {
    Family::Element e{key, times};
    size_t grown = state_.add(e);
    if (state_.bytes()[kElementKindOffset] != static_cast<uint8_t>(kind_))
      state_.mutable_bytes()[kElementKindOffset] = static_cast<uint8_t>(kind_);
    return grown;
  }
  size_t add(double v, uint64_t times = 1) { return add_key(key_of_double(v), times); }
  size_t add_int(int64_t v, uint64_t times = 1) { return add_key(key_of_int64(v), times); }

  Status merge(const Sketch& other) {
    const std::vector<uint8_t> bytes = other.state_.bytes();
    return state_.merge(must_parse(bytes));
  }
  Status merge_stored(const std::vector<uint8_t>& stored) {
    return state_.merge(must_parse(stored, Validation::kCanonical));
  }

  std::vector<uint8_t> stored() const { return state_.stored(); }
  const std::vector<uint8_t>& working() const { return state_.bytes(); }

 private:
  ElementKind kind_;
  sketch::test::StateBuffer<Family> state_;
};

// Queries over stored bytes, as the SQL accessors run them.
class Reader {
 public:
  explicit Reader(std::vector<uint8_t> stored) : bytes_(std::move(stored)) {
    view_ = must_parse(bytes_, Validation::kCanonical);
    scratch_.resize(query_scratch_size(view_) / 8 + 1);
    sorted_ = sort_items(view_, reinterpret_cast<uint8_t*>(scratch_.data()));
  }
  const View& view() const { return view_; }
  double quantile(double q) const { return double_of_key(quantile_key(view_, sorted_, q)); }
  int64_t quantile_int(double q) const { return int64_of_key(quantile_key(view_, sorted_, q)); }
  double rank(double v) const { return rank_of_key(view_, sorted_, key_of_double(v)); }
  double rank_int(int64_t v) const { return rank_of_key(view_, sorted_, key_of_int64(v)); }

 private:
  std::vector<uint8_t> bytes_;
  View view_;
  std::vector<uint64_t> scratch_;
  Sorted sorted_;
};

// The exact rank (share of values <= v) in a sorted copy of the input.
inline double true_rank(const std::vector<double>& sorted, double v) {
  return static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), v) - sorted.begin()) /
         static_cast<double>(sorted.size());
}

}  // namespace sketch::kll::test
