// ell's parser: every stored encoding round-trips; anything inconsistent is
// refused in canonical validation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "ell_test_util.h"
#include "hll_test_util.h"

namespace sketch::ell {
namespace {

using hll::test::stream;
using test::Sketch;

bool canonical_ok(const std::vector<uint8_t>& b) {
  View v;
  return parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok();
}

std::string refusal(const std::vector<uint8_t>& b) {
  View v;
  const Status st = parse(b.data(), b.size(), Validation::kCanonical, &v);
  return st.is_ok() ? "" : st.message();
}

TEST(EllFormat, StoredFormsParseCanonically) {
  for (int p : {4, 11, 18}) {
    for (uint64_t n : {0ull, 3ull, 100000ull}) {
      const Sketch s = Sketch::from_hashes(p, stream(p * 1000 + n, 0, n));
      EXPECT_TRUE(canonical_ok(s.canonical())) << p << " " << n << refusal(s.canonical());
      const Sketch merged = s.united(Sketch::from_hashes(p, stream(1, 0, 3)));
      EXPECT_TRUE(canonical_ok(merged.canonical())) << refusal(merged.canonical());
    }
  }
}

TEST(EllFormat, WorkingSetIsNeverStored) {
  const Sketch s = Sketch::from_hashes(10, stream(2, 0, 5));
  ASSERT_EQ(s.encoding(), Encoding::kSparseSet);
  EXPECT_NE(refusal(s.bytes()).find("working state"), std::string::npos);
  View v;
  EXPECT_TRUE(parse(s.bytes().data(), s.bytes().size(), Validation::kStructure, &v).is_ok());
}

TEST(EllFormat, RefusesInconsistentHeadersAndLengths) {
  const std::vector<uint8_t> good = Sketch::from_hashes(10, stream(3, 0, 20)).canonical();
  auto with = [&](size_t at, uint8_t value) {
    std::vector<uint8_t> b = good;
    b[at] = value;
    return b;
  };
  EXPECT_FALSE(canonical_ok(with(2, 1)));    // an hll kind byte
  EXPECT_FALSE(canonical_ok(with(3, 2)));    // a future version
  EXPECT_FALSE(canonical_ok(with(4, 2)));    // another hash identity
  EXPECT_FALSE(canonical_ok(with(5, 3)));    // p below 4
  EXPECT_FALSE(canonical_ok(with(5, 19)));   // p above 18
  EXPECT_FALSE(canonical_ok(with(6, 9)));    // unknown encoding
  EXPECT_FALSE(canonical_ok(with(8, 2)));    // unknown flag
  std::vector<uint8_t> truncated(good.begin(), good.end() - 1);
  EXPECT_FALSE(canonical_ok(truncated));
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_FALSE(canonical_ok(longer));
  EXPECT_FALSE(canonical_ok(std::vector<uint8_t>(good.begin(), good.begin() + 9)));
}

TEST(EllFormat, RefusesUnsortedDuplicateOrImpossibleTokens) {
  const std::vector<uint8_t> good = Sketch::from_hashes(10, stream(4, 0, 20)).canonical();
  ASSERT_TRUE(canonical_ok(good));
  std::vector<uint8_t> swapped = good;
  std::swap_ranges(swapped.begin() + 16, swapped.begin() + 20, swapped.begin() + 20);
  EXPECT_NE(refusal(swapped).find("increasing"), std::string::npos);
  std::vector<uint8_t> duplicate = good;
  std::memcpy(duplicate.data() + 20, duplicate.data() + 16, 4);
  EXPECT_FALSE(canonical_ok(duplicate));
  std::vector<uint8_t> bad_level = good;
  store_le32(bad_level.data() + 16, 0);  // level -1
  EXPECT_NE(refusal(bad_level).find("level"), std::string::npos);
}

TEST(EllFormat, RefusesImpossibleRegistersAndMartingaleFields) {
  const Sketch one_pass = Sketch::from_hashes(6, stream(5, 0, 5000));
  const Sketch merged = one_pass.united(Sketch::from_hashes(6, stream(6, 0, 5)));
  ASSERT_EQ(merged.encoding(), Encoding::kDense);
  const std::vector<uint8_t> good = merged.canonical();
  ASSERT_TRUE(canonical_ok(good));
  auto with_register = [&](size_t i, uint32_t r) {
    std::vector<uint8_t> b = good;
    detail::set_register(b.data() + detail::kRegistersOffset, i, r);
    return b;
  };
  EXPECT_NE(refusal(with_register(3, (detail::max_update(6) + 1) << kD)).find("maximum"),
            std::string::npos);
  EXPECT_NE(refusal(with_register(3, 1u)).find("below 1"), std::string::npos);  // u = 0, a bit set
  EXPECT_NE(refusal(with_register(3, 2u << kD | 1u << (kD - 2))).find("below 1"),
            std::string::npos);                                                   // u = 2, value 0
  EXPECT_TRUE(canonical_ok(with_register(3, 2u << kD | 1u << (kD - 1))));         // u = 2, value 1
  std::vector<uint8_t> stray = good;
  stray[detail::kMartingaleOffset] = 1;
  EXPECT_NE(refusal(stray).find("merged"), std::string::npos);

  const std::vector<uint8_t> unmerged = one_pass.canonical();
  ASSERT_TRUE(is_unmerged(Sketch::from_bytes(unmerged).view()));
  ASSERT_TRUE(canonical_ok(unmerged));
  std::vector<uint8_t> wrong_change = unmerged;
  wrong_change[detail::kChangeOffset] ^= 1;
  EXPECT_NE(refusal(wrong_change).find("probability"), std::string::npos);
  std::vector<uint8_t> nan = unmerged;
  detail::store_double(nan.data() + detail::kMartingaleOffset, std::nan(""));
  EXPECT_FALSE(canonical_ok(nan));
  std::vector<uint8_t> negative = unmerged;
  detail::store_double(negative.data() + detail::kMartingaleOffset, -1.0);
  EXPECT_FALSE(canonical_ok(negative));
}

}  // namespace
}  // namespace sketch::ell
