// Writes the cuckoo fuzz targets' seed corpus: stored filters of bucket sizes
// 2, 4 and 8 and several fingerprint widths (empty, a few values, filled to
// the first refusal, bucket counts that are not powers of two, one bucket,
// grown chains of sub-filters, a multiset holding one value 2b + 1 times,
// unions across bucket counts, element kinds) and aggregate working states
// (a grown chain, unions with a zero tail left by set semantics). Small
// filters throughout (at most a few hundred buckets) to keep the fuzzer
// fast; larger ones differ only in length. Deterministic (make fuzz-corpus).
//
//   make_corpus_cuckoo <corpus-dir>    writes <dir>/cuckoo_parse/*.bin and
//                                      <dir>/cuckoo_text/*.hex
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "corpus_util.h"
#include "cuckoo_test_util.h"

using namespace sketch::cuckoo;
using sketch::cuckoo::test::Filter;
using sketch::cuckoo::test::key_hash;

namespace {

Filter filled(Params p, uint64_t seed, uint64_t n, bool only_new = false) {
  Filter f(p);
  for (uint64_t i = 0; i < n; i++) f.add(key_hash(seed, i), only_new);
  return f;
}

std::vector<uint8_t> with_kind(std::vector<uint8_t> bytes, sketch::ElementKind kind) {
  bytes[sketch::kElementKindOffset] = static_cast<uint8_t>(kind);
  return bytes;
}

void must_parse(const std::string& name, const std::vector<uint8_t>& bytes,
                sketch::Validation validation, Encoding encoding) {
  View v;
  const sketch::Status st = parse(bytes.data(), bytes.size(), validation, &v);
  if (!st.is_ok() || v.encoding != encoding) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), st.is_ok() ? "wrong encoding" : st.message());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const sketch::fuzz::corpus::Writer out(argc, argv, "cuckoo");
  // One stored filter: binary into cuckoo_parse, its text into cuckoo_text.
  auto emit = [&](const std::string& name, const std::vector<uint8_t>& stored) {
    must_parse(name, stored, sketch::Validation::kCanonical, Encoding::kStored);
    out.stored(name, stored);
  };
  // A working state: binary only, since only kStructure reads it.
  auto emit_state = [&](const std::string& name, const Filter& f,
                        Encoding encoding = Encoding::kSpareTail) {
    must_parse(name, f.bytes(), sketch::Validation::kStructure, encoding);
    out.state(name, f.bytes());
  };

  struct Shape {
    uint64_t buckets;
    int f;
    int b;
  };
  uint64_t seed = 1;
  for (const Shape s : {Shape{1, 4, 2}, Shape{3, 8, 2}, Shape{16, 12, 4}, Shape{13, 7, 4},
                        Shape{5, 16, 8}, Shape{64, 9, 8}, Shape{2, 32, 4}}) {
    const Params p{s.buckets, s.f, s.b};
    const std::string tag = "B" + std::to_string(s.buckets) + "_f" + std::to_string(s.f) + "_b" +
                            std::to_string(s.b);
    emit("empty_" + tag, Filter(p).stored().bytes());
    const uint64_t slots = s.buckets * s.b;
    for (uint64_t n : {uint64_t{1}, slots / 2 + 1, slots}) {
      emit("n" + std::to_string(n) + "_" + tag, filled(p, seed++, n).stored().bytes());
    }
  }

  // Sized as cuckoo_empty sizes them, filled to capacity and a bit past it
  // (the first refusal grows a chain of sub-filters).
  for (int b : {2, 4, 8}) {
    const Params p = test::params_for(100, 0.05, b);
    const std::string tag = "n100_b" + std::to_string(b);
    emit("sized_" + tag, filled(p, seed++, 100).stored().bytes());
    emit("grown_" + tag, filled(p, seed++, 400).stored().bytes());
  }
  // A long chain: one bucket, growing to 6 sub-filters.
  emit("chain_B1_f6_b2", filled(Params{1, 6, 2}, seed++, 100).stored().bytes());
  // A multiset: one value 2b + 1 times (the last copy grows the filter).
  Filter multi(Params{8, 10, 4});
  for (int i = 0; i < 9; i++) multi.add(key_hash(seed, 0));
  seed++;
  emit("multiset_9_B8_f10_b4", multi.stored().bytes());
  // add_new (set semantics of cuckoo_agg) with repeats.
  emit("add_new_B32_f8_b4", filled(Params{32, 8, 4}, seed++, 60, true).stored().bytes());
  // Deletes leave holes.
  Filter holes = filled(Params{24, 8, 4}, seed, 60);
  for (uint64_t i = 0; i < 60; i += 3) holes.remove(key_hash(seed, i));
  seed++;
  emit("holes_B24_f8_b4", holes.stored().bytes());

  // Unions: the same bucket count, and across bucket counts (sub-filters
  // appended for the other side's).
  Filter u1 = filled(Params{16, 8, 4}, seed++, 40);
  u1.merge(filled(Params{16, 8, 4}, seed++, 40));
  emit("union_B16_B16_f8_b4", u1.stored().bytes());
  Filter u2 = filled(Params{16, 8, 4}, seed++, 30);
  u2.merge(filled(Params{7, 8, 4}, seed++, 20));
  emit("union_B16_B7_f8_b4", u2.stored().bytes());
  emit_state("state_union_B16_B7_f8_b4", u2);

  emit("kind_number_B4_f8_b4",
       with_kind(filled(Params{4, 8, 4}, seed++, 5).stored().bytes(), sketch::ElementKind::kNumber));
  emit("kind_text_B4_f12_b2",
       with_kind(filled(Params{4, 12, 2}, seed++, 5).stored().bytes(), sketch::ElementKind::kText));

  // Working states: a grown chain; a union with itself and with overlapping
  // filters, which leaves a zero tail (set semantics skips what a holds).
  emit_state("state_grown_B2_f8_b2", filled(Params{2, 8, 2}, seed++, 20));
  Filter self = filled(Params{8, 8, 4}, seed++, 20);
  self.merge(self);
  emit_state("state_self_union_B8_f8_b4", self);
  Filter tail = filled(Params{8, 6, 2}, seed, 10);
  tail.merge(filled(Params{8, 6, 2}, seed, 12));
  seed++;
  emit_state("state_tail_B8_f6_b2", tail);
  Filter tail2 = filled(Params{5, 16, 8}, seed++, 10);
  tail2.merge(filled(Params{3, 16, 8}, seed++, 5));
  tail2.merge(filled(Params{5, 16, 8}, seed++, 10));
  emit_state("state_unions_B5_B3_f16_b8", tail2);
  // Deferred states (cuckoo_agg's queue of hashes added later): a partly
  // filled queue, and a full one over a filter that grew while adding.
  Filter queued = Filter::deferred(Params{16, 10, 4});
  for (uint64_t i = 0; i < 7; i++) queued.add(sketch::cuckoo::test::key_hash(seed, i), true);
  seed++;
  emit_state("state_deferred_7_queued_B16_f10_b4", queued, Encoding::kDeferred);
  Filter full = Filter::deferred(Params{4, 8, 4});
  for (uint64_t i = 0; i < 60; i++) full.add(sketch::cuckoo::test::key_hash(seed, i), true);
  seed++;
  emit_state("state_deferred_full_grown_B4_f8_b4", full, Encoding::kDeferred);
  // cuckoo_agg's distinct states (issue 32's seen set), without and with a
  // queue (issue 29): repeated values, a seen set that grew, a filter that
  // grew, and values still queued.
  for (const Encoding e : {Encoding::kDistinct, Encoding::kDistinctDeferred}) {
    Filter d = Filter::distinct_as(Params{4, 8, 4}, e);
    for (uint64_t i = 0; i < 40; i++) d.add_distinct(sketch::cuckoo::test::key_hash(seed, i % 25));
    seed++;
    emit_state(e == Encoding::kDistinct ? "state_distinct_grown_B4_f8_b4"
                                        : "state_distinct_queued_grown_B4_f8_b4",
               d, e);
  }
  return 0;
}
