// Our XXH64 (core/common/xxh64.h) against the reference: published values,
// and the reference implementation (libxxhash's XXH64, in reach through
// core/common/hash.h) over every length through three stripes and the tail
// paths, with several seeds. Parquet's split-block filters depend on every
// bit of it.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/common/hash.h"
#include "core/common/xxh64.h"

namespace sketch {
namespace {

TEST(Xxh64, PublishedValues) {
  EXPECT_EQ(xxh64("", 0, 0), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(xxh64("abc", 3, 0), 0x44BC2CF5AD770999ULL);
  // xxHash's sanity buffer (bytes of a 32-bit sequence squared in turn), as
  // its reference implementation answers.
  std::vector<uint8_t> buffer(222);
  uint32_t gen = 2654435761U;
  for (uint8_t& b : buffer) {
    b = static_cast<uint8_t>(gen >> 24);
    gen *= gen;
  }
  const uint64_t prime = 2654435761U;
  EXPECT_EQ(xxh64(buffer.data(), 1, 0), 0x4FCE394CC88952D8ULL);
  EXPECT_EQ(xxh64(buffer.data(), 4, prime), 0x09D5FFDFB928AB4BULL);
  EXPECT_EQ(xxh64(buffer.data(), 14, 0), 0xCFFA8DB881BC3A3DULL);
  EXPECT_EQ(xxh64(buffer.data(), 222, 0), 0x9DD507880DEBB03DULL);
  EXPECT_EQ(xxh64(buffer.data(), 222, prime), 0xDC515172B8EE0600ULL);
}

TEST(Xxh64, EqualsTheReferenceForEveryLengthAndSeed) {
  std::vector<uint8_t> data(300);
  for (size_t i = 0; i < data.size(); i++) data[i] = static_cast<uint8_t>(i * 131 + 7);
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{0x9E3779B185EBCA87ULL}, ~uint64_t{0}})
    for (size_t len = 0; len <= data.size(); len++)
      ASSERT_EQ(xxh64(data.data(), len, seed), XXH64(data.data(), len, seed))
          << "len " << len << " seed " << seed;
}

// Unaligned input reads the same bytes.
TEST(Xxh64, UnalignedInput) {
  std::vector<uint8_t> data(80);
  for (size_t i = 0; i < data.size(); i++) data[i] = static_cast<uint8_t>(i);
  for (size_t offset = 1; offset < 8; offset++)
    EXPECT_EQ(xxh64(data.data() + offset, 64, 0), XXH64(data.data() + offset, 64, 0));
}

}  // namespace
}  // namespace sketch
