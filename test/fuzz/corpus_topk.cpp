// Writes the topk fuzz targets' seed corpus: a few valid summaries of
// several k (empty, exact while at most k items, purged, merged across k,
// clipped and unusual texts, aged copies, N at its limit, element kinds)
// and aggregate working states; deterministic so that re-running it (make
// fuzz-corpus) reproduces the committed files.
//
//   make_corpus_topk <corpus-dir>    writes <dir>/topk_parse/*.bin and
//                                    <dir>/topk_text/*.hex
//
// The summaries are small (k at most 64 but for the empty ones, a few
// hundred values) to keep the fuzzer fast.
#include <cmath>
#include <string>

#include "corpus_util.h"
#include "topk_test_util.h"

using namespace sketch::topk;
using sketch::fuzz::corpus::Writer;
using sketch::topk::test::item_hash;
using sketch::topk::test::Random;
using sketch::topk::test::Summary;

namespace {

// A skewed stream: item i with probability ~ 1/(i+1) over `keys` keys.
Summary skewed(uint32_t k, uint64_t seed, int n, int64_t keys, uint64_t max_weight = 1) {
  Random r(seed);
  Summary s(k);
  for (int i = 0; i < n; i++) {
    const int64_t item = static_cast<int64_t>(std::pow(static_cast<double>(keys), r.uniform())) - 1;
    s.add(item, 1 + r.below(max_weight));
  }
  return s;
}

// A summary whose items have the given texts (the wrapper clips a value's
// text to kMaxItemBytes and marks it), through the same mechanism as
// Summary.
struct Texted {
  sketch::test::StateBuffer<Family> buffer;
  explicit Texted(uint32_t k) : buffer(test::empty_stored(k)) {}

  static Family::Text text_of(void* context) {
    const std::string& t = *static_cast<const std::string*>(context);
    const bool clipped = t.size() > kMaxItemBytes;
    return Family::Text{reinterpret_cast<const uint8_t*>(t.data()),
                        clipped ? kMaxItemBytes : static_cast<uint32_t>(t.size()), clipped};
  }
  void add(int64_t item, uint64_t weight, const std::string& text) {
    Family::Element e =
        Family::element(item_hash(item), weight, &Texted::text_of, const_cast<std::string*>(&text));
    buffer.add(e);
  }
};

std::vector<uint8_t> aged(const std::vector<uint8_t>& stored, double factor) {
  const View v = test::must_parse(stored, sketch::Validation::kCanonical);
  std::vector<uint8_t> out(scaled_size(v, factor));
  write_scaled(v, factor, out.data());
  return out;
}

std::vector<uint8_t> with_kind(std::vector<uint8_t> bytes, sketch::ElementKind kind) {
  bytes[sketch::kElementKindOffset] = static_cast<uint8_t>(kind);
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  const Writer out(argc, argv, "topk");
  // One stored summary: binary into topk_parse, its text into topk_text.
  auto emit = [&](const std::string& name, const std::vector<uint8_t>& stored) {
    test::must_parse(stored, sketch::Validation::kCanonical);
    out.stored(name, stored);
  };
  // A working state: binary only, since only kStructure reads it.
  auto emit_state = [&](const std::string& name, const Summary& s) { out.state(name, s.bytes()); };

  emit("empty_k1", Summary(1).stored());
  emit("empty_k16", Summary(16).stored());
  emit("empty_k1024", Summary().stored());
  emit("empty_k65536", Summary(kMaxK).stored());

  Summary exact(16);
  for (int64_t i = 0; i < 10; i++) exact.add(i, static_cast<uint64_t>(i + 1));
  emit("exact_k16", exact.stored());
  Summary one(1);
  one.add(42, 7);
  emit("one_item_k1", one.stored());

  const Summary purged_k4 = skewed(4, 1, 300, 50);
  emit("purged_k4", purged_k4.stored());
  emit("purged_k1", skewed(1, 2, 100, 20).stored());
  emit("purged_k2_weighted", skewed(2, 3, 200, 30, 20).stored());
  const Summary purged_k32 = skewed(32, 4, 2000, 1000);
  emit("purged_k32", purged_k32.stored());

  // Merged across k: the union has the smaller k.
  Summary merged(skewed(64, 5, 500, 300).stored());
  merged.merge(skewed(16, 6, 500, 300));
  emit("merged_k64_k16", merged.stored());

  // Texts: clipped (longer than kMaxItemBytes), exactly kMaxItemBytes,
  // empty, and bytes that are not ASCII.
  Texted texted(8);
  texted.add(1, 5, std::string(kMaxItemBytes + 500, 'c'));
  texted.add(2, 3, std::string(kMaxItemBytes, 'e'));
  texted.add(3, 2, "");
  texted.add(4, 9, "caf\xc3\xa9 \x01\x7f");
  texted.add(1, 1, "not asked: already held");
  emit("clipped_texts_k8", texted.buffer.stored());

  // Aged copies (topk_scale): counters and N floored, Δ ceiled.
  emit("scaled_half_k32", aged(purged_k32.stored(), 0.5));
  emit("scaled_tiny_k4", aged(purged_k4.stored(), 0.01));

  Summary full(4);
  full.add(1, kMaxTotal - 1);
  full.add(2, 1);
  emit("max_total_k4", full.stored());

  emit("kind_number_k16", with_kind(exact.stored(), sketch::ElementKind::kNumber));
  emit("kind_text_k4", with_kind(purged_k4.stored(), sketch::ElementKind::kText));

  // Working states: new (a few slots), exact, full and purged, after a
  // union (all 2k slots), with clipped texts.
  Summary fresh(1024);
  fresh.add(7);
  emit_state("state_new_k1024", fresh);
  emit_state("state_exact_k16", exact);
  emit_state("state_purged_k4", purged_k4);
  emit_state("state_merged_k16", merged);
  out.state("state_clipped_texts_k8", texted.buffer.bytes());
  return 0;
}
