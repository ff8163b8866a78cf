// Parsing, validation and the stored (canonical) form of hll sketches.
#include <algorithm>

#include "core/common/hash.h"
#include "core/hll/hll.h"
#include "core/common/element_kind.h"
#include "core/common/sort_le32.h"
#include "core/hll/hll_internal.h"
#include "core/hll/dshll.h"
#include "core/hll/pghll.h"

namespace sketch::hll {

using detail::entry_index;
using detail::entry_rank;

const char* encoding_name(Encoding encoding) {
  switch (encoding) {
    case Encoding::kSparse: return "sparse";
    case Encoding::kDense: return "dense";
    case Encoding::kSparseSet: return "sparse";
    case Encoding::kPghll:
    case Encoding::kPghllWorking: return "postgresql-hll";
    case Encoding::kDatasketches:
    case Encoding::kDatasketchesWorking: return "datasketches";
  }
  return "unknown";
}

bool valid_precision(int p) { return p >= kMinPrecision && p <= kMaxPrecision; }

uint32_t set_capacity_for(uint32_t count) {
  uint32_t capacity = 8;
  while (static_cast<uint64_t>(count) * 4 > static_cast<uint64_t>(capacity) * 3) capacity *= 2;
  return capacity;
}

namespace detail {

void write_hll_header(uint8_t* dst, int p, Encoding encoding, ElementKind kind) {
  write_header(dst, Header{SketchKind::kHll, kFormatVersion, kHashIdentity,
                           {static_cast<uint8_t>(p), static_cast<uint8_t>(encoding)}},
               kind);
}

void write_set_fixed(uint8_t* dst, int p, uint32_t capacity, ElementKind kind) {
  write_hll_header(dst, p, Encoding::kSparseSet, kind);
  store_le32(dst + kCountOffset, 0);
  store_le32(dst + kCapacityOffset, capacity);
  std::fill(dst + kSetSlotsOffset, dst + sparse_set_size(capacity), uint8_t{0});
}

}  // namespace detail

namespace {

constexpr int kMaxSparseRank = 64 - kSparsePrecision + 1;

Status check_sparse_entries(const uint8_t* entries, uint32_t count) {
  uint32_t previous_index = 0;
  for (uint32_t i = 0; i < count; i++) {
    const uint32_t entry = load_le32(entries + 4 * i);
    const int rho = entry_rank(entry);
    if (rho < 1 || rho > kMaxSparseRank)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid hll data: sparse entry %u has rank %d, outside 1..%d", i,
                           rho, kMaxSparseRank);
    if (i > 0 && entry_index(entry) <= previous_index)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid hll data: sparse entries are not strictly increasing at "
                           "entry %u", i);
    previous_index = entry_index(entry);
  }
  return Status::ok();
}

