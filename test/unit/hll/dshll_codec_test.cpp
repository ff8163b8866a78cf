// DataSketches HLL bytes (core/hll/dshll_codec.h, dshll_update.h) against
// every HLL file the C++, Java and Go libraries wrote for the stream
// "ints 0..n-1 as int64, murmur3 seed 9001" at lgK 12
// (/work/shared/interop/datasketches, or $DATASKETCHES_FILES; the files are
// not shipped here, and the tests skip without them).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/datasketches_hash.h"
#include "core/hll/dshll_codec.h"
#include "core/hll/dshll_update.h"

namespace sketch::hll::dshll {
namespace {

std::string files_dir() {
  const char* env = std::getenv("DATASKETCHES_FILES");
  return env ? env : "/work/shared/interop/datasketches";
}

bool read_file(const std::string& path, std::vector<uint8_t>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// MANIFEST.tsv: file -> its "decoded" column.
std::map<std::string, std::string> manifest() {
  std::map<std::string, std::string> rows;
  std::ifstream in(files_dir() + "/MANIFEST.tsv");
  std::string line;
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string file, bytes, sha, decoded;
    std::getline(fields, file, '\t');
    std::getline(fields, bytes, '\t');
    std::getline(fields, sha, '\t');
    std::getline(fields, decoded, '\t');
    rows[file] = decoded;
  }
  return rows;
}

std::string field(const std::string& decoded, const std::string& name) {
  const size_t at = decoded.find(" " + name + "=");
  if (at == std::string::npos) return "";
  const size_t from = at + name.size() + 2;
  return decoded.substr(from, decoded.find(' ', from) - from);
}

struct Case {
  std::string producer;  // cpp, java, go
  int bits;              // 4, 6, 8
  int n;
  std::string path() const {
    return producer + "_generated_files/hll" + std::to_string(bits) + "_n" + std::to_string(n) +
           "_" + producer + ".sk";
  }
  std::string cpp_path() const { return Case{"cpp", bits, n}.path(); }
};

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const char* producer : {"cpp", "java", "go"})
    for (int bits : {4, 6, 8})
      for (int n : {0, 1, 10, 100, 1000, 10000, 100000, 1000000})
        all.push_back(Case{producer, bits, n});
  return all;
}

TgtType type_of(int bits) {
  return bits == 4 ? TgtType::kHll4 : bits == 6 ? TgtType::kHll6 : TgtType::kHll8;
}

// The bytes `p` re-serialized by write_compact.
std::vector<uint8_t> reencode(const Parsed& p) {
  std::vector<uint32_t> slots(size_t{1} << (p.mode == Mode::kHll ? 0 : p.lg_arr));
  std::vector<uint8_t> regs(size_t{1} << p.lg_k);
  if (p.mode == Mode::kHll) read_registers(p, regs.data());
  else read_table(p, slots.data());
  const Model m{p.lg_k, p.type, p.mode, p.lg_arr, p.count, slots.data(), regs.data(),
                p.hip_accum, p.kxq0, p.kxq1, p.out_of_order};
  std::vector<uint8_t> out(compact_size(m));
  write_compact(m, out.data());
  return out;
}

struct Built {
  std::vector<uint32_t> slots, scratch;
  std::vector<uint8_t> regs;
  Builder b;
};

void build(int lg_k, int n, Built* out) {
  out->slots.assign(builder_slots(lg_k), 0);
  out->scratch.assign(builder_slots(lg_k), 0);
  out->regs.assign(size_t{1} << lg_k, 0);
  out->b = Builder{lg_k, Mode::kList, 0, 0, out->slots.data(), out->scratch.data(),
                   out->regs.data(), 0, 0, 0};
  start(&out->b);
  for (int64_t i = 0; i < n; i++) {
    const Murmur3Hash h = datasketches::hash_long(i);
    add_coupon(&out->b, coupon_of(h.h1, h.h2));
  }
}

class DsHllFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<uint8_t> probe;
    if (!read_file(files_dir() + "/" + cases()[0].path(), &probe))
      GTEST_SKIP() << "the DataSketches files are not at " << files_dir();
  }
};

TEST_F(DsHllFiles, EveryFileDecodesAsItsManifestSays) {
  const auto rows = manifest();
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.path());
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(read_file(files_dir() + "/" + c.path(), &bytes));
    Parsed p;
    const Status st = parse(bytes.data(), bytes.size(), &p);
    ASSERT_TRUE(st.is_ok()) << st.message();
    const std::string& decoded = rows.at(c.path());
    EXPECT_EQ(p.lg_k, std::atoi(field(decoded, "lgK").c_str()));
    EXPECT_EQ(tgt_type_name(p.type), field(decoded, "tgtType"));
    EXPECT_EQ(mode_name(p.mode), field(decoded, "curMode"));
    EXPECT_EQ(p.compact, field(decoded, "compact") == "True");
    EXPECT_EQ(p.empty, c.n == 0);
    if (p.mode == Mode::kHll) {
      // The stored HIP estimate, exactly (the manifest prints the double's
      // shortest round-trip form).
      EXPECT_EQ(p.hip_accum, std::strtod(field(decoded, "hipAccum").c_str(), nullptr));
      EXPECT_EQ(p.kxq0, std::strtod(field(decoded, "kxq0").c_str(), nullptr));
      EXPECT_EQ(p.cur_min, std::atoi(field(decoded, "curMin").c_str()));
      EXPECT_EQ(p.aux_count, std::strtoul(field(decoded, "auxCount").c_str(), nullptr, 10));
      // HIP's relative error at lgK 12 is about 0.836 / sqrt(4096) = 1.3%:
      // within 5 standard errors.
      EXPECT_NEAR(p.hip_accum, c.n, 5 * 0.0131 * c.n);
    } else {
      EXPECT_EQ(p.count, static_cast<uint32_t>(c.n));  // no coupon collisions below 100
    }
  }
}

