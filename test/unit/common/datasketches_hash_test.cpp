// DataSketches' hashing (core/common/datasketches_hash.h) against what the
// libraries themselves wrote: the seed hash every theta sketch stores and the
// hashes of the ints 0..9 held by the C++ library's theta sketch of them
// (/work/shared/interop/datasketches/cpp_generated_files/theta_n10_cpp.sk:
// each entry is h1 >> 1) and by its HLL_8 sketch (hll8_n10_cpp.sk: each
// coupon's low 26 bits are h1's).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/datasketches_hash.h"

namespace sketch::datasketches {
namespace {

TEST(DatasketchesHash, SeedHashOfTheDefaultSeed) {
  EXPECT_EQ(seed_hash(9001), 0x93CC);
  EXPECT_EQ(seed_hash(kDefaultSeed), kDefaultSeedHash);
  EXPECT_NE(seed_hash(9002), kDefaultSeedHash);
}

TEST(DatasketchesHash, HashOfZeroIsTheLibrariesOne) {
  // theta_n1_cpp.sk's only entry is 0x204480c8ee616be5 (h1 >> 1); the
  // coupon of hll8_n1_cpp.sk, 0x04c2d7cb, gives h1's low bit (1) and says
  // h2 has no leading zero (register value 1).
  const Murmur3Hash h = hash_long(0);
  EXPECT_EQ(h.h1, 0x40890191DCC2D7CBULL);
  EXPECT_EQ(h.h2 >> 63, 1u);
}

TEST(DatasketchesHash, HashesOfTheFirstTenIntsAreTheThetaSketchsEntries) {
  const std::vector<uint64_t> entries = {
      0x05a186bdcb7df915ULL, 0x083ddbc9e12ede40ULL, 0x085768b891b98b69ULL,
      0x10bc98fb132116feULL, 0x14cc9146727332bdULL, 0x1e9d708112fc97c3ULL,
      0x204480c8ee616be5ULL, 0x222f8c990b30d11aULL, 0x5d6906dac1b340baULL,
      0x7cc38399ea8bf4e0ULL};
  std::vector<uint64_t> ours;
  for (int64_t i = 0; i < 10; i++) ours.push_back(hash_long(i).h1 >> 1);
  std::sort(ours.begin(), ours.end());
  EXPECT_EQ(ours, entries);
}

TEST(DatasketchesHash, LongIsItsEightLittleEndianBytes) {
  for (int64_t v : {int64_t{-1}, int64_t{42}, std::numeric_limits<int64_t>::min()}) {
    uint8_t le[8];
    store_le64(le, static_cast<uint64_t>(v));
    const Murmur3Hash a = hash_long(v), b = hash_bytes(le, 8);
    EXPECT_EQ(a.h1, b.h1);
    EXPECT_EQ(a.h2, b.h2);
  }
}

TEST(DatasketchesHash, DoublesAreCanonicalizedThenHashedAsTheirBits) {
  EXPECT_EQ(hash_double(-0.0).h1, hash_double(0.0).h1);
  EXPECT_EQ(hash_double(0.0).h1, hash_long(0).h1);
  const double nan_a = std::nan(""), nan_b = -std::nan("1");
  EXPECT_EQ(hash_double(nan_a).h1, hash_long(0x7ff8000000000000LL).h1);
  EXPECT_EQ(hash_double(nan_b).h1, hash_long(0x7ff8000000000000LL).h1);
  EXPECT_EQ(hash_double(1.0).h1, hash_long(0x3ff0000000000000LL).h1);
  EXPECT_NE(hash_double(1.0).h1, hash_long(1).h1);
}

TEST(DatasketchesHash, BytesUseTheDefaultSeed) {
  const char abc[] = "abc";
  EXPECT_EQ(hash_bytes(abc, 3).h1, murmur3_x64_128(abc, 3, 9001).h1);
  EXPECT_NE(hash_bytes(abc, 3).h1, murmur3_x64_128(abc, 3, 0).h1);
}

}  // namespace
}  // namespace sketch::datasketches
