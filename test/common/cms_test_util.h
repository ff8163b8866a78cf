// Test helpers for the cms core: keys hashed the way SQL bigints are, Zipf
// streams, exact counts, and a std::vector-backed sketch that adds, merges
// and stores through the same aggregate-state mechanism as the PostgreSQL
// wrapper (core/common/working_state.h over cms::Family, see
// test/common/state_buffer.h), so tests read as "add, merge, serialize".
//
// No GoogleTest here: failures throw, which GoogleTest reports as a test
// failure and which benchmarks can include too.
#pragma once

#include "hex_text.h"
#include "state_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/common/canonical.h"
#include "core/cms/cms.h"
#include "core/cms/cms_family.h"
#include "core/common/hash.h"
#include "core/common/hex.h"

namespace sketch::cms::test {

// The hash SQL computes for a bigint key (8-byte little-endian int64).
inline uint64_t key_hash(uint64_t key) {
  uint8_t bytes[kCanonicalScalarSize];
  encode_int64(static_cast<int64_t>(key), bytes);
  return hash64(bytes, sizeof bytes);
}

// The text a bigint's output function gives.
inline std::string key_text(uint64_t key) { return std::to_string(key); }

inline Params params(uint32_t width, uint32_t depth, bool conservative = false,
                     uint32_t candidates = kDefaultCandidates) {
  return Params{width, depth, candidates, conservative};
}

// Keys 1..n with P(rank r) proportional to 1/r^s, drawn with a fixed seed.
// A uniform double from 53 random bits keeps streams identical across
// standard libraries (std::uniform_real_distribution is not specified).
class Zipf {
 public:
  Zipf(uint64_t n, double s, uint64_t seed) : rng_(seed), cdf_(n) {
    double sum = 0;
    for (uint64_t r = 0; r < n; r++) cdf_[r] = sum += 1.0 / std::pow(double(r + 1), s);
    for (double& c : cdf_) c /= sum;
  }
  uint64_t next() {
    const double u = double(rng_() >> 11) * 0x1.0p-53;
    return uint64_t(std::lower_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin()) + 1;
  }
  std::vector<uint64_t> take(size_t count) {
    std::vector<uint64_t> out(count);
    for (uint64_t& k : out) k = next();
    return out;
  }

 private:
  std::mt19937_64 rng_;
  std::vector<double> cdf_;
};

inline std::vector<uint64_t> uniform_keys(size_t count, uint64_t distinct, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> out(count);
  for (uint64_t& k : out) k = rng() % distinct + 1;
  return out;
}

inline std::unordered_map<uint64_t, uint64_t> exact_counts(const std::vector<uint64_t>& keys) {
  std::unordered_map<uint64_t, uint64_t> counts;
  for (uint64_t k : keys) counts[k]++;
  return counts;
}

// The n most frequent keys (count descending, key ascending).
inline std::vector<std::pair<uint64_t, uint64_t>> exact_top(
    const std::unordered_map<uint64_t, uint64_t>& counts, size_t n) {
  std::vector<std::pair<uint64_t, uint64_t>> all(counts.begin(), counts.end());
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (all.size() > n) all.resize(n);
  return all;
}

inline Status parse_bytes(const std::vector<uint8_t>& bytes, Validation validation, View* out) {
  return parse(bytes.data(), bytes.size(), validation, out);
}

class Sketch {
 public:
  // An empty working state, as an aggregate starts one.
  explicit Sketch(const Params& p = default_params()) {
    const uint32_t arena = initial_arena_capacity(p.candidates);
    std::vector<uint8_t> empty(working_size(p, arena));
    write_empty_working(p, arena, empty.data());
    state_.assign(std::move(empty));
  }

  // Wraps existing bytes (stored or working); they must parse.
  static Sketch from_bytes(std::vector<uint8_t> bytes,
                           Validation validation = Validation::kStructure) {
    View v;
    const Status st = parse_bytes(bytes, validation, &v);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    Sketch s;
    s.state_.assign(std::move(bytes));
    return s;
  }

