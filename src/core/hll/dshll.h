// DataSketches HLL sketches inside this project's hll: hash identity 3
// (header.h kDatasketchesIdentity; the library's layout and rules are in
// dshll_codec.h and dshll_update.h).
//
// The registers are the library's (slot = the coupon's low lgK bits, value
// = min(clz(h2), 62) + 1), so an imported sketch merges exactly with values
// added here by hll_datasketches_add and hll_datasketches_agg, which hash as
// the library does (core/common/datasketches_hash.h).
//
// Our two encodings (header byte 5 = lgK, byte 6 = encoding, byte 7 the
// element kind: kDatasketchesImported or the kind of the values added):
//   kDatasketches        stored: 32 fixed bytes, then LIST/SET: `count`
//                        uint32 coupons in the order the library would write
//                        them (its table's slot order, or the order of the
//                        imported bytes); HLL: K one-byte registers.
//   kDatasketchesWorking aggregate states only: the fixed bytes, then the
//                        library's table (builder_slots uint32), a scratch
//                        table of the same size and K registers, so that
//                        every add is in place.
// The fixed bytes: target type (0 HLL_4, 1 HLL_6, 2 HLL_8), mode (0 LIST,
// 1 SET, 2 HLL), flags (kHipFlag, kOutOfOrderFlag), lgArr, uint32 count, then
// the doubles hipAccum, kxq0, kxq1 (little-endian IEEE 754).
//
// Estimates: an imported HLL-mode sketch that the library had not merged
// (no out-of-order flag) answers its stored HIP estimate (kHipFlag) until an
// add or a merge clears it; then, and for every other sketch, this
// project's estimators: linear counting over the 2^26 coupon addresses for
// LIST and SET, Ertl's improved raw estimator for HLL registers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/element_kind.h"
#include "core/common/header.h"
#include "core/common/status.h"
#include "core/common/validation.h"
#include "core/hll/dshll_codec.h"
#include "core/hll/hll.h"

namespace sketch::hll::dshll {

constexpr uint8_t kIdentity = kDatasketchesIdentity;
constexpr size_t kFixedSize = 32;
constexpr uint8_t kHipFlag = 1;
constexpr uint8_t kOutOfOrderFlag = 2;
constexpr int kDefaultLgK = 12;

// Called by hll::parse for header byte 4 = 3.
Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

// The library's bytes (validated, dshll_codec.h parse) as a stored sketch.
size_t stored_size_of(const Parsed& p);
void write_stored_of(const Parsed& p, uint8_t* dst);

// An empty working state.
size_t working_size_for(int lg_k);
void write_empty_working(int lg_k, TgtType type, uint8_t* dst);

bool is_working(const uint8_t* data, size_t len);
size_t working_size(const View& v);
void write_working(const View& v, uint8_t* dst);
size_t stored_size(const View& v);
void write_stored(const View& v, uint8_t* dst);

// Adds one coupon (dshll_codec.h coupon_of) to a working state in place.
void add(uint8_t* state, uint32_t coupon);

// a ∪ b, both identity 3: the result's lgK is the smaller one (registers
// indexed by low bits fold exactly; coupons carry 26 address bits). In place
// when a is a working state of that lgK, else into `dst` of *size bytes.
Status plan_merge(const View& a, const View& b, bool* in_place, size_t* size);
void merge(uint8_t* a_buffer, const View& a, const View& b, bool in_place, uint8_t* dst);

TgtType tgt_type(const View& v);
Mode mode(const View& v);
bool answers_hip(const View& v);
// Coupons held (LIST/SET) or non-zero registers (HLL).
uint32_t filled(const View& v);

double estimate(const View& v);
double standard_error(const View& v);

// The library's compact bytes for a stored view, with its target type or
// `type`.
size_t export_size(const View& v, TgtType type);
void write_export(const View& v, TgtType type, uint8_t* dst);

}  // namespace sketch::hll::dshll
