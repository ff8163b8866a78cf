// Writes the ddsketch fuzz targets' seed corpus: a few valid sketches of
// several scales and limits, every kind of store (empty, zeros only,
// negative only, mixed, collapsed, the extremes of double), and aggregate
// working states; deterministic so that re-running it (make fuzz-corpus)
// reproduces the committed files.
//
//   make_corpus_ddsketch <corpus-dir>    writes <dir>/ddsketch_parse/*.bin and
//                                        <dir>/ddsketch_text/*.hex
//
// The sketches are small (at most a few hundred values, kept to a few KB)
// to keep the fuzzer fast.
#include <cfloat>
#include <cmath>

#include "corpus_util.h"
#include "ddsketch_test_util.h"

using namespace sketch::ddsketch;
using sketch::ddsketch::test::params;
using sketch::ddsketch::test::Random;
using sketch::ddsketch::test::Sketch;
using sketch::fuzz::corpus::Writer;

namespace {

std::vector<double> spread(uint64_t seed, int n, double width, double negative_share) {
  Random r(seed);
  std::vector<double> out;
  for (int i = 0; i < n; i++) {
    const double v = std::exp(r.normal() * width);
    out.push_back(r.uniform() < negative_share ? -v : v);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const Writer out(argc, argv, "ddsketch");
  // One stored sketch: binary into ddsketch_parse, its text into ddsketch_text.
  auto emit = [&](const std::string& name, const Sketch& s) { out.stored(name, s.stored()); };
  // A working state: binary only, since only kStructure reads it.
  auto emit_state = [&](const std::string& name, const Sketch& s) { out.state(name, s.bytes()); };

  emit("empty_s0_m16", Sketch(params(0, 16)));
  emit("empty_s6_m2048", Sketch(params(6, 2048)));
  emit("empty_s12_m65536", Sketch(params(12, 65536)));
  emit("one_value_s6", Sketch::of(params(6), {1.0}));
  emit("zeros_only_s6", Sketch::of(params(6), {0.0, -0.0, 0.0}));
  emit("negative_only_s4", Sketch::of(params(4), {-1.5, -2, -1000, -0.001}));
  emit("repeated_value_s6", Sketch::of(params(6), std::vector<double>(300, 42.0)));
  uint64_t seed = 1;
  for (int scale : {0, 3, 6, 9, 12}) {
    const std::string tag = "s" + std::to_string(scale);
    emit("mixed_" + tag, Sketch::of(params(scale, 4096), spread(seed++, 40, 2, 0.3)));
  }
  // Collapsed stores: wide values against 16 and 64 buckets.
  emit("collapsed_both_s2_m16", Sketch::of(params(2, 16), spread(seed++, 200, 20, 0.5)));
  emit("collapsed_positive_s6_m64", Sketch::of(params(6, 64), spread(seed++, 200, 3, 0)));
  // A collapsed store folded to a coarser scale (the bytes that may differ
  // from a single pass, ddsketch.h).
  emit("collapsed_folded_s1_to_s0",
       Sketch::of(params(1, 16), {std::ldexp(1.0, -4), std::ldexp(1.0, 8)}).folded(0, 16));
  emit("extremes_s0_m16",
       Sketch::of(params(0, 16), {DBL_MAX, -DBL_MAX, DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_MIN, 0.0}));
  emit("denormals_s8", Sketch::of(params(8), {DBL_TRUE_MIN, 3 * DBL_TRUE_MIN, 1e-310, 2e-320}));
  emit("cancelling_sum_s6", Sketch::of(params(6), {1e308, 1, -1e308}));

  emit_state("state_empty_s6", Sketch(params(6, 2048)));
  emit_state("state_mixed_s5_m32", Sketch::of(params(5, 32), spread(seed++, 60, 3, 0.4)));
  emit_state("state_positive_s9", Sketch::of(params(9), spread(seed++, 30, 0.1, 0)));
  return 0;
}
