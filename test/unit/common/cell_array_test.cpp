// The cell array shared by bloom and counting_bloom (core/common/
// cell_array.h): sizes by cell width, the padding check, the body check's
// order (length, padding, queue) and its messages, the word-wise combine
// and the refusal naming both parameter sets.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/cell_array.h"

namespace sketch::cell_array {
namespace {

TEST(CellArray, SizesFollowTheCellWidth) {
  EXPECT_EQ(Geometry<1>::word_count(64), 1u);
  EXPECT_EQ(Geometry<1>::word_count(65), 2u);
  EXPECT_EQ(Geometry<4>::word_count(16), 1u);
  EXPECT_EQ(Geometry<4>::word_count(17), 2u);
  EXPECT_EQ(Geometry<1>::filter_size(100), size_t{16 + 16});
  EXPECT_EQ(Geometry<4>::filter_size(100), size_t{16 + 56});
  EXPECT_EQ(Geometry<4>::working_size(100), size_t{16 + 56} + prefetch_queue::kBytes);
}

TEST(CellArray, PaddingPastTheLastCellMustBeZero) {
  // 20 four-bit cells: two words, cells 16..19 in the low 16 bits of the second.
  std::vector<uint8_t> f(Geometry<4>::filter_size(20), 0);
  store_le64(f.data() + 24, 0xFFFF);
  EXPECT_TRUE(Geometry<4>::padding_is_zero(f.data(), 20));
  store_le64(f.data() + 24, 0x1FFFF);
  EXPECT_FALSE(Geometry<4>::padding_is_zero(f.data(), 20));
  // A whole number of words has no padding.
  std::vector<uint8_t> g(Geometry<1>::filter_size(128), 0xFF);
  EXPECT_TRUE(Geometry<1>::padding_is_zero(g.data(), 128));
  EXPECT_FALSE(Geometry<1>::padding_is_zero(g.data(), 127));
}

TEST(CellArray, BodyCheckOrderIsLengthPaddingQueue) {
  uint32_t pending = 99;
  std::vector<uint8_t> w(Geometry<1>::working_size(100), 0);
  EXPECT_EQ(check_body<1>(w.data(), w.size(), 100, true, &pending), BodyProblem::kNone);
  EXPECT_EQ(pending, 0u);
  EXPECT_EQ(check_body<1>(w.data(), w.size(), 100, false, &pending), BodyProblem::kLength);
  EXPECT_EQ(check_body<1>(w.data(), w.size() - 1, 100, true, &pending), BodyProblem::kLength);
  w[Geometry<1>::filter_size(100) - 1] = 0x80;  // bit 127 of 100
  EXPECT_EQ(check_body<1>(w.data(), w.size(), 100, true, &pending), BodyProblem::kPadding);
  w[Geometry<1>::filter_size(100) - 1] = 0;
  const uint32_t too_many = prefetch_queue::kSlots + 1;
  std::memcpy(w.data() + Geometry<1>::filter_size(100), &too_many, 4);
  EXPECT_EQ(check_body<1>(w.data(), w.size(), 100, true, &pending), BodyProblem::kQueue);
  const uint32_t three = 3;
  std::memcpy(w.data() + Geometry<1>::filter_size(100), &three, 4);
  EXPECT_EQ(check_body<1>(w.data(), w.size(), 100, true, &pending), BodyProblem::kNone);
  EXPECT_EQ(pending, 3u);
}

TEST(CellArray, BodyErrorsNameTheFamilyAndItsCells) {
  EXPECT_STREQ(body_error(BodyProblem::kLength, "bloom", "bit", 100, 32, 31).message(),
               "invalid bloom data: 100 bits need 32 bytes, got 31");
  EXPECT_STREQ(body_error(BodyProblem::kPadding, "counting_bloom", "cell", 20, 32, 32).message(),
               "invalid counting_bloom data: padding cells past cell 20 are not zero");
  const Status queue = body_error(BodyProblem::kQueue, "bloom", "bit", 100, 296, 296);
  EXPECT_EQ(queue.code(), StatusCode::kInvalidFormat);
  EXPECT_STREQ(queue.message(), "invalid bloom data: inconsistent queue");
  EXPECT_TRUE(body_error(BodyProblem::kNone, "bloom", "bit", 100, 32, 32).is_ok());
}

TEST(CellArray, CombineWordsAppliesTheOpWordByWord) {
  std::vector<uint8_t> a(24), b(24);
  for (int i = 0; i < 3; i++) {
    store_le64(a.data() + 8 * i, 0xF0F0u << i);
    store_le64(b.data() + 8 * i, 0x0FF0u << i);
  }
  combine_words(a.data(), b.data(), 3, [](uint64_t x, uint64_t y) { return x | y; });
  for (int i = 0; i < 3; i++) EXPECT_EQ(load_le64(a.data() + 8 * i), uint64_t{0xFFF0} << i);
  combine_words(a.data(), b.data(), 2, [](uint64_t x, uint64_t y) { return x & y; });
  EXPECT_EQ(load_le64(a.data()), uint64_t{0x0FF0});
  EXPECT_EQ(load_le64(a.data() + 16), uint64_t{0xFFF0} << 2);  // past `words`: untouched
}

TEST(CellArray, MismatchNamesBothShapes) {
  EXPECT_TRUE(check_same_shape("x", {64, 3, 1}, {64, 3, 1}).is_ok());
  EXPECT_STREQ(check_same_shape("bloom filters", {64, 3, 1}, {128, 4, 1}).message(),
               "cannot combine bloom filters with different parameters: (m=64, k=3) and "
               "(m=128, k=4)");
  const Status st = check_same_shape("counting bloom filters", {64, 3, 1}, {64, 3, 2});
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_STREQ(st.message(),
               "cannot combine counting bloom filters with different parameters: "
               "(m=64, k=3, hash=1) and (m=64, k=3, hash=2)");
}

}  // namespace
}  // namespace sketch::cell_array
