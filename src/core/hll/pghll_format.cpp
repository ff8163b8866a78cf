// postgresql-hll's storage format v1: parameters, validation of the peer's
// bytes, and the register rule (pghll.h).
#include <cstdio>

#include "core/hll/pghll.h"
#include "core/hll/pghll_bits.h"

namespace sketch::hll::pghll {

using detail::get_bits;
using detail::load_be64;

const char* peer_type_name(PeerType type) {
  switch (type) {
    case PeerType::kUndefined: return "undefined";
    case PeerType::kEmpty: return "empty";
    case PeerType::kExplicit: return "explicit";
    case PeerType::kSparse: return "sparse";
    case PeerType::kFull: return "full";
  }
  return "unknown";
}

uint8_t Params::parameter_byte() const {
  return static_cast<uint8_t>((regwidth - 1) << 5 | log2m);
}

uint8_t Params::cutoff_byte() const {
  return static_cast<uint8_t>((sparse ? 0x40 : 0) | cutoff);
}

int64_t Params::expthresh() const {
  if (cutoff == kAutoCutoff) return -1;
  if (cutoff == 0) return 0;
  return int64_t{1} << (cutoff - 1);
}

uint32_t Params::explicit_limit() const {
  if (cutoff != kAutoCutoff) return static_cast<uint32_t>(expthresh());
  const size_t full_bytes = (static_cast<size_t>(regwidth) << log2m) / 8;
  const size_t limit = full_bytes / 8;
  return static_cast<uint32_t>(limit < 16384 ? limit : 16384);
}

bool same_params(const Params& a, const Params& b) {
  return a.seed == b.seed && a.log2m == b.log2m && a.regwidth == b.regwidth &&
         a.cutoff == b.cutoff && a.sparse == b.sparse;
}

Status make_params(int log2m, int regwidth, int64_t expthresh, int sparseon, int32_t seed,
                   Params* out) {
  if (log2m < kMinLog2m || log2m > kMaxLog2m)
    return Status::error(StatusCode::kInvalidParameter,
                         "postgresql-hll log2m %d is out of range %d..%d", log2m, kMinLog2m,
                         kMaxLog2m);
  if (regwidth < kMinRegwidth || regwidth > 7)
    return Status::error(StatusCode::kInvalidParameter,
                         "postgresql-hll regwidth %d is out of range %d..7", regwidth,
                         kMinRegwidth);
  int cutoff;
  if (expthresh == -1) {
    cutoff = kAutoCutoff;
  } else if (expthresh == 0) {
    cutoff = 0;
  } else if (expthresh > 0 && expthresh <= (int64_t{1} << (kMaxCutoffCode - 1)) &&
             (expthresh & (expthresh - 1)) == 0) {
    cutoff = 1 + __builtin_ctzll(static_cast<uint64_t>(expthresh));
  } else {
    return Status::error(StatusCode::kInvalidParameter,
                         "postgresql-hll expthresh %lld is not -1 (auto), 0 or a power of two "
                         "up to %lld", static_cast<long long>(expthresh),
                         static_cast<long long>(int64_t{1} << (kMaxCutoffCode - 1)));
  }
  if (sparseon != 0 && sparseon != 1)
    return Status::error(StatusCode::kInvalidParameter,
                         "postgresql-hll sparseon %d is not 0 or 1", sparseon);
  *out = Params{seed, log2m, regwidth, cutoff, sparseon == 1};
  return Status::ok();
}

namespace {

Status invalid(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid postgresql-hll data: %s", what);
}

// The bits after the last word must be zero (the peer pads with zeros).
bool padding_is_zero(const uint8_t* data, size_t data_len, size_t used_bits) {
  const size_t total = data_len * 8;
  for (size_t b = used_bits; b < total; b++)
    if ((data[b >> 3] >> (7 - (b & 7))) & 1u) return false;
  return true;
}

Status check_explicit(const PeerView& v) {
  if (v.data_len % 8 != 0)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid postgresql-hll data: EXPLICIT data of %zu bytes is not a "
                         "whole number of 8-byte hashes", v.data_len);
  if (v.params.cutoff == 0)
    return invalid("EXPLICIT with an explicit cutoff of 0");
  const uint32_t limit = v.params.explicit_limit();
  if (v.data_len / 8 > limit)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid postgresql-hll data: EXPLICIT holds %zu hashes, above its "
                         "threshold %u", v.data_len / 8, limit);
  for (size_t i = 1; i < v.data_len / 8; i++)
    if (!detail::signed_less(load_be64(v.data + 8 * (i - 1)), load_be64(v.data + 8 * i)))
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid postgresql-hll data: EXPLICIT hashes not strictly "
                           "ascending at %zu", i);
  return Status::ok();
}

