// Parameters, sizing, parsing and the empty filter.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/bloom/bloom.h"
#include "core/common/element_kind.h"
#include "core/common/filter_target.h"

namespace sketch::bloom {

namespace {

constexpr cell_array::Format kFormat{SketchKind::kBloom, kFormatVersion, "bloom", "bloom filter",
                                     "bit", kMinBits, kMaxBits, kMaxReadableBits, kMaxHashes};

}  // namespace

Status check_params(int64_t bits, int64_t hashes) {
  return cell_array::check_params(kFormat, bits, hashes);
}

Status plan_size(int64_t n, double p, Params* out) {
  if (Status st = check_filter_target("bloom filter", "probability", n, p); !st.is_ok())
    return st;
  const double ln2 = std::log(2.0);
  const double exact_bits = -static_cast<double>(n) * std::log(p) / (ln2 * ln2);
  // The answer must fit its own types, whether or not a filter of that size
  // can be built (size_for refuses those).
  if (!(exact_bits <= static_cast<double>(kMaxPlannedBits)))
    return Status::error(StatusCode::kInvalidParameter,
                         "a bloom filter for n = %lld at p = %g needs %.3g bits, more than "
                         "this function can describe (%llu)", static_cast<long long>(n), p,
                         exact_bits, static_cast<unsigned long long>(kMaxPlannedBits));
  const uint64_t bits = std::max(kMinBits, static_cast<uint64_t>(std::ceil(exact_bits)));
  const double exact_hashes = static_cast<double>(bits) / static_cast<double>(n) * ln2;
  const long long hashes = std::max(1LL, std::llround(exact_hashes));
  if (hashes > kMaxHashes)
    return Status::error(StatusCode::kInvalidParameter,
                         "a bloom filter at p = %g needs %lld hashes, above the maximum of %d",
                         p, hashes, kMaxHashes);
  *out = Params{bits, static_cast<int>(hashes)};
  return Status::ok();
}

Status size_split_block(int64_t n, double p, Params* out) {
  uint64_t bits;
  Status st = split_block::plan_bits(n, p, &bits);
  if (!st.is_ok()) return st;
  if (bits > split_block::kMaxBits)
    return Status::error(StatusCode::kInvalidParameter,
                         "a split-block bloom filter for n = %lld at p = %g needs %llu bits, "
                         "above the maximum of %llu bits (128 MiB, the largest bitset Parquet "
                         "readers accept)", static_cast<long long>(n), p,
                         static_cast<unsigned long long>(bits),
                         static_cast<unsigned long long>(split_block::kMaxBits));
  *out = Params{bits, split_block::kWordsPerBlock, Layout::kSplitBlock};
  return Status::ok();
}

Status size_for(int64_t n, double p, Params* out) {
  return cell_array::size_for(kFormat, n, p, plan_size, &Params::bits, out);
}

double expected_fpp(double n, uint64_t bits, int hashes) {
  const double k = hashes;
  return std::pow(-std::expm1(-k * n / static_cast<double>(bits)), k);
}

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  Header header;
  Status st = cell_array::read_header(kFormat, data, len, &header);
  if (!st.is_ok()) return st;

  const int hashes = header.param[0];
  if (header.param[1] > 3)
    return Status::error(StatusCode::kInvalidFormat, "invalid bloom data: unknown encoding %u",
                         header.param[1]);
  const auto encoding = static_cast<Encoding>(header.param[1] & 1);
  const auto layout = static_cast<Layout>(header.param[1] >> 1);
  if (encoding == Encoding::kQueued && validation == Validation::kCanonical)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid bloom data: encoding %u is an aggregate's working state, "
                         "which is never stored", header.param[1]);
  const bool split = layout == Layout::kSplitBlock;
  if (split ? !(is_parquet_kind(element_kind_byte(data)) ||
                element_kind_byte(data) == static_cast<uint8_t>(ElementKind::kNone))
            : !valid_element_kind(element_kind_byte(data)))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid bloom data: unknown element kind %u", element_kind_byte(data));
  if (split && hashes != split_block::kWordsPerBlock)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid bloom data: a split-block filter has 8 hashes, not %d", hashes);
  uint64_t bits;
  st = cell_array::read_cell_count(kFormat, data, len, &bits);
  if (!st.is_ok()) return st;
  if (split && !split_block::valid_bits(bits))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid bloom data: %llu bits are not a whole number of split blocks "
                         "within %llu..%llu", static_cast<unsigned long long>(bits),
                         static_cast<unsigned long long>(split_block::kMinBits),
                         static_cast<unsigned long long>(split_block::kMaxBits));
  uint32_t pending;
  st = cell_array::check_cells<1>(kFormat, data, len, bits, encoding == Encoding::kQueued,
                                  &pending);
  if (!st.is_ok()) return st;
  *out = View{bits,    hashes, header.hash_identity, encoding, layout,
              pending, data,   data + kBitsOffset,   len};
  return Status::ok();
}

namespace {

void write_bloom_header(uint8_t* dst, const Params& params, Encoding encoding,
                        ElementKind kind) {
  cell_array::write_header(kFormat, dst, params.hashes,
                           layout_encoding_byte(params.layout, encoding), params.bits, kind);
}

}  // namespace

void write_empty(uint8_t* dst, const Params& params, Encoding encoding) {
  write_bloom_header(dst, params, encoding, ElementKind::kNone);
  Cells::clear(dst, params.bits, encoding == Encoding::kQueued);
}

void write_stored(const View& v, uint8_t* dst) {
  write_bloom_header(dst, Params{v.bits, v.hashes, v.layout}, Encoding::kStored,
                     element_kind_of(v.data));
  dst[4] = v.hash_identity;
  Cells::copy_cells(dst, v.words, v.bits);
  Cells::for_each_pending(v.data, v.bits, [&](Hash128 hash) { add_hash(dst, hash); });
}

}  // namespace sketch::bloom
