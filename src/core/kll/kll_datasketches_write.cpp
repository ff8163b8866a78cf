// Klls written as DataSketches' compact KLL sketches (kll_datasketches.h).
#include <cstring>

#include "core/common/bytes.h"
#include "core/kll/kll_datasketches.h"

namespace sketch::kll::datasketches {

namespace {

constexpr size_t kFullPreamble = 20;

void write_item(uint8_t* p, uint64_t key, ItemType type) {
  if (type == ItemType::kLong) {
    store_le64(p, static_cast<uint64_t>(int64_of_key(key)));
    return;
  }
  const double d = double_of_key(key);
  if (type == ItemType::kFloat) {
    const float f = static_cast<float>(d);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    store_le32(p, bits);
    return;
  }
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  store_le64(p, bits);
}

bool is_float_exactly(uint64_t key) {
  const double d = double_of_key(key);
  return static_cast<double>(static_cast<float>(d)) == d;
}

void write_preamble(uint8_t* dst, uint8_t preamble_ints, uint8_t version, uint8_t flags, uint32_t k) {
  dst[0] = preamble_ints;
  dst[1] = version;
  dst[2] = kFamilyId;
  dst[3] = flags;
  dst[4] = static_cast<uint8_t>(k);
  dst[5] = static_cast<uint8_t>(k >> 8);
  dst[6] = kM;
  dst[7] = 0;
}

}  // namespace

ItemType default_item_type(const View& v) {
  return v.kind == ElementKind::kNumber ? ItemType::kLong : ItemType::kDouble;
}

Status check_exportable(const View& v, ItemType type) {
  switch (v.kind) {
    case ElementKind::kNone:
      return Status::ok();
    case ElementKind::kNumber:
      if (type == ItemType::kLong) return Status::ok();
      return Status::error(StatusCode::kInvalidParameter,
                           "a kll of bigint exports as a sketch of longs, not of %ss",
                           item_type_name(type));
    case ElementKind::kFloat:
      if (type == ItemType::kLong)
        return Status::error(StatusCode::kInvalidParameter,
                             "a kll of double precision exports as a sketch of doubles or floats, "
                             "not of longs");
      if (type == ItemType::kFloat) {
        bool exact = is_float_exactly(v.min_key) && is_float_exactly(v.max_key);
        for (uint32_t i = v.offset(0); exact && i < v.capacity; ++i) exact = is_float_exactly(v.item(i));
        if (!exact)
          return Status::error(StatusCode::kInvalidParameter,
                               "the kll holds a value that is not a float exactly: export it as "
                               "a sketch of doubles");
      }
      return Status::ok();
    default:
      return Status::error(StatusCode::kUnsupported,
                           "the DataSketches libraries have no KLL sketch of %s values",
                           element_kind_label(v.kind));
  }
}

size_t compact_size(const View& v, ItemType type) {
  const size_t w = item_size(type);
  if (v.n == 0) return 8;
  if (v.n == 1) return 8 + w;
  return kFullPreamble + 4 * size_t{v.levels} + (2 + size_t{v.retained()}) * w;
}

void write_compact(const View& v, ItemType type, uint8_t* dst) {
  const size_t w = item_size(type);
  if (v.n == 0) {
    write_preamble(dst, 2, 1, /*empty*/ 1, v.k);
    return;
  }
  if (v.n == 1) {
    write_preamble(dst, 2, 2, /*single item*/ 4, v.k);
    write_item(dst + 8, v.item(v.offset(0)), type);
    return;
  }
  write_preamble(dst, 5, 1, 0, v.k);
  store_le64(dst + 8, v.n);
  dst[16] = static_cast<uint8_t>(v.k);  // min_k: a kll's k is already the smallest merged
  dst[17] = static_cast<uint8_t>(v.k >> 8);
  dst[18] = static_cast<uint8_t>(v.levels);
  dst[19] = 0;
  // The items at the end of the library's array of total_capacity slots.
  const uint32_t first = v.offset(0);
  const uint32_t base = total_capacity(v.k, v.levels) - v.retained();
  for (uint32_t h = 0; h < v.levels; ++h) store_le32(dst + kFullPreamble + 4 * size_t{h}, v.offset(h) - first + base);
  uint8_t* p = dst + kFullPreamble + 4 * size_t{v.levels};
  write_item(p, v.min_key, type);
  write_item(p + w, v.max_key, type);
  p += 2 * w;
  // Level 0 descending (the libraries' order after an ascending stream), the
  // levels above ascending.
  for (uint32_t i = v.offset(1); i > first; --i, p += w) write_item(p, v.item(i - 1), type);
  for (uint32_t i = v.offset(1); i < v.capacity; ++i, p += w) write_item(p, v.item(i), type);
}

}  // namespace sketch::kll::datasketches
