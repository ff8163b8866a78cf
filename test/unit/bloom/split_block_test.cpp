// The split-block layout (core/bloom/split_block.h) and the Parquet header
// codec (core/bloom/parquet_header.h): the spec's block and bit rule, no
// false negatives, the working encoding's queued adds, unions, the stored
// format's checks, sizing and estimates, and hostile header bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "bloom_test_util.h"
#include "core/bloom/parquet_header.h"
#include "core/common/element_kind.h"

namespace sketch::bloom {
namespace {

using test::Filter;
using test::split_key_hash;

constexpr uint64_t kSplitBlockSeed = 0x5b10c;

std::string hex(const uint8_t* data, size_t len) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < len; i++) {
    s += digits[data[i] >> 4];
    s += digits[data[i] & 15];
  }
  return s;
}

Params split_params(uint64_t bits) { return Params{bits, 8, Layout::kSplitBlock}; }

// The spec's worked rule, by hand: XXH64 of the INT32 42 (PLAIN: 4 bytes
// little-endian) in a one-block filter sets, in word i, bit
// (uint32(h) * salt[i]) >> 27. The bytes were checked against libxxhash and
// a separate implementation of the rule.
TEST(SplitBlock, OneValueSetsTheSpecsBits) {
  const uint8_t plain[4] = {42, 0, 0, 0};
  Filter f(split_params(256));
  f.add(Hash128{xxh64(plain, 4, 0), 0});
  EXPECT_EQ(hex(f.view().words, 32),
            "0000001000100000000000081000000020000000001000000000002000000040");
}

TEST(SplitBlock, BlockIndexIsTheHighHalfScaled) {
  for (uint64_t blocks : {uint64_t{1}, uint64_t{3}, uint64_t{512}, uint64_t{1} << 22}) {
    for (uint64_t i = 0; i < 1000; i++) {
      const uint64_t h = split_key_hash(kSplitBlockSeed, i).low;
      const uint64_t expected =
          static_cast<uint64_t>((static_cast<unsigned __int128>(h >> 32) * blocks) >> 32);
      ASSERT_EQ(split_block::block_index(h, blocks), expected);
      ASSERT_LT(split_block::block_index(h, blocks), blocks);
    }
  }
}

TEST(SplitBlock, InsertSetsOneBitPerWordOfOneBlock) {
  Filter f(split_params(256 * 64));
  const Hash128 h = split_key_hash(kSplitBlockSeed, 7);
  f.add(h);
  EXPECT_EQ(f.set_bits(), 8u);
  const uint64_t block = split_block::block_index(h.low, 64);
  for (int i = 0; i < 8; i++) {
    const uint32_t word = load_le32(f.view().words + 32 * block + 4 * i);
    EXPECT_EQ(word, 1u << split_block::bit_in_word(h.low, i));
  }
  EXPECT_TRUE(f.contains(h));
}

TEST(SplitBlock, NoFalseNegativesEvenOverfull) {
  for (uint64_t bits : {uint64_t{256}, uint64_t{4096}, uint64_t{1} << 20}) {
    Filter f(split_params(bits));
    f.add_keys(kSplitBlockSeed, 0, 20000);
    EXPECT_EQ(f.count_present(kSplitBlockSeed, 0, 20000), 20000u) << bits;
  }
}

// A working state (bloom_agg's deferred encoding) gives the bytes of adding
// at once, through the queue's wrap-around and the final settle.
TEST(SplitBlock, QueuedAddsGiveTheBytesOfImmediateAdds) {
  const Params params = split_params(uint64_t{1} << 23);  // 1 MiB: deferred
  ASSERT_TRUE(defer_adds(params.bits));
  Filter working = Filter::working(params);
  Filter immediate(params);
  for (uint64_t n : {uint64_t{0}, uint64_t{5}, uint64_t{16}, uint64_t{17}, uint64_t{1000}}) {
    working.add_keys(kSplitBlockSeed + n, 0, n);
    immediate.add_keys(kSplitBlockSeed + n, 0, n);
    EXPECT_EQ(working.stored().bytes(), immediate.bytes()) << n;
  }
  EXPECT_EQ(working.encoding(), Encoding::kQueued);
  EXPECT_EQ(layout_of(working.bytes().data()), Layout::kSplitBlock);
}

TEST(SplitBlock, UnionIsTheFilterOfTheUnion) {
  const Params params = split_params(256 * 128);
  Filter a(params), b(params), both(params);
  a.add_keys(kSplitBlockSeed, 0, 500);
  b.add_keys(kSplitBlockSeed, 500, 1000);
  both.add_keys(kSplitBlockSeed, 0, 1000);
  ASSERT_TRUE(a.merge(b).is_ok());
  EXPECT_EQ(a.bytes(), both.bytes());
}