Status check_registers(const uint8_t* regs, int p) {
  const int max_value = max_register_value(p);
  const size_t m = register_count(p);
  for (size_t i = 0; i < m; i++) {
    const int r = detail::get_register(regs, i);
    if (r > max_value)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid hll data: register %zu holds %d, above the maximum %d for "
                           "p = %d", i, r, max_value, p);
  }
  return Status::ok();
}

}  // namespace

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  // postgresql-hll's sketches have a hash identity and layout of their own.
  if (len >= kHeaderSize && data[0] == kMagic0 && data[1] == kMagic1 &&
      data[2] == static_cast<uint8_t>(SketchKind::kHll) && data[4] == pghll::kIdentity)
    return pghll::parse(data, len, validation, out);
  if (len >= kHeaderSize && data[0] == kMagic0 && data[1] == kMagic1 &&
      data[2] == static_cast<uint8_t>(SketchKind::kHll) && data[4] == dshll::kIdentity)
    return dshll::parse(data, len, validation, out);
  Header header;
  Status st = read_header(data, len, SketchKind::kHll, kFormatVersion, &header);
  if (!st.is_ok()) return st;

  const int p = header.param[0];
  if (!valid_precision(p))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: precision %d outside %d..%d", p, kMinPrecision,
                         kMaxPrecision);
  const auto encoding = static_cast<Encoding>(header.param[1]);
  const bool canonical = validation == Validation::kCanonical;
  if (is_pghll(encoding))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: encoding %u needs the postgresql-hll hash identity",
                         header.param[1]);
  if (is_dshll(encoding))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: encoding %u needs the DataSketches hash identity",
                         header.param[1]);
  const bool known = encoding == Encoding::kSparse || encoding == Encoding::kDense ||
                     (encoding == Encoding::kSparseSet && !canonical);
  if (encoding == Encoding::kSparseSet && canonical)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: encoding 3 is an aggregate's working state, "
                         "which is never stored");
  if (!known)
    return Status::error(StatusCode::kInvalidFormat, "invalid hll data: unknown encoding %u",
                         header.param[1]);
  if (!valid_element_kind(element_kind_byte(data)))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid hll data: unknown element kind %u", element_kind_byte(data));

  View v{p, encoding, 0, 0, data + kHeaderSize, len};
  switch (encoding) {
    case Encoding::kDense:
      if (len != dense_size(p))
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid hll data: dense p = %d needs %zu bytes, got %zu", p,
                             dense_size(p), len);
      if (canonical) {
        st = check_registers(v.body, p);
        if (!st.is_ok()) return st;
      }
      break;
    case Encoding::kSparse: {
      if (len < sparse_size(0))
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid hll data: sparse sketch truncated (%zu bytes)", len);
      v.count = load_le32(data + detail::kCountOffset);
      // Compare against the real length before using the count for anything.
      if (v.count > (len - sparse_size(0)) / 4 || len != sparse_size(v.count))
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid hll data: sparse header declares %u entries but %zu "
                             "bytes hold %zu", v.count, len, (len - sparse_size(0)) / 4);
      if (v.count > max_sparse_entries(p))
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid hll data: %u sparse entries exceed the maximum %u for "
                             "p = %d", v.count, max_sparse_entries(p), p);
      if (canonical) {
        st = check_sparse_entries(data + detail::kSparseEntriesOffset, v.count);
        if (!st.is_ok()) return st;
      }
      break;
    }
    case Encoding::kSparseSet: {
      if (len < sparse_set_size(0))
        return Status::error(StatusCode::kInvalidFormat, "invalid hll data: set truncated");
      v.count = load_le32(data + detail::kCountOffset);
      v.capacity = load_le32(data + detail::kCapacityOffset);
      const bool power_of_two = v.capacity != 0 && (v.capacity & (v.capacity - 1)) == 0;
      if (!power_of_two || v.capacity > (len - sparse_set_size(0)) / 4 ||
          len != sparse_set_size(v.capacity) || v.count > v.capacity)
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid hll data: inconsistent set layout");
      break;
    }
    case Encoding::kPghll:
    case Encoding::kPghllWorking:
    case Encoding::kDatasketches:
    case Encoding::kDatasketchesWorking:
      break;  // refused above
  }
  *out = v;
  return Status::ok();
}

void write_empty(uint8_t* dst, int p) {
  detail::write_hll_header(dst, p, Encoding::kSparse, ElementKind::kNone);
  store_le32(dst + detail::kCountOffset, 0);
}

void write_empty_set(uint8_t* dst, int p, uint32_t capacity) {
  detail::write_set_fixed(dst, p, capacity, ElementKind::kNone);
}

size_t stored_size(const View& v) {
  if (is_pghll(v.encoding)) return pghll::stored_size(v);
  if (is_dshll(v.encoding)) return dshll::stored_size(v);
  return v.encoding == Encoding::kSparseSet ? sparse_size(v.count) : v.size;
}

void write_stored(const View& v, uint8_t* dst) {
  if (is_pghll(v.encoding)) {
    pghll::write_stored(v, dst);
    return;
  }
  if (is_dshll(v.encoding)) {
    dshll::write_stored(v, dst);
    return;
  }
  if (v.encoding != Encoding::kSparseSet) {
    std::copy(v.body - kHeaderSize, v.body - kHeaderSize + v.size, dst);
    return;
  }
  detail::write_hll_header(dst, v.p, Encoding::kSparse, element_kind_of(v.body - kHeaderSize));
  store_le32(dst + detail::kCountOffset, v.count);
  // The buffer holds v.count entries. A set whose slots hold more than its
  // count says is corrupt (parse(kStructure) does not scan the slots); never
  // write past the buffer for it.
  uint8_t* entries = dst + detail::kSparseEntriesOffset;
  uint32_t n = 0;
  detail::for_each_entry(v, [&](uint32_t entry) {
    if (n == v.count) return;
    store_le32(entries + 4 * n, entry);
    n++;
  });
  sort_le32(entries, n);
}

}  // namespace sketch::hll
