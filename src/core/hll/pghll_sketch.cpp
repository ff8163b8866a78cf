// Our two encodings of postgresql-hll's sketches (pghll.h): parsing, the
// working state's adds and growth, unions, the stored form (the bytes the
// peer writes) and the estimate.
#include <algorithm>
#include <cstring>

#include "core/common/bytes.h"
#include "core/common/element_kind.h"
#include "core/common/header.h"
#include "core/hll/hll_internal.h"
#include "core/hll/pghll.h"
#include "core/hll/pghll_bits.h"

namespace sketch::hll::pghll {

using detail::bytes_for_bits;
using detail::get_bits;
using detail::load_be64;
using detail::put_bits;
using detail::store_be64;

namespace {

// Offsets of the working form (after the common 8-byte header).
constexpr size_t kSeedOffset = kHeaderSize;
constexpr size_t kParameterOffset = kHeaderSize + 4;
constexpr size_t kCutoffOffset = kHeaderSize + 5;
constexpr size_t kPhaseOffset = kHeaderSize + 6;
constexpr size_t kCountOffset = kHeaderSize + 8;
constexpr size_t kCapacityOffset = kHeaderSize + 12;
constexpr size_t kPayloadOffset = kWorkingHeaderSize;
constexpr size_t kPeerOffset = kHeaderSize + kSeedSize;  // stored: the peer's bytes

enum Phase : uint8_t { kExplicitPhase = 0, kRegisterPhase = 1 };

const uint8_t* bytes_of(const View& v) { return v.body - kHeaderSize; }

Params params_from_bytes(int32_t seed, uint8_t parameter, uint8_t cutoff) {
  return Params{seed, parameter & 0x1F, (parameter >> 5) + 1, cutoff & 0x3F,
                (cutoff & 0x40) != 0};
}

bool valid_params(const Params& p) {
  return p.log2m >= kMinLog2m && p.log2m <= kMaxLog2m &&
         (p.cutoff <= kMaxCutoffCode || p.cutoff == kAutoCutoff);
}

size_t m_of(const Params& p) { return size_t{1} << p.log2m; }

// A stored view's peer bytes, parsed. parse() has validated them already.
PeerView peer_of(const View& v) {
  PeerView p{};
  const uint8_t* bytes = bytes_of(v);
  (void)parse_peer(bytes + kPeerOffset, v.size - kPeerOffset,
                   static_cast<int32_t>(load_le32(bytes + kSeedOffset)), &p);
  return p;
}

bool is_explicit_phase(const View& v) {
  if (v.encoding == Encoding::kPghllWorking) return bytes_of(v)[kPhaseOffset] == kExplicitPhase;
  const PeerType t = static_cast<PeerType>(bytes_of(v)[kPeerOffset] & 0x0F);
  return t == PeerType::kEmpty || t == PeerType::kExplicit;
}

// Every hash of an explicit-phase view.
template <class F>
void for_each_hash(const View& v, F&& f) {
  const uint8_t* bytes = bytes_of(v);
  if (v.encoding == Encoding::kPghllWorking) {
    for (uint32_t i = 0; i < v.count; i++) f(load_le64(bytes + kPayloadOffset + 8 * i));
    return;
  }
  const uint8_t* data = bytes + kPeerOffset + kPeerHeaderSize;
  for (uint32_t i = 0; i < v.count; i++) f(load_be64(data + 8 * i));
}

// Every non-zero register (index, value) of any view; an explicit phase
// gives the registers its hashes would set, as the peer promotes them.
template <class F>
void for_each_register(const View& v, F&& f) {
  const Params params = params_of(v);
  if (is_explicit_phase(v)) {
    for_each_hash(v, [&](uint64_t h) {
      const Register r = register_of(h, params);
      if (r.value > 0) f(r.index, r.value);
    });
    return;
  }
  const int max = params.register_max();
  if (v.encoding == Encoding::kPghllWorking) {
    const uint8_t* regs = bytes_of(v) + kPayloadOffset;
    const size_t m = m_of(params);
    // A working state is checked in O(1) only: clamp what a crafted one holds.
    for (size_t i = 0; i < m; i++)
      if (regs[i] != 0) f(static_cast<uint32_t>(i), regs[i] < max ? int{regs[i]} : max);
    return;
  }
  const PeerView p = peer_of(v);
  if (p.type == PeerType::kSparse) {
    const int width = params.log2m + params.regwidth;
    const uint32_t mask = (uint32_t{1} << params.regwidth) - 1;
    for (uint32_t i = 0; i < p.count; i++) {
      const uint32_t word = get_bits(p.data, size_t{i} * width, width);
      f(word >> params.regwidth, static_cast<int>(word & mask));
    }
  } else {
    const size_t m = m_of(params);
    for (size_t i = 0; i < m; i++) {
      const int value = static_cast<int>(get_bits(p.data, i * params.regwidth, params.regwidth));
      if (value != 0) f(static_cast<uint32_t>(i), value);
    }
  }
}

bool contains_hash(const View& v, uint64_t hash) {
  bool found = false;
  for_each_hash(v, [&](uint64_t h) { found = found || h == hash; });
  return found;
}

// The non-zero registers of a register-phase view.
uint32_t filled_registers(const View& v) {
  uint32_t n = 0;
  for_each_register(v, [&](uint32_t, int) { n++; });
  return n;
}

// What the peer writes for registers with `filled` non-zero ones: SPARSE
// while its words take fewer bits than the FULL registers (sparseon only).
PeerType register_type(const Params& p, uint32_t filled) {
  const size_t sparse_bits = size_t{filled} * static_cast<size_t>(p.log2m + p.regwidth);
  const size_t full_bits = m_of(p) * static_cast<size_t>(p.regwidth);
  return p.sparse && sparse_bits < full_bits ? PeerType::kSparse : PeerType::kFull;
}

void write_working_header(uint8_t* dst, const Params& p, Phase phase, uint32_t count,
                          uint32_t capacity, ElementKind kind) {
  write_header(dst, Header{SketchKind::kHll, kFormatVersion, kIdentity,
                           {static_cast<uint8_t>(p.log2m),
                            static_cast<uint8_t>(Encoding::kPghllWorking)}},
               kind);
  store_le32(dst + kSeedOffset, static_cast<uint32_t>(p.seed));
  dst[kParameterOffset] = p.parameter_byte();
  dst[kCutoffOffset] = p.cutoff_byte();
  dst[kPhaseOffset] = phase;
  dst[kPhaseOffset + 1] = 0;
  store_le32(dst + kCountOffset, count);
  store_le32(dst + kCapacityOffset, capacity);
}

// Registers of v raised into regs (m bytes).
void raise_from(const View& v, uint8_t* regs) {
  for_each_register(v, [&](uint32_t i, int value) {
    if (regs[i] < value) regs[i] = static_cast<uint8_t>(value);
  });
}

// Heap sort of n big-endian hashes in place by their signed value, through
// byte loads (the destination is a varlena's payload, not 8-byte aligned).
void sort_signed_be(uint8_t* p, size_t n) {
  auto less = [&](size_t i, size_t j) {
    return detail::signed_less(load_be64(p + 8 * i), load_be64(p + 8 * j));
  };
  auto swap = [&](size_t i, size_t j) {
    uint8_t t[8];
    std::memcpy(t, p + 8 * i, 8);
    std::memcpy(p + 8 * i, p + 8 * j, 8);
    std::memcpy(p + 8 * j, t, 8);
  };
  auto sift = [&](size_t root, size_t end) {
    while (2 * root + 1 < end) {
      size_t child = 2 * root + 1;
      if (child + 1 < end && less(child, child + 1)) child++;
      if (!less(root, child)) return;
      swap(root, child);
      root = child;
    }
  };
  for (size_t i = n / 2; i > 0; i--) sift(i - 1, n);
  for (size_t end = n; end > 1; end--) {
    swap(0, end - 1);
    sift(0, end - 1);
  }
}

Status mismatch(const Params& a, const Params& b) {
  return Status::error(StatusCode::kMismatch,
                       "cannot merge postgresql-hll sketches with different parameters: "
                       "(log2m %d, regwidth %d, expthresh %lld, sparseon %d, seed %d) and "
                       "(log2m %d, regwidth %d, expthresh %lld, sparseon %d, seed %d)",
                       a.log2m, a.regwidth, static_cast<long long>(a.expthresh()),
                       a.sparse ? 1 : 0, a.seed, b.log2m, b.regwidth,
                       static_cast<long long>(b.expthresh()), b.sparse ? 1 : 0, b.seed);
}

}  // namespace

bool peer_is_canonical(const PeerView& v) {
  switch (v.type) {
    case PeerType::kEmpty: return true;
    case PeerType::kExplicit: return v.count > 0;
    case PeerType::kSparse: return register_type(v.params, v.count) == PeerType::kSparse;
    case PeerType::kFull: {
      uint32_t filled = 0;
      const size_t m = m_of(v.params);
      for (size_t i = 0; i < m; i++)
        filled += get_bits(v.data, i * v.params.regwidth, v.params.regwidth) != 0;
      return register_type(v.params, filled) == PeerType::kFull;
    }
    case PeerType::kUndefined: return false;
  }
  return false;
}

Params params_of(const View& v) {
  const uint8_t* bytes = bytes_of(v);
  const auto seed = static_cast<int32_t>(load_le32(bytes + kSeedOffset));
  if (v.encoding == Encoding::kPghllWorking)
    return params_from_bytes(seed, bytes[kParameterOffset], bytes[kCutoffOffset]);
  return params_from_bytes(seed, bytes[kPeerOffset + 1], bytes[kPeerOffset + 2]);
}

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  // hll::parse checked magic, kind and the identity byte.
  if (len < kHeaderSize + kSeedSize + kPeerHeaderSize)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: postgresql-hll sketch truncated (%zu bytes)", len);
  if (data[3] != kFormatVersion)
    return Status::error(StatusCode::kInvalidFormat,
                         "unsupported hll format version %u (this build reads 1)", data[3]);
  if (!valid_element_kind(element_kind_byte(data)))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: unknown element kind %u", element_kind_byte(data));
  const auto encoding = static_cast<Encoding>(data[6]);
  View v{data[5], encoding, 0, 0, data + kHeaderSize, len};
  if (encoding == Encoding::kPghll) {
    PeerView p;
    Status st = parse_peer(data + kPeerOffset, len - kPeerOffset,
                           static_cast<int32_t>(load_le32(data + kSeedOffset)), &p);
    if (!st.is_ok()) return st;
    if (data[5] != p.params.log2m)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid hll data: header log2m %u, postgresql-hll bytes %d",
                           data[5], p.params.log2m);
    if (validation == Validation::kCanonical && !peer_is_canonical(p))
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid hll data: postgresql-hll %s is not the representation "
                           "postgresql-hll writes for it", peer_type_name(p.type));
    v.count = p.type == PeerType::kExplicit ? p.count : 0;
    *out = v;
    return Status::ok();
  }
  if (encoding != Encoding::kPghllWorking)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: encoding %u with the postgresql-hll hash identity",
                         data[6]);
  if (validation == Validation::kCanonical)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: encoding 5 is an aggregate's working state, "
                         "which is never stored");
  if (!is_working(data, len))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: inconsistent postgresql-hll working state");
  v.count = load_le32(data + kCountOffset);
  v.capacity = load_le32(data + kCapacityOffset);
  *out = v;
  return Status::ok();
}

