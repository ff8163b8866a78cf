// Writes the bloom fuzz targets' seed corpus: stored filters of several
// sizes and hash counts (empty, a few keys, filled, every bit set, m not a
// multiple of 64) and a few aggregate working states with queued hashes.
// Small m throughout (at most 4096 bits) to keep the corpus small and the
// fuzzer fast; larger filters differ only in length. Deterministic
// (make fuzz-corpus).
//
//   make_corpus_bloom <corpus-dir>    writes <dir>/bloom_parse/*.bin and
//                                     <dir>/bloom_text/*.hex
#include "bloom_test_util.h"
#include "corpus_util.h"

using namespace sketch::bloom;
using sketch::bloom::test::Filter;

int main(int argc, char** argv) {
  const sketch::fuzz::corpus::Writer out(argc, argv, "bloom");
  auto emit = [&](const std::string& name, const Filter& f) { out.stored(name, f.stored().bytes()); };

  struct Shape {
    uint64_t bits;
    int hashes;
  };
  uint64_t seed = 1;
  for (const Shape s : {Shape{8, 1}, Shape{64, 3}, Shape{100, 2}, Shape{1000, 7}, Shape{4096, 64}}) {
    const std::string tag = "m" + std::to_string(s.bits) + "_k" + std::to_string(s.hashes);
    emit("empty_" + tag, Filter(s.bits, s.hashes));
    for (uint64_t n : {1, 10, 200}) {
      Filter f(s.bits, s.hashes);
      f.add_keys(seed++, 0, n);
      emit("n" + std::to_string(n) + "_" + tag, f);
    }
  }
  // Every bit set (the estimate's cap), m not a multiple of 8.
  Filter full(100, 2);
  full.add_keys(seed++, 0, 5000);
  emit("full_m100_k2", full);
  Filter odd(13, 2);
  odd.add_keys(seed++, 0, 3);
  emit("n3_m13_k2", odd);

  // Aggregate working states (binary only): empty, part of the queue used,
  // the queue full and wrapped around.
  out.state("state_empty_m64_k3", Filter::working(Params{64, 3}).bytes());
  for (uint64_t n : {5, 40}) {
    Filter w = Filter::working(Params{512, 4});
    w.add_keys(seed++, 0, n);
    out.state("state_n" + std::to_string(n) + "_m512_k4", w.bytes());
  }
  // The split-block layout (Parquet's filter): stored filters of 1, 4 and
  // 16 blocks, empty, with keys, with a physical type (INT64) or none, and
  // a working state with queued hashes.
  for (uint64_t blocks : {1, 4, 16}) {
    const Params params{256 * blocks, 8, Layout::kSplitBlock};
    const std::string tag = "split_b" + std::to_string(blocks);
    emit("empty_" + tag, Filter(params));
    for (uint64_t n : {1, 50}) {
      Filter f(params);
      f.add_keys(seed++, 0, n);
      std::vector<uint8_t> bytes = f.stored().bytes();
      bytes[sketch::kElementKindOffset] = static_cast<uint8_t>(sketch::ElementKind::kParquetInt64);
      out.stored("n" + std::to_string(n) + "_" + tag, bytes);
    }
  }
  Filter split_working = Filter::working(Params{256 * 4, 8, Layout::kSplitBlock});
  split_working.add_keys(seed++, 0, 20);
  out.state("state_n20_split_b4", split_working.bytes());
  return 0;
}
