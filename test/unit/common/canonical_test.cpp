// Canonical element encodings and the hash: values equal in SQL must hash
// equally, and the hash must never change, or sketches stored yesterday stop
// merging with sketches built today.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/common/canonical.h"
#include "core/common/hash.h"

namespace sketch {
namespace {

using Bytes = std::array<uint8_t, kCanonicalScalarSize>;

Bytes int_bytes(int64_t v) {
  Bytes b;
  encode_int64(v, b.data());
  return b;
}

Bytes double_bytes(double v) {
  Bytes b;
  encode_double(v, b.data());
  return b;
}

uint64_t hash_of(const Bytes& b) { return hash64(b.data(), b.size()); }

double double_from_bits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// --- integers ---------------------------------------------------------------

// Every int2 value, as int2, int4 and int8: one encoding, one hash.
TEST(CanonicalInt, AllInt16ValuesMatchTheirWiderForms) {
  for (int v = std::numeric_limits<int16_t>::min(); v <= std::numeric_limits<int16_t>::max();
       v++) {
    const Bytes narrow = int_bytes(static_cast<int16_t>(v));
    ASSERT_EQ(narrow, int_bytes(static_cast<int32_t>(v))) << v;
    ASSERT_EQ(narrow, int_bytes(static_cast<int64_t>(v))) << v;
    ASSERT_EQ(hash_of(narrow), hash_of(int_bytes(static_cast<int64_t>(v)))) << v;
  }
}

TEST(CanonicalInt, Int32ValuesMatchInt64) {
  std::vector<int64_t> values = {std::numeric_limits<int32_t>::min(),
                                 std::numeric_limits<int32_t>::min() + 1,
                                 -65536, -32769, 32768, 65535,
                                 std::numeric_limits<int32_t>::max() - 1,
                                 std::numeric_limits<int32_t>::max()};
  std::mt19937_64 rng(5);
  for (int i = 0; i < 10000; i++) values.push_back(static_cast<int32_t>(rng()));
  for (int64_t v : values) {
    const Bytes narrow = int_bytes(static_cast<int32_t>(v));
    ASSERT_EQ(narrow, int_bytes(v)) << v;
    ASSERT_EQ(hash_of(narrow), hash_of(int_bytes(v))) << v;
  }
}

TEST(CanonicalInt, LittleEndianTwosComplement) {
  EXPECT_EQ(int_bytes(0), (Bytes{0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(int_bytes(1), (Bytes{1, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(int_bytes(-1), (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(int_bytes(0x0102030405060708), (Bytes{8, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(int_bytes(std::numeric_limits<int64_t>::min()), (Bytes{0, 0, 0, 0, 0, 0, 0, 0x80}));
  EXPECT_EQ(int_bytes(std::numeric_limits<int64_t>::max()),
            (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}));
  // -1 as int16 sign-extends: it is not 65535.
  EXPECT_NE(int_bytes(static_cast<int16_t>(-1)), int_bytes(65535));
}

// --- floating point ---------------------------------------------------------

TEST(CanonicalDouble, NegativeZeroIsZero) {
  EXPECT_EQ(double_bytes(-0.0), double_bytes(0.0));
  EXPECT_EQ(double_bytes(0.0), (Bytes{0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(double_bytes(static_cast<double>(-0.0f)), double_bytes(0.0));
}

TEST(CanonicalDouble, EveryNaNIsOneNaN) {
  const Bytes canonical = double_bytes(std::numeric_limits<double>::quiet_NaN());
  const std::vector<double> nans = {
      std::nan(""),
      std::nan("1"),
      std::nan("12345"),
      -std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::signaling_NaN(),
      double_from_bits(0x7ff0000000000001),  // signalling, smallest payload
      double_from_bits(0xfff0000000000001),  // negative signalling
      double_from_bits(0x7ff8000000000001),
      double_from_bits(0x7fffffffffffffff),
      double_from_bits(0xffffffffffffffff),
      static_cast<double>(std::numeric_limits<float>::quiet_NaN()),
      static_cast<double>(-std::nanf("7")),
  };
  for (size_t i = 0; i < nans.size(); i++) {
    ASSERT_TRUE(std::isnan(nans[i])) << i;
    EXPECT_EQ(double_bytes(nans[i]), canonical) << "NaN #" << i;
  }
  EXPECT_NE(canonical, double_bytes(std::numeric_limits<double>::infinity()));
}

TEST(CanonicalDouble, Float4WidensToTheSameDouble) {
  EXPECT_EQ(double_bytes(static_cast<double>(1.5f)), double_bytes(1.5));
  EXPECT_EQ(double_bytes(static_cast<double>(-1e30f)), double_bytes(double(-1e30f)));
  EXPECT_EQ(double_bytes(static_cast<double>(std::numeric_limits<float>::infinity())),
            double_bytes(std::numeric_limits<double>::infinity()));
  // 0.1f is not 0.1: SQL also says 0.1::float4 <> 0.1::float8.
  EXPECT_NE(double_bytes(static_cast<double>(0.1f)), double_bytes(0.1));
}

TEST(CanonicalDouble, OrdinaryValuesKeepTheirBits) {
  for (double v : {1.0, -1.0, 1.5, 1e-310 /* subnormal */, 1e300,
                   std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity()}) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    EXPECT_EQ(double_bytes(v), int_bytes(static_cast<int64_t>(bits))) << v;
  }
  EXPECT_NE(double_bytes(1.0), double_bytes(std::nextafter(1.0, 2.0)));
  EXPECT_NE(double_bytes(std::numeric_limits<double>::infinity()),
            double_bytes(-std::numeric_limits<double>::infinity()));
}

// --- the hash itself --------------------------------------------------------

// Published XXH3 test vectors (empty input, seed 0) and values recorded from
// this build. If any of these changes, kHashIdentity must change with it.
TEST(Hash, IsStableXxh3WithSeedZero) {
  EXPECT_EQ(hash64("", 0), 0x2d06800538d394c2u);
  const Hash128 h = hash128("", 0);
  EXPECT_EQ(h.high, 0x99aa06d3014798d8u);
  EXPECT_EQ(h.low, 0x6001c324468d497fu);
  EXPECT_EQ(hash64("hello", 5), 0x9555e8555c62dcfdu);
  EXPECT_EQ(hash_of(int_bytes(42)), 0xd5a6f8c838df27c8u);
  EXPECT_EQ(hash_of(double_bytes(1.5)), 0x2561a4889ff63458u);
  EXPECT_EQ(kHashIdentity, 1);
}

TEST(Hash, DependsOnlyOnTheBytes) {
  // The same bytes at another address and alignment hash alike; one byte
  // more or less does not.
  const std::string element = "123e4567-e89b-12d3-a456-426614174000";
  char shifted[64] = {0};
  std::memcpy(shifted + 3, element.data(), element.size());
  EXPECT_EQ(hash64(element.data(), element.size()), hash64(shifted + 3, element.size()));
  EXPECT_NE(hash64(element.data(), element.size()), hash64(shifted + 3, element.size() + 1));
  EXPECT_NE(hash64(element.data(), element.size()), hash64(shifted + 2, element.size()));
}

}  // namespace
}  // namespace sketch
