// Test helpers for the bloom core: deterministic key hashes and a
// std::vector-backed filter, so tests read as "add, contains, merge,
// serialize" instead of buffer bookkeeping.
//
// No GoogleTest here: failures throw, which GoogleTest reports as a test
// failure and which the micro-benchmarks can include too.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/bloom.h"
#include "core/bytes.h"
#include "core/hash.h"
#include "core/hex.h"

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

inline Params params_for(int64_t n, double p) {
  Params params;
  const Status st = size_for(n, p, &params);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return params;
}

class Filter {
 public:
  explicit Filter(Params params) : buf_(filter_size(params.bits)) {
    const Status st = check_params(static_cast<int64_t>(params.bits), params.hashes);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    write_empty(buf_.data(), params);
  }
  Filter(uint64_t bits, int hashes) : Filter(Params{bits, hashes}) {}

  // An empty working state, as bloom_agg starts one.
  static Filter working(Params params) {
    Filter f;
    f.buf_.resize(working_size(params.bits));
    write_empty_working(f.buf_.data(), params);
    return f;
  }

  // Wraps bytes that must parse.
  static Filter from_bytes(std::vector<uint8_t> bytes,
                           Validation validation = Validation::kStored) {
    View v;
    const Status st = parse(bytes.data(), bytes.size(), validation, &v);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    Filter f;
    f.buf_ = std::move(bytes);
    return f;
  }

  View view() const {
    View v;
    const Status st = parse(buf_.data(), buf_.size(), Validation::kState, &v);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    return v;
  }

  Encoding encoding() const { return view().encoding; }

  // Adds as bloom_agg does: deferred in a working state, at once otherwise.
  void add(Hash128 h) {
    if (encoding() == Encoding::kWorking) {
      add_hash_deferred(buf_.data(), h);
    } else {
      add_hash(buf_.data(), h);
    }
  }
  bool contains(Hash128 h) const { return contains_hash(view(), h); }

  // The stored form (a copy of a stored filter).
  Filter stored() const {
    const View v = view();
    Filter f;
    f.buf_.resize(filter_size(v.bits));
    write_stored(v, f.buf_.data());
    return f;
  }

  // Keys [begin, end) of key space `seed`.
  void add_keys(uint64_t seed, uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; i++) add(key_hash(seed, i));
  }
  // How many of keys [begin, end) of `seed` the filter reports present.
  uint64_t count_present(uint64_t seed, uint64_t begin, uint64_t end) const {
    const Filter s = stored();
    const View v = s.view();
    uint64_t present = 0;
    for (uint64_t i = begin; i < end; i++) present += contains_hash(v, key_hash(seed, i));
    return present;
  }

  // this = this ∪ other (or ∩), as bloom_union and the combine function do.
  Status merge(const Filter& other, bool intersect = false) {
    const View a = view();
    const View b = other.view();
    const Status st = check_compatible(a, b);
    if (!st.is_ok()) return st;
    if (intersect) {
      intersect_into(buf_.data(), b);
    } else {
      union_into(buf_.data(), b);
    }
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
  const std::vector<uint8_t>& bytes() const { return buf_; }
  std::vector<uint8_t>& mutable_bytes() { return buf_; }

  std::string hex() const {
    std::string text(hex_text_size(buf_.size()), '\0');
    hex_encode(buf_.data(), buf_.size(), text.data());
    return text;
  }

 private:
  Filter() = default;
  std::vector<uint8_t> buf_;
};

}  // namespace sketch::bloom::test