bool is_working(const uint8_t* data, size_t len) {
  if (len < kWorkingHeaderSize || data[0] != kMagic0 || data[1] != kMagic1 ||
      data[2] != static_cast<uint8_t>(SketchKind::kHll) || data[3] != kFormatVersion ||
      data[4] != kIdentity || data[6] != static_cast<uint8_t>(Encoding::kPghllWorking) ||
      !valid_element_kind(data[kElementKindOffset]) || data[kPhaseOffset + 1] != 0)
    return false;
  const Params p = params_from_bytes(0, data[kParameterOffset], data[kCutoffOffset]);
  if (!valid_params(p) || data[5] != p.log2m || (data[kCutoffOffset] & 0x80)) return false;
  const uint32_t count = load_le32(data + kCountOffset);
  const uint32_t capacity = load_le32(data + kCapacityOffset);
  if (data[kPhaseOffset] == kRegisterPhase)
    return capacity == 0 && count == 0 && len == kPayloadOffset + m_of(p);
  if (data[kPhaseOffset] != kExplicitPhase) return false;
  return capacity <= p.explicit_limit() && count <= capacity &&
         len == kPayloadOffset + size_t{8} * capacity;
}

const uint8_t* peer_bytes(const View& v, size_t* len) {
  *len = v.size - kPeerOffset;
  return bytes_of(v) + kPeerOffset;
}

