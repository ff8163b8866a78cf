// Parameters, sizing, parsing, deletes, unions and reading counters.
#include "core/counting_bloom/counting_bloom.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/common/element_kind.h"
#include "core/common/filter_target.h"
#include "core/common/working_state.h"

namespace sketch::counting_bloom {

namespace {

constexpr uint64_t kLowBits = 0x1111111111111111ULL;   // bit 0 of every nibble
constexpr uint64_t kHighBits = 0x8888888888888888ULL;  // bit 3 of every nibble
constexpr uint64_t kLow3 = 0x7777777777777777ULL;      // bits 0..2 of every nibble

// Bit 0 of each nibble set where the nibble is non-zero.
inline uint64_t nonzero_nibbles(uint64_t w) {
  return (w | (w >> 1) | (w >> 2) | (w >> 3)) & kLowBits;
}

// Bit 0 of each nibble set where the nibble is 15.
inline uint64_t full_nibbles(uint64_t w) { return w & (w >> 1) & (w >> 2) & (w >> 3) & kLowBits; }

// The sixteen nibbles of a and b added, each saturating at 15. The low three
// bits of every nibble add without leaving it (7 + 7 < 16); bit 3 is the sum
// of a3, b3 and the carry into bit 3, and a nibble overflows when at least
// two of those are set; an overflowed nibble becomes 15.
inline uint64_t saturating_add(uint64_t a, uint64_t b) {
  const uint64_t low = (a & kLow3) + (b & kLow3);
  const uint64_t sum = low ^ ((a ^ b) & kHighBits);
  const uint64_t overflow = ((a & b) | ((a ^ b) & low)) & kHighBits;
  const uint64_t mask = (overflow << 1) - (overflow >> 3);  // 15 in each overflowed nibble
  return sum | mask;
}

// The 16 bits "nibble i is non-zero" of a word, in order: bit i of the
// result is nibble i's.
inline uint64_t gather_nonzero(uint64_t w) {
  uint64_t x = nonzero_nibbles(w);
  x = (x | (x >> 3)) & 0x0303030303030303ULL;
  x = (x | (x >> 6)) & 0x000F000F000F000FULL;
  x = (x | (x >> 12)) & 0x000000FF000000FFULL;
  x = (x | (x >> 24)) & 0xFFFFULL;
  return x;
}

constexpr cell_array::Format kFormat{SketchKind::kCountingBloom, kFormatVersion, "counting_bloom",
                                     "counting bloom filter", "cell", kMinCells, kMaxCells,
                                     kMaxCells, kMaxHashes};

void write_counting_header(uint8_t* dst, const Params& params, Encoding encoding,
                           ElementKind kind) {
  cell_array::write_header(kFormat, dst, params.hashes, static_cast<uint8_t>(encoding),
                           params.cells, kind);
}

}  // namespace

Status check_params(int64_t cells, int64_t hashes) {
  return cell_array::check_params(kFormat, cells, hashes);
}

Status plan_size(int64_t n, double p, Params* out) {
  if (Status st = check_filter_target("counting bloom filter", "probability", n, p);
      !st.is_ok())
    return st;
  bloom::Params planned;
  const Status st = bloom::plan_size(n, p, &planned);
  if (!st.is_ok())
    return Status::error(st.code(), "counting bloom filter: %s", st.message());
  *out = Params{planned.bits, planned.hashes};
  return Status::ok();
}

Status size_for(int64_t n, double p, Params* out) {
  return cell_array::size_for(kFormat, n, p, plan_size, &Params::cells, out);
}

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  Header header;
  Status st = cell_array::read_header(kFormat, data, len, &header);
  if (!st.is_ok()) return st;

  const int hashes = header.param[0];
  const auto encoding = static_cast<Encoding>(header.param[1]);
  if (encoding == Encoding::kQueued && validation == Validation::kCanonical)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid counting_bloom data: encoding 1 is an aggregate's working "
                         "state, which is never stored");
  if (encoding != Encoding::kStored && encoding != Encoding::kQueued)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid counting_bloom data: unknown encoding %u", header.param[1]);
  if (!valid_element_kind(element_kind_byte(data)))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid counting_bloom data: unknown element kind %u", element_kind_byte(data));
  uint64_t cells;
  st = cell_array::read_cell_count(kFormat, data, len, &cells);
  if (!st.is_ok()) return st;
  uint32_t pending;
  st = cell_array::check_cells<4>(kFormat, data, len, cells, encoding == Encoding::kQueued,
                                  &pending);
  if (!st.is_ok()) return st;
  *out = View{cells, hashes, header.hash_identity, encoding, pending, data,
              data + kCellsOffset, len};
  return Status::ok();
}

