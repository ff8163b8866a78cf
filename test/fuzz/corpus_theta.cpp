// Writes the theta fuzz targets' seed corpus: a few valid sketches of
// several lg_k (empty, exact while at most k hashes, full with θ below 2^63,
// a union across lg_k, the results of an intersection and a difference,
// extreme hashes and θ, element kinds) and aggregate working states (new,
// grown, full-size and rebuilt, after a union, one long run of slots);
// deterministic so that re-running it (make fuzz-corpus) reproduces the
// committed files.
//
//   make_corpus_theta <corpus-dir>    writes <dir>/theta_parse/*.bin and
//                                     <dir>/theta_text/*.hex
//
// The sketches are small (lg_k at most 8 but for the empty ones, a few
// thousand values) to keep the fuzzer fast.
#include <string>
#include <vector>

#include "corpus_util.h"
#include "theta_test_util.h"

using namespace sketch::theta;
using sketch::fuzz::corpus::Writer;
using sketch::theta::test::Sketch;
using sketch::theta::test::stream_hash;

namespace {

Sketch streamed(int lg_k, uint64_t seed, uint64_t n) {
  Sketch s(lg_k);
  for (uint64_t i = 0; i < n; i++) s.add_hash(stream_hash(seed, i));
  return s;
}

std::vector<uint8_t> with_kind(std::vector<uint8_t> bytes, sketch::ElementKind kind) {
  bytes[sketch::kElementKindOffset] = static_cast<uint8_t>(kind);
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  const Writer out(argc, argv, "theta");
  // One stored sketch: binary into theta_parse, its text into theta_text.
  auto emit = [&](const std::string& name, const std::vector<uint8_t>& stored) {
    test::must_parse(stored, sketch::Validation::kCanonical);
    out.stored(name, stored);
  };
  // A working state: binary only, since only kStructure reads it.
  auto emit_state = [&](const std::string& name, const Sketch& s) {
    if (s.view().encoding != Encoding::kWorking) {
      std::fprintf(stderr, "%s is not a working state\n", name.c_str());
      std::exit(1);
    }
    out.state(name, s.bytes());
  };

  emit("empty_lg4", test::empty_stored(4));
  emit("empty_lg12", test::empty_stored(kDefaultLgK));
  emit("empty_lg24", test::empty_stored(kMaxLgK));

  const Sketch exact_lg4 = streamed(4, 1, 10);
  emit("exact_lg4", exact_lg4.stored());
  emit("exact_lg8", streamed(8, 2, 200).stored());
  emit("one_hash_lg12", streamed(kDefaultLgK, 3, 1).stored());
  emit("exactly_k_lg5", streamed(5, 4, 32).stored());

  // θ below 2^63: the (k+1)-th smallest.
  const Sketch full_lg4 = streamed(4, 5, 1000);
  emit("full_lg4", full_lg4.stored());
  const Sketch full_lg5 = streamed(5, 6, 33);  // k + 1 values: θ just set
  emit("k_plus_one_lg5", full_lg5.stored());
  const Sketch full_lg6 = streamed(6, 7, 3000);
  emit("full_lg6", full_lg6.stored());

  // A union across lg_k: the sketch of the union at the smaller k.
  Sketch merged(streamed(8, 8, 2000).stored());
  merged.merge(streamed(6, 9, 500));
  emit("union_lg8_lg6", merged.stored());

  // Overlapping sets: an intersection and a difference (fewer than k
  // hashes below a θ under 2^63), and an empty intersection.
  Sketch a = streamed(6, 10, 300);
  Sketch b = streamed(6, 11, 200);
  for (uint64_t i = 0; i < 300; i++) b.add_hash(stream_hash(10, i));
  emit("intersection_lg6", test::intersection(a.stored(), b.stored()));
  emit("difference_lg6", test::difference(a.stored(), streamed(6, 10, 150).stored()));
  emit("empty_intersection_lg6",
       test::intersection(full_lg6.stored(), streamed(6, 12, 3000).stored()));

  // Extremes: the largest and smallest kept hashes in exact mode, θ = 1
  // (nothing can be kept).
  emit("extreme_hashes_lg4", test::stored_bytes(4, kThetaExact, {1, 2, (uint64_t{1} << 63) - 1}));
  emit("theta_one_lg4", test::stored_bytes(4, 1, {}));

  emit("kind_number_lg5", with_kind(streamed(5, 13, 100).stored(), sketch::ElementKind::kNumber));
  emit("kind_text_lg4", with_kind(exact_lg4.stored(), sketch::ElementKind::kText));

  // Working states: new (16 slots), exact and grown, full-size and rebuilt,
  // after a union, and one whose hashes share their low bits (one long run
  // of occupied slots).
  Sketch fresh(kDefaultLgK);
  fresh.add(7);
  emit_state("state_new_lg12", fresh);
  emit_state("state_exact_lg4", exact_lg4);
  emit_state("state_grown_lg8", streamed(8, 14, 60));
  emit_state("state_full_lg4", full_lg4);
  emit_state("state_full_lg6", full_lg6);
  Sketch union_state = streamed(5, 15, 20);
  union_state.merge(streamed(5, 16, 40));
  emit_state("state_union_lg5", union_state);
  Sketch run(4);
  for (uint64_t i = 0; i < 200; i++) {
    const uint64_t h = (stream_hash(17, i) >> 1 & ~uint64_t{0x1f}) | (i % 2 ? 0x05 : 0x0a);
    run.add_hash(h << 1);
  }
  emit_state("state_one_run_lg4", run);
  return 0;
}
