// Writes the hll fuzz targets' seed corpus: a few valid sketches of each
// encoding and a range of precisions and sizes, deterministic so that
// re-running it (make fuzz-corpus) reproduces the committed files.
//
//   make_corpus_hll <corpus-dir>    writes <dir>/hll_parse/*.bin and
//                                   <dir>/hll_text/*.hex
//
// Dense sketches stop at p = 14 (12 KiB) to keep the committed corpus small
// and the fuzzer fast; larger precisions differ only in length.
#include "corpus_util.h"
#include "hll_test_util.h"

using namespace sketch::hll;
using sketch::fuzz::corpus::Writer;
using sketch::hll::test::Sketch;
using sketch::hll::test::stream;

int main(int argc, char** argv) {
  const Writer out(argc, argv, "hll");
  // One stored sketch: binary into hll_parse, its text form into hll_text.
  auto emit = [&](const std::string& name, const Sketch& s) { out.stored(name, s.canonical()); };
  // A working state (sparse set): binary only, since only kStructure reads it.
  auto emit_state = [&](const std::string& name, const Sketch& s) { out.state(name, s.bytes()); };

  uint64_t seed = 1;
  for (int p : {4, 10, 14, 18}) {
    const std::string tag = "p" + std::to_string(p);
    emit("empty_" + tag, Sketch(p));
    for (uint64_t n : {1, 2, 40}) {
      if (n > max_sparse_entries(p)) continue;
      emit("sparse_" + tag + "_n" + std::to_string(n), Sketch::from_hashes(p, stream(seed++, 0, n)));
    }
  }
  for (int p : {4, 8, 12, 14}) {
    const Sketch s = Sketch::from_hashes(p, stream(seed++, 0, 3 * register_count(p)));
    if (s.encoding() != Encoding::kDense) return 1;
    emit("dense_p" + std::to_string(p), s);
  }
  // A dense sketch with every register at its maximum (the estimator's cap).
  Sketch saturated = Sketch::empty_dense(4);
  for (uint32_t i = 0; i < register_count(4); i++) saturated.add(uint64_t{i} << 60);
  emit("dense_p4_saturated", saturated);

  emit_state("state_set_p4_n2", Sketch::from_hashes(4, stream(seed++, 0, 2)));
  emit_state("state_set_p10_n30", Sketch::from_hashes(10, stream(seed++, 0, 30)));
  emit_state("state_set_p14_n0", Sketch(14));
  return 0;
}
