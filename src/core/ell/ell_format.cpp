// Parsing, validation and the stored (canonical) form of ell sketches.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/common/element_kind.h"
#include "core/common/sort_le32.h"
#include "core/ell/ell.h"
#include "core/ell/ell_internal.h"

namespace sketch::ell {

using namespace detail;

const char* encoding_name(Encoding encoding) {
  switch (encoding) {
    case Encoding::kSparse:
    case Encoding::kSparseSet: return "sparse";
    case Encoding::kDense: return "dense";
  }
  return "unknown";
}

bool valid_precision(int p) { return p >= kMinPrecision && p <= kMaxPrecision; }

uint32_t set_capacity_for(uint32_t count) {
  uint32_t capacity = 8;
  while (uint64_t{count} * 4 > uint64_t{capacity} * 3) capacity *= 2;
  return capacity;
}

namespace detail {

double load_double(const uint8_t* p) {
  const uint64_t bits = load_le64(p);
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

void store_double(uint8_t* p, double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  store_le64(p, bits);
}

void write_ell_header(uint8_t* dst, int p, Encoding encoding, ElementKind kind, uint32_t flags) {
  write_header(dst, Header{SketchKind::kEll, kFormatVersion, kHashIdentity,
                           {static_cast<uint8_t>(p), static_cast<uint8_t>(encoding)}},
               kind);
  store_le32(dst + kFlagsOffset, flags);
}

}  // namespace detail

namespace {

Status invalid(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid ell data: %s", what);
}

Status check_tokens(const uint8_t* tokens, uint32_t count) {
  uint32_t previous = 0;
  for (uint32_t i = 0; i < count; i++) {
    const uint32_t token = load_le32(tokens + 4 * i);
    const int level = token_level(token);
    if (level < 0 || level > top_level(kTokenPrecision))
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid ell data: token %u has level %d, outside 0..%d", i, level,
                           top_level(kTokenPrecision));
    if (i > 0 && token <= previous)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid ell data: tokens are not strictly increasing at token %u", i);
    previous = token;
  }
  return Status::ok();
}

// A register is one some set of hashes can produce: u within 0..max_update,
// no indicator bit for a value below 1 (nor any when u = 0).
Status check_registers(const uint8_t* regs, int p) {
  const size_t m = register_count(p);
  for (size_t i = 0; i < m; i++) {
    const uint32_t r = get_register(regs, i);
    const uint32_t u = reg_u(r);
    if (u > max_update(p))
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid ell data: register %zu holds update value %u, above the "
                           "maximum %u for p = %d", i, u, max_update(p), p);
    // Bits kD - δ for δ >= u stand for values <= 0.
    const uint32_t allowed = u > kD ? kIndicatorMask
                                    : kIndicatorMask & ~((uint32_t{1} << (kD - u + 1)) - 1);
    if ((r & kIndicatorMask & ~(u == 0 ? 0 : allowed)) != 0)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid ell data: register %zu marks values below 1 as seen", i);
  }
  return Status::ok();
}

Status check_martingale(const View& v) {
  const double estimate = load_double(v.data + kMartingaleOffset);
  const uint64_t change = load_le64(v.data + kChangeOffset);
  if (!is_unmerged(v)) {
    if (load_le64(v.data + kMartingaleOffset) != 0 || change != 0)
      return invalid("martingale fields are set in a merged sketch");
    return Status::ok();
  }
  if (!std::isfinite(estimate) || estimate < 0)
    return invalid("martingale estimate is not a finite non-negative number");
  if (change != total_change_weight(v.data + kRegistersOffset, v.p))
    return invalid("state-change probability disagrees with the registers");
  return Status::ok();
}

}  // namespace

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  Header header;
  Status st = read_header(data, len, SketchKind::kEll, kFormatVersion, &header);
  if (!st.is_ok()) return st;
  const int p = header.param[0];
  if (!valid_precision(p))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid ell data: precision %d outside %d..%d", p, kMinPrecision,
                         kMaxPrecision);
  const auto encoding = static_cast<Encoding>(header.param[1]);
  const bool canonical = validation == Validation::kCanonical;
  if (encoding == Encoding::kSparseSet && canonical)
    return invalid("encoding 3 is an aggregate's working state, which is never stored");
  if (encoding != Encoding::kSparse && encoding != Encoding::kDense &&
      encoding != Encoding::kSparseSet)
    return Status::error(StatusCode::kInvalidFormat, "invalid ell data: unknown encoding %u",
                         header.param[1]);
  if (!valid_element_kind(element_kind_byte(data)))
    return Status::error(StatusCode::kInvalidFormat, "invalid ell data: unknown element kind %u",
                         element_kind_byte(data));
  if (len < kHeaderSize + 4) return invalid("truncated before its flags");
  View v{p, encoding, load_le32(data + kFlagsOffset), 0, 0, data, len};
  if ((v.flags & ~kUnmerged) != 0)
    return Status::error(StatusCode::kInvalidFormat, "invalid ell data: unknown flags 0x%x",
                         v.flags);
  switch (encoding) {
    case Encoding::kDense:
      if (len != dense_size(p))
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid ell data: dense p = %d needs %zu bytes, got %zu", p,
                             dense_size(p), len);
      if (canonical) {
        st = check_registers(data + kRegistersOffset, p);
        if (st.is_ok()) st = check_martingale(v);
        if (!st.is_ok()) return st;
      }
      break;
    case Encoding::kSparse:
      if (len < sparse_size(0)) return invalid("sparse sketch truncated");
      v.count = load_le32(data + kCountOffset);
      if (v.count > (len - sparse_size(0)) / 4 || len != sparse_size(v.count))
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid ell data: sparse header declares %u tokens but %zu bytes "
                             "hold %zu", v.count, len, (len - sparse_size(0)) / 4);
      if (v.count > max_sparse_tokens(p))
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid ell data: %u tokens exceed the maximum %u for p = %d",
                             v.count, max_sparse_tokens(p), p);
      if (canonical) {
        st = check_tokens(data + kTokensOffset, v.count);
        if (!st.is_ok()) return st;
      }
      break;
    case Encoding::kSparseSet: {
      if (len < sparse_set_size(0)) return invalid("set truncated");
      v.count = load_le32(data + kCountOffset);
      v.capacity = load_le32(data + kCapacityOffset);
      const bool power_of_two = v.capacity != 0 && (v.capacity & (v.capacity - 1)) == 0;
      if (!power_of_two || v.capacity > (len - sparse_set_size(0)) / 4 ||
          len != sparse_set_size(v.capacity) || v.count > v.capacity ||
          v.count > max_sparse_tokens(p))
        return invalid("inconsistent set layout");
      break;
    }
  }
  *out = v;
  return Status::ok();
}

