// Apache DataSketches' HLL serialization (family id 7, serial version 1),
// read and written here from the format's description and checked against
// the files the C++, Java and Go libraries wrote
// (/work/shared/interop/datasketches, test/unit/hll/dshll_codec_test.cpp).
// The hash identity is 3 (header.h kDatasketchesIdentity,
// core/common/datasketches_hash.h).
//
// How the libraries file a value: its 128-bit hash (h1, h2) makes a coupon
//   coupon = (min(clz(h2), 62) + 1) << 26 | (h1 & (2^26 - 1))
// and a register (HLL mode) is slot = coupon & (K - 1), value = coupon >> 26,
// K = 2^lgK. A sketch is in one of three modes:
//   LIST  up to 7 coupons in an array of 8, in insertion order;
//   SET   an open-addressing table of 2^lgArr coupons (lgArr 5 .. lgK - 3,
//         grown when 4 * count > 3 * 2^lgArr), probed from coupon & mask with
//         the stride ((coupon & (2^26 - 1)) >> lgArr) | 1;
//   HLL   K registers with the HIP estimate (hipAccum) and kxq0 / kxq1, the
//         sums of 2^-value over registers below 32 and from 32 up.
// The target type says how HLL registers are packed: HLL_8 one byte each,
// HLL_6 6 bits each (slot i at bit 6i, little-endian, K * 3/4 + 1 bytes),
// HLL_4 a nibble each (even slots low) holding value - curMin, 15 meaning
// "see the aux table" of (value << 26 | slot) entries.
//
// Preamble (little-endian):
//   0 preInts (2 LIST, 3 SET, 10 HLL)   1 serVer 1   2 famId 7   3 lgK (4..21)
//   4 lgArr (LIST/SET: table; HLL_4: aux table, 0 without one)
//   5 flags (1 big-endian, 2 read-only, 4 empty, 8 compact, 16 out of order,
//            32 full size)
//   6 LIST: coupon count; HLL: curMin
//   7 mode: curMode (0 LIST, 1 SET, 2 HLL) | tgtType (0 HLL_4, 1 HLL_6, 2 HLL_8) << 2
//   SET:  8 uint32 coupon count, then the coupons
//   HLL:  8 double hipAccum, 16 double kxq0, 24 double kxq1,
//         32 uint32 numAtCurMin, 36 uint32 auxCount, 40 the registers, then
//         the aux entries (HLL_4)
// Compact: LIST and SET hold only their coupons (SET in table order), HLL_4
// only its aux entries; updatable: the whole arrays, 0 = empty slot. The
// format stores no seed hash: the seed (9001) is assumed, as the libraries do.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/status.h"

namespace sketch::hll::dshll {

constexpr int kMinLgK = 4;
constexpr int kMaxLgK = 21;
constexpr uint8_t kFamilyId = 7;
constexpr uint8_t kSerialVersion = 1;
constexpr int kListLgArr = 3;
constexpr int kInitialSetLgArr = 5;
constexpr int kMaxRegisterValue = 63;
constexpr size_t kHllPreambleBytes = 40;

enum class Mode : uint8_t { kList = 0, kSet = 1, kHll = 2 };
enum class TgtType : uint8_t { kHll4 = 0, kHll6 = 1, kHll8 = 2 };

const char* tgt_type_name(TgtType t);
const char* mode_name(Mode m);

inline uint32_t coupon_of(uint64_t h1, uint64_t h2) {
  const int lz = h2 == 0 ? 64 : __builtin_clzll(h2);
  const uint32_t value = static_cast<uint32_t>((lz > 62 ? 62 : lz) + 1);
  return value << 26 | static_cast<uint32_t>(h1 & ((uint64_t{1} << 26) - 1));
}
inline uint32_t coupon_value(uint32_t coupon) { return coupon >> 26; }
inline uint32_t coupon_address(uint32_t coupon) { return coupon & ((1u << 26) - 1); }

// The largest SET table of lgK (beyond it the sketch is HLL), and whether a
// sketch of lgK goes from LIST straight to HLL (lgK < 8).
inline int max_set_lg_arr(int lg_k) { return lg_k - 3; }
inline bool list_promotes_to_hll(int lg_k) { return lg_k < 8; }

// A parsed DataSketches HLL: the preamble, and where its arrays are.
struct Parsed {
  int lg_k;
  int lg_arr;
  Mode mode;
  TgtType type;
  bool compact;
  bool empty;
  bool out_of_order;
  uint32_t count;  // LIST/SET coupons held
  double hip_accum, kxq0, kxq1;
  int cur_min;
  uint32_t num_at_cur_min;
  uint32_t aux_count;
  const uint8_t* coupons;  // LIST/SET: `count` (compact) or 2^lg_arr (updatable) uint32
  const uint8_t* registers;
  const uint8_t* aux;      // HLL_4: aux entries (compact: aux_count; updatable: 2^lg_arr)
  uint32_t aux_slots;
};

// Validates everything (22P03 material on failure, kInvalidFormat, saying
// what): family, serial version, lgK, mode and type, flags, every length,
// coupon values and duplicates, HLL_4 nibbles against the aux entries,
// curMin and numAtCurMin against the registers. Never allocates.
Status parse(const uint8_t* bytes, size_t len, Parsed* out);

// HLL mode: the K register values (one byte each) into `regs`.
void read_registers(const Parsed& p, uint8_t* regs);

// LIST/SET: the 2^p.lg_arr slots (0 = empty). A LIST, and a compact SET,
// in the order of the bytes: a compact SET's coupons are in the order of
// the table that wrote them, whose slots the bytes do not record, so the
// array is not a probe table (in_table_order false). Writing it again gives
// the same bytes; adding to it needs the table the libraries rebuild when
// they read such bytes (dshll_update.h, adopt).
void read_table(const Parsed& p, uint32_t* slots);
inline bool in_table_order(const Parsed& p) { return p.mode == Mode::kSet && !p.compact; }

// --- the library's tables ---------------------------------------------------

// SET: the slot of `coupon` in a table of 2^lg_arr slots: >= 0 found there,
// else ~(the empty slot it goes to). The table is never full (4 * count <=
// 3 * size).
int32_t set_find(const uint32_t* slots, int lg_arr, uint32_t coupon);

// --- writing ----------------------------------------------------------------

// What to serialize. LIST/SET: `slots` (2^lg_arr, 0 = empty, in the
// library's order); HLL: `registers` (K bytes) and the estimator fields.
struct Model {
  int lg_k;
  TgtType type;
  Mode mode;
  int lg_arr;
  uint32_t count;
  const uint32_t* slots;
  const uint8_t* registers;
  double hip_accum, kxq0, kxq1;
  bool out_of_order;
  // LIST/SET: when set, the `count` coupons to write, little-endian and
  // already in the order to write them (a stored sketch's); `slots` unused.
  const uint8_t* coupon_bytes = nullptr;
};

// The compact form the C++ library writes (its serialize_compact), bytes.
size_t compact_size(const Model& m);
void write_compact(const Model& m, uint8_t* dst);

}  // namespace sketch::hll::dshll