Status check_sparse(PeerView* v) {
  const int width = v->params.log2m + v->params.regwidth;
  const size_t words = v->data_len * 8 / static_cast<size_t>(width);
  const int max = v->params.register_max();
  const uint32_t mask = (uint32_t{1} << v->params.regwidth) - 1;
  size_t n = 0;
  for (size_t i = 0; i < words; i++) {
    const uint32_t word = get_bits(v->data, i * width, width);
    const uint32_t index = word >> v->params.regwidth;
    const int value = static_cast<int>(word & mask);
    if (value == 0) break;  // a zero word can only be padding: checked below
    if (value > max)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid postgresql-hll data: SPARSE register %u holds %d, above "
                           "%d", index, value, max);
    if (n > 0 && index <= (get_bits(v->data, (n - 1) * width, width) >> v->params.regwidth))
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid postgresql-hll data: SPARSE indices not strictly ascending "
                           "at word %zu", n);
    n++;
  }
  const size_t used = n * static_cast<size_t>(width);
  if (detail::bytes_for_bits(used) != v->data_len || !padding_is_zero(v->data, v->data_len, used))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid postgresql-hll data: SPARSE data of %zu bytes for %zu words "
                         "(or non-zero padding)", v->data_len, n);
  v->count = static_cast<uint32_t>(n);
  return Status::ok();
}

Status check_full(const PeerView& v) {
  const size_t m = size_t{1} << v.params.log2m;
  const int width = v.params.regwidth;
  const size_t bits = m * static_cast<size_t>(width);
  if (v.data_len != detail::bytes_for_bits(bits))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid postgresql-hll data: FULL log2m %d regwidth %d needs %zu "
                         "data bytes, got %zu", v.params.log2m, width,
                         detail::bytes_for_bits(bits), v.data_len);
  const int max = v.params.register_max();
  for (size_t i = 0; i < m; i++) {
    const int value = static_cast<int>(get_bits(v.data, i * width, width));
    if (value > max)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid postgresql-hll data: FULL register %zu holds %d, above %d",
                           i, value, max);
  }
  if (!padding_is_zero(v.data, v.data_len, bits)) return invalid("FULL padding is not zero");
  return Status::ok();
}

}  // namespace

Status parse_peer(const uint8_t* bytes, size_t len, int32_t seed, PeerView* out) {
  if (len < kPeerHeaderSize)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid postgresql-hll data: %zu bytes, the header alone needs 3",
                         len);
  if (bytes[0] >> 4 != 1)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid postgresql-hll data: schema version %u (only 1 exists)",
                         bytes[0] >> 4);
  const unsigned type = bytes[0] & 0x0F;
  if (type == 0)
    return Status::error(StatusCode::kInvalidParameter,
                         "postgresql-hll value is UNDEFINED (the result of an operation that "
                         "failed in postgresql-hll); it holds no set to import");
  if (type > 4)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid postgresql-hll data: unknown type %u", type);
  Params params{seed, bytes[1] & 0x1F, (bytes[1] >> 5) + 1, bytes[2] & 0x3F,
                (bytes[2] & 0x40) != 0};
  if (params.log2m < kMinLog2m || params.log2m > kMaxLog2m)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid postgresql-hll data: log2m %d outside %d..%d", params.log2m,
                         kMinLog2m, kMaxLog2m);
  if (bytes[2] & 0x80) return invalid("the cutoff byte's top bit is set");
  if (params.cutoff > kMaxCutoffCode && params.cutoff != kAutoCutoff)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid postgresql-hll data: explicit cutoff code %d (postgresql-hll "
                         "writes 0..%d or 63)", params.cutoff, kMaxCutoffCode);
  PeerView v{params, static_cast<PeerType>(type), bytes + kPeerHeaderSize,
             len - kPeerHeaderSize, 0};
  Status st;
  switch (v.type) {
    case PeerType::kEmpty:
      if (v.data_len != 0) return invalid("EMPTY with data bytes");
      break;
    case PeerType::kExplicit:
      st = check_explicit(v);
      v.count = static_cast<uint32_t>(v.data_len / 8);
      break;
    case PeerType::kSparse:
      st = check_sparse(&v);
      break;
    case PeerType::kFull:
      st = check_full(v);
      break;
    case PeerType::kUndefined:
      break;
  }
  if (!st.is_ok()) return st;
  *out = v;
  return Status::ok();
}

}  // namespace sketch::hll::pghll
