// DataSketches HLL bytes: parse and write (dshll_codec.h).
#include "core/hll/dshll_codec.h"

#include <cmath>
#include <cstring>

#include "core/common/bytes.h"

namespace sketch::hll::dshll {

namespace {

constexpr uint8_t kBigEndianFlag = 1;
constexpr uint8_t kReadOnlyFlag = 2;
constexpr uint8_t kEmptyFlag = 4;
constexpr uint8_t kCompactFlag = 8;
constexpr uint8_t kOutOfOrderFlag = 16;
constexpr uint8_t kFullSizeFlag = 32;
constexpr uint8_t kKnownFlags = kBigEndianFlag | kReadOnlyFlag | kEmptyFlag | kCompactFlag |
                                kOutOfOrderFlag | kFullSizeFlag;
constexpr uint32_t kAuxToken = 15;
constexpr uint32_t kMaxAuxEntries = 8192;
constexpr size_t kListPreambleBytes = 8;
constexpr size_t kSetPreambleBytes = 12;

// The aux table's initial size by lgK (the libraries' LG_AUX_ARR_INTS).
constexpr uint8_t kLgAuxArrInts[] = {0, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4,
                                     4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13};

Status bad(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid DataSketches HLL sketch: %s", what);
}

size_t register_bytes(TgtType type, int lg_k) {
  const size_t k = size_t{1} << lg_k;
  switch (type) {
    case TgtType::kHll4: return k / 2;
    case TgtType::kHll6: return k * 3 / 4 + 1;
    case TgtType::kHll8: return k;
  }
  return 0;
}

uint32_t get6(const uint8_t* arr, uint32_t slot) {
  const uint32_t bit = slot * 6;
  const uint32_t two = uint32_t{arr[bit >> 3]} | uint32_t{arr[(bit >> 3) + 1]} << 8;
  return (two >> (bit & 7)) & 0x3F;
}

void put6(uint8_t* arr, uint32_t slot, uint32_t value) {
  const uint32_t bit = slot * 6;
  uint32_t two = uint32_t{arr[bit >> 3]} | uint32_t{arr[(bit >> 3) + 1]} << 8;
  two &= ~(0x3Fu << (bit & 7));
  two |= value << (bit & 7);
  arr[bit >> 3] = static_cast<uint8_t>(two);
  arr[(bit >> 3) + 1] = static_cast<uint8_t>(two >> 8);
}

uint32_t nibble(const uint8_t* arr, uint32_t slot) {
  return (slot & 1) ? arr[slot >> 1] >> 4 : arr[slot >> 1] & 0x0F;
}

bool valid_coupon(uint32_t c) {
  return c != 0 && coupon_value(c) >= 1 && coupon_value(c) <= kMaxRegisterValue;
}

// The aux table: slot `slot_no`'s entry in a table of 2^lg slots, as
// set_find but keyed by the register slot (entry & (K - 1)).
int32_t aux_find(const uint32_t* table, int lg, uint32_t k_mask, uint32_t slot_no) {
  const uint32_t mask = (1u << lg) - 1;
  uint32_t probe = slot_no & mask;
  const uint32_t start = probe;
  do {
    const uint32_t v = table[probe];
    if (v == 0) return ~static_cast<int32_t>(probe);
    if ((v & k_mask) == slot_no) return static_cast<int32_t>(probe);
    probe = (probe + ((slot_no >> lg) | 1)) & mask;
  } while (probe != start);
  return INT32_MIN;  // full: never, the table is kept at most 3/4 full
}

// HLL_4 registers: value - curMin per nibble, kAuxToken sending to the aux
// entries. Checks every nibble against the aux entries.
Status check_hll4(const Parsed& p) {
  const uint32_t k = 1u << p.lg_k;
  uint32_t tokens = 0;
  for (uint32_t s = 0; s < k; s++) tokens += nibble(p.registers, s) == kAuxToken;
  uint32_t entries = 0;
  for (uint32_t i = 0; i < p.aux_slots; i++) {
    const uint32_t e = load_le32(p.aux + 4 * i);
    if (e == 0) {
      if (p.compact) return bad("an empty aux entry in a compact sketch");
      continue;
    }
    const uint32_t slot = e & (k - 1);
    if ((e >> 26) > kMaxRegisterValue || (coupon_address(e) >> p.lg_k) != 0)
      return bad("an aux entry outside the registers");
    if (nibble(p.registers, slot) != kAuxToken) return bad("an aux entry for a register without the aux token");
    if (static_cast<int>(e >> 26) < p.cur_min + static_cast<int>(kAuxToken))
      return bad("an aux value that fits its nibble");
    for (uint32_t j = 0; j < i; j++)
      if ((load_le32(p.aux + 4 * j) & (k - 1)) == slot && load_le32(p.aux + 4 * j) != 0)
        return bad("two aux entries for one register");
    entries++;
  }
  if (entries != tokens || entries != p.aux_count)
    return bad("the aux entries do not match the registers that need one (inconsistent auxCount)");
  return Status::ok();
}

Status check_registers(const Parsed& p) {
  if (p.type == TgtType::kHll4) {
    Status st = check_hll4(p);
    if (!st.is_ok()) return st;
  } else if (p.aux_count != 0) {
    return bad("an aux count in an HLL_6 or HLL_8 sketch");
  }
  const uint32_t k = 1u << p.lg_k;
  // numAtCurMin counts the registers at curMin (0 in HLL_6 and HLL_8).
  // kxq0 and kxq1 are sums of powers of two that doubles hold exactly (at
  // most 53 bits apart for any lgK): the library's are these sums exactly,
  // and HIP updates of a sketch whose sums were forged could turn negative.
  int min_value = kMaxRegisterValue + 1;
  uint32_t at_cur_min = 0;
  double kxq0 = 0, kxq1 = 0;
  for (uint32_t s = 0; s < k; s++) {
    uint32_t v;
    if (p.type == TgtType::kHll8) {
      v = p.registers[s];
    } else if (p.type == TgtType::kHll6) {
      v = get6(p.registers, s);
    } else {
      v = nibble(p.registers, s) + static_cast<uint32_t>(p.cur_min);
      if (nibble(p.registers, s) == kAuxToken) {
        // The value is the aux entry's (check_hll4 matched them one to one).
        for (uint32_t i = 0; i < p.aux_slots; i++) {
          const uint32_t e = load_le32(p.aux + 4 * i);
          if (e != 0 && (e & (k - 1)) == s) v = e >> 26;
        }
      }
    }
    if (v > kMaxRegisterValue) return bad("a register value above 63");
    if (v < 32) kxq0 += std::ldexp(1.0, -static_cast<int>(v));
    else kxq1 += std::ldexp(1.0, -static_cast<int>(v));
    if (static_cast<int>(v) < min_value) min_value = static_cast<int>(v);
    at_cur_min += static_cast<int>(v) == p.cur_min;
  }
  if (p.type == TgtType::kHll4 && min_value != p.cur_min)
    return bad("curMin is not the smallest register value");
  if (p.num_at_cur_min != at_cur_min)
    return bad("numAtCurMin does not count the registers at curMin");
  if (p.kxq0 != kxq0 || p.kxq1 != kxq1) return bad("kxq0 or kxq1 does not match the registers");
  if (p.type == TgtType::kHll6 && (k * 6) % 8 == 0 && p.registers[k * 3 / 4] != 0)
    return bad("padding after the HLL_6 registers is not zero");
  return Status::ok();
}

Status check_coupons(const Parsed& p) {
  const uint32_t slots = p.compact ? p.count : (1u << p.lg_arr);
  uint32_t held = 0;
  for (uint32_t i = 0; i < slots; i++) {
    const uint32_t c = load_le32(p.coupons + 4 * i);
    if (c == 0) {
      if (p.compact || p.mode == Mode::kList) {
        if (p.compact) return bad("an empty coupon in a compact sketch");
        continue;
      }
      continue;
    }
    if (!valid_coupon(c)) return bad("a coupon with a value outside 1..63");
    for (uint32_t j = 0; j < i; j++)
      if (load_le32(p.coupons + 4 * j) == c) return bad("a coupon held twice");
    held++;
  }
  if (held != p.count) return bad("the coupon count does not match the coupons held");
  if (p.mode == Mode::kList && !p.compact) {
    // A LIST fills its array from the front.
    for (uint32_t i = 0; i < slots; i++)
      if ((load_le32(p.coupons + 4 * i) == 0) != (i >= p.count))
        return bad("a LIST with a gap in its array");
  }
  if (p.mode == Mode::kSet && !p.compact) {
    // Each coupon must be where the library's probe finds it.
    for (uint32_t i = 0; i < slots; i++) {
      const uint32_t c = load_le32(p.coupons + 4 * i);
      if (c == 0) continue;
      const uint32_t mask = slots - 1;
      uint32_t probe = c & mask;
      uint32_t steps = 0;
      while (probe != i) {
        if (load_le32(p.coupons + 4 * probe) == 0 || ++steps > slots)
          return bad("a SET coupon outside its probe sequence");
        probe = (probe + ((coupon_address(c) >> p.lg_arr) | 1)) & mask;
      }
    }
  }
  return Status::ok();
}

}  // namespace

const char* tgt_type_name(TgtType t) {
  switch (t) {
    case TgtType::kHll4: return "HLL_4";
    case TgtType::kHll6: return "HLL_6";
    case TgtType::kHll8: return "HLL_8";
  }
  return "unknown";
}

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::kList: return "LIST";
    case Mode::kSet: return "SET";
    case Mode::kHll: return "HLL";
  }
  return "unknown";
}

