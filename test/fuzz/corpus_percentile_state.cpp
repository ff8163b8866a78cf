// Writes the approx_percentile_state fuzz target's seed corpus: stored and
// working ddsketches of several scales followed by requests of one, three
// and two fractions (the ends included); deterministic so that re-running it
// (make fuzz-corpus) reproduces the committed files.
//
//   make_corpus_percentile_state <corpus-dir>   writes <dir>/percentile_state_parse/*.bin
#include <vector>

#include "core/common/with_request.h"
#include "corpus_util.h"
#include "ddsketch_test_util.h"

using sketch::ddsketch::test::params;
using sketch::ddsketch::test::Sketch;
using sketch::fuzz::corpus::Writer;

namespace {

std::vector<uint8_t> with_tail(std::vector<uint8_t> sketch, const std::vector<double>& asked) {
  const size_t at = sketch.size();
  sketch.resize(at + sketch::state::request_size(static_cast<uint32_t>(asked.size())));
  sketch::state::write_request(asked.data(), static_cast<uint32_t>(asked.size()), sketch.data() + at);
  return sketch;
}

}  // namespace

int main(int argc, char** argv) {
  const Writer out(argc, argv, "percentile_state");
  const Sketch few = Sketch::of(params(6), {1, 2, 3, -4, 0});
  const Sketch wide = Sketch::of(params(2, 16), {1e-300, 1e300, -1e300, 5, 7, 11});
  out.state("median_few_stored", with_tail(few.stored(), {0.5}));
  out.state("median_few_working", with_tail(few.bytes(), {0.5}));
  out.state("deciles_wide_stored", with_tail(wide.stored(), {0.1, 0.5, 0.9}));
  out.state("ends_empty_stored", with_tail(Sketch(params(9)).stored(), {0, 1}));
  out.state("ends_empty_working", with_tail(Sketch(params(9)).bytes(), {0, 1}));
  return 0;
}
