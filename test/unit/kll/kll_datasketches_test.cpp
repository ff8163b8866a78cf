// DataSketches' compact KLL sketches (core/kll/kll_datasketches.h): every
// shipped kll file of the C++, Java and Go libraries (MANIFEST.tsv; each the
// sketch of 1..n in order, k = 200) imports with its k, n, min and max,
// answers exactly while exact and within its rank error after compactions,
// exports back to itself and round-trips; a sketch built here from the same
// ascending stream exports to the library's bytes while exact; malformed
// bytes are refused naming what.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/common/bytes.h"
#include "core/kll/kll_datasketches.h"
#include "datasketches_files.h"
#include "kll_test_util.h"

namespace sketch::kll::datasketches {
namespace {

namespace files = sketch::test::datasketches_files;
using kll::test::Reader;
using kll::test::Sketch;

std::vector<uint8_t> import_bytes(const std::vector<uint8_t>& bytes, ItemType type, Status* st) {
  CompactView v;
  *st = parse_compact(bytes.data(), bytes.size(), type, &v);
  if (!st->is_ok()) return {};
  std::vector<uint8_t> out(imported_size(v));
  *st = write_imported(v, out.data());
  return st->is_ok() ? out : std::vector<uint8_t>{};
}

std::vector<uint8_t> exported(const std::vector<uint8_t>& stored, ItemType type) {
  const View v = kll::test::must_parse(stored, Validation::kCanonical);
  EXPECT_TRUE(check_exportable(v, type).is_ok());
  std::vector<uint8_t> out(compact_size(v, type));
  write_compact(v, type, out.data());
  return out;
}

ItemType type_of_file(const std::string& file) {
  if (file.find("float") != std::string::npos) return ItemType::kFloat;
  if (file.find("long") != std::string::npos) return ItemType::kLong;
  return ItemType::kDouble;
}

// kll_double_n1000_cpp.sk -> 1000
uint64_t n_of_file(const std::string& file) {
  const size_t at = file.rfind("_n");
  return std::stoull(file.substr(at + 2));
}

std::string refusal(const std::vector<uint8_t>& b, ItemType type = ItemType::kDouble) {
  Status st;
  import_bytes(b, type, &st);
  EXPECT_EQ(st.code(), StatusCode::kInvalidFormat) << st.message();
  return st.message();
}

bool refused(const std::vector<uint8_t>& b, ItemType type) {
  Status st;
  import_bytes(b, type, &st);
  return !st.is_ok();
}

TEST(KllDatasketches, EveryShippedFileImportsAnswersAndRoundTrips) {
  SKETCH_REQUIRE_DATASKETCHES_FILES(dir);
  const auto entries = files::entries(dir, "/kll_");
  ASSERT_EQ(entries.size(), 94u);
  int exact = 0, estimated = 0, same_bytes = 0;
  for (const files::Entry& e : entries) {
    SCOPED_TRACE(e.file);
    const std::vector<uint8_t> bytes = files::read_file(dir + "/" + e.file);
    ASSERT_EQ(bytes.size(), e.bytes);
    const ItemType type = type_of_file(e.file);
    Status st;
    const std::vector<uint8_t> stored = import_bytes(bytes, type, &st);
    ASSERT_TRUE(st.is_ok()) << st.message();
    Reader r(stored);
    const View& v = r.view();
    EXPECT_EQ(v.k, std::stoul(e.fields.at("k")));
    EXPECT_EQ(v.n, std::stoull(e.fields.at("n")));
    // Round trip: import -> export -> import is the identity.
    const std::vector<uint8_t> out = exported(stored, type);
    EXPECT_EQ(import_bytes(out, type, &st), stored) << st.message();
    same_bytes += out == bytes;
    if (v.n == 0) {
      EXPECT_EQ(v.kind, ElementKind::kNone);
      continue;
    }
    EXPECT_EQ(v.kind, type == ItemType::kLong ? ElementKind::kNumber : ElementKind::kFloat);
    if (e.file.find("java_test_resources/kll_double_n1.sk") != std::string::npos) {
      EXPECT_EQ(r.quantile(0.5), 0.0);  // an old Java single item: 0.0, no single-item flag
      continue;
    }
    // Values of 1..n as the sketch's type reads them.
    const bool longs = type == ItemType::kLong;
    auto quantile = [&](double q) {
      return longs ? static_cast<double>(r.quantile_int(q)) : r.quantile(q);
    };
    auto rank = [&](double x) {
      return longs ? r.rank_int(static_cast<int64_t>(x)) : r.rank(x);
    };
    // The stream 1..n: min 1 and max n exactly.
    const double n = static_cast<double>(v.n);
    EXPECT_EQ(quantile(0), 1.0);
    EXPECT_EQ(quantile(1), n);
    if (is_exact(v)) {
      exact++;
      // Every quantile and rank of 1..n exactly: the ceil(q n)-th value.
      for (int i = 1; i <= 99; ++i) {
        const double q = i / 100.0;
        EXPECT_EQ(quantile(q), std::ceil(q * n)) << q;
      }
      for (uint64_t x = 1; x <= v.n; ++x) EXPECT_DOUBLE_EQ(rank(static_cast<double>(x)), x / n);
      continue;
    }
    estimated++;
    // After compactions: every rank within the error the sketch reports.
    const double eps = rank_error(v, false);
    EXPECT_NEAR(eps, 0.0133, 0.0001);
    for (int i = 1; i <= 99; ++i) {
      const double x = std::floor(n * i / 100.0);
      EXPECT_LE(std::fabs(rank(x) - x / n), eps) << x;
      const double q = i / 100.0;
      EXPECT_LE(std::fabs(quantile(q) / n - q), eps + 1.0 / n) << q;
    }
  }
  // 9 empty files, the old Java single item of 0.0, then: 27 of n in {1, 10,
  // 100} and the two one-item test files exact, 55 of n >= 1000 compacted.
  EXPECT_EQ(exact, 29);
  EXPECT_EQ(estimated, 55);
  // Byte for byte but for the three Java test resources: two one-item
  // sketches in the full form (the libraries now write the single-item
  // form) and an old single item without its flag.
  EXPECT_EQ(same_bytes, 91);
}

// A kll of 1..n in order (n <= k, still exact) is the library's sketch of
// that stream, byte for byte, for doubles, floats and longs.
TEST(KllDatasketches, ExactSketchOfTheSameStreamIsTheLibrarysBytes) {
  SKETCH_REQUIRE_DATASKETCHES_FILES(dir);
  int compared = 0;
  for (const files::Entry& e : files::entries(dir, "/kll_")) {
    if (e.file.find("java_test_resources/") == 0) continue;
    const uint64_t n = n_of_file(e.file);
    if (n > 200) continue;
    SCOPED_TRACE(e.file);
    const ItemType type = type_of_file(e.file);
    Sketch s(200, type == ItemType::kLong ? ElementKind::kNumber : ElementKind::kFloat);
    for (uint64_t i = 1; i <= n; ++i) {
      if (type == ItemType::kLong) s.add_int(static_cast<int64_t>(i));
      else s.add(static_cast<double>(i));
    }
    EXPECT_EQ(exported(s.stored(), type), files::read_file(dir + "/" + e.file));
    compared++;
  }
  EXPECT_EQ(compared, 36);  // 9 empty, 27 of n in {1, 10, 100}
}

TEST(KllDatasketches, ImportsMergeWithTheirOwnTypeOnly) {
  SKETCH_REQUIRE_DATASKETCHES_FILES(dir);
  Status st;
  const auto doubles = import_bytes(files::read_file(dir + "/cpp_generated_files/kll_double_n1000_cpp.sk"),
                                    ItemType::kDouble, &st);
  ASSERT_TRUE(st.is_ok());
  const auto floats = import_bytes(files::read_file(dir + "/java_generated_files/kll_float_n100_java.sk"),
                                   ItemType::kFloat, &st);
  ASSERT_TRUE(st.is_ok());
  const auto longs = import_bytes(files::read_file(dir + "/java_generated_files/kll_long_n1000_java.sk"),
                                  ItemType::kLong, &st);
  ASSERT_TRUE(st.is_ok());
  // doubles ∪ floats ∪ 1001..2000 built here: the stream 1..2000 with 100 more
  Sketch s;
  for (int i = 1001; i <= 2000; ++i) s.add(i);
  ASSERT_TRUE(s.merge_stored(doubles).is_ok());
  ASSERT_TRUE(s.merge_stored(floats).is_ok());
  Reader r(s.stored());
  EXPECT_EQ(r.view().n, 2100u);
  EXPECT_EQ(r.quantile(0), 1.0);
  EXPECT_EQ(r.quantile(1), 2000.0);
  EXPECT_LE(std::fabs(r.rank(1000) - 1100.0 / 2100), rank_error(r.view(), false));
  // A sketch of longs is a kll of bigint: it merges with bigints, never doubles.
  Sketch b(200, ElementKind::kNumber);
  b.add_int(5);
  EXPECT_TRUE(b.merge_stored(longs).is_ok());
  const View vd = kll::test::must_parse(doubles, Validation::kCanonical);
  const View vl = kll::test::must_parse(longs, Validation::kCanonical);
  EXPECT_EQ(check_mergeable(vd, vl).code(), StatusCode::kMismatch);
}

// The C++ library's sketch of 1..10 (doubles), and forms built from it.
std::vector<uint8_t> cpp_n10() {
  std::vector<uint8_t> b = {5, 1, 15, 0, 200, 0, 8, 0, 10, 0, 0, 0, 0, 0, 0, 0, 200, 0, 1, 0, 190, 0, 0, 0};
  auto put = [&b](double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    b.resize(b.size() + 8);
    store_le64(&b[b.size() - 8], bits);
  };
  put(1);
  put(10);
  for (int i = 10; i >= 1; --i) put(i);
  return b;
}

TEST(KllDatasketches, MalformedBytesAreRefusedSayingWhat) {
  const std::vector<uint8_t> b = cpp_n10();
  Status st;
  ASSERT_FALSE(import_bytes(b, ItemType::kDouble, &st).empty()) << st.message();
  // Every truncation, every byte of the preamble and the level offsets
  // complemented, and a byte more.
  for (size_t cut = 0; cut < b.size(); ++cut)
    EXPECT_TRUE(refused(std::vector<uint8_t>(b.begin(), b.begin() + cut), ItemType::kDouble)) << cut;
  for (size_t i = 0; i < 24; ++i) {
    auto bad = b;
    bad[i] = static_cast<uint8_t>(~bad[i]);
    EXPECT_TRUE(refused(bad, ItemType::kDouble)) << i;
  }
  auto longer = b;
  longer.push_back(0);
  EXPECT_NE(refusal(longer).find("length"), std::string::npos);
  EXPECT_NE(refusal(b, ItemType::kFloat).find("length"), std::string::npos);
  auto bad = b; bad[2] = 3;
  EXPECT_NE(refusal(bad).find("family"), std::string::npos);
  bad = b; bad[6] = 4;
  EXPECT_NE(refusal(bad).find("m is not 8"), std::string::npos);
  bad = b; bad[4] = 7;
  EXPECT_NE(refusal(bad).find("k is not"), std::string::npos);
  bad = b; bad[3] = 8;
  EXPECT_NE(refusal(bad).find("flags"), std::string::npos);
  bad = b; bad[1] = 2;
  EXPECT_NE(refusal(bad).find("serial version"), std::string::npos);
  bad = b; bad[8] = 11;
  EXPECT_NE(refusal(bad).find("weights"), std::string::npos);
  bad = b; bad[18] = 2;  // two levels: the offsets are read from the min
  EXPECT_FALSE(refusal(bad).empty());
  bad = b; store_le32(&bad[20], 201);
  EXPECT_NE(refusal(bad).find("level offsets"), std::string::npos);
  bad = b; bad[7] = 1;
  EXPECT_NE(refusal(bad).find("byte 7"), std::string::npos);
  bad = b; bad[19] = 1;
  EXPECT_NE(refusal(bad).find("byte 19"), std::string::npos);
  // items: a NaN, a min that is no item of the exact sketch, an item past max
  const double nan = std::nan("");
  uint64_t nan_bits;
  std::memcpy(&nan_bits, &nan, 8);
  bad = b; store_le64(&bad[48], nan_bits);
  EXPECT_NE(refusal(bad).find("NaN item"), std::string::npos);
  bad = b; store_le64(&bad[24], nan_bits);
  EXPECT_NE(refusal(bad).find("NaN min"), std::string::npos);
  bad = b; bad[31] = 0;  // min 1.0 -> a tiny positive number below every item
  EXPECT_NE(refusal(bad).find("exact"), std::string::npos);
  bad = b; bad[38] = 0x14;  // max 10.0 -> 5.0, below some items
  EXPECT_NE(refusal(bad).find("outside"), std::string::npos);
  bad = b; bad[3] = 2;  // flagged sorted, but descending
  EXPECT_NE(refusal(bad).find("sorted"), std::string::npos);
  // valid forms not read here
  bad = b; bad[1] = 3;
  import_bytes(bad, ItemType::kDouble, &st);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  bad = b; bad[16] = 100;
  import_bytes(bad, ItemType::kDouble, &st);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  EXPECT_NE(std::string(st.message()).find("min_k"), std::string::npos);
  // short forms: an empty sketch with bytes after it, a single item of the
  // wrong width, a single item flagged empty
  EXPECT_NE(refusal({2, 1, 15, 1, 200, 0, 8, 0, 0}).find("longer"), std::string::npos);
  EXPECT_NE(refusal({2, 1, 15, 0, 200, 0, 8, 0}).find("empty flag"), std::string::npos);
  EXPECT_NE(refusal({2, 2, 15, 4, 200, 0, 8, 0, 0, 0, 0x80, 0x3f}).find("length"), std::string::npos);
  EXPECT_NE(refusal({2, 2, 15, 5, 200, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0}).find("empty"), std::string::npos);
  EXPECT_NE(refusal({2, 2, 15, 4, 200, 0, 8, 0, 0, 0, 0xc0, 0x7f}, ItemType::kFloat).find("NaN"),
            std::string::npos);
}

TEST(KllDatasketches, ExportNeedsTheSketchsOwnType) {
  Sketch d;
  d.add(0.1);
  d.add(2.5);
  const auto dbytes = d.stored();
  const View vd = kll::test::must_parse(dbytes, Validation::kCanonical);
  EXPECT_EQ(default_item_type(vd), ItemType::kDouble);
  EXPECT_EQ(check_exportable(vd, ItemType::kLong).code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(check_exportable(vd, ItemType::kFloat).code(), StatusCode::kInvalidParameter);  // 0.1
  Sketch f;
  f.add(0.5);
  f.add(static_cast<float>(-3e38));
  const auto fs = f.stored();
  EXPECT_TRUE(check_exportable(kll::test::must_parse(fs, Validation::kCanonical), ItemType::kFloat).is_ok());
  Status st;
  EXPECT_EQ(import_bytes(exported(fs, ItemType::kFloat), ItemType::kFloat, &st), fs);
  Sketch big;
  big.add(1e39);  // past float's range
  big.add(1.0);
  EXPECT_EQ(check_exportable(kll::test::must_parse(big.stored(), Validation::kCanonical), ItemType::kFloat).code(),
            StatusCode::kInvalidParameter);
  Sketch b(200, ElementKind::kNumber);
  b.add_int(INT64_MIN);
  b.add_int(INT64_MAX);
  const auto bs = b.stored();
  const View vb = kll::test::must_parse(bs, Validation::kCanonical);
  EXPECT_EQ(default_item_type(vb), ItemType::kLong);
  EXPECT_EQ(check_exportable(vb, ItemType::kDouble).code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(import_bytes(exported(bs, ItemType::kLong), ItemType::kLong, &st), bs);
  Sketch t(200, ElementKind::kTimestampTz);
  t.add_int(5);
  EXPECT_EQ(check_exportable(kll::test::must_parse(t.stored(), Validation::kCanonical), ItemType::kLong).code(),
            StatusCode::kUnsupported);
  // the empty sketch of any k: the libraries' 8 bytes
  Sketch e(64);
  EXPECT_EQ(exported(e.stored(), ItemType::kFloat), (std::vector<uint8_t>{2, 1, 15, 1, 64, 0, 8, 0}));
}

// Compacted sketches of many shapes (weighted adds, merges across k) export
// to bytes that import as the same kll.
TEST(KllDatasketches, CompactedSketchesRoundTrip) {
  kll::test::Random rnd(11);
  for (uint32_t k : {8u, 200u, 1000u}) {
    Sketch s(k);
    for (int i = 0; i < 30000; ++i) s.add(std::floor(rnd.uniform() * 1e6) - 5e5, 1 + i % 3);
    Sketch other(k / 2 < 8 ? 8 : k / 2);
    for (int i = 0; i < 5000; ++i) other.add(-i);
    ASSERT_TRUE(s.merge(other).is_ok());
    const auto stored = s.stored();
    Status st;
    const auto out = exported(stored, ItemType::kDouble);
    EXPECT_EQ(out[0], 5);
    EXPECT_EQ(import_bytes(out, ItemType::kDouble, &st), stored) << st.message();
    // and the same with level 0 flagged sorted, as a reader may find it
    auto sorted_flag = out;
    sorted_flag[3] = 2;
    const View v = kll::test::must_parse(stored, Validation::kCanonical);
    EXPECT_EQ(refused(sorted_flag, ItemType::kDouble), v.offset(1) - v.offset(0) > 1);
  }
}

}  // namespace
}  // namespace sketch::kll::datasketches