TEST_F(DsHllFiles, ReencodingGivesTheCppLibrarysBytes) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.path());
    std::vector<uint8_t> bytes, cpp;
    ASSERT_TRUE(read_file(files_dir() + "/" + c.path(), &bytes));
    ASSERT_TRUE(read_file(files_dir() + "/" + c.cpp_path(), &cpp));
    Parsed p;
    ASSERT_TRUE(parse(bytes.data(), bytes.size(), &p).is_ok());
    EXPECT_EQ(reencode(p), cpp);
    // And the round trip is stable.
    Parsed again;
    const std::vector<uint8_t> once = reencode(p);
    ASSERT_TRUE(parse(once.data(), once.size(), &again).is_ok());
    EXPECT_EQ(reencode(again), once);
  }
}

// Building the stream here gives the library's sketch: its tables and, in
// HLL mode, its registers, kxq sums and (with the lgK 12 promotion seed) its
// HIP estimate, byte for byte.
TEST_F(DsHllFiles, BuildingTheStreamGivesTheLibrarysBytes) {
  for (int bits : {4, 6, 8}) {
    for (int n : {0, 1, 10, 100, 1000, 10000, 100000, 1000000}) {
      const Case c{"cpp", bits, n};
      SCOPED_TRACE(c.path());
      std::vector<uint8_t> cpp;
      ASSERT_TRUE(read_file(files_dir() + "/" + c.path(), &cpp));
      Built built;
      build(12, n, &built);
      const Model m = model_of(built.b, type_of(bits), false);
      std::vector<uint8_t> out(compact_size(m));
      write_compact(m, out.data());
      EXPECT_EQ(out, cpp);
      if (out != cpp && out.size() == cpp.size() && m.mode == Mode::kHll) {
        double theirs;
        std::memcpy(&theirs, cpp.data() + 8, 8);
        ADD_FAILURE() << "hipAccum ours " << m.hip_accum << " theirs " << theirs
                      << "; their promotion seed would be "
                      << theirs - (m.hip_accum - kLgK12PromotionEstimate);
      }
    }
  }
}

TEST(DsHllParse, RefusesForeignAndCorruptBytes) {
  // hll8_n1_cpp.sk: a LIST of one coupon.
  const uint8_t list[] = {0x02, 0x01, 0x07, 0x0c, 0x03, 0x08, 0x01, 0x08,
                          0xcb, 0xd7, 0xc2, 0x04};
  Parsed p;
  ASSERT_TRUE(parse(list, sizeof list, &p).is_ok());
  EXPECT_EQ(p.count, 1u);
  const auto refused = [](std::vector<uint8_t> b, const char* what) {
    Parsed q;
    const Status st = parse(b.data(), b.size(), &q);
    EXPECT_EQ(st.code(), StatusCode::kInvalidFormat) << what;
    EXPECT_NE(std::string(st.message()).find(what), std::string::npos) << st.message();
  };
  std::vector<uint8_t> b(list, list + sizeof list);
  auto with = [&](size_t at, uint8_t v) { auto c = b; c[at] = v; return c; };
  refused(with(2, 3), "family id 3");
  refused(with(1, 2), "serial version 2");
  refused(with(3, 3), "lgK 3");
  refused(with(3, 22), "lgK 22");
  refused(with(6, 2), "length");
  refused(with(7, 0x0b), "mode");
  refused(with(5, 0x09), "big-endian");
  refused(with(11, 0x00), "value");  // coupon 0x00c2d7cb: value 0
  refused(std::vector<uint8_t>(list, list + 10), "length");
  refused(std::vector<uint8_t>(list, list + 4), "preamble");
}

TEST_F(DsHllFiles, EveryByteFlipIsRefusedOrStillConsistent) {
  for (const char* name : {"cpp_generated_files/hll4_n1000000_cpp.sk",
                           "cpp_generated_files/hll6_n100_cpp.sk",
                           "java_generated_files/hll8_n1000_java.sk"}) {
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(read_file(files_dir() + "/" + name, &bytes));
    for (size_t i = 0; i < bytes.size(); i += (i < 64 ? 1 : 37)) {
      std::vector<uint8_t> flipped = bytes;
      flipped[i] ^= 0x5a;
      Parsed p;
      if (!parse(flipped.data(), flipped.size(), &p).is_ok()) continue;
      // Accepted: then it must re-encode and parse again.
      const std::vector<uint8_t> out = reencode(p);
      Parsed q;
      EXPECT_TRUE(parse(out.data(), out.size(), &q).is_ok()) << name << " byte " << i;
    }
    for (size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 2) {
      Parsed p;
      EXPECT_FALSE(parse(bytes.data(), cut, &p).is_ok()) << name << " cut at " << cut;
    }
  }
}

TEST(DsHllUpdate, CouponIsTheLibrarysFromTheHash) {
  // hll8_n1_cpp.sk's coupon for the value 0.
  const Murmur3Hash h = datasketches::hash_long(0);
  EXPECT_EQ(coupon_of(h.h1, h.h2), 0x04c2d7cbu);
  EXPECT_EQ(coupon_of(0, 0) >> 26, 63u);  // clz capped at 62
}

}  // namespace
}  // namespace sketch::hll::dshll