void write_empty(uint8_t* dst, int p) {
  write_ell_header(dst, p, Encoding::kSparse, ElementKind::kNone, kUnmerged);
  store_le32(dst + kCountOffset, 0);
}

void write_empty_set(uint8_t* dst, int p, uint32_t capacity) {
  write_ell_header(dst, p, Encoding::kSparseSet, ElementKind::kNone, kUnmerged);
  store_le32(dst + kCountOffset, 0);
  store_le32(dst + kCapacityOffset, capacity);
  std::fill(dst + kSlotsOffset, dst + sparse_set_size(capacity), uint8_t{0});
}

size_t stored_size(const View& v) {
  return v.encoding == Encoding::kSparseSet ? sparse_size(v.count) : v.size;
}

// A set becomes its tokens, sorted; the other encodings are their bytes.
void write_stored(const View& v, uint8_t* dst) {
  if (v.encoding != Encoding::kSparseSet) {
    std::memcpy(dst, v.data, v.size);
    return;
  }
  write_ell_header(dst, v.p, Encoding::kSparse, element_kind_of(v.data), v.flags);
  uint8_t* tokens = dst + kTokensOffset;
  // A corrupt set (parse(kStructure) does not scan slots) may hold more than
  // its count: never write past the buffer.
  uint32_t n = 0;
  for_each_token(v, [&](uint32_t token) {
    if (n < v.count) store_le32(tokens + 4 * n++, token);
  });
  store_le32(dst + kCountOffset, n);
  sort_le32(tokens, n);
}

}  // namespace sketch::ell
