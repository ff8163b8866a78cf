// Writes the cms fuzz targets' seed corpus: stored sketches of several
// shapes (plain and conservative, with and without a candidate list, empty,
// a few values, a Zipf stream, a clipped text, saturated counts) and a few
// aggregate working states, all with small width and depth to keep the
// corpus small and the fuzzer fast. Deterministic (make fuzz-corpus).
//
//   make_corpus_cms <corpus-dir>    writes <dir>/cms_parse/*.bin and
//                                   <dir>/cms_text/*.hex
#include "cms_test_util.h"
#include "corpus_util.h"

using namespace sketch::cms;
using sketch::cms::test::Sketch;
using sketch::cms::test::Zipf;

int main(int argc, char** argv) {
  const sketch::fuzz::corpus::Writer out(argc, argv, "cms");
  auto emit = [&](const std::string& name, const Sketch& s) { out.stored(name, s.canonical()); };

  struct Shape {
    const char* tag;
    Params params;
  };
  const Shape shapes[] = {
      {"1x1_k0", test::params(1, 1, false, 0)},
      {"4x2_k3", test::params(4, 2, false, 3)},
      {"16x2_k4_cons", test::params(16, 2, true, 4)},
      {"64x3_k10", test::params(64, 3, false, 10)},
      {"32x4_k0_cons", test::params(32, 4, true, 0)},
  };
  uint64_t seed = 1;
  for (const Shape& shape : shapes) {
    const std::string tag = shape.tag;
    emit("empty_" + tag, Sketch(shape.params));
    Sketch few(shape.params);
    few.add(7, 3);
    few.add(42, 2);
    emit("few_" + tag, few);
    Sketch zipf(shape.params);
    zipf.add_all(Zipf(200, 1.1, seed++).take(300));
    emit("zipf_" + tag, zipf);
  }

  // Texts: one clipped at kMaxValueBytes, one empty, one multi-byte.
  Sketch texts(test::params(8, 2, false, 4));
  texts.add_hash(1, 5, std::string(kMaxValueBytes + 10, 'x'));
  texts.add_hash(2, 1, "");
  texts.add_hash(3, 2, "\xc3\xa9t\xc3\xa9");
  emit("texts_8x2_k4", texts);

  // Saturated: N and a counter at 2^63 - 1.
  Sketch saturated(test::params(4, 2, false, 2));
  saturated.add(1, kMaxCount);
  saturated.add(2, 5);
  emit("saturated_4x2_k2", saturated);
  Sketch saturated_cons(test::params(4, 2, true, 2));
  saturated_cons.add(1, kMaxCount - 1);
  saturated_cons.add(2, 5);
  emit("saturated_4x2_k2_cons", saturated_cons);

  // Aggregate working states (binary only).
  out.state("state_empty_4x2_k3", Sketch(test::params(4, 2, false, 3)).bytes());
  Sketch state(test::params(16, 2, true, 4));
  state.add_all(Zipf(50, 1.2, seed++).take(100));
  out.state("state_zipf_16x2_k4_cons", state.bytes());
  Sketch state_k0(test::params(8, 3, false, 0));
  state_k0.add_all({1, 2, 3});
  out.state("state_8x3_k0", state_k0.bytes());
  return 0;
}
