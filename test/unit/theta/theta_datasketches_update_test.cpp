// theta_datasketches_agg's core (theta_datasketches.h, "building"): the
// stream 0..n-1 added as the libraries' update(long) hashes it gives, for
// every shipped theta file built from such a stream, the library's entries,
// θ and (through the export) bytes; the Java update sketch's table holds
// the same entries; and for small k, where rebuilds come every few dozen
// values, the sketch equals a reference written from the libraries' rule
// (insert, then rebuild to the k smallest past 15/16 of 2k slots) for every
// stream length.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/datasketches_hash.h"
#include "core/theta/theta_datasketches.h"
#include "core/theta/theta_datasketches_family.h"
#include "core/theta/theta_internal.h"
#include "datasketches_files.h"
#include "state_buffer.h"
#include "theta_datasketches_util.h"

namespace sketch::theta::datasketches {
namespace {

namespace files = sketch::test::datasketches_files;
using Sketch = sketch::test::StateBuffer<UpdateFamily>;
using namespace test_util;

Sketch new_update(int lg_k) {
  std::vector<uint8_t> bytes(new_working_size(lg_k));
  write_new_update(lg_k, bytes.data());
  return Sketch(std::move(bytes));
}

void add_long(Sketch* s, int64_t i) {
  UpdateFamily::Element e{update_hash(sketch::datasketches::hash_long(i).h1)};
  s->add(e);
}

// The stored form of the update sketch of 0..n-1 at lg_k.
std::vector<uint8_t> built(int64_t n, int lg_k) {
  Sketch s = new_update(lg_k);
  for (int64_t i = 0; i < n; i++) add_long(&s, i);
  return s.stored();
}

std::vector<uint64_t> hashes_of(const View& v) {
  std::vector<uint64_t> out;
  for (uint32_t i = 0; i < v.count; i++) out.push_back(stored_hash(v, i));
  return out;
}

// The libraries' update sketch from their rule alone: a set of the entries
// below θ; once an insert makes it more than 15/16 of 2k, θ = its (k+1)-th
// smallest and the k smallest stay.
struct Reference {
  uint64_t theta = kThetaExact;
  std::vector<uint64_t> entries;  // ascending
};

Reference reference(int64_t n, int lg_k) {
  const size_t k = size_t{1} << lg_k, limit = 2 * k - 2 * k / 16;
  Reference r;
  for (int64_t i = 0; i < n; i++) {
    const uint64_t h = sketch::datasketches::hash_long(i).h1 >> 1;
    if (h == 0 || h >= std::min(r.theta, kLibraryThetaExact)) continue;
    auto at = std::lower_bound(r.entries.begin(), r.entries.end(), h);
    if (at != r.entries.end() && *at == h) continue;
    r.entries.insert(at, h);
    if (r.entries.size() > limit) {
      r.theta = r.entries[k];
      r.entries.resize(k);
    }
  }
  return r;
}

TEST(ThetaDatasketchesUpdate, EveryShippedStreamFileIsBuiltFromItsStream) {
  SKETCH_REQUIRE_DATASKETCHES_FILES(dir);
  int compared = 0, same_bytes = 0;
  for (const files::Entry& e : files::entries(dir, "theta_")) {
    const int64_t n = stream_length(e.verification);
    if (n < 0 || e.fields.at("famId") != "3") continue;
    SCOPED_TRACE(e.file);
    const std::vector<uint8_t> file = files::read_file(dir + "/" + e.file);
    const std::vector<uint8_t> lib_bytes = import_or_fail(file);
    const View lib = must_view(lib_bytes);
    const std::vector<uint8_t> ours_bytes = built(n, 12);
    const View ours = must_view(ours_bytes);
    EXPECT_EQ(ours.hash_identity, kDatasketchesIdentity);
    EXPECT_EQ(ours.lg_k, lib.lg_k);
    EXPECT_EQ(ours.theta, lib.theta);
    EXPECT_EQ(ours.count, lib.count);
    EXPECT_EQ(hashes_of(ours), hashes_of(lib));
    const bool same = exported(ours, e.fields.at("serVer") == "4") == file;
    if (e.file.rfind("cpp_generated_files/", 0) == 0) {
      EXPECT_TRUE(same);
    }
    same_bytes += same;
    compared++;
  }
  // 14 C++, 14 Go, 14 Java files of 0..n-1 (not the sampled ones without
  // entries, nor the update sketch) and the two Java v1/v2 files of 0..8191
  EXPECT_EQ(compared, 44);
  // the bytes of all but Java's empty (seed hash 0), Java's single item
  // (single-item flag) and the v1/v2 files: the export is the C++ library's
  // serial version 3 or 4
  EXPECT_EQ(same_bytes, 40);
}

// The Java library's serialized update sketch of 0..9999 (family 2, not
// importable): its table holds the entries the built sketch holds.
TEST(ThetaDatasketchesUpdate, JavaUpdateSketchTableHoldsTheBuiltEntries) {
  SKETCH_REQUIRE_DATASKETCHES_FILES(dir);
  const auto b = files::read_file(dir + "/cpp_test_files/theta_update_estimation_from_java.sk");
  ASSERT_EQ(b.size(), 24u + 8u * 8192u);  // 3 preamble longs, lgArrLongs 13
  ASSERT_EQ(b[2], 2);
  ASSERT_EQ(b[3], 12);  // lgNomLongs
  std::vector<uint64_t> table;
  for (size_t i = 0; i < 8192; i++) {
    const uint64_t h = load_le64(&b[24 + 8 * i]);
    if (h != 0) table.push_back(h);
  }
  std::sort(table.begin(), table.end());
  EXPECT_EQ(table.size(), load_le32(&b[8]));
  const std::vector<uint8_t> ours_bytes = built(10000, 12);
  const View ours = must_view(ours_bytes);
  EXPECT_EQ(ours.theta, load_le64(&b[16]));
  EXPECT_EQ(hashes_of(ours), table);
}

// Small k: rebuilds every few dozen values, compared at every length with
// the reference; and at the default k the exact/estimation boundary is at
// 15k/8 entries, not k.
TEST(ThetaDatasketchesUpdate, RebuildsWhenTheLibrariesDo) {
  for (int lg_k : {4, 5, 7}) {
    Sketch s = new_update(lg_k);
    for (int64_t n = 1; n <= 40 * (int64_t{1} << lg_k); n++) {
      add_long(&s, n - 1);
      if (n % 7 != 0 && n > 300) continue;
      SCOPED_TRACE(testing::Message() << "lg_k " << lg_k << " n " << n);
      const Reference r = reference(n, lg_k);
      const std::vector<uint8_t> stored = s.stored();
      const View v = must_view(stored);
      ASSERT_EQ(v.theta, r.theta);
      ASSERT_EQ(hashes_of(v), r.entries);
      ASSERT_EQ(v.lg_k, lg_k_holding(lg_k, r.entries.size()));
    }
  }
  const std::vector<uint8_t> full_bytes = built(7680, 12);
  const View full = must_view(full_bytes);
  EXPECT_EQ(full.theta, kThetaExact);
  EXPECT_EQ(full.count, 7680u);
  EXPECT_EQ(full.lg_k, 13);
  const std::vector<uint8_t> rebuilt_bytes = built(7681, 12);
  const View rebuilt = must_view(rebuilt_bytes);
  EXPECT_LT(rebuilt.theta, kThetaExact);
  EXPECT_EQ(rebuilt.count, 4096u);
  EXPECT_EQ(rebuilt.lg_k, 12);
}

// A combine (two partial states) holds every hash of the union below its
// θ; a union with an import of the library's bytes is the import's union
// with the built sketch; identity 3 never meets identity 1.
TEST(ThetaDatasketchesUpdate, MergesHoldEveryHashBelowTheta) {
  Sketch a = new_update(8), b = new_update(8);
  for (int64_t i = 0; i < 3000; i++) add_long(i % 2 ? &a : &b, i);
  const std::vector<uint8_t> b_stored = b.stored();
  ASSERT_TRUE(a.merge(must_view(b_stored)).is_ok());
  const std::vector<uint8_t> u_bytes = a.stored();
  const View u = must_view(u_bytes);
  std::vector<uint64_t> want;
  for (int64_t i = 0; i < 3000; i++) {
    const uint64_t h = sketch::datasketches::hash_long(i).h1 >> 1;
    if (h < u.theta) want.push_back(h);
  }
  std::sort(want.begin(), want.end());
  EXPECT_EQ(hashes_of(u), want);
  EXPECT_GE(u.count, 256u);

  std::vector<uint8_t> ours(empty_size());
  write_empty(8, ours.data());
  EXPECT_EQ(check_combinable(u, must_view(ours)).code(), StatusCode::kMismatch);
}

TEST(ThetaDatasketchesUpdate, SkipsWhatTheLibrariesSkip) {
  EXPECT_EQ(update_hash(~uint64_t{0}), 0u);  // h1 >> 1 = 2^63 - 1: not below their θ
  EXPECT_EQ(update_hash(~uint64_t{0} - 1), 0u);
  EXPECT_EQ(update_hash(~uint64_t{0} - 2), ~uint64_t{0} - 2);
  EXPECT_EQ(update_hash(12345), 12345u);
}

}  // namespace
}  // namespace sketch::theta::datasketches
