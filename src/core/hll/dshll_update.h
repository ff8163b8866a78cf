// Adding coupons to a DataSketches HLL the way the libraries do
// (dshll_codec.h): LIST, then SET, then HLL registers with the HIP
// estimator, so that a sketch built here from a stream has the tables, the
// registers and the kxq sums the library would have for the same stream in
// the same order, and exports to the same bytes.
//
// One gap: when a SET (or, below lgK 8, a LIST) becomes HLL, the library
// seeds hipAccum with its coupon-count estimate, computed from interpolation
// tables this project does not have. promotion_estimate() answers the
// library's value where it is known (measured from the library's files:
// lgK 12, promoted at 385 coupons) and the linear-counting estimate over the
// 2^26 coupon addresses otherwise; a sketch promoted here at another lgK
// exports with a hipAccum that differs from the library's by that seed's
// difference (docs/interop.md).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/hll/dshll_codec.h"

namespace sketch::hll::dshll {

// A sketch being built, over caller-owned arrays: `slots` and `scratch` of
// builder_slots(lg_k) uint32 each, `registers` of 2^lg_k bytes.
struct Builder {
  int lg_k;
  Mode mode;
  int lg_arr;
  uint32_t count;
  uint32_t* slots;
  uint32_t* scratch;  // the old table while the SET is rebuilt larger
  uint8_t* registers;
  double hip_accum, kxq0, kxq1;
};

inline size_t builder_slots(int lg_k) {
  const int lg = max_set_lg_arr(lg_k) > kListLgArr ? max_set_lg_arr(lg_k) : kListLgArr;
  return size_t{1} << lg;
}

// The library's hipAccum seed at lgK 12 (see promotion_estimate).
// Measured: each of the four adjacent doubles up to this one reproduces
// the hipAccum of all four HLL-mode C++ files (n = 10^3 .. 10^6) exactly.
constexpr double kLgK12PromotionEstimate = 385.00036716501381;

// An empty sketch (LIST of 8 slots).
void start(Builder* b);

// The library's couponUpdate.
void add_coupon(Builder* b, uint32_t coupon);

// An HLL-mode sketch's register update with the HIP and kxq bookkeeping.
void update_register(Builder* b, uint32_t slot, uint32_t value);

// The coupon-count estimate that seeds hipAccum at promotion (see above).
double promotion_estimate(int lg_k, uint32_t coupons);

// Turns a LIST or SET into HLL registers (as the library promotes).
void promote(Builder* b);

// A builder holding what `p` holds, as the library has it after reading
// the bytes: the registers and estimator fields, or the coupon table (a
// compact SET's coupons re-inserted in their order, as the libraries do).
void adopt(Builder* b, const Parsed& p);

// The Model to serialize it (its arrays are the builder's).
Model model_of(const Builder& b, TgtType type, bool out_of_order);

}  // namespace sketch::hll::dshll
