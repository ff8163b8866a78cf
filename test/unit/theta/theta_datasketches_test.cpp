// DataSketches' compact theta sketches (core/theta/theta_datasketches.h):
// every shipped theta file of the C++, Java and Go libraries (MANIFEST.tsv)
// imports with its θ, entry count and estimate, its entries are exactly
// {h1(i) >> 1 < θ : i in the stream} of DataSketches' hashing, and the
// export gives the C++ library's bytes back; identity 3 sketches never
// combine with identity 1; malformed bytes are refused naming what.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/datasketches_hash.h"
#include "core/theta/theta.h"
#include "core/theta/theta_datasketches.h"
#include "core/theta/theta_internal.h"
#include "datasketches_files.h"
#include "theta_datasketches_util.h"

namespace sketch::theta::datasketches {
namespace {

namespace files = test::datasketches_files;
using namespace test_util;

// {h1(i) >> 1 < θ : 0 <= i < n}, ascending.
std::vector<uint64_t> stream_entries(int64_t n, uint64_t theta) {
  std::vector<uint64_t> out;
  for (int64_t i = 0; i < n; i++) {
    const uint64_t h = sketch::datasketches::hash_long(i).h1 >> 1;
    if (h < theta) out.push_back(h);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ThetaDatasketches, EveryShippedFileImportsAsItsManifestSays) {
  SKETCH_REQUIRE_DATASKETCHES_FILES(dir);
  const auto entries = files::entries(dir, "theta_");
  ASSERT_EQ(entries.size(), 50u);
  int checked_streams = 0, same_bytes = 0;
  for (const files::Entry& e : entries) {
    SCOPED_TRACE(e.file);
    const std::vector<uint8_t> bytes = files::read_file(dir + "/" + e.file);
    ASSERT_EQ(bytes.size(), e.bytes);
    Status st;
    const std::vector<uint8_t> stored = import_bytes(bytes, &st);
    if (e.fields.at("famId") == "2") {  // the update sketch
      EXPECT_EQ(st.code(), StatusCode::kInvalidParameter);
      continue;
    }
    ASSERT_TRUE(st.is_ok()) << st.message();
    const View v = must_view(stored);
    EXPECT_EQ(v.hash_identity, kDatasketchesIdentity);
    EXPECT_EQ(element_kind_of(stored.data()), ElementKind::kDatasketchesImported);
    EXPECT_EQ(v.count, std::stoul(e.fields.at("numEntries")));
    const uint64_t library_theta = std::stoull(e.fields.at("thetaLong"));
    EXPECT_EQ(v.theta, library_theta == kLibraryThetaExact ? kThetaExact : library_theta);
    EXPECT_NEAR(estimate(v), std::stod(e.fields.at("estimate")),
                1e-9 * std::max(1.0, std::stod(e.fields.at("estimate"))));
    EXPECT_EQ(v.lg_k, std::max(kImportLgK, static_cast<int>(std::ceil(std::log2(std::max(1u, v.count))))));
    const int64_t n = stream_length(e.verification);
    if (n >= 0) {
      std::vector<uint64_t> held;
      for (uint32_t i = 0; i < v.count; i++) held.push_back(stored_hash(v, i));
      EXPECT_EQ(held, stream_entries(n, library_theta));
      checked_streams++;
    }
    // The export: the C++ library's bytes for its own files (and the Go and
    // Java libraries' wherever they wrote the same).
    const bool compressed = e.fields.at("serVer") == "4";
    const bool same = exported(v, compressed) == bytes;
    if (e.file.find("_cpp.sk") != std::string::npos &&
        e.file.find("cpp_generated_files/") == 0) {
      EXPECT_TRUE(same);
    }
    same_bytes += same;
  }
  // all but the three non-empty sketches without entries, the two empty v1/v2
  // test files and the update sketch
  EXPECT_EQ(checked_streams, 44);
  // 15 C++, 15 Go and 13 Java files: not Java's empty with seed hash 0, its
  // single item with the single-item flag, nor the v1/v2 test files
  EXPECT_EQ(same_bytes, 43);
}

// Union of imports = sketch of the union stream: {0..999} ∪ {0..9999} below
// the smaller θ is the import of 0..9999, trimmed to the smaller k.
TEST(ThetaDatasketches, UnionOfImportsIsTheSketchOfTheUnionStream) {
  SKETCH_REQUIRE_DATASKETCHES_FILES(dir);
  Status st;
  const auto a = import_bytes(files::read_file(dir + "/cpp_generated_files/theta_n100000_cpp.sk"), &st);
  ASSERT_TRUE(st.is_ok());
  const auto b = import_bytes(files::read_file(dir + "/cpp_generated_files/theta_n1000000_cpp.sk"), &st);
  ASSERT_TRUE(st.is_ok());
  const View va = must_view(a), vb = must_view(b);
  ASSERT_TRUE(check_combinable(va, vb).is_ok());
  std::vector<uint8_t> u(merged_size(va, vb));
  write_merged(va, vb, u.data());
  EXPECT_EQ(u, b);  // 0..99999 ⊂ 0..999999: the union is the larger stream's sketch
  const auto c = import_bytes(files::read_file(dir + "/cpp_generated_files/theta_compressed_n1000000_cpp.sk"), &st);
  EXPECT_EQ(c, b);
}

std::vector<uint8_t> v3_estimation(std::vector<uint64_t> entries, uint64_t theta, uint8_t flags = 0x1a) {
  std::vector<uint8_t> b(24 + 8 * entries.size(), 0);
  b[0] = 3; b[1] = 3; b[2] = 3; b[5] = flags; b[6] = 0xcc; b[7] = 0x93;
  store_le32(&b[8], static_cast<uint32_t>(entries.size()));
  store_le64(&b[16], theta);
  for (size_t i = 0; i < entries.size(); i++) store_le64(&b[24 + 8 * i], entries[i]);
  return b;
}

std::string refusal(const std::vector<uint8_t>& b) {
  Status st;
  import_bytes(b, &st);
  EXPECT_EQ(st.code(), StatusCode::kInvalidFormat);
  return st.message();
}

TEST(ThetaDatasketches, RoundTripsThroughBothSerialVersions) {
  const auto b = v3_estimation({5, 9, 100, uint64_t{1} << 40}, uint64_t{1} << 41);
  Status st;
  const auto s = import_bytes(b, &st);
  ASSERT_TRUE(st.is_ok());
  const View v = must_view(s);
  EXPECT_EQ(exported(v, false), b);
  const auto packed = exported(v, true);
  EXPECT_EQ(packed[1], 4);
  EXPECT_EQ(packed[3], 40);  // the widest delta, 2^40 - 100, takes 40 bits
  EXPECT_EQ(import_bytes(packed, &st), s);
  // Unordered entries are sorted; the export is ordered.
  const auto unordered = v3_estimation({100, 5, uint64_t{1} << 40, 9}, uint64_t{1} << 41, 0x0a);
  EXPECT_EQ(import_bytes(unordered, &st), s);
}

TEST(ThetaDatasketches, MalformedBytesAreRefusedSayingWhat) {
  const auto b = v3_estimation({5, 9, 100}, 1000);
  EXPECT_NE(refusal({3, 3, 3}).find("preamble"), std::string::npos);
  for (size_t cut : {8u, 16u, 23u, 24u, 47u})
    EXPECT_FALSE(refusal(std::vector<uint8_t>(b.begin(), b.begin() + cut)).empty());
  auto bad = b; bad[6] = 0;
  EXPECT_NE(refusal(bad).find("seed hash"), std::string::npos);
  bad = b; bad[1] = 5;
  EXPECT_NE(refusal(bad).find("serial version"), std::string::npos);
  bad = b; bad[2] = 1;
  EXPECT_NE(refusal(bad).find("family"), std::string::npos);
  bad = b; bad[5] |= 1;
  EXPECT_NE(refusal(bad).find("big-endian"), std::string::npos);
  bad = b; bad[5] &= ~8;
  EXPECT_NE(refusal(bad).find("compact"), std::string::npos);
  EXPECT_NE(refusal(v3_estimation({5, 5, 100}, 1000)).find("ascending"), std::string::npos);
  EXPECT_NE(refusal(v3_estimation({9, 5, 9}, 1000, 0x0a)).find("twice"), std::string::npos);
  EXPECT_NE(refusal(v3_estimation({5, 9, 1000}, 1000)).find("above theta"), std::string::npos);
  EXPECT_NE(refusal(v3_estimation({0, 9, 100}, 1000)).find("zero"), std::string::npos);
  EXPECT_NE(refusal(v3_estimation({}, 0)).find("theta out of range"), std::string::npos);
  EXPECT_NE(refusal(v3_estimation({5}, uint64_t{1} << 63)).find("theta out of range"), std::string::npos);
  // compressed: a delta past θ, a length off by one byte
  Status st;
  const auto stored = import_bytes(b, &st);
  const View v = must_view(stored);
  auto packed = exported(v, true);
  auto longer = packed; longer.push_back(0);
  EXPECT_NE(refusal(longer).find("length"), std::string::npos);
  auto past = packed; store_le64(&past[8], 50);  // θ 50: the entry 100 is above it
  EXPECT_NE(refusal(past).find("below theta"), std::string::npos);
  auto bits = packed; bits[3] = 65;
  EXPECT_NE(refusal(bits).find("entry bits"), std::string::npos);
  // an update sketch is valid data not read here
  std::vector<uint8_t> update(24, 0);
  update[0] = 3; update[1] = 3; update[2] = 2;
  CompactView cv;
  EXPECT_EQ(parse_compact(update.data(), update.size(), &cv).code(), StatusCode::kInvalidParameter);
}

TEST(ThetaDatasketches, EmptyFormsOfEveryVersion) {
  // v3 with the default seed hash and with 0 (Java), v2, v1 (no seed hash)
  const std::vector<std::vector<uint8_t>> empties = {
      {1, 3, 3, 0, 0, 0x1e, 0xcc, 0x93},
      {1, 3, 3, 0, 0, 0x1e, 0, 0},
      {1, 2, 3, 0, 0, 0x1e, 0xcc, 0x93},
      {3, 1, 3, 0, 0, 0x1e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}};
  for (const auto& e : empties) {
    Status st;
    const auto s = import_bytes(e, &st);
    ASSERT_TRUE(st.is_ok()) << st.message();
    const View v = must_view(s);
    EXPECT_EQ(v.count, 0u);
    EXPECT_EQ(v.theta, kThetaExact);
    EXPECT_EQ(exported(v, true), empties[0]);
  }
  std::vector<uint8_t> other_seed = empties[0];
  other_seed[6] = 1;
  EXPECT_NE(refusal(other_seed).find("seed hash"), std::string::npos);
}

TEST(ThetaDatasketches, IdentitiesNeverCombine) {
  Status st;
  const auto imported = import_bytes(v3_estimation({5, 9}, 1000), &st);
  std::vector<uint8_t> ours(empty_size());
  write_empty(12, ours.data());
  const View a = must_view(imported), b = must_view(ours);
  EXPECT_EQ(a.hash_identity, kDatasketchesIdentity);
  EXPECT_EQ(b.hash_identity, kHashIdentity);
  EXPECT_EQ(check_combinable(a, b).code(), StatusCode::kMismatch);
  EXPECT_NE(std::string(check_combinable(b, a).message()).find("hash identity 3"), std::string::npos);
  EXPECT_TRUE(check_combinable(a, a).is_ok());
  // An identity 3 sketch holds DataSketches kinds only, identity 1 never them.
  auto wrong = imported;
  wrong[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kNumber);
  View w;
  EXPECT_FALSE(parse(wrong.data(), wrong.size(), Validation::kCanonical, &w).is_ok());
  auto ours_ds = ours;
  ours_ds[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kDatasketchesLong);
  EXPECT_FALSE(parse(ours_ds.data(), ours_ds.size(), Validation::kCanonical, &w).is_ok());
}

TEST(ThetaDatasketches, ImportLgKHoldsEveryEntry) {
  CompactView v{};
  int lg_k;
  for (auto [count, want] : {std::pair<uint32_t, int>{0, 12}, {4096, 12}, {4097, 13}, {6560, 13},
                             {uint32_t{1} << 24, 24}}) {
    v.count = count;
    ASSERT_TRUE(import_lg_k(v, &lg_k).is_ok());
    EXPECT_EQ(lg_k, want);
  }
  v.count = (uint32_t{1} << 24) + 1;
  EXPECT_EQ(import_lg_k(v, &lg_k).code(), StatusCode::kInvalidParameter);
}

}  // namespace
}  // namespace sketch::theta::datasketches
