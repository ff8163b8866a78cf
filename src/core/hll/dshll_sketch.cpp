// Hash identity 3 inside hll: our encodings of DataSketches HLL sketches
// (dshll.h).
#include <cmath>
#include <cstring>

#include "core/common/bytes.h"
#include "core/hll/dshll.h"
#include "core/hll/dshll_update.h"
#include "core/hll/hll_internal.h"

namespace sketch::hll::dshll {

namespace {

constexpr size_t kTypeOffset = kHeaderSize;
constexpr size_t kModeOffset = kHeaderSize + 1;
constexpr size_t kFlagsOffset = kHeaderSize + 2;
constexpr size_t kLgArrOffset = kHeaderSize + 3;
constexpr size_t kCountOffset = kHeaderSize + 4;
constexpr size_t kHipOffset = kHeaderSize + 8;
constexpr size_t kKxq0Offset = kHeaderSize + 16;
constexpr size_t kKxq1Offset = kHeaderSize + 24;
constexpr size_t kDataOffset = kHeaderSize + kFixedSize;

Status bad(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid hll data (DataSketches): %s", what);
}

double load_double(const uint8_t* p) {
  double d;
  const uint64_t bits = load_le64(p);
  std::memcpy(&d, &bits, 8);
  return d;
}

void store_double(uint8_t* p, double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  store_le64(p, bits);
}

const uint8_t* bytes_of(const View& v) { return v.body - kHeaderSize; }
uint32_t k_of(int lg_k) { return 1u << lg_k; }

size_t stored_data_size(int lg_k, Mode mode, uint32_t count) {
  return mode == Mode::kHll ? k_of(lg_k) : 4 * size_t{count};
}

void write_fixed(uint8_t* dst, int lg_k, Encoding encoding, ElementKind kind, TgtType type,
                 Mode mode, uint8_t flags, int lg_arr, uint32_t count, double hip, double kxq0,
                 double kxq1) {
  write_header(dst, Header{SketchKind::kHll, kFormatVersion, kIdentity,
                           {static_cast<uint8_t>(lg_k), static_cast<uint8_t>(encoding)}},
               kind);
  dst[kTypeOffset] = static_cast<uint8_t>(type);
  dst[kModeOffset] = static_cast<uint8_t>(mode);
  dst[kFlagsOffset] = flags;
  dst[kLgArrOffset] = static_cast<uint8_t>(lg_arr);
  store_le32(dst + kCountOffset, count);
  store_double(dst + kHipOffset, hip);
  store_double(dst + kKxq0Offset, kxq0);
  store_double(dst + kKxq1Offset, kxq1);
}

// A Builder over a working state's arrays and fixed fields.
Builder builder_of(uint8_t* state) {
  const int lg_k = state[5];
  const size_t slots = builder_slots(lg_k);
  uint32_t* table = reinterpret_cast<uint32_t*>(state + kDataOffset);
  return Builder{lg_k,
                 static_cast<Mode>(state[kModeOffset]),
                 state[kLgArrOffset],
                 load_le32(state + kCountOffset),
                 table,
                 table + slots,
                 state + kDataOffset + 8 * slots,
                 load_double(state + kHipOffset),
                 load_double(state + kKxq0Offset),
                 load_double(state + kKxq1Offset)};
}

void store_builder(const Builder& b, uint8_t* state) {
  state[kModeOffset] = static_cast<uint8_t>(b.mode);
  state[kLgArrOffset] = static_cast<uint8_t>(b.lg_arr);
  store_le32(state + kCountOffset, b.count);
  store_double(state + kHipOffset, b.hip_accum);
  store_double(state + kKxq0Offset, b.kxq0);
  store_double(state + kKxq1Offset, b.kxq1);
}

// The coupons of a stored LIST/SET (little-endian, in write order) or the
// slots of a working table, one by one.
template <class F>
void for_each_coupon(const View& v, F&& f) {
  const uint8_t* s = bytes_of(v);
  if (static_cast<Mode>(s[kModeOffset]) == Mode::kHll) return;
  if (v.encoding == Encoding::kDatasketches) {
    const uint32_t count = load_le32(s + kCountOffset);
    for (uint32_t i = 0; i < count; i++) f(load_le32(s + kDataOffset + 4 * i));
    return;
  }
  const uint32_t slots = 1u << s[kLgArrOffset];
  for (uint32_t i = 0; i < slots; i++) {
    uint32_t c;
    std::memcpy(&c, s + kDataOffset + 4 * i, 4);
    if (c != 0) f(c);
  }
}

const uint8_t* registers_of(const View& v) {
  const uint8_t* s = bytes_of(v);
  if (v.encoding == Encoding::kDatasketches) return s + kDataOffset;
  return s + kDataOffset + 8 * builder_slots(v.p);
}

// Registers of `v` (HLL mode) folded into `regs` of lg_k <= v.p by max.
void fold_registers_into(const View& v, int lg_k, uint8_t* regs) {
  const uint8_t* src = registers_of(v);
  const uint32_t mask = k_of(lg_k) - 1;
  for (uint32_t s = 0; s < k_of(v.p); s++)
    if (src[s] > regs[s & mask]) regs[s & mask] = src[s];
}

// kxq0 and kxq1 recomputed from the registers (after a merge).
void recompute_kxq(Builder* b) {
  double kxq0 = 0, kxq1 = 0;
  for (uint32_t s = 0; s < k_of(b->lg_k); s++) {
    const int v = b->registers[s];
    if (v < 32) kxq0 += std::ldexp(1.0, -v);
    else kxq1 += std::ldexp(1.0, -v);
  }
  b->kxq0 = kxq0;
  b->kxq1 = kxq1;
}

}  // namespace

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  if (len < kDataOffset) return bad("shorter than its fixed fields");
  if (data[3] != kFormatVersion) return bad("unknown format version");
  const int lg_k = data[5];
  if (lg_k < kMinLgK || lg_k > kMaxLgK) return bad("lgK outside 4..21");
  const auto encoding = static_cast<Encoding>(data[6]);
  if (encoding != Encoding::kDatasketches && encoding != Encoding::kDatasketchesWorking)
    return bad("an encoding of another hash identity");
  if (encoding == Encoding::kDatasketchesWorking && validation == Validation::kCanonical)
    return bad("an aggregate's working state, which is never stored");
  const uint8_t kind = element_kind_byte(data);
  if (!is_datasketches_kind(kind) && kind != static_cast<uint8_t>(ElementKind::kNone))
    return bad("an element kind of another hash identity");
  if (data[kTypeOffset] > 2 || data[kModeOffset] > 2 || (data[kFlagsOffset] & ~3) != 0)
    return bad("unknown target type, mode or flags");
  const Mode mode = static_cast<Mode>(data[kModeOffset]);
  const int lg_arr = data[kLgArrOffset];
  const uint32_t count = load_le32(data + kCountOffset);
  if (mode == Mode::kList && (lg_arr != kListLgArr || count >= 8)) return bad("a LIST of 8 or more");
  if (mode == Mode::kSet && (lg_arr < kInitialSetLgArr || lg_arr > max_set_lg_arr(lg_k) ||
                             uint64_t{count} * 4 > uint64_t{3} << lg_arr))
    return bad("a SET table size outside the library's range");
  if (mode == Mode::kHll && (lg_arr != 0 || count != 0)) return bad("an HLL with coupons");
  if (mode != Mode::kHll && (data[kFlagsOffset] & kHipFlag)) return bad("a HIP flag without registers");
  const size_t want = encoding == Encoding::kDatasketches
                          ? kDataOffset + stored_data_size(lg_k, mode, count)
                          : working_size_for(lg_k);
  if (len != want) return bad("its length does not match its mode and lgK");
  View v{lg_k, encoding, count, 0, data + kHeaderSize, len};
  if (validation == Validation::kCanonical) {
    if (mode == Mode::kHll) {
      const uint8_t* regs = registers_of(v);
      for (uint32_t s = 0; s < k_of(lg_k); s++)
        if (regs[s] > kMaxRegisterValue) return bad("a register above 63");
    } else {
      uint32_t seen = 0;
      bool valid = true;
      for_each_coupon(v, [&](uint32_t c) {
        valid = valid && coupon_value(c) >= 1 && coupon_value(c) <= kMaxRegisterValue;
        seen++;
      });
      for (uint32_t i = 0; valid && i < count; i++)
        for (uint32_t j = 0; j < i; j++)
          if (load_le32(data + kDataOffset + 4 * i) == load_le32(data + kDataOffset + 4 * j))
            valid = false;
      if (!valid || seen != count) return bad("an invalid or repeated coupon");
    }
  }
  *out = v;
  return Status::ok();
}