  // cms_agg's transition: state::add counts the value and, when it must
  // enter the candidate list, asks for its text (clipped to kMaxValueBytes)
  // and admits it, growing the arena and retrying as often as asked. A
  // stored sketch (from_bytes) is first copied into a working state by
  // state::to_working. A count of 0 is skipped, as cms_agg skips it.
  void add_hash(uint64_t hash, uint64_t count, const std::string& text) {
    if (count == 0) return;
    Family::Element e = Family::element(hash, count, text_of, const_cast<std::string*>(&text));
    growths_ += static_cast<int>(state_.add(e));
    if (e.has_text) admissions_++;
  }

  void add(uint64_t key, uint64_t count = 1) { add_hash(key_hash(key), count, key_text(key)); }

  void add_all(const std::vector<uint64_t>& keys) {
    for (uint64_t k : keys) add(k);
  }

  View view() const { return state_.view(); }

  uint64_t estimate(uint64_t key) const { return cms::estimate(view(), key_hash(key)); }
  uint64_t total() const { return view().total; }
  uint32_t candidate_count() const { return view().count; }
  const std::vector<uint8_t>& bytes() const { return state_.bytes(); }
  // Values that had to enter the candidate list, and arena growths for them.
  int admissions() const { return admissions_; }
  int growths() const { return growths_; }

  // The stored form, through state::to_stored (the final function's path).
  std::vector<uint8_t> canonical() const { return state_.stored(); }

  std::string hex() const { return sketch::test::hex_text(canonical()); }

  // The d·w counters, in row-major order.
  std::vector<uint64_t> counters() const {
    const View v = view();
    const std::vector<uint8_t> c = canonical();
    std::vector<uint64_t> out(uint64_t{v.params.width} * v.params.depth);
    for (size_t j = 0; j < out.size(); j++) out[j] = load_le64(c.data() + 32 + 8 * j);
    return out;
  }

  // The candidates' texts, as a set.
  std::vector<std::string> candidate_texts() const {
    const View v = view();
    std::vector<std::string> out;
    for (uint32_t i = 0; i < v.count; i++) {
      const Candidate c = candidate_at(v, i);
      out.emplace_back(reinterpret_cast<const char*>(c.text), c.len);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // (text, estimate), best first, at most n.
  std::vector<std::pair<std::string, uint64_t>> top(size_t n) const {
    const View v = view();
    std::vector<Ranked> ranked(v.count);
    rank_candidates(v, ranked.data());
    std::vector<std::pair<std::string, uint64_t>> out;
    for (size_t i = 0; i < ranked.size() && i < n; i++) {
      const Candidate c = candidate_at(v, ranked[i].index);
      out.emplace_back(std::string(reinterpret_cast<const char*>(c.text), c.len),
                       ranked[i].estimate);
    }
    return out;
  }

  // this += other through state::merge, as the union aggregate does: in
  // place whenever the plan allows. Throws on mismatched parameters, leaving
  // this as it was.
  void merge(const Sketch& other) {
    if (&other == this) {
      const Sketch copy = other;
      merge(copy);
      return;
    }
    const Status st = state_.merge(other.view());
    if (!st.is_ok()) throw std::invalid_argument(st.message());
  }

  Sketch merged(const Sketch& other) const {
    Sketch result = *this;
    result.merge(other);
    return result;
  }

 private:
  // The element's text source (cms::Family::TextSource): the string, clipped
  // to kMaxValueBytes as the wrapper clips a value's output.
  static Family::Text text_of(void* context) {
    const std::string& text = *static_cast<const std::string*>(context);
    const bool clipped = text.size() > kMaxValueBytes;
    return Family::Text{reinterpret_cast<const uint8_t*>(text.data()),
                        clipped ? kMaxValueBytes : static_cast<uint32_t>(text.size()), clipped};
  }

  sketch::test::StateBuffer<Family> state_;
  int admissions_ = 0;
  int growths_ = 0;
};

}  // namespace sketch::cms::test