Status parse(const uint8_t* b, size_t len, Parsed* out) {
  if (len < kListPreambleBytes) return bad("shorter than its 8-byte preamble");
  if (b[2] != kFamilyId)
    return Status::error(StatusCode::kInvalidFormat,
                         "not a DataSketches HLL sketch: family id %u, HLL is 7", b[2]);
  if (b[1] != kSerialVersion)
    return Status::error(StatusCode::kInvalidFormat,
                         "DataSketches HLL serial version %u is not supported (only 1)", b[1]);
  Parsed p{};
  p.lg_k = b[3];
  if (p.lg_k < kMinLgK || p.lg_k > kMaxLgK)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid DataSketches HLL sketch: lgK %d outside %d..%d", p.lg_k,
                         kMinLgK, kMaxLgK);
  const uint8_t flags = b[5];
  if (flags & ~kKnownFlags) return bad("unknown flag bits");
  if (flags & kBigEndianFlag) return bad("big-endian sketches are not supported");
  p.compact = (flags & kCompactFlag) != 0;
  p.empty = (flags & kEmptyFlag) != 0;
  p.out_of_order = (flags & kOutOfOrderFlag) != 0;
  if ((b[7] & 3) == 3 || ((b[7] >> 2) & 3) == 3 || (b[7] >> 4) != 0)
    return bad("an unknown mode or target type");
  p.mode = static_cast<Mode>(b[7] & 3);
  p.type = static_cast<TgtType>((b[7] >> 2) & 3);
  p.lg_arr = b[4];
  const int pre_ints = b[0];
  const uint32_t k = 1u << p.lg_k;
  switch (p.mode) {
    case Mode::kList: {
      if (pre_ints != 2) return bad("a LIST preamble of other than 2 ints");
      if (p.lg_arr != kListLgArr) return bad("a LIST array of other than 8 slots");
      p.count = b[6];
      p.coupons = b + kListPreambleBytes;
      const size_t want = kListPreambleBytes + 4 * size_t{p.compact ? p.count : 8u};
      if (p.count >= 8) return bad("a LIST of 8 or more coupons");
      if (p.empty && p.count != 0) return bad("the empty flag on a sketch with coupons");
      // An empty sketch is its preamble alone, compact or not.
      if (!(p.empty && len == kListPreambleBytes) && len != want)
        return bad("its length does not match the LIST's coupon count");
      if (p.empty) return (*out = p), Status::ok();
      break;
    }
    case Mode::kSet: {
      if (pre_ints != 3) return bad("a SET preamble of other than 3 ints");
      if (len < kSetPreambleBytes) return bad("truncated in the SET preamble");
      if (p.lg_arr < kInitialSetLgArr || p.lg_arr > max_set_lg_arr(p.lg_k) ||
          list_promotes_to_hll(p.lg_k))
        return bad("a SET table size outside the library's range for its lgK");
      p.count = load_le32(b + 8);
      if (uint64_t{p.count} * 4 > uint64_t{3} << p.lg_arr)
        return bad("more SET coupons than its table holds");
      p.coupons = b + kSetPreambleBytes;
      if (len != kSetPreambleBytes + 4 * size_t{p.compact ? p.count : (1u << p.lg_arr)})
        return bad("its length does not match the SET's coupon count and table size");
      if (p.empty) return bad("the empty flag on a SET");
      break;
    }
    case Mode::kHll: {
      if (pre_ints != 10) return bad("an HLL preamble of other than 10 ints");
      if (len < kHllPreambleBytes) return bad("truncated in the HLL preamble");
      if (p.empty) return bad("the empty flag on an HLL-mode sketch");
      p.cur_min = b[6];
      std::memcpy(&p.hip_accum, b + 8, 8);
      std::memcpy(&p.kxq0, b + 16, 8);
      std::memcpy(&p.kxq1, b + 24, 8);
      if (!host_is_little_endian()) return bad("this server is big-endian");
      p.num_at_cur_min = load_le32(b + 32);
      p.aux_count = load_le32(b + 36);
      if (!(p.hip_accum >= 0) || !(p.kxq0 >= 0) || !(p.kxq1 >= 0) ||
          p.hip_accum > 1e300 || p.kxq0 > k || p.kxq1 > k)
        return bad("an HIP estimate or kxq outside its range");
      if (p.type != TgtType::kHll4 && p.cur_min != 0) return bad("a curMin in an HLL_6 or HLL_8 sketch");
      if (p.cur_min > kMaxRegisterValue) return bad("curMin above 63");
      p.registers = b + kHllPreambleBytes;
      const size_t regs = register_bytes(p.type, p.lg_k);
      // The checks compare aux entries pairwise: a bound keeps them fast.
      // The libraries hold far fewer (values 15 above the smallest register
      // are rare: about K / 2^11 at any n).
      if (p.aux_count > kMaxAuxEntries) return bad("more than 8192 aux entries");
      size_t want = kHllPreambleBytes + regs;
      if (p.type == TgtType::kHll4) {
        if (p.compact) {
          p.aux_slots = p.aux_count;
        } else if (len != want || p.aux_count != 0) {
          if (p.lg_arr < 2 || p.lg_arr > 14 || p.lg_arr > p.lg_k)
            return bad("an aux table size outside 4..min(K, 16384)");
          p.aux_slots = 1u << p.lg_arr;
        }
        want += 4 * size_t{p.aux_slots};
        p.aux = b + kHllPreambleBytes + regs;
      }
      if (len != want) return bad("its length does not match lgK, the target type and auxCount");
      Status st = check_registers(p);
      if (!st.is_ok()) return st;
      *out = p;
      return Status::ok();
    }
  }
  Status st = check_coupons(p);
  if (!st.is_ok()) return st;
  *out = p;
  return Status::ok();
}