size_t stored_size_of(const Parsed& p) {
  return kDataOffset + stored_data_size(p.lg_k, p.mode, p.empty ? 0 : p.count);
}

void write_stored_of(const Parsed& p, uint8_t* dst) {
  const bool hip = p.mode == Mode::kHll && !p.out_of_order;
  const uint8_t flags = static_cast<uint8_t>((hip ? kHipFlag : 0) | (p.out_of_order ? kOutOfOrderFlag : 0));
  const uint32_t count = p.mode == Mode::kHll || p.empty ? 0 : p.count;
  write_fixed(dst, p.lg_k, Encoding::kDatasketches, ElementKind::kDatasketchesImported, p.type,
              p.mode, flags, p.mode == Mode::kHll ? 0 : p.lg_arr, count, p.hip_accum, p.kxq0,
              p.kxq1);
  uint8_t* data = dst + kDataOffset;
  if (p.mode == Mode::kHll) {
    read_registers(p, data);
    return;
  }
  // The coupons in the order the library writes them: an updatable SET's
  // non-empty slots, a LIST's or a compact SET's order.
  uint32_t n = 0;
  const uint32_t scan = p.compact ? count : (1u << p.lg_arr);
  for (uint32_t i = 0; i < scan && !p.empty; i++) {
    const uint32_t c = load_le32(p.coupons + 4 * i);
    if (c != 0) store_le32(data + 4 * n++, c);
  }
}