TEST(SplitBlock, LayoutsAndSizesNeverCombine) {
  Filter split(split_params(256 * 4));
  Filter classic(Params{256 * 4, 8});
  Filter larger(split_params(256 * 8));
  EXPECT_EQ(split.merge(classic).code(), StatusCode::kMismatch);
  EXPECT_EQ(classic.merge(split).code(), StatusCode::kMismatch);
  EXPECT_EQ(split.merge(larger).code(), StatusCode::kMismatch);
  EXPECT_EQ(split.merge(classic, true).code(), StatusCode::kMismatch);
}

// The stored format: param[1] = 2 (split-block, stored) or 3 (working); k = 8,
// whole blocks up to 2^30 bits, a Parquet kind or none.
TEST(SplitBlock, ParseChecksTheLayoutsRules) {
  Filter f(split_params(512));
  std::vector<uint8_t> b = f.bytes();
  EXPECT_EQ(b[6], 2);
  View v;
  b[7] = static_cast<uint8_t>(ElementKind::kNone);
  EXPECT_TRUE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  EXPECT_EQ(v.layout, Layout::kSplitBlock);
  for (uint8_t kind = 16; kind <= 21; kind++) {
    b[7] = kind;
    EXPECT_TRUE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok()) << int(kind);
    EXPECT_TRUE(Family::is_working(b.data(), b.size()));
  }
  b[7] = static_cast<uint8_t>(ElementKind::kNumber);  // a classic kind
  EXPECT_FALSE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  EXPECT_FALSE(Family::is_working(b.data(), b.size()));
  b[7] = 22;
  EXPECT_FALSE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  b[7] = 17;
  b[5] = 7;  // k must be 8
  EXPECT_FALSE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  EXPECT_FALSE(Family::is_working(b.data(), b.size()));
  b[5] = 8;
  b[6] = 4;  // no such encoding
  EXPECT_FALSE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  b[6] = 3;  // working: only as an aggregate state
  EXPECT_FALSE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  b[6] = 2;
  // Not a whole number of blocks (the length matching the bit count).
  Filter odd(Params{320, 8});
  std::vector<uint8_t> o = odd.bytes();
  o[6] = 2;
  o[7] = 17;
  EXPECT_FALSE(parse(o.data(), o.size(), Validation::kCanonical, &v).is_ok());
  // A classic filter with a Parquet kind is refused.
  Filter classic(Params{512, 8});
  std::vector<uint8_t> c = classic.bytes();
  c[7] = 17;
  EXPECT_FALSE(parse(c.data(), c.size(), Validation::kCanonical, &v).is_ok());
}

TEST(SplitBlock, FormulaFalls) {
  double last = 1.0;
  for (double b = 1; b <= 40; b += 0.5) {
    const double f = split_block::formula_fpp(b);
    EXPECT_LT(f, last) << b;
    EXPECT_GT(f, 0.0);
    last = f;
  }
  // More bits per value than the classic layout's optimum for the same p:
  // classic reaches 1% at 9.59 bits per value.
  EXPECT_GT(split_block::formula_fpp(9.59), 0.01);
  EXPECT_LT(split_block::formula_fpp(11.0), 0.01);
}

TEST(SplitBlock, SizingIsTheSmallestPowerOfTwoMeetingP) {
  for (int64_t n : {int64_t{1}, int64_t{1000}, int64_t{123457}, int64_t{10000000}}) {
    for (double p : {0.5, 0.01, 0.001, 0.0001}) {
      uint64_t bits = 0;
      ASSERT_TRUE(split_block::plan_bits(n, p, &bits).is_ok());
      EXPECT_EQ(bits & (bits - 1), 0u);
      EXPECT_GE(bits, 256u);
      EXPECT_LE(split_block::formula_fpp(double(bits) / double(n)), p);
      if (bits > 256) EXPECT_GT(split_block::formula_fpp(double(bits / 2) / double(n)), p);
    }
  }
  Params params;
  EXPECT_TRUE(size_split_block(100000000, 0.01, &params).is_ok());
  EXPECT_EQ(params.bits, uint64_t{1} << 30);
  EXPECT_EQ(size_split_block(200000000, 0.01, &params).code(), StatusCode::kInvalidParameter);
  uint64_t bits;
  EXPECT_EQ(split_block::plan_bits(0, 0.01, &bits).code(), StatusCode::kInvalidParameter);
  EXPECT_EQ(split_block::plan_bits(10, 1.0, &bits).code(), StatusCode::kInvalidParameter);
  EXPECT_TRUE(split_block::plan_bits(INT64_MAX, 0.5, &bits).is_ok() ||
              split_block::plan_bits(INT64_MAX, 0.5, &bits).code() ==
                  StatusCode::kInvalidParameter);
}

