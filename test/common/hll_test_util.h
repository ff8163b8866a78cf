// Test helpers for the hll core: deterministic hash streams and a
// std::vector-backed sketch that adds, merges and stores through the same
// aggregate-state mechanism as the PostgreSQL wrapper (core/common/working_state.h
// over hll::Family, see test/common/state_buffer.h), so tests read as
// "add, merge, fold, serialize" instead of buffer bookkeeping.
//
// No GoogleTest here: failures throw, which GoogleTest reports as a test
// failure and which the micro-benchmarks can include too.
#pragma once

#include "hex_text.h"
#include "state_buffer.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/hash.h"
#include "core/common/hex.h"
#include "core/hll/hll.h"
#include "core/hll/hll_family.h"
#include "core/hll/hll_internal.h"

namespace sketch::hll::test {

// The i-th hash of stream `seed`: hash64 of (seed, i) as 16 little-endian
// bytes. Distinct (seed, i) give independent-looking, fully deterministic
// values, and a stream never repeats a value (up to 64-bit collisions).
inline uint64_t stream_hash(uint64_t seed, uint64_t i) {
  uint8_t bytes[16];
  store_le64(bytes, seed);
  store_le64(bytes + 8, i);
  return hash64(bytes, sizeof bytes);
}

inline std::vector<uint64_t> stream(uint64_t seed, uint64_t begin, uint64_t end) {
  std::vector<uint64_t> out;
  out.reserve(end - begin);
  for (uint64_t i = begin; i < end; i++) out.push_back(stream_hash(seed, i));
  return out;
}

// A hash whose top 26 bits are `index` and whose rank after them is `rank`
// (1..39), for tests that need a specific sparse entry.
inline uint64_t hash_with_entry(uint32_t index, int rank) {
  const uint64_t top = uint64_t{index} << (64 - kSparsePrecision);
  const int rest_bits = 64 - kSparsePrecision;
  if (rank > rest_bits) return top;
  return top | (uint64_t{1} << (rest_bits - rank));
}

inline Status parse_bytes(const std::vector<uint8_t>& bytes, Validation validation, View* out) {
  return parse(bytes.data(), bytes.size(), validation, out);
}

class Sketch {
 public:
  // An empty working sketch, as an aggregate starts one.
  explicit Sketch(int p = kDefaultPrecision) { reset(p); }

  // Wraps existing bytes (canonical or working); they must parse.
  static Sketch from_bytes(std::vector<uint8_t> bytes,
                           Validation validation = Validation::kStructure) {
    View v;
    const Status st = parse_bytes(bytes, validation, &v);
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

  // A dense sketch at p with nothing in it, to insert into dense directly.
  static Sketch empty_dense(int p) { return Sketch(p).as_dense(p); }

  // Back to an empty working set, as hll_agg starts one (a fresh buffer of
  // exactly the set's size).
  void reset(int p) {
    const uint32_t capacity = set_capacity_for(0);
    std::vector<uint8_t> set(sparse_set_size(capacity));
    write_empty_set(set.data(), p, capacity);
    state_.assign(std::move(set));
  }

  // hll_agg's transition: state::add, the in-place add_hash, growing the set
  // or promoting it to dense when asked. A stored sparse sketch (from_bytes)
  // is first copied into a set by state::to_working.
  void add(uint64_t hash) {
    Family::Element e{hash};
    state_.add(e);
  }

  void add_all(const std::vector<uint64_t>& hashes) {
    for (uint64_t h : hashes) add(h);
  }

  View view() const { return state_.view(); }

  int p() const { return view().p; }
  Encoding encoding() const { return view().encoding; }
  uint32_t count() const { return view().count; }
  double estimate() const { return hll::estimate(view()); }
  const std::vector<uint8_t>& bytes() const { return state_.bytes(); }

  // The stored form, through state::to_stored (the final function's path).
  std::vector<uint8_t> canonical() const { return state_.stored(); }

  std::string hex() const { return sketch::test::hex_text(canonical()); }

  // this = this ∪ other through state::merge, as the union aggregate does:
  // in place whenever the plan allows.
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

  // The exact fold to a lower precision, the way the wrapper does it: a union
  // with an empty sketch of that precision.
  Sketch folded(int p) const {
    std::vector<uint8_t> empty(sparse_size(0));
    write_empty(empty.data(), p);
    return united(from_bytes(std::move(empty)));
  }

  // write_dense at precision p (any encoding in, dense out).
  Sketch as_dense(int p) const {
    std::vector<uint8_t> dense(dense_size(p));
    write_dense(view(), p, dense.data());
    Sketch s;
    s.state_.assign(std::move(dense));
    return s;
  }

 private:
  sketch::test::StateBuffer<Family> state_;
};

}  // namespace sketch::hll::test
