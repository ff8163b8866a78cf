// Sizing and estimates of the split-block layout (split_block.h).
#include "core/bloom/split_block.h"
#include "core/common/filter_target.h"

#include <algorithm>
#include <cmath>

namespace sketch::bloom::split_block {

double formula_fpp(double bits_per_value) {
  const double lambda = static_cast<double>(kBlockBits) / bits_per_value;
  // Past a mean of 5000 values per block every term that weighs anything
  // has i > 4000, where 1 - (31/32)^i is 1 to double precision: the sum is
  // 1. (Summing would take 24 sqrt(lambda) terms: billions for the n that
  // bloom_sizing may be asked about.)
  if (!(lambda <= 5000.0)) return 1.0;
  const double miss = std::log1p(-1.0 / 32.0);  // ln(31/32)
  // Poisson terms in log space (e^-lambda underflows for overfull
  // filters), over lambda +- 12 standard deviations plus a margin: the
  // terms outside weigh far below double precision.
  const double spread = 12.0 * std::sqrt(lambda) + 40.0;
  const double first = std::max(0.0, std::floor(lambda - spread));
  const double last = std::ceil(lambda + spread);
  double sum = 0.0;
  for (double i = first; i <= last; i += 1.0) {
    const double log_pois = -lambda + i * std::log(lambda) - std::lgamma(i + 1.0);
    const double word_set = -std::expm1(i * miss);  // 1 - (31/32)^i
    sum += std::exp(log_pois) * std::pow(word_set, kWordsPerBlock);
  }
  return std::min(1.0, sum);
}

Status plan_bits(int64_t n, double p, uint64_t* bits) {
  if (Status st = check_filter_target("bloom filter", "probability", n, p); !st.is_ok())
    return st;
  // fpp falls as bits grow: double from one block until it is low enough.
  for (uint64_t m = kMinBits; m <= kMaxPlannedBits; m *= 2) {
    if (formula_fpp(static_cast<double>(m) / static_cast<double>(n)) <= p) {
      *bits = m;
      return Status::ok();
    }
  }
  return Status::error(StatusCode::kInvalidParameter,
                       "a split-block bloom filter for n = %lld at p = %g needs more than "
                       "%llu bits, more than this function can describe",
                       static_cast<long long>(n), p,
                       static_cast<unsigned long long>(kMaxPlannedBits));
}

Status check_bits(uint64_t bits) {
  if (!valid_bits(bits))
    return Status::error(StatusCode::kInvalidParameter,
                         "a split-block bloom filter has a whole number of 256-bit blocks "
                         "between %llu and %llu bits, got %llu",
                         static_cast<unsigned long long>(kMinBits),
                         static_cast<unsigned long long>(kMaxBits),
                         static_cast<unsigned long long>(bits));
  return Status::ok();
}

double estimate_fpp(const uint8_t* bitset, uint64_t blocks) {
  double sum = 0.0;
  for (uint64_t b = 0; b < blocks; b++) {
    double product = 1.0;
    for (int i = 0; i < kWordsPerBlock; i++)
      product *= __builtin_popcount(load_le32(bitset + kBlockBytes * b + 4 * i)) / 32.0;
    sum += product;
  }
  return sum / static_cast<double>(blocks);
}

double estimate_cardinality(const uint8_t* bitset, uint64_t blocks) {
  const double per_value = std::log1p(-1.0 / 32.0);
  double total = 0.0;
  for (uint64_t b = 0; b < blocks; b++) {
    double words = 0.0;
    for (int i = 0; i < kWordsPerBlock; i++) {
      const int set = __builtin_popcount(load_le32(bitset + kBlockBytes * b + 4 * i));
      const double c = set == 32 ? 31.5 : static_cast<double>(set);
      words += std::log1p(-c / 32.0) / per_value;
    }
    total += words / kWordsPerBlock;
  }
  return total;
}

}  // namespace sketch::bloom::split_block
