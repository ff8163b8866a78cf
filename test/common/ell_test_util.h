// Test helpers for the ell core: a std::vector-backed sketch that adds,
// merges and stores through the aggregate-state mechanism
// (core/common/working_state.h over ell::Family, test/common/state_buffer.h),
// as the PostgreSQL wrapper will. Hash streams are hll's (hll_test_util.h).
//
// No GoogleTest here: failures throw.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/ell/ell.h"
#include "core/ell/ell_family.h"
#include "core/ell/ell_internal.h"
#include "core/hll/hll.h"
#include "state_buffer.h"

namespace sketch::ell::test {

class Sketch {
 public:
  explicit Sketch(int p = kDefaultPrecision) { reset(p); }

  static Sketch from_bytes(std::vector<uint8_t> bytes,
                           Validation validation = Validation::kStructure) {
    View v;
    const Status st = parse(bytes.data(), bytes.size(), validation, &v);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    Sketch s;
    s.state_.assign(std::move(bytes));
    return s;
  }

  static Sketch from_hashes(int p, const std::vector<uint64_t>& hashes) {
    Sketch s(p);
    for (uint64_t h : hashes) s.add(h);
    return s;
  }

  // A dense sketch at p with nothing in it (merged: no martingale).
  static Sketch empty_dense(int p) {
    Sketch s(p);
    std::vector<uint8_t> dense(dense_size(p));
    write_dense(s.view(), p, dense.data());
    s.state_.assign(std::move(dense));
    return s;
  }

  void reset(int p) {
    const uint32_t capacity = set_capacity_for(0);
    std::vector<uint8_t> set(sparse_set_size(capacity));
    write_empty_set(set.data(), p, capacity);
    state_.assign(std::move(set));
  }

  void add(uint64_t hash) {
    Family::Element e{hash};
    state_.add(e);
  }

  View view() const { return state_.view(); }
  int p() const { return view().p; }
  Encoding encoding() const { return view().encoding; }
  double estimate() const { return ell::estimate(view()); }
  double ml() const { return ml_estimate(view()); }
  const std::vector<uint8_t>& bytes() const { return state_.bytes(); }
  std::vector<uint8_t> canonical() const { return state_.stored(); }

  void merge(const Sketch& other) {
    if (&other == this) {
      const Sketch copy = other;
      merge(copy);
      return;
    }
    const Status st = state_.merge(other.view());
    if (!st.is_ok()) throw std::runtime_error(st.message());
  }

  Sketch united(const Sketch& other) const {
    Sketch result = *this;
    result.merge(other);
    return result;
  }

  // The fold to a lower precision, as the wrapper will do it: a union with
  // an empty sketch of that precision.
  Sketch folded(int p) const {
    std::vector<uint8_t> empty(sparse_size(0));
    write_empty(empty.data(), p);
    return united(from_bytes(std::move(empty)));
  }

  Sketch as_dense(int p) const {
    std::vector<uint8_t> dense(dense_size(p));
    write_dense(view(), p, dense.data());
    Sketch s;
    s.state_.assign(std::move(dense));
    return s;
  }

  // The registers of the hll sketch write_hll makes.
  std::vector<uint8_t> hll_registers() const {
    std::vector<uint8_t> out(hll::dense_size(p()));
    write_hll(view(), out.data());
    return std::vector<uint8_t>(out.begin() + kHeaderSize, out.end());
  }

  // The dense registers alone (bytes after the martingale fields).
  std::vector<uint8_t> registers() const {
    const std::vector<uint8_t>& b = bytes();
    return std::vector<uint8_t>(b.begin() + detail::kRegistersOffset, b.end());
  }

 private:
  sketch::test::StateBuffer<Family> state_;
};

}  // namespace sketch::ell::test
