// Test helpers for the ddsketch core: deterministic value streams, a
// std::vector-backed sketch that adds, merges and stores through the same
// aggregate-state mechanism as the PostgreSQL wrapper (core/common/
// working_state.h over ddsketch::Family, see test/common/state_buffer.h),
// and an independent model of the buckets (a std::map and the collapse rule
// written out) to compare the library's stores with.
//
// No GoogleTest here: failures throw, which GoogleTest reports as a test
// failure and which the corpus generators and benchmarks can include too.
#pragma once

#include "hex_text.h"
#include "state_buffer.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/ddsketch/ddsketch.h"
#include "core/ddsketch/ddsketch_family.h"

namespace sketch::ddsketch::test {

// --- deterministic values ---------------------------------------------------

// splitmix64: a fixed, platform-independent stream (std::*_distribution
// are not specified bit for bit).
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1), 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in (0, 1].
  double uniform_open() { return 1.0 - uniform(); }
  uint64_t below(uint64_t n) { return next() % n; }
  double normal() {
    // Box-Muller: two uniforms, one normal.
    const double u = uniform_open(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
  }

 private:
  uint64_t state_;
};

inline Params params(int scale, uint32_t max_buckets = kDefaultMaxBuckets) {
  return Params{scale, max_buckets};
}

inline Status parse_bytes(const std::vector<uint8_t>& bytes, Validation validation, View* out) {
  return parse(bytes.data(), bytes.size(), validation, out);
}

inline View must_parse(const std::vector<uint8_t>& bytes,
                       Validation validation = Validation::kStructure) {
  View v;
  const Status st = parse_bytes(bytes, validation, &v);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return v;
}

inline std::vector<uint8_t> empty_stored(const Params& p) {
  std::vector<uint8_t> out(empty_size());
  write_empty(p, out.data());
  return out;
}

inline std::vector<uint8_t> empty_working(const Params& p) {
  std::vector<uint8_t> out(empty_working_size(p));
  write_empty_working(p, out.data());
  return out;
}

class Sketch {
 public:
  // An empty working sketch, as an aggregate starts one.
  explicit Sketch(const Params& p = params(6)) { state_.assign(empty_working(p)); }

  // The sketch ddsketch_agg(v, accuracy, max_buckets) starts.
  static Sketch for_accuracy(double accuracy, uint32_t max_buckets = kDefaultMaxBuckets) {
    Params p;
    const Status st = params_for(accuracy, max_buckets, &p);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    return Sketch(p);
  }

  // Wraps existing bytes (stored or working); they must parse.
  static Sketch from_bytes(std::vector<uint8_t> bytes,
                           Validation validation = Validation::kStructure) {
    must_parse(bytes, validation);
    Sketch s;
    s.state_.assign(std::move(bytes));
    return s;
  }

  static Sketch of(const Params& p, const std::vector<double>& values) {
    Sketch s(p);
    s.add_all(values);
    return s;
  }

  // ddsketch_agg's transition: state::add, growing the window when asked.
  // Returns how many new buffers the value needed.
  size_t add(double value) {
    Family::Element e{value};
    return state_.add(e);
  }

  // The weighted transition: `times` copies in one step.
  size_t add_times(double value, uint64_t times) {
    Family::Element e{value, times};
    return state_.add(e);
  }

  void add_all(const std::vector<double>& values) {
    for (double v : values) add(v);
  }

  View view() const { return state_.view(); }
  const std::vector<uint8_t>& bytes() const { return state_.bytes(); }

  // The stored form, through state::to_stored (the final function's path).
  std::vector<uint8_t> stored() const { return state_.stored(); }
  // A view of the stored form, which must pass the strict parse. It points
  // into this sketch (a copy of the stored bytes kept here): valid while the
  // sketch lives and until the next stored_view().
  View stored_view() const {
    stored_copy_ = stored();
    return must_parse(stored_copy_, Validation::kCanonical);
  }
  std::string hex() const { return sketch::test::hex_text(stored()); }

  // this = this ∪ other through state::merge, as the union aggregate does.
  void merge(const Sketch& other) {
    if (&other == this) {
      const Sketch copy = other;
      merge(copy);
      return;
    }
    const Status st = state_.merge(other.view());
    if (!st.is_ok()) throw std::runtime_error(st.message());
  }
  Status try_merge(const View& other) { return state_.merge(other); }

  Sketch united(const Sketch& other) const {
    Sketch result = *this;
    result.merge(other);
    return result;
  }

  // The union with an empty sketch of (scale, max_buckets): the fold.
  Sketch folded(int scale, uint32_t max_buckets) const {
    return united(from_bytes(empty_stored(params(scale, max_buckets))));
  }

  uint64_t count() const { return view().count; }
  double quantile(double q) const { return ddsketch::quantile(view(), q); }
  double rank(double x) const { return ddsketch::rank(view(), x); }
  double sum() const { return ddsketch::sum(view()); }

 private:
  sketch::test::StateBuffer<Family> state_;
  mutable std::vector<uint8_t> stored_copy_;
};

// Every non-empty bucket of a store.
inline std::map<int32_t, uint64_t> buckets_of(const Store& s) {
  std::map<int32_t, uint64_t> out;
  for_each_bucket(s, [&](int32_t i, uint64_t c) { out[i] += c; });
  return out;
}

// --- an independent model of the stores ---------------------------------------

// The stores of a multiset, built the plain way: every value's bucket into
// a map, then the collapse rule applied once to the whole multiset.
struct ModelStore {
  std::map<int32_t, uint64_t> buckets;
  bool collapsed = false;
};

struct Model {
  ModelStore positive, negative;
  uint64_t zeros = 0;
};

inline void collapse(ModelStore* s, uint32_t max_buckets) {
  if (s->buckets.empty()) return;
  const int64_t floor = int64_t{s->buckets.rbegin()->first} - max_buckets + 1;
  uint64_t moved = 0;
  for (auto it = s->buckets.begin(); it != s->buckets.end() && it->first < floor;) {
    moved += it->second;
    it = s->buckets.erase(it);
    s->collapsed = true;
  }
  if (moved > 0) s->buckets[static_cast<int32_t>(floor)] += moved;
}

inline Model model_of(const std::vector<double>& values, const Params& p) {
  Model m;
  for (double v : values) {
    if (v == 0) {
      m.zeros++;
      continue;
    }
    ModelStore& s = v > 0 ? m.positive : m.negative;
    s.buckets[bucket_index(std::fabs(v), p.scale)]++;
  }
  collapse(&m.positive, p.max_buckets);
  collapse(&m.negative, p.max_buckets);
  return m;
}

// The values sorted, for percentile_disc answers.
inline double percentile_disc(const std::vector<double>& sorted, double q) {
  const double target = std::ceil(q * static_cast<double>(sorted.size()));
  size_t k = target < 1 ? 1 : static_cast<size_t>(target);
  if (k > sorted.size()) k = sorted.size();
  return sorted[k - 1];
}

}  // namespace sketch::ddsketch::test
