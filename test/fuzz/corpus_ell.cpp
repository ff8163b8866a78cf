// Writes the ell fuzz target's seed corpus: valid sketches of each encoding
// over a range of precisions and sizes, merged and unmerged, deterministic so
// that re-running it (make fuzz-corpus) reproduces the committed files.
//
//   make_corpus_ell <corpus-dir>    writes <dir>/ell_parse/*.bin
//
// Dense sketches stop at p = 10 (3.6 KiB) to keep the corpus small.
#include "corpus_util.h"
#include "ell_test_util.h"
#include "hll_test_util.h"

using namespace sketch::ell;
using sketch::ell::test::Sketch;
using sketch::fuzz::corpus::Folder;
using sketch::hll::test::stream;

int main(int argc, char** argv) {
  const Folder out(argc, argv, "ell_parse");
  uint64_t seed = 1;
  for (int p : {4, 10, 18}) {
    const std::string tag = "p" + std::to_string(p);
    out.write("empty_" + tag, Sketch(p).canonical());
    for (uint64_t n : {1, 3, 12}) {
      out.write("sparse_" + tag + "_n" + std::to_string(n),
                Sketch::from_hashes(p, stream(seed++, 0, n)).canonical());
    }
  }
  for (int p : {4, 6, 10}) {
    const Sketch s = Sketch::from_hashes(p, stream(seed++, 0, 8 * register_count(p)));
    if (s.encoding() != Encoding::kDense) return 1;
    out.write("dense_unmerged_p" + std::to_string(p), s.canonical());
    out.write("dense_merged_p" + std::to_string(p),
              s.united(Sketch::from_hashes(p, stream(seed++, 0, 2))).canonical());
  }
  out.write("sparse_merged_p10", Sketch::from_hashes(10, stream(seed++, 0, 5))
                                     .united(Sketch::from_hashes(10, stream(seed++, 0, 5)))
                                     .canonical());
  out.write("state_set_p10_n30", Sketch::from_hashes(10, stream(seed++, 0, 30)).bytes());
  out.write("state_set_p4_n0", Sketch(4).bytes());
  return 0;
}
