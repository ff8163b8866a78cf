// Writes the kll fuzz target's seed corpus: valid sketches of several k and
// element kinds (empty, one value, exact, compacted, weighted, merged across
// k, the extremes of double and bigint) and aggregate working states;
// deterministic so that re-running it (make fuzz-corpus) reproduces the
// committed files.
//
//   make_corpus_kll <corpus-dir>    writes <dir>/kll_parse/*.bin and
//                                   <dir>/kll_text/*.hex
//
// The sketches are small (k 8 to 64, a few thousand values) to keep the
// fuzzer fast.
#include <cfloat>
#include <cmath>

#include "corpus_util.h"
#include "kll_test_util.h"

using namespace sketch::kll;
using sketch::ElementKind;
using sketch::fuzz::corpus::Writer;
using sketch::kll::test::Random;
using sketch::kll::test::Sketch;

int main(int argc, char** argv) {
  const Writer out(argc, argv, "kll");
  auto emit = [&](const std::string& name, const Sketch& s) { out.stored(name, s.stored()); };
  auto emit_state = [&](const std::string& name, const Sketch& s) { out.state(name, s.working()); };

  emit("empty_k8", Sketch(8));
  emit("empty_k200", Sketch(200));
  Sketch one(16);
  one.add(42.0);
  emit("one_value_k16", one);
  Sketch exact(32);
  for (int i = 0; i < 20; ++i) exact.add(i * 0.5 - 3);
  emit("exact_k32", exact);
  Random rnd(26);
  Sketch compacted(8);
  for (int i = 0; i < 3000; ++i) compacted.add(rnd.normal());
  emit("compacted_k8", compacted);
  emit_state("state_compacted_k8", compacted);
  Sketch ints(16, ElementKind::kNumber);
  for (int64_t v : {INT64_MIN, int64_t{-1}, int64_t{0}, INT64_MAX, (int64_t{1} << 53) + 1})
    ints.add_int(v);
  for (int i = 0; i < 500; ++i) ints.add_int(static_cast<int64_t>(rnd.next()));
  emit("bigint_k16", ints);
  Sketch dates(8, ElementKind::kDate);
  for (int i = 0; i < 100; ++i) dates.add_int(i % 17);
  emit("date_k8", dates);
  Sketch extremes(8);
  for (double v : {-double{INFINITY}, -DBL_MAX, -0.0, DBL_TRUE_MIN, DBL_MAX, double{INFINITY}})
    extremes.add(v);
  emit("double_extremes_k8", extremes);
  Sketch weighted(16);
  weighted.add(1.0, 1000);
  weighted.add(2.0, uint64_t{1} << 33);
  weighted.add(3.0, 7);
  emit("weighted_k16", weighted);
  emit_state("state_weighted_k16", weighted);
  Sketch wide(64), narrow(8);
  for (int i = 0; i < 2000; ++i) wide.add(i);
  for (int i = 0; i < 2000; ++i) narrow.add(-i);
  wide.merge(narrow);
  emit("merged_k64_k8", wide);
  emit_state("state_merged_k64_k8", wide);
  emit_state("state_empty_k200", Sketch(200));
  return 0;
}
