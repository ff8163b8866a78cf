// Quantile and rank queries (kll.h) over the items sorted with their
// cumulative weights.
#include <algorithm>
#include <cmath>

#include "core/common/bytes.h"
#include "core/kll/kll.h"

namespace sketch::kll {

namespace {

struct Entry {
  uint64_t key;
  uint64_t weight;  // then the cumulative weight
};

}  // namespace

size_t query_scratch_size(const View& v) { return sizeof(Entry) * size_t{v.retained()}; }

uint64_t Sorted::key(uint32_t i) const {
  return reinterpret_cast<const Entry*>(entries)[i].key;
}
uint64_t Sorted::cumulative(uint32_t i) const {
  return reinterpret_cast<const Entry*>(entries)[i].weight;
}

// `scratch` is 8-byte aligned (palloc, a vector of uint64_t).
Sorted sort_items(const View& v, uint8_t* scratch) {
  Entry* entries = reinterpret_cast<Entry*>(scratch);
  uint32_t count = 0;
  for (uint32_t h = 0; h < v.levels; ++h)
    for (uint32_t i = v.offset(h); i < v.offset(h + 1); ++i)
      entries[count++] = Entry{v.item(i), uint64_t{1} << h};
  std::sort(entries, entries + count, [](const Entry& a, const Entry& b) { return a.key < b.key; });
  uint64_t total = 0;
  for (uint32_t i = 0; i < count; ++i) {
    total += entries[i].weight;
    entries[i].weight = total;
  }
  Sorted s;
  s.entries = scratch;
  s.count = count;
  s.n = total;
  return s;
}

uint64_t quantile_key(const View& v, const Sorted& s, double q) {
  if (!(q > 0.0) || s.count == 0) return v.min_key;
  if (q >= 1.0) return v.max_key;
  // The smallest item whose cumulative weight reaches ceil(q n): monotone in
  // q. In double while n is exact in one, as DataSketches computes it: q =
  // 0.01 is a double a little above 1/100, and 0.01 * 100 must be 1 (the
  // 1st of 100 values), not the 2 a wider product would round up to.
  constexpr uint64_t kDoubleExact = uint64_t{1} << 53;
  const long double want =
      s.n <= kDoubleExact ? std::ceil(q * static_cast<double>(s.n))
                          : std::ceil(static_cast<long double>(q) * static_cast<long double>(s.n));
  const uint64_t target = want < 1.0L ? 1 : static_cast<uint64_t>(want);
  uint32_t lo = 0, hi = s.count - 1;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (s.cumulative(mid) >= target) hi = mid; else lo = mid + 1;
  }
  const uint64_t key = s.key(lo);
  return std::clamp(key, v.min_key, v.max_key);
}

double rank_of_key(const View& v, const Sorted& s, uint64_t key) {
  if (v.n == 0 || key < v.min_key) return 0.0;
  if (key >= v.max_key) return 1.0;
  uint32_t lo = 0, hi = s.count;  // the first item above key
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (s.key(mid) <= key) lo = mid + 1; else hi = mid;
  }
  if (lo == 0) return 0.0;
  return static_cast<double>(s.cumulative(lo - 1)) / static_cast<double>(s.n);
}

bool is_exact(const View& v) { return v.retained() == v.n; }

// DataSketches' empirical fits of the 99% normalized rank error for k.
double rank_error(const View& v, bool double_sided) {
  if (is_exact(v)) return 0.0;
  const double k = v.k;
  return double_sided ? 2.446 / std::pow(k, 0.9433) : 2.296 / std::pow(k, 0.9723);
}

double rank_error_at(const View& v, bool double_sided, double confidence) {
  return rank_error(v, double_sided) *
         std::sqrt(std::log(2.0 / (1.0 - confidence)) / std::log(200.0));
}

}  // namespace sketch::kll
