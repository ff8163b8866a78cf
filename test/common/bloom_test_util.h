// Test helpers for the bloom core: deterministic key hashes and a
// std::vector-backed filter that adds, unites and stores through the same
// aggregate-state mechanism as the PostgreSQL wrapper (core/common/working_state.h
// over bloom::Family, see test/common/state_buffer.h), so tests read as
// "add, contains, merge, serialize" instead of buffer bookkeeping.
//
// No GoogleTest here: failures throw, which GoogleTest reports as a test
// failure and which the micro-benchmarks can include too.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "state_buffer.h"
#include "core/bloom/bloom.h"
#include "core/bloom/bloom_family.h"
#include "core/common/bytes.h"
#include "core/common/hash.h"
#include "core/common/hex.h"
#include "core/common/xxh64.h"

namespace sketch::bloom::test {

// The 128-bit hash of key i of key space `seed`: hash128 of (seed, i) as 16
// little-endian bytes. Distinct (seed, i) are distinct keys, so keys of one
// seed are never keys of another.
inline Hash128 key_hash(uint64_t seed, uint64_t i) {
  uint8_t bytes[16];
  store_le64(bytes, seed);
  store_le64(bytes + 8, i);
  return hash128(bytes, sizeof bytes);
}

// The split-block layout's hash of the same key: 64-bit XXH64 in low, as
// the SQL side passes it (high 0).
inline Hash128 split_key_hash(uint64_t seed, uint64_t i) {
  uint8_t bytes[16];
  store_le64(bytes, seed);
  store_le64(bytes + 8, i);
  return Hash128{xxh64(bytes, sizeof bytes, 0), 0};
}

inline Params split_params_for(int64_t n, double p) {
  Params params;
  const Status st = size_split_block(n, p, &params);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return params;
}

inline Params params_for(int64_t n, double p) {
  Params params;
  const Status st = size_for(n, p, &params);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return params;
}

class Filter {
 public:
  explicit Filter(Params params) {
    const Status st = params.layout == Layout::kSplitBlock
                          ? split_block::check_bits(params.bits)
                          : check_params(static_cast<int64_t>(params.bits), params.hashes);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    std::vector<uint8_t> empty(filter_size(params.bits));
    write_empty(empty.data(), params);
    state_.assign(std::move(empty));
  }
  Filter(uint64_t bits, int hashes) : Filter(Params{bits, hashes}) {}

  // An empty working state, as bloom_agg starts one.
  static Filter working(Params params) {
    Filter f;
    std::vector<uint8_t> empty(working_size(params.bits));
    write_empty(empty.data(), params, Encoding::kQueued);
    f.state_.assign(std::move(empty));
    return f;
  }

  // Wraps bytes that must parse.
  static Filter from_bytes(std::vector<uint8_t> bytes,
                           Validation validation = Validation::kCanonical) {
    View v;
    const Status st = parse(bytes.data(), bytes.size(), validation, &v);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    Filter f;
    f.state_.assign(std::move(bytes));
    return f;
  }

  View view() const { return state_.view(); }

  Encoding encoding() const { return view().encoding; }

  // Adds as bloom_agg does, through state::add: deferred in a working state,
  // at once otherwise.
  void add(Hash128 h) {
    Family::Element e{h};
    state_.add(e);
  }
  bool contains(Hash128 h) const { return contains_hash(view(), h); }

  // The stored form, through state::to_stored (a copy of a stored filter).
  Filter stored() const {
    Filter f;
    f.state_.assign(state_.stored());
    return f;
  }

  // The key hash of this filter's layout.
  Hash128 key(uint64_t seed, uint64_t i) const {
    return view().layout == Layout::kSplitBlock ? split_key_hash(seed, i) : key_hash(seed, i);
  }

  // Keys [begin, end) of key space `seed`.
  void add_keys(uint64_t seed, uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; i++) add(key(seed, i));
  }
  // How many of keys [begin, end) of `seed` the filter reports present.
  uint64_t count_present(uint64_t seed, uint64_t begin, uint64_t end) const {
    const Filter s = stored();
    const View v = s.view();
    uint64_t present = 0;
    for (uint64_t i = begin; i < end; i++) present += contains_hash(v, key(seed, i));
    return present;
  }

  // this = this ∪ other as bloom_union and the combine function do it
  // (state::merge), or this ∩ other as bloom_intersect does (a function,
  // not an aggregate: intersect_into on a stored filter).
  Status merge(const Filter& other, bool intersect = false) {
    if (&other == this) {
      const Filter copy = other;
      return merge(copy, intersect);
    }
    const View b = other.view();
    if (!intersect) return state_.merge(b);
    const Status st = check_compatible(view(), b);
    if (!st.is_ok()) return st;
    intersect_into(state_.mutable_bytes().data(), b);
    return Status::ok();
  }

  uint64_t bits() const { return view().bits; }
  int hashes() const { return view().hashes; }
  // Estimates read the stored form, as SQL does.
  uint64_t set_bits() const {
    const Filter s = stored();
    return bits_set(s.view());
  }
  double cardinality() const {
    const Filter s = stored();
    return estimate_cardinality(s.view());
  }
  double fpp() const {
    const Filter s = stored();
    return estimate_fpp(s.view());
  }
  const std::vector<uint8_t>& bytes() const { return state_.bytes(); }
  std::vector<uint8_t>& mutable_bytes() { return state_.mutable_bytes(); }

  std::string hex() const {
    const std::vector<uint8_t>& b = bytes();
    std::string text(hex_text_size(b.size()), '\0');
    hex_encode(b.data(), b.size(), text.data());
    return text;
  }

 private:
  Filter() = default;
  sketch::test::StateBuffer<Family> state_;
};

}  // namespace sketch::bloom::test
