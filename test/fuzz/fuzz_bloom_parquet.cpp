// Fuzz target: the Parquet bytes of a split-block bloom filter, as
// bloom_from_parquet reads them (core/bloom/parquet_header.h: a Thrift
// compact BloomFilterHeader, then the bitset). Whatever the bytes, the
// parser reads only inside them and either refuses them (kInvalidFormat) or
// says where a bitset of whole blocks starts and that it fills the input
// exactly. What it accepts becomes a filter as bloom_from_parquet builds it,
// which must pass the strict parse, write back (bloom_to_parquet) as a
// header of the same size that parses again, probe and estimate without a
// memory error, and answer finite estimates.
#include <cmath>
#include <cstring>
#include <vector>

#include "core/bloom/bloom.h"
#include "core/bloom/parquet_header.h"
#include "core/common/element_kind.h"
#include "fuzz_check.h"

using namespace sketch;
using namespace sketch::bloom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A copy of exactly `size` bytes, so ASan sees any read past the end.
  std::vector<uint8_t> input(data, data + size);
  parquet::Parsed parsed;
  const Status st = parquet::parse(input.data(), input.size(), &parsed);
  if (!st.is_ok()) {
    FUZZ_CHECK(st.code() == StatusCode::kInvalidFormat && st.message()[0] != '\0');
    return 0;
  }
  FUZZ_CHECK(parsed.header_size <= input.size());
  FUZZ_CHECK(parsed.header_size + parsed.num_bytes == input.size());
  FUZZ_CHECK(parsed.num_bytes % split_block::kBlockBytes == 0 && parsed.num_bytes > 0);
  FUZZ_CHECK(uint64_t{parsed.num_bytes} * 8 <= split_block::kMaxBits);

  const Params params{uint64_t{parsed.num_bytes} * 8, split_block::kWordsPerBlock,
                      Layout::kSplitBlock};
  std::vector<uint8_t> filter(filter_size(params.bits));
  write_empty(filter.data(), params);
  std::memcpy(filter.data() + kBitsOffset, input.data() + parsed.header_size, parsed.num_bytes);
  filter[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kParquetByteArray);
  View v;
  FUZZ_CHECK(parse(filter.data(), filter.size(), Validation::kCanonical, &v).is_ok());
  FUZZ_CHECK(v.layout == Layout::kSplitBlock && v.bits == params.bits);

  uint8_t header[parquet::kMaxHeaderSize];
  const size_t header_size = parquet::write_header(parsed.num_bytes, header);
  std::vector<uint8_t> again(header, header + header_size);
  again.insert(again.end(), input.begin() + static_cast<std::ptrdiff_t>(parsed.header_size),
               input.end());
  parquet::Parsed reparsed;
  FUZZ_CHECK(parquet::parse(again.data(), again.size(), &reparsed).is_ok());
  FUZZ_CHECK(reparsed.num_bytes == parsed.num_bytes && reparsed.header_size == header_size);

  // Probes read inside the bitset; an added hash is then present.
  for (uint64_t i = 0; i < 8; i++) {
    const Hash128 h{0x9E3779B97F4A7C15ULL * (i + 1), 0};
    (void)contains_hash(v, h);
    add_hash(filter.data(), h);
    FUZZ_CHECK(contains_hash(v, h));
  }
  const double fpp = estimate_fpp(v);
  const double cardinality = estimate_cardinality(v);
  FUZZ_CHECK(std::isfinite(fpp) && fpp >= 0 && fpp <= 1);
  FUZZ_CHECK(std::isfinite(cardinality) && cardinality >= 0);
  return 0;
}