void read_registers(const Parsed& p, uint8_t* regs) {
  const uint32_t k = 1u << p.lg_k;
  for (uint32_t s = 0; s < k; s++) {
    if (p.type == TgtType::kHll8) regs[s] = p.registers[s];
    else if (p.type == TgtType::kHll6) regs[s] = static_cast<uint8_t>(get6(p.registers, s));
    else regs[s] = static_cast<uint8_t>(nibble(p.registers, s) + p.cur_min);
  }
  if (p.type != TgtType::kHll4) return;
  for (uint32_t i = 0; i < p.aux_slots; i++) {
    const uint32_t e = load_le32(p.aux + 4 * i);
    if (e != 0) regs[e & (k - 1)] = static_cast<uint8_t>(e >> 26);
  }
}

int32_t set_find(const uint32_t* slots, int lg_arr, uint32_t coupon) {
  const uint32_t mask = (1u << lg_arr) - 1;
  uint32_t probe = coupon & mask;
  const uint32_t start = probe;
  do {
    const uint32_t c = slots[probe];
    if (c == 0) return ~static_cast<int32_t>(probe);
    if (c == coupon) return static_cast<int32_t>(probe);
    probe = (probe + ((coupon_address(coupon) >> lg_arr) | 1)) & mask;
  } while (probe != start);
  return INT32_MIN;
}