size_t working_size_of(const PeerView& p) {
  if (p.type == PeerType::kEmpty || p.type == PeerType::kExplicit)
    return kPayloadOffset + size_t{8} * p.count;
  return kPayloadOffset + m_of(p.params);
}

void write_working_of(const PeerView& p, ElementKind kind, uint8_t* dst) {
  if (p.type == PeerType::kEmpty || p.type == PeerType::kExplicit) {
    write_working_header(dst, p.params, kExplicitPhase, p.count, p.count, kind);
    for (uint32_t i = 0; i < p.count; i++)
      store_le64(dst + kPayloadOffset + 8 * i, load_be64(p.data + 8 * i));
    return;
  }
  write_working_header(dst, p.params, kRegisterPhase, 0, 0, kind);
  uint8_t* regs = dst + kPayloadOffset;
  std::memset(regs, 0, m_of(p.params));
  // The registers of the stored form of p (seed and kind irrelevant here).
  const int width = p.params.log2m + p.params.regwidth;
  const uint32_t mask = (uint32_t{1} << p.params.regwidth) - 1;
  if (p.type == PeerType::kSparse) {
    for (uint32_t i = 0; i < p.count; i++) {
      const uint32_t word = get_bits(p.data, size_t{i} * width, width);
      regs[word >> p.params.regwidth] = static_cast<uint8_t>(word & mask);
    }
  } else {
    const size_t m = m_of(p.params);
    for (size_t i = 0; i < m; i++)
      regs[i] = static_cast<uint8_t>(get_bits(p.data, i * p.params.regwidth, p.params.regwidth));
  }
}