size_t working_size_for(int lg_k) { return kDataOffset + 8 * builder_slots(lg_k) + k_of(lg_k); }

void write_empty_working(int lg_k, TgtType type, uint8_t* dst) {
  std::memset(dst, 0, working_size_for(lg_k));
  write_fixed(dst, lg_k, Encoding::kDatasketchesWorking, ElementKind::kNone, type, Mode::kList,
              0, kListLgArr, 0, 0, 0, 0);
}

bool is_working(const uint8_t* data, size_t len) {
  return len >= kDataOffset && data[0] == kMagic0 && data[1] == kMagic1 &&
         data[2] == static_cast<uint8_t>(SketchKind::kHll) && data[3] == kFormatVersion &&
         data[4] == kIdentity && data[6] == static_cast<uint8_t>(Encoding::kDatasketchesWorking) &&
         data[5] >= kMinLgK && data[5] <= kMaxLgK && len == working_size_for(data[5]) &&
         data[kModeOffset] <= 2 &&
         (data[kModeOffset] != static_cast<uint8_t>(Mode::kList) || data[kLgArrOffset] == kListLgArr) &&
         (data[kModeOffset] != static_cast<uint8_t>(Mode::kSet) ||
          (data[kLgArrOffset] >= kInitialSetLgArr && data[kLgArrOffset] <= max_set_lg_arr(data[5]))) &&
         load_le32(data + kCountOffset) < (1u << 26);
}

size_t working_size(const View& v) { return working_size_for(v.p); }

void write_working(const View& v, uint8_t* dst) {
  const uint8_t* s = bytes_of(v);
  if (v.encoding == Encoding::kDatasketchesWorking) {
    std::memcpy(dst, s, v.size);
    return;
  }
  std::memset(dst, 0, working_size_for(v.p));
  std::memcpy(dst, s, kDataOffset);
  dst[6] = static_cast<uint8_t>(Encoding::kDatasketchesWorking);
  Builder b = builder_of(dst);
  if (b.mode == Mode::kHll) {
    std::memcpy(b.registers, s + kDataOffset, k_of(v.p));
    return;
  }
  // As the library reads a compact LIST or SET: the coupons re-inserted in
  // their order into a table of the same size.
  const uint32_t count = load_le32(s + kCountOffset);
  for (uint32_t i = 0; i < count; i++) {
    const uint32_t c = load_le32(s + kDataOffset + 4 * i);
    if (b.mode == Mode::kList) {
      b.slots[i] = c;
      continue;
    }
    const int32_t at = set_find(b.slots, b.lg_arr, c);
    if (at < 0 && at != INT32_MIN) b.slots[~at] = c;
  }
}

size_t stored_size(const View& v) {
  const uint8_t* s = bytes_of(v);
  return kDataOffset + stored_data_size(v.p, static_cast<Mode>(s[kModeOffset]), load_le32(s + kCountOffset));
}

void write_stored(const View& v, uint8_t* dst) {
  const uint8_t* s = bytes_of(v);
  if (v.encoding == Encoding::kDatasketches) {
    std::memcpy(dst, s, v.size);
    return;
  }
  std::memcpy(dst, s, kDataOffset);
  dst[6] = static_cast<uint8_t>(Encoding::kDatasketches);
  if (static_cast<Mode>(s[kModeOffset]) == Mode::kHll) {
    std::memcpy(dst + kDataOffset, registers_of(v), k_of(v.p));
    return;
  }
  uint32_t n = 0;
  for_each_coupon(v, [&](uint32_t c) { store_le32(dst + kDataOffset + 4 * n++, c); });
}

void add(uint8_t* state, uint32_t coupon) {
  Builder b = builder_of(state);
  add_coupon(&b, coupon);
  store_builder(b, state);
  // After an add the sketch answers with this project's estimator (dshll.h).
  state[kFlagsOffset] &= static_cast<uint8_t>(~kHipFlag);
}

