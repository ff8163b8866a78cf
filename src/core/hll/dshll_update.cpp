#include "core/hll/dshll_update.h"

#include <cmath>
#include <cstring>

namespace sketch::hll::dshll {

namespace {

// 2^-v.
double inverse_power_of_two(uint32_t v) { return std::ldexp(1.0, -static_cast<int>(v)); }

// A SET grows (or at its largest size becomes HLL) when 4 * count > 3 * size.
bool over_three_quarters(uint32_t count, int lg_arr) {
  return uint64_t{count} * 4 > uint64_t{3} << lg_arr;
}

void insert_all(Builder* b, const uint32_t* from, uint32_t n, int lg_arr) {
  std::memset(b->slots, 0, sizeof(uint32_t) << lg_arr);
  for (uint32_t i = 0; i < n; i++) {
    if (from[i] == 0) continue;
    const int32_t at = set_find(b->slots, lg_arr, from[i]);
    if (at < 0 && at != INT32_MIN) b->slots[~at] = from[i];  // full: only a forged state
  }
  b->lg_arr = lg_arr;
}

// Rebuilds the table at lg_arr from its current slots in slot order (the
// library's growHashSet and its LIST-to-SET promotion).
void rehash(Builder* b, int lg_arr) {
  const uint32_t old_size = 1u << b->lg_arr;
  std::memcpy(b->scratch, b->slots, sizeof(uint32_t) * old_size);
  insert_all(b, b->scratch, old_size, lg_arr);
}

}  // namespace

void start(Builder* b) {
  b->mode = Mode::kList;
  b->lg_arr = kListLgArr;
  b->count = 0;
  std::memset(b->slots, 0, sizeof(uint32_t) << kListLgArr);
  b->hip_accum = 0;
  b->kxq0 = 0;
  b->kxq1 = 0;
}

double promotion_estimate(int lg_k, uint32_t coupons) {
  // The library's estimate at lgK 12's promotion (385 coupons): its files'
  // hipAccum less the HIP increments of the values after the promotion,
  // which are exact (test/unit/hll/dshll_codec_test.cpp replays them).
  if (lg_k == 12 && coupons == 385) return kLgK12PromotionEstimate;

  constexpr double kAddresses = 67108864.0;  // 2^26
  return -kAddresses * std::log1p(-static_cast<double>(coupons) / kAddresses);
}

void update_register(Builder* b, uint32_t slot, uint32_t value) {
  const uint32_t old = b->registers[slot];
  if (value <= old) return;
  // HIP before kxq, as the library does.
  b->hip_accum += static_cast<double>(1u << b->lg_k) / (b->kxq0 + b->kxq1);
  if (old < 32) b->kxq0 -= inverse_power_of_two(old);
  else b->kxq1 -= inverse_power_of_two(old);
  if (value < 32) b->kxq0 += inverse_power_of_two(value);
  else b->kxq1 += inverse_power_of_two(value);
  b->registers[slot] = static_cast<uint8_t>(value);
}

void promote(Builder* b) {
  const uint32_t k = 1u << b->lg_k;
  std::memset(b->registers, 0, k);
  b->kxq0 = k;
  b->kxq1 = 0;
  b->hip_accum = 0;
  for (uint32_t i = 0; i < (b->mode == Mode::kList ? 8u : (1u << b->lg_arr)); i++) {
    const uint32_t c = b->slots[i];
    if (c != 0) update_register(b, c & (k - 1), coupon_value(c));
  }
  b->hip_accum = promotion_estimate(b->lg_k, b->count);
  b->mode = Mode::kHll;
  b->lg_arr = 0;
  b->count = 0;
}

void add_coupon(Builder* b, uint32_t coupon) {
  if (b->mode == Mode::kHll) {
    update_register(b, coupon & ((1u << b->lg_k) - 1), coupon_value(coupon));
    return;
  }
  if (b->mode == Mode::kList) {
    for (uint32_t i = 0; i < 8; i++) {
      if (b->slots[i] == coupon) return;
      if (b->slots[i] != 0) continue;
      b->slots[i] = coupon;
      if (++b->count < 8) return;
      if (list_promotes_to_hll(b->lg_k)) {
        promote(b);
      } else {
        b->mode = Mode::kSet;
        rehash(b, kInitialSetLgArr);
      }
      return;
    }
    return;
  }
  const int32_t at = set_find(b->slots, b->lg_arr, coupon);
  // INT32_MIN: a full table, which only a forged state can hold.
  if (at >= 0 || at == INT32_MIN) return;
  b->slots[~at] = coupon;
  b->count++;
  if (!over_three_quarters(b->count, b->lg_arr)) return;
  if (b->lg_arr == max_set_lg_arr(b->lg_k)) {
    promote(b);
  } else {
    rehash(b, b->lg_arr + 1);
  }
}

void adopt(Builder* b, const Parsed& p) {
  start(b);
  b->mode = p.mode;
  if (p.mode == Mode::kHll) {
    read_registers(p, b->registers);
    b->lg_arr = 0;
    b->hip_accum = p.hip_accum;
    b->kxq0 = p.kxq0;
    b->kxq1 = p.kxq1;
    return;
  }
  b->count = p.count;
  b->lg_arr = p.lg_arr;
  read_table(p, b->slots);
  if (p.mode == Mode::kSet && !in_table_order(p)) {
    std::memcpy(b->scratch, b->slots, sizeof(uint32_t) * p.count);
    insert_all(b, b->scratch, p.count, p.lg_arr);
  }
}

Model model_of(const Builder& b, TgtType type, bool out_of_order) {
  return Model{b.lg_k, type, b.mode, b.lg_arr, b.count, b.slots, b.registers,
               b.hip_accum, b.kxq0, b.kxq1, out_of_order};
}

}  // namespace sketch::hll::dshll