size_t empty_working_size() { return kPayloadOffset; }

void write_empty_working(const Params& params, uint8_t* dst) {
  write_working_header(dst, params, kExplicitPhase, 0, 0, ElementKind::kNone);
}

size_t working_size(const View& v) {
  if (v.encoding == Encoding::kPghllWorking) return v.size;
  return working_size_of(peer_of(v));
}

void write_working(const View& v, uint8_t* dst) {
  if (v.encoding == Encoding::kPghllWorking) {
    std::memcpy(dst, bytes_of(v), v.size);
    return;
  }
  write_working_of(peer_of(v), element_kind_of(bytes_of(v)), dst);
}

PeerType representation(const View& v) {
  if (is_explicit_phase(v)) return v.count == 0 ? PeerType::kEmpty : PeerType::kExplicit;
  return register_type(params_of(v), filled_registers(v));
}

uint32_t filled(const View& v) {
  return is_explicit_phase(v) ? v.count : filled_registers(v);
}

bool is_exact(const View& v) { return is_explicit_phase(v); }

size_t stored_size(const View& v) {
  if (v.encoding == Encoding::kPghll) return v.size;
  const Params p = params_of(v);
  size_t data;
  switch (representation(v)) {
    case PeerType::kEmpty: data = 0; break;
    case PeerType::kExplicit: data = size_t{8} * v.count; break;
    case PeerType::kSparse:
      data = bytes_for_bits(size_t{filled_registers(v)} * (p.log2m + p.regwidth));
      break;
    default: data = bytes_for_bits(m_of(p) * p.regwidth); break;
  }
  return kPeerOffset + kPeerHeaderSize + data;
}