Status plan_merge(const View& a, const View& b, bool* in_place, size_t* size) {
  const int lg_k = a.p < b.p ? a.p : b.p;
  *in_place = a.encoding == Encoding::kDatasketchesWorking && a.p == lg_k;
  *size = working_size_for(lg_k);
  return Status::ok();
}

void merge(uint8_t* a_buffer, const View& a, const View& b, bool in_place, uint8_t* dst) {
  const int lg_k = a.p < b.p ? a.p : b.p;
  uint8_t* out = in_place ? a_buffer : dst;
  if (!in_place) {
    // a, rebuilt at lg_k: its coupons re-added, or its registers folded.
    write_empty_working(lg_k, static_cast<TgtType>(bytes_of(a)[kTypeOffset]), out);
    out[kElementKindOffset] = bytes_of(a)[kElementKindOffset];
    Builder r = builder_of(out);
    if (static_cast<Mode>(bytes_of(a)[kModeOffset]) == Mode::kHll) {
      promote(&r);
      fold_registers_into(a, lg_k, r.registers);
      recompute_kxq(&r);
      r.hip_accum = load_double(bytes_of(a) + kHipOffset);
    } else {
      for_each_coupon(a, [&](uint32_t c) { add_coupon(&r, c); });
    }
    store_builder(r, out);
  }
  Builder r = builder_of(out);
  if (static_cast<Mode>(bytes_of(b)[kModeOffset]) == Mode::kHll) {
    if (r.mode != Mode::kHll) promote(&r);
    fold_registers_into(b, lg_k, r.registers);
    recompute_kxq(&r);
  } else {
    for_each_coupon(b, [&](uint32_t c) { add_coupon(&r, c); });
  }
  store_builder(r, out);
  // The library marks a union's HLL registers out of order: HIP no longer
  // describes them.
  out[kFlagsOffset] = static_cast<uint8_t>(r.mode == Mode::kHll ? kOutOfOrderFlag : 0);
}

TgtType tgt_type(const View& v) { return static_cast<TgtType>(bytes_of(v)[kTypeOffset]); }
Mode mode(const View& v) { return static_cast<Mode>(bytes_of(v)[kModeOffset]); }
bool answers_hip(const View& v) { return (bytes_of(v)[kFlagsOffset] & kHipFlag) != 0; }

uint32_t filled(const View& v) {
  if (mode(v) != Mode::kHll) return load_le32(bytes_of(v) + kCountOffset);
  const uint8_t* regs = registers_of(v);
  uint32_t n = 0;
  for (uint32_t s = 0; s < k_of(v.p); s++) n += regs[s] != 0;
  return n;
}

double estimate(const View& v) {
  if (answers_hip(v)) return load_double(bytes_of(v) + kHipOffset);
  if (mode(v) != Mode::kHll) {
    // Linear counting over the 2^26 coupon addresses.
    constexpr double kAddresses = 67108864.0;
    const double c = load_le32(bytes_of(v) + kCountOffset);
    return -kAddresses * std::log1p(-c / kAddresses);
  }
  // Ertl's estimator: values 1..62 measured, 63 saturated (q = 62).
  constexpr int q = kMaxRegisterValue - 1;
  uint32_t histogram[q + 2] = {};
  const uint8_t* regs = registers_of(v);
  // A forged state's register above 63 counts as saturated.
  for (uint32_t s = 0; s < k_of(v.p); s++) histogram[regs[s] > q + 1 ? q + 1 : regs[s]]++;
  return detail::ertl_estimate(histogram, k_of(v.p), q);
}

double standard_error(const View& v) {
  if (mode(v) != Mode::kHll) return 0.0;
  // HIP: 0.836 / sqrt(K); the register estimator: 1.04 / sqrt(K).
  return (answers_hip(v) ? 0.836 : 1.04) / std::sqrt(static_cast<double>(k_of(v.p)));
}

size_t export_size(const View& v, TgtType type) {
  const uint8_t* s = bytes_of(v);
  Model m{v.p, type, mode(v), s[kLgArrOffset], load_le32(s + kCountOffset), nullptr,
          registers_of(v), 0, 0, 0, false};
  return compact_size(m);
}

void write_export(const View& v, TgtType type, uint8_t* dst) {
  const uint8_t* s = bytes_of(v);
  Model m{v.p, type, mode(v), s[kLgArrOffset], load_le32(s + kCountOffset), nullptr,
          registers_of(v), load_double(s + kHipOffset), load_double(s + kKxq0Offset),
          load_double(s + kKxq1Offset), (s[kFlagsOffset] & kOutOfOrderFlag) != 0};
  m.coupon_bytes = s + kDataOffset;
  write_compact(m, dst);
}

}  // namespace sketch::hll::dshll
