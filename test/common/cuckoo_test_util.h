// Test helpers for the cuckoo core: deterministic key hashes and a
// std::vector-backed filter that adds, deletes, unites and stores through the
// same aggregate-state mechanism as the PostgreSQL wrapper
// (core/common/working_state.h over cuckoo::Family, test/common/state_buffer.h).
//
// No GoogleTest here: failures throw.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "state_buffer.h"
#include "core/common/bytes.h"
#include "core/common/hash.h"
#include "core/cuckoo/cuckoo.h"
#include "core/cuckoo/cuckoo_family.h"

namespace sketch::cuckoo::test {

// The 128-bit hash of key i of key space `seed` (as bloom's tests).
inline Hash128 key_hash(uint64_t seed, uint64_t i) {
  uint8_t bytes[16];
  store_le64(bytes, seed);
  store_le64(bytes + 8, i);
  return hash128(bytes, sizeof bytes);
}

inline Params params_for(int64_t n, double p, int b = 4) {
  Params params;
  const Status st = size_for(n, p, b, &params);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return params;
}

inline std::vector<uint8_t> empty_bytes(const Params& params) {
  std::vector<uint8_t> bytes(filter_size(params));
  write_empty(bytes.data(), params);
  return bytes;
}

class Filter {
 public:
  explicit Filter(Params params) { state_.assign(empty_bytes(params)); }

  // An empty deferred state (cuckoo_agg's encoding for filters of 1 MiB or
  // more, here at any size): set-semantics adds are queued behind a
  // prefetch and added later, in order.
  static Filter deferred(Params params) {
    std::vector<uint8_t> bytes(filter_size(params) + kQueueBytes);
    write_empty_deferred(bytes.data(), params);
    Filter f;
    f.state_.assign(std::move(bytes));
    return f;
  }
  Filter(int64_t n, double p, int b = 4) : Filter(params_for(n, p, b)) {}

  // An empty distinct state (cuckoo_agg's encoding inside an aggregate):
  // add_distinct adds one copy per distinct hash, its seen set removing
  // repeats.
  static Filter distinct(Params params) {
    const std::vector<uint8_t> empty = empty_bytes(params);
    View v;
    const Status st = parse(empty.data(), empty.size(), Validation::kStructure, &v);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    std::vector<uint8_t> bytes(distinct_size(v, kMinSeenCapacity));
    write_distinct(v, kMinSeenCapacity, bytes.data());
    Filter f;
    f.state_.assign(std::move(bytes));
    return f;
  }
  static Filter distinct(int64_t n, double p) { return distinct(params_for(n, p)); }

  // An empty distinct state of the given encoding (kDistinct or
  // kDistinctDeferred) whatever its size, written byte by byte from the
  // layout of cuckoo.h: the layout, the queue when deferred, then a seen set
  // of kMinSeenCapacity slots. To compare the two on the same input.
  static Filter distinct_as(Params params, Encoding encoding) {
    std::vector<uint8_t> bytes = empty_bytes(params);
    bytes[6] = static_cast<uint8_t>(encoding);
    if (encoding == Encoding::kDistinctDeferred) bytes.resize(bytes.size() + kQueueBytes, 0);
    const size_t seen = bytes.size();
    bytes.resize(seen + seen_region_bytes(kMinSeenCapacity), 0);
    store_le64(bytes.data() + seen + 8, kMinSeenCapacity);
    return from_bytes(std::move(bytes), Validation::kStructure);
  }

  // Adds a deferred state's queue now (as the server does before a delete).
  void settle() {
    std::vector<uint8_t>& b = state_.mutable_bytes();
    sketch::test::Arena arena;
    size_t len = b.size();
    uint8_t* out = nullptr;
    const Status st = state::settle<Family>(b.data(), &len, arena, &out);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    if (out != b.data()) state_.assign(arena.take(out));
  }
  size_t add_distinct(Hash128 h) {
    Family::Element e{h, false, true};
    return state_.add(e);
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
  const std::vector<uint8_t>& bytes() const { return state_.bytes(); }

  // Through state::add, growing when asked (limits: see plan_grow, which the
  // server checks first). Returns how many grown buffers it took.
  size_t add(Hash128 h, bool only_new = false) {
    Family::Element e{h, only_new};
    return state_.add(e);
  }
  bool remove(Hash128 h) {
    std::vector<uint8_t>& b = state_.mutable_bytes();
    return delete_hash(b.data(), h);
  }
  bool contains(Hash128 h) const { return contains_hash(view(), h); }
  int64_t count(Hash128 h) const { return count_hash(view(), h); }

  Filter stored() const {
    Filter f;
    f.state_.assign(state_.stored());
    return f;
  }

  Status merge(const Filter& other) {
    if (&other == this) {
      const Filter copy = other;
      return merge(copy);
    }
    return state_.merge(other.view());
  }

 private:
  Filter() = default;
  sketch::test::StateBuffer<Family> state_;
};

}  // namespace sketch::cuckoo::test