void write_stored(const View& v, uint8_t* dst) {
  const uint8_t* src = bytes_of(v);
  if (v.encoding == Encoding::kPghll) {
    std::memcpy(dst, src, v.size);
    return;
  }
  const Params p = params_of(v);
  const PeerType type = representation(v);
  const size_t size = pghll::stored_size(v);
  write_header(dst, Header{SketchKind::kHll, kFormatVersion, kIdentity,
                           {static_cast<uint8_t>(p.log2m), static_cast<uint8_t>(Encoding::kPghll)}},
               element_kind_of(src));
  store_le32(dst + kSeedOffset, static_cast<uint32_t>(p.seed));
  uint8_t* peer = dst + kPeerOffset;
  peer[0] = static_cast<uint8_t>(0x10 | static_cast<uint8_t>(type));
  peer[1] = p.parameter_byte();
  peer[2] = p.cutoff_byte();
  uint8_t* data = peer + kPeerHeaderSize;
  std::memset(data, 0, size - kPeerOffset - kPeerHeaderSize);
  const uint8_t* regs = src + kPayloadOffset;
  const int max = p.register_max();
  switch (type) {
    case PeerType::kEmpty: break;
    case PeerType::kExplicit: {
      uint32_t n = 0;
      for_each_hash(v, [&](uint64_t h) { store_be64(data + 8 * n++, h); });
      sort_signed_be(data, n);
      break;
    }
    case PeerType::kSparse: {
      const int width = p.log2m + p.regwidth;
      size_t n = 0;
      const size_t m = m_of(p);
      for (size_t i = 0; i < m; i++) {
        if (regs[i] == 0) continue;
        const uint32_t value = regs[i] < max ? regs[i] : static_cast<uint32_t>(max);
        put_bits(data, n * width, width, static_cast<uint32_t>(i) << p.regwidth | value);
        n++;
      }
      break;
    }
    default: {
      const size_t m = m_of(p);
      for (size_t i = 0; i < m; i++) {
        const uint32_t value = regs[i] < max ? regs[i] : static_cast<uint32_t>(max);
        put_bits(data, i * p.regwidth, p.regwidth, value);
      }
      break;
    }
  }
}

AddOutcome add(uint8_t* state, uint64_t hash) {
  const Params p = params_from_bytes(0, state[kParameterOffset], state[kCutoffOffset]);
  uint8_t* payload = state + kPayloadOffset;
  if (state[kPhaseOffset] == kRegisterPhase) {
    const Register r = register_of(hash, p);
    if (payload[r.index] < r.value) payload[r.index] = static_cast<uint8_t>(r.value);
    return AddOutcome::kDone;
  }
  const uint32_t count = load_le32(state + kCountOffset);
  for (uint32_t i = 0; i < count; i++)
    if (load_le64(payload + 8 * i) == hash) return AddOutcome::kDone;
  if (count < load_le32(state + kCapacityOffset)) {
    store_le64(payload + 8 * count, hash);
    store_le32(state + kCountOffset, count + 1);
    return AddOutcome::kDone;
  }
  // Full: a larger list while the threshold allows, else the peer's
  // promotion to registers (it promotes when one more would pass it).
  return count < p.explicit_limit() ? AddOutcome::kNeedsGrowth : AddOutcome::kNeedsDense;
}

