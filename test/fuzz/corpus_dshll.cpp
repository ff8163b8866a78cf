// Writes fuzz_dshll_parse's seed corpus: DataSketches HLL sketches this
// project's builder writes (the C++ library's compact form) in each mode,
// target type and a few lgK, deterministic so that re-running it (make
// fuzz-corpus) reproduces the committed files. The libraries' own files are
// not copied here.
#include <string>
#include <vector>

#include "core/common/datasketches_hash.h"
#include "core/hll/dshll_update.h"
#include "corpus_util.h"

using namespace sketch::hll::dshll;

int main(int argc, char** argv) {
  const sketch::fuzz::corpus::Folder out(argc, argv, "dshll_parse");
  for (int lg_k : {4, 8, 12}) {
    for (TgtType type : {TgtType::kHll4, TgtType::kHll6, TgtType::kHll8}) {
      for (int n : {0, 1, 10, 100, 3000}) {
        std::vector<uint32_t> slots(builder_slots(lg_k)), scratch(builder_slots(lg_k));
        std::vector<uint8_t> regs(size_t{1} << lg_k);
        Builder b{lg_k, Mode::kList, 0, 0, slots.data(), scratch.data(), regs.data(), 0, 0, 0};
        start(&b);
        for (int64_t i = 0; i < n; i++) {
          const sketch::Murmur3Hash h = sketch::datasketches::hash_long(i);
          add_coupon(&b, coupon_of(h.h1, h.h2));
        }
        const Model m = model_of(b, type, false);
        std::vector<uint8_t> bytes(compact_size(m));
        write_compact(m, bytes.data());
        out.write(std::string(tgt_type_name(type)) + "_lgk" + std::to_string(lg_k) + "_n" +
                      std::to_string(n),
                  bytes);
      }
    }
  }
  return 0;
}
