// Test helpers for the hll core: deterministic hash streams and a
// std::vector-backed sketch that runs the same grow / promote / retry loop as
// the PostgreSQL wrapper (src/pg/hll_datum.cpp), so tests read as
// "add, merge, fold, serialize" instead of buffer bookkeeping.
//
// No GoogleTest here: failures throw, which GoogleTest reports as a test
// failure and which the micro-benchmarks can include too.
#pragma once

#include "hex_text.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/bytes.h"
#include "core/hash.h"
#include "core/hex.h"
#include "core/hll.h"
#include "core/hll_internal.h"

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
    s.buf_ = std::move(bytes);
    return s;
  }

  static Sketch from_hashes(int p, const std::vector<uint64_t>& hashes) {
    Sketch s(p);
    for (uint64_t h : hashes) s.add(h);
    return s;
  }

  // A dense sketch at p with nothing in it, to insert into dense directly.
  static Sketch empty_dense(int p) {
    Sketch empty(p);
    Sketch s;
    s.buf_.assign(dense_size(p), 0);
    write_dense(empty.view(), p, s.buf_.data());
    return s;
  }

  // Back to an empty working set, reusing the buffer's memory.
  void reset(int p) {
    const uint32_t capacity = set_capacity_for(0);
    buf_.resize(sparse_set_size(capacity));
    write_empty_set(buf_.data(), p, capacity);
  }

  // The wrapper's loop: add, and on kNeedsGrowth / kNeedsDense rebuild the
  // buffer and retry. The fast path is a single add_hash, as in the
  // aggregate's transition function, so streams of millions stay cheap.
  void add(uint64_t hash) {
    if (detail::encoding_of(buf_.data()) != Encoding::kSparse &&
        add_hash(buf_.data(), hash) == AddOutcome::kDone)
      return;
    add_with_rebuilds(hash);
  }

  void add_all(const std::vector<uint64_t>& hashes) {
    for (uint64_t h : hashes) add(h);
  }

  View view() const {
    View v;
    const Status st = parse_bytes(buf_, Validation::kStructure, &v);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    return v;
  }

  int p() const { return view().p; }
  Encoding encoding() const { return view().encoding; }
  uint32_t count() const { return view().count; }
  double estimate() const { return hll::estimate(view()); }
  const std::vector<uint8_t>& bytes() const { return buf_; }

  std::vector<uint8_t> canonical() const {
    const View v = view();
    std::vector<uint8_t> out(canonical_size(v));
    write_canonical(v, out.data());
    return out;
  }

  std::string hex() const { return sketch::test::hex_text(canonical()); }

  // this = this ∪ other, in place whenever the plan allows, as the union
  // aggregate does.
  void merge(const Sketch& other) {
    const View a = view();
    const View b = other.view();
    const UnionPlan plan = plan_union(a, b);
    if (plan.in_place) {
      apply_union(buf_.data(), a, b, plan, nullptr);
      return;
    }
    std::vector<uint8_t> out(plan.size);
    apply_union(buf_.data(), a, b, plan, out.data());
    buf_.swap(out);
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
    Sketch s;
    s.buf_.assign(dense_size(p), 0);
    write_dense(view(), p, s.buf_.data());
    return s;
  }

 private:
  // A canonical sparse list cannot take add_hash; like hll_state_copy, turn
  // it into a set with room for one more entry.
  void to_working_set() {
    const View v = view();
    const uint32_t capacity = set_capacity_for(v.count + 1);
    std::vector<uint8_t> set(sparse_set_size(capacity));
    write_set(v, capacity, set.data());
    buf_.swap(set);
  }

  // Each rebuild makes room, so two retries always suffice.
  void add_with_rebuilds(uint64_t hash) {
    if (encoding() == Encoding::kSparse) to_working_set();
    for (int attempt = 0; attempt < 4; attempt++) {
      const AddOutcome outcome = add_hash(buf_.data(), hash);
      if (outcome == AddOutcome::kDone) return;
      const View v = view();
      std::vector<uint8_t> rebuilt;
      if (outcome == AddOutcome::kNeedsGrowth) {
        const uint32_t capacity = grown_capacity(v);
        rebuilt.resize(sparse_set_size(capacity));
        write_set(v, capacity, rebuilt.data());
      } else {
        rebuilt.resize(dense_size(v.p));
        write_dense(v, v.p, rebuilt.data());
      }
      buf_.swap(rebuilt);
    }
    throw std::logic_error("add_hash kept asking for a rebuild");
  }

  std::vector<uint8_t> buf_;
};

}  // namespace sketch::hll::test
