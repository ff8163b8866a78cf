// Parameters, sizing, parsing and the empty filter.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/bloom/bloom.h"
#include "core/common/element_kind.h"
#include "core/common/filter_target.h"

namespace sketch::bloom {

Status check_params(int64_t bits, int64_t hashes) {
  if (bits < static_cast<int64_t>(kMinBits) || bits > static_cast<int64_t>(kMaxBits))
    return Status::error(StatusCode::kInvalidParameter,
                         "bloom filter bits must be between %llu and %llu, got %lld",
                         static_cast<unsigned long long>(kMinBits),
                         static_cast<unsigned long long>(kMaxBits),
                         static_cast<long long>(bits));
  if (hashes < 1 || hashes > kMaxHashes)
    return Status::error(StatusCode::kInvalidParameter,
                         "bloom filter hashes must be between 1 and %d, got %lld", kMaxHashes,
                         static_cast<long long>(hashes));
  return Status::ok();
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
  Params planned;
  Status st = plan_size(n, p, &planned);
  if (!st.is_ok()) return st;
  if (planned.bits > kMaxBits)
    return Status::error(StatusCode::kInvalidParameter,
                         "a bloom filter for n = %lld at p = %g needs %llu bits, above the "
                         "maximum of %llu bits (512 MiB, the largest value that can be dumped "
                         "as text)", static_cast<long long>(n), p,
                         static_cast<unsigned long long>(planned.bits),
                         static_cast<unsigned long long>(kMaxBits));
  *out = planned;
  return Status::ok();
}

double expected_fpp(double n, uint64_t bits, int hashes) {
  const double k = hashes;
  return std::pow(-std::expm1(-k * n / static_cast<double>(bits)), k);
}

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  Header header;
  Status st = read_header(data, len, SketchKind::kBloom, kFormatVersion, &header);
  if (!st.is_ok()) return st;

  const int hashes = header.param[0];
  if (hashes < 1 || hashes > kMaxHashes)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid bloom data: %d hashes outside 1..%d", hashes, kMaxHashes);
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
  if (len < kBitsOffset)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid bloom data: truncated before the bit count (%zu bytes)", len);
  const uint64_t bits = load_le64(data + kBitCountOffset);
  if (split && !split_block::valid_bits(bits))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid bloom data: %llu bits are not a whole number of split blocks "
                         "within %llu..%llu", static_cast<unsigned long long>(bits),
                         static_cast<unsigned long long>(split_block::kMinBits),
                         static_cast<unsigned long long>(split_block::kMaxBits));
  if (bits < kMinBits || bits > kMaxReadableBits)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid bloom data: %llu bits outside %llu..%llu",
                         static_cast<unsigned long long>(bits),
                         static_cast<unsigned long long>(kMinBits),
                         static_cast<unsigned long long>(kMaxReadableBits));
  // bits is now small enough for the sizes not to overflow; nothing past the
  // bit count is read before the length is known to match.
  const bool working = encoding == Encoding::kQueued;
  uint32_t pending;
  if (const auto problem = cell_array::check_body<1>(data, len, bits, working, &pending);
      problem != cell_array::BodyProblem::kNone)
    return cell_array::body_error(problem, "bloom", "bit", bits,
                                  working ? working_size(bits) : filter_size(bits), len);
  *out = View{bits, hashes, header.hash_identity, encoding, layout, pending, data, data + kBitsOffset, len};
  return Status::ok();
}

namespace {

void write_bloom_header(uint8_t* dst, const Params& params, Encoding encoding,
                        ElementKind kind) {
  write_header(dst, Header{SketchKind::kBloom, kFormatVersion, kHashIdentity,
                           {static_cast<uint8_t>(params.hashes),
                            layout_encoding_byte(params.layout, encoding)}},
               kind);
  store_le64(dst + kBitCountOffset, params.bits);
}

}  // namespace

void write_empty(uint8_t* dst, const Params& params) {
  write_bloom_header(dst, params, Encoding::kStored, ElementKind::kNone);
  std::fill(dst + kBitsOffset, dst + filter_size(params.bits), uint8_t{0});
}

void write_empty_working(uint8_t* dst, const Params& params) {
  write_bloom_header(dst, params, Encoding::kQueued, ElementKind::kNone);
  std::fill(dst + kBitsOffset, dst + working_size(params.bits), uint8_t{0});
}

void write_stored(const View& v, uint8_t* dst) {
  write_bloom_header(dst, Params{v.bits, v.hashes, v.layout}, Encoding::kStored,
                     element_kind_of(v.data));
  dst[4] = v.hash_identity;
  std::memcpy(dst + kBitsOffset, v.words, filter_size(v.bits) - kBitsOffset);
  for_each_pending(v, [&](Hash128 hash) { add_hash(dst, hash); });
}

}  // namespace sketch::bloom