void read_table(const Parsed& p, uint32_t* slots) {
  const uint32_t size = 1u << p.lg_arr;
  std::memset(slots, 0, size_t{size} * 4);
  if (p.empty) return;
  const uint32_t held = p.compact ? p.count : size;
  uint32_t listed = 0;
  for (uint32_t i = 0; i < held; i++) {
    const uint32_t c = load_le32(p.coupons + 4 * i);
    if (c == 0) continue;
    if (p.mode == Mode::kList || p.compact) {
      slots[listed++] = c;
    } else {
      slots[i] = c;
    }
  }
}

size_t compact_size(const Model& m) {
  switch (m.mode) {
    case Mode::kList: return kListPreambleBytes + 4 * size_t{m.count};
    case Mode::kSet: return kSetPreambleBytes + 4 * size_t{m.count};
    case Mode::kHll: break;
  }
  size_t size = kHllPreambleBytes + register_bytes(m.type, m.lg_k);
  if (m.type == TgtType::kHll4) {
    const uint32_t k = 1u << m.lg_k;
    int cur_min = kMaxRegisterValue;
    for (uint32_t s = 0; s < k; s++) cur_min = m.registers[s] < cur_min ? m.registers[s] : cur_min;
    for (uint32_t s = 0; s < k; s++) size += 4 * (m.registers[s] - cur_min >= static_cast<int>(kAuxToken));
  }
  return size;
}

