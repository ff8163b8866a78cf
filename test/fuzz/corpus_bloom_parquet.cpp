// Writes fuzz_bloom_parquet's seed corpus: the Parquet bytes of split-block
// filters (the compact header, then the bitset) of 1, 2 and 8 blocks, empty
// and with keys, one with the long form of a field header, and one of 512
// blocks (a two-byte numBytes varint). Deterministic (make fuzz-corpus).
//
//   make_corpus_bloom_parquet <corpus-dir>   writes <dir>/bloom_parquet/*.bin
#include "bloom_test_util.h"
#include "core/bloom/parquet_header.h"
#include "corpus_util.h"

using namespace sketch::bloom;
using sketch::bloom::test::Filter;

namespace {

std::vector<uint8_t> parquet_bytes(const Filter& f) {
  uint8_t header[parquet::kMaxHeaderSize];
  const uint32_t num_bytes = static_cast<uint32_t>(f.bits() / 8);
  const size_t n = parquet::write_header(num_bytes, header);
  std::vector<uint8_t> out(header, header + n);
  const Filter s = f.stored();
  out.insert(out.end(), s.view().words, s.view().words + num_bytes);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const sketch::fuzz::corpus::Folder out(argc, argv, "bloom_parquet");
  uint64_t seed = 1;
  for (uint64_t blocks : {1, 2, 8, 512}) {
    const Params params{256 * blocks, 8, Layout::kSplitBlock};
    const std::string tag = "b" + std::to_string(blocks);
    out.write("empty_" + tag, parquet_bytes(Filter(params)));
    Filter f(params);
    f.add_keys(seed++, 0, 10 * blocks);
    out.write("keys_" + tag, parquet_bytes(f));
  }
  // Field 1 in the long form: 05 (i32, delta 0), zigzag(1) = 02, then 32.
  std::vector<uint8_t> long_form = {0x05, 0x02, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
                                    0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  long_form.resize(long_form.size() + 32, 0);
  out.write("long_form_b1", long_form);
  return 0;
}
