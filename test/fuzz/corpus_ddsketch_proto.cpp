// Seed corpus of fuzz_ddsketch_proto: DDSketch protobufs as DataDog's
// libraries write them (a logarithmic mapping, dense stores, a zero count),
// and the other shapes the format allows (sparse binCounts, both encodings,
// unpacked counts, unknown fields, offsets, finer and foreign gammas, an
// interpolation), each behind the target's two option bytes (index rule,
// max_scale).
#include <cmath>
#include <string>
#include <vector>

#include "core/ddsketch/ddsketch.h"
#include "corpus_util.h"
#include "protobuf_builder.h"

using sketch::test::dd_contiguous;
using sketch::test::dd_entry;
using sketch::test::dd_mapping;
using sketch::test::Proto;

namespace {

std::vector<uint8_t> seed(uint8_t rule, uint8_t max_scale, const Proto& message) {
  std::vector<uint8_t> out = {rule, static_cast<uint8_t>(max_scale + 1)};
  out.insert(out.end(), message.data().begin(), message.data().end());
  return out;
}

Proto sketch_of(const Proto& mapping, const Proto& positive, const Proto& negative, double zeros) {
  Proto m;
  m.message(1, mapping).message(2, positive).message(3, negative);
  if (zeros != 0) m.dbl(4, zeros);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const sketch::fuzz::corpus::Folder out(argc, argv, "ddsketch_proto");
  const double g6 = sketch::ddsketch::gamma_of(6);
  const double js_default = 1 + 2 * 0.01 / (1 - 0.01);  // sketches-js, relative accuracy 0.01
  std::vector<double> dense;
  for (int i = 0; i < 40; i++) dense.push_back(i % 3 == 0 ? 0 : i);

  out.write("js_default", seed(0, 12, sketch_of(dd_mapping(js_default), dd_contiguous(-20, dense),
                                                  dd_contiguous(5, {1, 2}), 3)));
  out.write("exact_scale6", seed(0, 12, sketch_of(dd_mapping(g6), dd_contiguous(64, dense),
                                                    Proto(), 0)));
  out.write("floor_rule", seed(1, 12, sketch_of(dd_mapping(g6, 7), dd_contiguous(-3, dense),
                                                  Proto(), 1)));
  out.write("finer_folded", seed(0, 10, sketch_of(dd_mapping(sketch::ddsketch::gamma_of(16)),
                                                    dd_contiguous(70000, dense), Proto(), 0)));
  Proto sparse;
  sparse.message(1, dd_entry(-7, 2)).message(1, dd_entry(300, 5)).message(1, dd_entry(0, 1));
  out.write("sparse", seed(0, 12, sketch_of(dd_mapping(1.05, 0.25), sparse, sparse, 0)));
  Proto both = dd_contiguous(-1, {1, 2, 3});
  both.message(1, dd_entry(0, 4)).dbl(2, 9).varint(12, 1);
  out.write("both_encodings", seed(1, 6, sketch_of(dd_mapping(g6), both, Proto(), 0)));
  out.write("cubic", seed(0, 12, sketch_of(dd_mapping(1.02, 0, 3), dd_contiguous(0, {1}),
                                             Proto(), 0)));
  out.write("empty", seed(0, 12, sketch_of(dd_mapping(g6), Proto(), Proto(), 0)));
  out.write("zeros_only", seed(0, 0, sketch_of(dd_mapping(2), Proto(), Proto(), 1e6)));
  return 0;
}