namespace {
uint32_t grown_capacity(const View& v, const Params& p) {
  const uint32_t doubled = v.capacity < 4 ? 8 : 2 * v.capacity;
  const uint32_t limit = p.explicit_limit();
  return doubled < limit ? doubled : limit;
}
}  // namespace

size_t growth_size(const View& v, AddOutcome outcome) {
  const Params p = params_of(v);
  if (outcome == AddOutcome::kNeedsGrowth) return kPayloadOffset + size_t{8} * grown_capacity(v, p);
  return kPayloadOffset + m_of(p);
}

void grow(const View& v, AddOutcome outcome, uint8_t* dst) {
  const Params p = params_of(v);
  const ElementKind kind = element_kind_of(bytes_of(v));
  if (outcome == AddOutcome::kNeedsGrowth) {
    const uint32_t capacity = grown_capacity(v, p);
    write_working_header(dst, p, kExplicitPhase, v.count, capacity, kind);
    std::memset(dst + kPayloadOffset, 0, size_t{8} * capacity);
    std::memcpy(dst + kPayloadOffset, bytes_of(v) + kPayloadOffset, size_t{8} * v.count);
    return;
  }
  write_working_header(dst, p, kRegisterPhase, 0, 0, kind);
  std::memset(dst + kPayloadOffset, 0, m_of(p));
  raise_from(v, dst + kPayloadOffset);
}

Status plan_merge(const View& a, const View& b, size_t* size, uint32_t* explicit_count) {
  const Params pa = params_of(a);
  const Params pb = params_of(b);
  if (!same_params(pa, pb)) return mismatch(pa, pb);
  if (is_explicit_phase(a) && is_explicit_phase(b)) {
    uint32_t n = a.count;
    for_each_hash(b, [&](uint64_t h) { n += !contains_hash(a, h); });
    if (n <= pa.explicit_limit()) {
      *size = kPayloadOffset + size_t{8} * n;
      *explicit_count = n;
      return Status::ok();
    }
  }
  *size = kPayloadOffset + m_of(pa);
  *explicit_count = kRegistersResult;
  return Status::ok();
}

void merge(const View& a, const View& b, uint8_t* dst, uint32_t explicit_count) {
  const Params p = params_of(a);
  const ElementKind kind = element_kind_of(bytes_of(a));
  if (explicit_count != kRegistersResult) {
    // The explicit union, sized by plan_merge at exactly its hashes.
    const uint32_t capacity = explicit_count;
    write_working_header(dst, p, kExplicitPhase, 0, capacity, kind);
    uint32_t n = 0;
    for_each_hash(a, [&](uint64_t h) { store_le64(dst + kPayloadOffset + 8 * n++, h); });
    for_each_hash(b, [&](uint64_t h) {
      if (n < capacity && !contains_hash(a, h)) store_le64(dst + kPayloadOffset + 8 * n++, h);
    });
    store_le32(dst + kCountOffset, n);
    return;
  }
  write_working_header(dst, p, kRegisterPhase, 0, 0, kind);
  std::memset(dst + kPayloadOffset, 0, m_of(p));
  raise_from(a, dst + kPayloadOffset);
  raise_from(b, dst + kPayloadOffset);
}

double estimate(const View& v) {
  if (is_explicit_phase(v)) return static_cast<double>(v.count);
  const Params p = params_of(v);
  const size_t m = m_of(p);
  uint32_t histogram[65] = {0};
  uint32_t nonzero = 0;
  for_each_register(v, [&](uint32_t, int value) {
    histogram[value]++;
    nonzero++;
  });
  histogram[0] = static_cast<uint32_t>(m - nonzero);
  // Registers cap at register_max: when regwidth is what caps them, the top
  // value means "at least that", Ertl's saturated register (q + 1).
  const int max = p.register_max();
  const int q = max < 64 - p.log2m ? max - 1 : 64 - p.log2m;
  return hll::detail::ertl_estimate(histogram, m, q);
}

}  // namespace sketch::hll::pghll