void write_compact(const Model& m, uint8_t* dst) {
  const uint32_t k = 1u << m.lg_k;
  const bool empty = m.mode == Mode::kList && m.count == 0;
  dst[1] = kSerialVersion;
  dst[2] = kFamilyId;
  dst[3] = static_cast<uint8_t>(m.lg_k);
  dst[5] = static_cast<uint8_t>(kCompactFlag | (empty ? kEmptyFlag : 0) |
                                (m.out_of_order ? kOutOfOrderFlag : 0));
  dst[7] = static_cast<uint8_t>(static_cast<uint8_t>(m.mode) | static_cast<uint8_t>(m.type) << 2);
  if (m.mode != Mode::kHll) {
    const bool list = m.mode == Mode::kList;
    dst[0] = list ? 2 : 3;
    dst[4] = static_cast<uint8_t>(m.lg_arr);
    dst[6] = list ? static_cast<uint8_t>(m.count) : 0;
    uint8_t* out = dst + (list ? kListPreambleBytes : kSetPreambleBytes);
    if (!list) store_le32(dst + 8, m.count);
    if (m.coupon_bytes != nullptr) {
      std::memcpy(out, m.coupon_bytes, 4 * size_t{m.count});
      return;
    }
    for (uint32_t i = 0; i < (1u << m.lg_arr); i++)
      if (m.slots[i] != 0) store_le32(out, m.slots[i]), out += 4;
    return;
  }
  dst[0] = 10;
  std::memcpy(dst + 8, &m.hip_accum, 8);
  std::memcpy(dst + 16, &m.kxq0, 8);
  std::memcpy(dst + 24, &m.kxq1, 8);
  uint8_t* regs = dst + kHllPreambleBytes;
  const size_t reg_bytes = register_bytes(m.type, m.lg_k);
  std::memset(regs, 0, reg_bytes);
  int cur_min = 0;
  if (m.type == TgtType::kHll4) {
    cur_min = kMaxRegisterValue;
    for (uint32_t s = 0; s < k; s++) cur_min = m.registers[s] < cur_min ? m.registers[s] : cur_min;
  }
  uint32_t at_min = 0;
  for (uint32_t s = 0; s < k; s++) at_min += m.registers[s] == cur_min;
  uint32_t aux_count = 0;
  for (uint32_t s = 0; s < k; s++) {
    const uint32_t v = m.registers[s];
    if (m.type == TgtType::kHll8) {
      regs[s] = static_cast<uint8_t>(v);
    } else if (m.type == TgtType::kHll6) {
      put6(regs, s, v);
    } else {
      uint32_t n = v - static_cast<uint32_t>(cur_min);
      if (n >= kAuxToken) n = kAuxToken, aux_count++;
      regs[s >> 1] = static_cast<uint8_t>(regs[s >> 1] | ((s & 1) ? n << 4 : n));
    }
  }
  dst[4] = 0;
  dst[6] = static_cast<uint8_t>(cur_min);
  store_le32(dst + 32, at_min);
  store_le32(dst + 36, aux_count);
  if (aux_count == 0) return;
  // The aux entries in the order of the library's aux table: the entries
  // inserted by slot (as the library rebuilds it when curMin rises) into
  // the smallest table of at least its initial size that holds them at 3/4.
  int lg = kLgAuxArrInts[m.lg_k];
  while (uint64_t{aux_count} * 4 > uint64_t{3} << lg) lg++;
  dst[4] = static_cast<uint8_t>(lg);
  uint8_t* out = regs + reg_bytes;
  // lgK 21's initial table is 2^13 slots: tables up to that size are built
  // on the stack; a larger one (lgK 20-21 with thousands of exceptions,
  // where HLL_4 is rarely chosen) is written in slot order instead.
  uint32_t table[1u << 13];
  if (lg <= 13) {
    std::memset(table, 0, sizeof(uint32_t) << lg);
    for (uint32_t s = 0; s < k; s++) {
      const uint32_t v = m.registers[s];
      if (v - static_cast<uint32_t>(cur_min) < kAuxToken) continue;
      table[~aux_find(table, lg, k - 1, s)] = v << 26 | s;
    }
    for (uint32_t i = 0; i < (1u << lg); i++)
      if (table[i] != 0) store_le32(out, table[i]), out += 4;
    return;
  }
  for (uint32_t s = 0; s < k; s++) {
    const uint32_t v = m.registers[s];
    if (v - static_cast<uint32_t>(cur_min) >= kAuxToken) store_le32(out, v << 26 | s), out += 4;
  }
}

}  // namespace sketch::hll::dshll
