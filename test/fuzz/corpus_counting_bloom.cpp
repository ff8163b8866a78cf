// Writes the counting_bloom fuzz targets' seed corpus: stored filters of
// several sizes and hash counts (empty, a few keys, saturated counters,
// deletes, m not a multiple of 16) and a few aggregate working states with
// queued hashes. Small m throughout (at most 4096 cells). Deterministic
// (make fuzz-corpus).
//
//   make_corpus_counting_bloom <corpus-dir>   writes <dir>/counting_bloom_parse/*.bin
//                                             and <dir>/counting_bloom_text/*.hex
#include "corpus_util.h"
#include "counting_bloom_test_util.h"

using namespace sketch::counting_bloom;
using sketch::counting_bloom::test::Filter;
using sketch::counting_bloom::test::key_hash;

int main(int argc, char** argv) {
  const sketch::fuzz::corpus::Writer out(argc, argv, "counting_bloom");
  auto emit = [&](const std::string& name, const Filter& f) { out.stored(name, f.stored().bytes()); };

  struct Shape {
    uint64_t cells;
    int hashes;
  };
  uint64_t seed = 1;
  for (const Shape s : {Shape{8, 1}, Shape{16, 3}, Shape{100, 2}, Shape{1000, 7}, Shape{4096, 64}}) {
    const std::string tag = "m" + std::to_string(s.cells) + "_k" + std::to_string(s.hashes);
    emit("empty_" + tag, Filter(s.cells, s.hashes));
    for (uint64_t n : {1, 10, 200}) {
      Filter f(s.cells, s.hashes);
      f.add_keys(seed++, 0, n);
      emit("n" + std::to_string(n) + "_" + tag, f);
    }
  }
  // Saturated counters, deletes, m not a multiple of 16.
  Filter full(100, 2);
  full.add_keys(seed++, 0, 5000);
  emit("saturated_m100_k2", full);
  Filter deleted(300, 4);
  deleted.add_keys(seed, 0, 30);
  for (uint64_t i = 0; i < 10; i++) deleted.remove(key_hash(seed, i));
  seed++;
  emit("deleted_m300_k4", deleted);
  Filter odd(13, 2);
  odd.add_keys(seed++, 0, 3);
  emit("n3_m13_k2", odd);

  out.state("state_empty_m64_k3", Filter::working(Params{64, 3}).bytes());
  for (uint64_t n : {5, 40}) {
    Filter w = Filter::working(Params{512, 4});
    w.add_keys(seed++, 0, n);
    out.state("state_n" + std::to_string(n) + "_m512_k4", w.bytes());
  }
  return 0;
}
