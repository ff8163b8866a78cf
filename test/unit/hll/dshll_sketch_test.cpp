// Hash identity 3 inside hll (core/hll/dshll.h): the stored and working
// encodings, the HIP estimate of an import, adds and merges.
#include <gtest/gtest.h>

#include <vector>

#include "core/common/datasketches_hash.h"
#include "core/hll/dshll.h"
#include "core/hll/dshll_codec.h"
#include "core/hll/hll_family.h"

namespace sketch::hll::dshll {
namespace {

using Bytes = std::vector<uint8_t>;

uint32_t coupon(int64_t v) {
  const Murmur3Hash h = datasketches::hash_long(v);
  return coupon_of(h.h1, h.h2);
}

Bytes working_of(int lg_k, TgtType type, int64_t from, int64_t to) {
  Bytes state(working_size_for(lg_k));
  write_empty_working(lg_k, type, state.data());
  for (int64_t i = from; i < to; i++) add(state.data(), coupon(i));
  return state;
}

View view(const Bytes& b, Validation validation = Validation::kCanonical) {
  View v;
  const Status st = hll::parse(b.data(), b.size(), validation, &v);
  EXPECT_TRUE(st.is_ok()) << st.message();
  return v;
}

Bytes stored(const Bytes& working) {
  const View v = view(working, Validation::kStructure);
  Bytes out(hll::stored_size(v));
  hll::write_stored(v, out.data());
  return out;
}

Bytes exported(const Bytes& s) {
  const View v = view(s);
  Bytes out(export_size(v, tgt_type(v)));
  write_export(v, tgt_type(v), out.data());
  return out;
}

Bytes imported(const Bytes& library) {
  Parsed p;
  EXPECT_TRUE(dshll::parse(library.data(), library.size(), &p).is_ok());
  Bytes out(stored_size_of(p));
  write_stored_of(p, out.data());
  return out;
}

TEST(DsHllSketch, WorkingStatesAreRecognisedInO1) {
  const Bytes w = working_of(12, TgtType::kHll4, 0, 10);
  EXPECT_TRUE(is_working(w.data(), w.size()));
  EXPECT_TRUE(hll::Family::is_working(w.data(), w.size()));
  EXPECT_FALSE(is_working(w.data(), w.size() - 1));
  View v;
  EXPECT_FALSE(hll::parse(w.data(), w.size(), Validation::kCanonical, &v).is_ok());
}

TEST(DsHllSketch, AnImportAnswersItsHipEstimateUntilAnAdd) {
  const Bytes library = exported(stored(working_of(12, TgtType::kHll8, 0, 100000)));
  const Bytes s = imported(library);
  const View v = view(s);
  EXPECT_TRUE(answers_hip(v));
  Parsed p;
  ASSERT_TRUE(dshll::parse(library.data(), library.size(), &p).is_ok());
  EXPECT_EQ(hll::estimate(v), p.hip_accum);
  EXPECT_EQ(exported(s), library);
  // An add: this project's estimator on the same registers.
  Bytes w(working_size(v));
  write_working(v, w.data());
  add(w.data(), coupon(5));  // already there: the registers do not change
  const Bytes after_bytes = stored(w);
  const View after = view(after_bytes);
  EXPECT_FALSE(answers_hip(after));
  EXPECT_NEAR(hll::estimate(after), 100000, 5 * 0.0163 * 100000);
}

TEST(DsHllSketch, UnionsOfHalvesHaveTheWholeStreamsRegisters) {
  for (int n : {10, 300, 5000, 100000}) {
    SCOPED_TRACE(n);
    const Bytes whole = stored(working_of(12, TgtType::kHll8, 0, n));
    Bytes a = working_of(12, TgtType::kHll8, 0, n / 2);
    const Bytes b = stored(working_of(12, TgtType::kHll8, n / 2, n));
    const View va = view(a, Validation::kStructure), vb = view(b);
    bool in_place;
    size_t size;
    ASSERT_TRUE(plan_merge(va, vb, &in_place, &size).is_ok());
    EXPECT_TRUE(in_place);
    merge(a.data(), va, vb, true, nullptr);
    const Bytes union_bytes = stored(a);
    const View u = view(union_bytes), w = view(whole);
    EXPECT_EQ(mode(u), mode(w));
    EXPECT_EQ(filled(u), filled(w));
    EXPECT_EQ(hll::estimate(u), hll::estimate(w));
    if (mode(w) == Mode::kHll) {
      const Bytes eu = exported(stored(a)), ew = exported(whole);
      EXPECT_EQ(Bytes(eu.begin() + 40, eu.end()), Bytes(ew.begin() + 40, ew.end()));
    }
  }
}

TEST(DsHllSketch, DifferentLgKMergeAtTheSmaller) {
  const Bytes a = stored(working_of(12, TgtType::kHll8, 0, 20000));
  const Bytes b = stored(working_of(10, TgtType::kHll8, 10000, 30000));
  const View va = view(a), vb = view(b);
  bool in_place;
  size_t size;
  ASSERT_TRUE(plan_merge(va, vb, &in_place, &size).is_ok());
  EXPECT_FALSE(in_place);
  Bytes dst(size);
  merge(nullptr, va, vb, false, dst.data());
  const Bytes union_bytes = stored(dst);
  const View u = view(union_bytes);
  EXPECT_EQ(u.p, 10);
  const Bytes whole = stored(working_of(10, TgtType::kHll8, 0, 30000));
  const Bytes eu = exported(stored(dst)), ew = exported(whole);
  EXPECT_EQ(Bytes(eu.begin() + 40, eu.end()), Bytes(ew.begin() + 40, ew.end()));
}

TEST(DsHllSketch, MergesWithOtherIdentitiesAreRefused) {
  const Bytes ds = stored(working_of(12, TgtType::kHll4, 0, 3));
  Bytes native(hll::sparse_size(0));
  hll::write_empty(native.data(), 14);
  hll::MergePlan plan;
  const Status st = hll::Family::plan_merge(view(native), view(ds), &plan);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_NE(std::string(st.message()).find("identity 3"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace sketch::hll::dshll