void write_empty(uint8_t* dst, const Params& params, Encoding encoding) {
  write_counting_header(dst, params, encoding, ElementKind::kNone);
  Cells::clear(dst, params.cells, encoding == Encoding::kQueued);
}

void write_stored(const View& v, uint8_t* dst) {
  write_counting_header(dst, Params{v.cells, v.hashes}, Encoding::kStored,
                        element_kind_of(v.data));
  dst[4] = v.hash_identity;
  Cells::copy_cells(dst, v.words, v.cells);
  Cells::for_each_pending(v.data, v.cells, [&](Hash128 hash) { add_hash(dst, hash); });
}

bool delete_hash(uint8_t* filter, Hash128 hash) {
  const uint64_t m = cells_of(filter);
  const int k = hashes_of(filter);
  uint8_t* counters = filter + kCellsOffset;
  uint64_t positions[kMaxHashes];
  bloom::Positions g(hash, m);
  bool all = true;
  for (int i = 0; i < k; i++) {
    positions[i] = g.next();
    all &= counter(counters, positions[i]) != 0;
  }
  if (!all) return false;
  for (int i = 0; i < k; i++) {
    const uint64_t p = positions[i];
    const unsigned c = counter(counters, p);
    if (c != 0 && c != kMaxCount) counters[p >> 1] = static_cast<uint8_t>(counters[p >> 1] - (1u << ((p & 1) * 4)));
  }
  return true;
}

Status check_compatible(const View& a, const View& b) {
  return cell_array::check_same_shape("counting bloom filters",
                                      {a.cells, a.hashes, a.hash_identity},
                                      {b.cells, b.hashes, b.hash_identity});
}

void merge(uint8_t* a_filter, const View& b) {
  cell_array::combine_words(a_filter + kCellsOffset, b.words, word_count(b.cells),
                            [](uint64_t x, uint64_t y) { return saturating_add(x, y); });
  Cells::for_each_pending(b.data, b.cells, [&](Hash128 hash) { add_hash(a_filter, hash); });
}

Counts count_cells(const View& v) {
  Counts c{0, 0, 0};
  const uint64_t words = word_count(v.cells);
  for (uint64_t i = 0; i < words; i++) {
    const uint64_t w = load_le64(v.words + 8 * i);
    c.cells_set += static_cast<uint64_t>(__builtin_popcountll(nonzero_nibbles(w)));
    c.saturated += static_cast<uint64_t>(__builtin_popcountll(full_nibbles(w)));
    c.sum += static_cast<uint64_t>(__builtin_popcountll(w & kLowBits)) +
             2 * static_cast<uint64_t>(__builtin_popcountll(w & (kLowBits << 1))) +
             4 * static_cast<uint64_t>(__builtin_popcountll(w & (kLowBits << 2))) +
             8 * static_cast<uint64_t>(__builtin_popcountll(w & (kLowBits << 3)));
  }
  return c;
}

void to_bloom(const View& v, uint8_t* dst) {
  bloom::write_empty(dst, bloom::Params{v.cells, v.hashes});
  dst[4] = v.hash_identity;
  state::carry_kind(v.data, dst);
  uint8_t* bits = dst + bloom::kBitsOffset;
  const uint64_t words = word_count(v.cells);
  for (uint64_t i = 0; i < words; i++) {
    const uint64_t x = gather_nonzero(load_le64(v.words + 8 * i));
    bits[2 * i] = static_cast<uint8_t>(x);
    bits[2 * i + 1] = static_cast<uint8_t>(x >> 8);
  }
}

namespace {

bloom::View bloom_view(const View& v, uint8_t* scratch) {
  to_bloom(v, scratch);
  bloom::View b;
  // to_bloom writes a valid filter: parse cannot fail.
  bloom::parse(scratch, bloom_size(v), Validation::kStructure, &b);
  return b;
}

}  // namespace

double estimate_cardinality(const View& v, uint8_t* scratch) {
  return bloom::estimate_cardinality(bloom_view(v, scratch));
}

double estimate_fpp(const View& v, uint8_t* scratch) {
  return bloom::estimate_fpp(bloom_view(v, scratch));
}

}  // namespace sketch::counting_bloom
