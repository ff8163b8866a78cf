// Combining filters and reading estimates from their fill.
#include <cmath>
#include <cstring>

#include "core/bloom/bloom.h"

namespace sketch::bloom {

Status check_compatible(const View& a, const View& b) {
  if (a.layout != b.layout)
    return Status::error(StatusCode::kMismatch,
                         "cannot combine a classic bloom filter with a split-block one: their "
                         "bits mean different things");
  return cell_array::check_same_shape("bloom filters", {a.bits, a.hashes, a.hash_identity},
                                      {b.bits, b.hashes, b.hash_identity});
}

void merge(uint8_t* a_filter, const View& b) {
  cell_array::combine_words(a_filter + kBitsOffset, b.words, word_count(b.bits),
                            [](uint64_t x, uint64_t y) { return x | y; });
  Cells::for_each_pending(b.data, b.bits, [&](Hash128 hash) { add_hash(a_filter, hash); });
}

void intersect_into(uint8_t* a_filter, const View& b) {
  cell_array::combine_words(a_filter + kBitsOffset, b.words, word_count(b.bits),
                            [](uint64_t x, uint64_t y) { return x & y; });
}

uint64_t bits_set(const View& v) {
  uint64_t count = 0;
  const uint64_t words = word_count(v.bits);
  for (uint64_t i = 0; i < words; i++) {
    uint64_t w;
    std::memcpy(&w, v.words + 8 * i, 8);
    count += static_cast<uint64_t>(__builtin_popcountll(w));
  }
  return count;
}

double estimate_cardinality(const View& v) {
  if (v.layout == Layout::kSplitBlock)
    return split_block::estimate_cardinality(v.words, split_block::block_count(v.bits));
  const double m = static_cast<double>(v.bits);
  uint64_t x = bits_set(v);
  if (x == 0) return 0.0;
  if (x == v.bits) x = v.bits - 1;
  return -(m / v.hashes) * std::log1p(-static_cast<double>(x) / m);
}

double estimate_fpp(const View& v) {
  if (v.layout == Layout::kSplitBlock)
    return split_block::estimate_fpp(v.words, split_block::block_count(v.bits));
  return std::pow(static_cast<double>(bits_set(v)) / static_cast<double>(v.bits), v.hashes);
}

}  // namespace sketch::bloom
