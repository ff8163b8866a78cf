// Test helpers for the counting_bloom core: a std::vector-backed filter that
// adds, unites and stores through the same aggregate-state mechanism as the
// PostgreSQL wrapper (core/common/working_state.h over counting_bloom::Family,
// see state_buffer.h), and deletes as counting_bloom_delete does (delete_hash
// on the stored form). Keys are bloom's test keys (bloom_test_util.h), so a
// counting filter and a bloom filter can be built from the same values.
//
// No GoogleTest here: failures throw.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bloom_test_util.h"
#include "state_buffer.h"
#include "core/common/hash.h"
#include "core/counting_bloom/counting_bloom.h"
#include "core/counting_bloom/counting_bloom_family.h"

namespace sketch::counting_bloom::test {

using bloom::test::key_hash;

inline Params params_for(int64_t n, double p) {
  Params params;
  const Status st = size_for(n, p, &params);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return params;
}

class Filter {
 public:
  explicit Filter(Params params) {
    const Status st = check_params(static_cast<int64_t>(params.cells), params.hashes);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    std::vector<uint8_t> empty(filter_size(params.cells));
    write_empty(empty.data(), params);
    state_.assign(std::move(empty));
  }
  Filter(uint64_t cells, int hashes) : Filter(Params{cells, hashes}) {}

  // An empty working state, as counting_bloom_agg starts a large one.
  static Filter working(Params params) {
    Filter f;
    std::vector<uint8_t> empty(working_size(params.cells));
    write_empty(empty.data(), params, Encoding::kQueued);
    f.state_.assign(std::move(empty));
    return f;
  }

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

  // Adds through state::add, as counting_bloom_agg and counting_bloom_add.
  void add(Hash128 h) {
    Family::Element e{h};
    state_.add(e);
  }

  // Deletes as counting_bloom_delete: from the stored form, in place (a
  // working state is turned into its stored form first).
  bool remove(Hash128 h) {
    if (encoding() != Encoding::kStored) state_.assign(state_.stored());
    return delete_hash(state_.mutable_bytes().data(), h);
  }

  bool contains(Hash128 h) const {
    const Filter s = stored();
    return contains_hash(s.view(), h);
  }

  Filter stored() const {
    Filter f;
    f.state_.assign(state_.stored());
    return f;
  }

  void add_keys(uint64_t seed, uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; i++) add(key_hash(seed, i));
  }

  uint64_t count_present(uint64_t seed, uint64_t begin, uint64_t end) const {
    const Filter s = stored();
    const View v = s.view();
    uint64_t present = 0;
    for (uint64_t i = begin; i < end; i++) present += contains_hash(v, key_hash(seed, i));
    return present;
  }

  Status merge(const Filter& other) {
    if (&other == this) {
      const Filter copy = other;
      return merge(copy);
    }
    return state_.merge(other.view());
  }

  Counts counts() const {
    const Filter s = stored();
    return count_cells(s.view());
  }

  // to_bloom of the stored form.
  std::vector<uint8_t> bloom_bytes() const {
    const Filter s = stored();
    const View v = s.view();
    std::vector<uint8_t> out(bloom_size(v));
    to_bloom(v, out.data());
    return out;
  }

  double cardinality() const {
    const Filter s = stored();
    const View v = s.view();
    std::vector<uint8_t> scratch(bloom_size(v));
    return estimate_cardinality(v, scratch.data());
  }
  double fpp() const {
    const Filter s = stored();
    const View v = s.view();
    std::vector<uint8_t> scratch(bloom_size(v));
    return estimate_fpp(v, scratch.data());
  }

  uint64_t cells() const { return view().cells; }
  int hashes() const { return view().hashes; }
  const std::vector<uint8_t>& bytes() const { return state_.bytes(); }
  std::vector<uint8_t>& mutable_bytes() { return state_.mutable_bytes(); }

 private:
  Filter() = default;
  sketch::test::StateBuffer<Family> state_;
};

}  // namespace sketch::counting_bloom::test