TEST(SplitBlock, EstimatesFollowTheFill) {
  Filter f(test::split_params_for(10000, 0.01));
  EXPECT_EQ(f.cardinality(), 0.0);
  EXPECT_EQ(f.fpp(), 0.0);
  f.add_keys(kSplitBlockSeed, 0, 10000);
  EXPECT_NEAR(f.cardinality(), 10000, 200);
  const double formula = split_block::formula_fpp(double(f.bits()) / 10000);
  EXPECT_NEAR(f.fpp(), formula, 0.15 * formula);
}

// --- the Parquet header -----------------------------------------------------

std::vector<uint8_t> header(uint32_t num_bytes) {
  uint8_t buf[parquet::kMaxHeaderSize];
  const size_t n = parquet::write_header(num_bytes, buf);
  return std::vector<uint8_t>(buf, buf + n);
}

TEST(ParquetHeader, WritesTheCompactThriftBytes) {
  EXPECT_EQ(hex(header(32).data(), header(32).size()), "15401c1c00001c1c00001c1c000000");
  // 16384 bytes: zigzag 32768 = varint 80 80 02.
  EXPECT_EQ(hex(header(16384).data(), header(16384).size()), "158080021c1c00001c1c00001c1c000000");
  // 128 MiB: zigzag 2^28 takes a 5-byte varint, the longest header.
  EXPECT_EQ(header(uint32_t{1} << 27).size(), parquet::kMaxHeaderSize);
}

TEST(ParquetHeader, ReadsWhatItWrites) {
  for (uint32_t n : {uint32_t{32}, uint32_t{64}, uint32_t{96}, uint32_t{16384}}) {
    std::vector<uint8_t> b = header(n);
    const size_t h = b.size();
    b.resize(h + n, 0xAB);
    parquet::Parsed parsed;
    ASSERT_TRUE(parquet::parse(b.data(), b.size(), &parsed).is_ok()) << n;
    EXPECT_EQ(parsed.header_size, h);
    EXPECT_EQ(parsed.num_bytes, n);
  }
}

TEST(ParquetHeader, RefusesEveryTruncationAndWrongLength) {
  std::vector<uint8_t> b = header(64);
  b.resize(b.size() + 64, 0);
  parquet::Parsed parsed;
  for (size_t len = 0; len < b.size(); len++)
    EXPECT_EQ(parquet::parse(b.data(), len, &parsed).code(), StatusCode::kInvalidFormat) << len;
  b.push_back(0);
  EXPECT_EQ(parquet::parse(b.data(), b.size(), &parsed).code(), StatusCode::kInvalidFormat);
}

// Every single-byte change of the header is either refused or still a valid
// header of the same meaning: no change can make a longer read.
TEST(ParquetHeader, SingleByteChangesAreRefusedOrHarmless) {
  std::vector<uint8_t> good = header(32);
  const size_t h = good.size();
  good.resize(h + 32, 0);
  for (size_t i = 0; i < h; i++) {
    for (int v = 0; v < 256; v++) {
      std::vector<uint8_t> b = good;
      if (b[i] == v) continue;
      b[i] = static_cast<uint8_t>(v);
      parquet::Parsed parsed;
      const Status st = parquet::parse(b.data(), b.size(), &parsed);
      if (st.is_ok()) {
        EXPECT_EQ(parsed.header_size + parsed.num_bytes, b.size());
      } else {
        EXPECT_EQ(st.code(), StatusCode::kInvalidFormat);
      }
    }
  }
}

TEST(ParquetHeader, RefusesSizesOutsideWholeBlocksUpTo128MiB) {
  parquet::Parsed parsed;
  for (uint32_t n : {uint32_t{0}, uint32_t{31}, uint32_t{33}, (uint32_t{1} << 27) + 32}) {
    std::vector<uint8_t> b = header(n);
    b.resize(b.size() + n % 4096, 0);
    EXPECT_EQ(parquet::parse(b.data(), b.size(), &parsed).code(), StatusCode::kInvalidFormat) << n;
  }
}

}  // namespace
}  // namespace sketch::bloom
