// The packed register max of dense unions (core/hll/hll_register_max.h):
// every path (scalar, SSE2, AVX2 where the CPU has it) against a
// register-by-register max and against each other, over random bytes (any
// bytes can reach a union), every length up to several SIMD steps plus every
// dense size, and every alignment of both buffers; nothing outside the
// 3 * groups bytes is read into the result or written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/hll/hll.h"
#include "core/hll/hll_internal.h"
#include "core/hll/hll_register_max.h"

namespace sketch::hll::detail {
namespace {

constexpr MaxPath kPaths[] = {MaxPath::kScalar, MaxPath::kSse2, MaxPath::kAvx2};
constexpr uint8_t kGuardByte = 0xA5;
constexpr size_t kSlack = 64;  // guard bytes before and after each array

// The definition: register i of the result is the larger register i.
std::vector<uint8_t> reference_max(const uint8_t* a, const uint8_t* b, size_t groups) {
  std::vector<uint8_t> out(a, a + 3 * groups);
  for (size_t i = 0; i < 4 * groups; i++) {
    const int r = std::max(get_register(a, i), get_register(b, i));
    const unsigned shift = (i & 3) * 6;
    uint8_t* g = out.data() + (i >> 2) * 3;
    uint32_t word = uint32_t{g[0]} | uint32_t{g[1]} << 8 | uint32_t{g[2]} << 16;
    word = (word & ~(uint32_t{63} << shift)) | static_cast<uint32_t>(r) << shift;
    g[0] = static_cast<uint8_t>(word);
    g[1] = static_cast<uint8_t>(word >> 8);
    g[2] = static_cast<uint8_t>(word >> 16);
  }
  return out;
}

// Random register bytes: half the time uniform bytes, half the time
// registers drawn from a few values, so that equal registers (the tie in
// the comparison) are common.
void fill(std::mt19937_64& rng, uint8_t* p, size_t n) {
  if (rng() & 1) {
    for (size_t i = 0; i < n; i++) p[i] = static_cast<uint8_t>(rng());
    return;
  }
  for (size_t g = 0; g < n / 3; g++) {
    uint32_t word = 0;
    for (int k = 0; k < 4; k++) word |= static_cast<uint32_t>(rng() % 4 + 1) << (6 * k);
    p[3 * g] = static_cast<uint8_t>(word);
    p[3 * g + 1] = static_cast<uint8_t>(word >> 8);
    p[3 * g + 2] = static_cast<uint8_t>(word >> 16);
  }
}

// Runs one path on copies of a and b placed at the given offsets inside
// guarded buffers; checks the result against the reference, that src is
// unchanged and that no guard byte moved.
void check_one(MaxPath path, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
               size_t groups, size_t dst_offset, size_t src_offset) {
  const size_t n = 3 * groups;
  std::vector<uint8_t> dst_buf(kSlack + dst_offset + n + kSlack, kGuardByte);
  std::vector<uint8_t> src_buf(kSlack + src_offset + n + kSlack, kGuardByte);
  uint8_t* dst = dst_buf.data() + kSlack + dst_offset;
  uint8_t* src = src_buf.data() + kSlack + src_offset;
  std::copy(a.begin(), a.begin() + n, dst);
  std::copy(b.begin(), b.begin() + n, src);
  const std::vector<uint8_t> src_before = src_buf;

  max_packed_registers_with(path, dst, src, groups);

  const std::string where = std::string(max_path_name(path)) + " groups=" +
                            std::to_string(groups) + " dst+" + std::to_string(dst_offset) +
                            " src+" + std::to_string(src_offset);
  ASSERT_EQ(std::vector<uint8_t>(dst, dst + n), reference_max(a.data(), b.data(), groups))
      << where;
  ASSERT_EQ(src_buf, src_before) << where << ": src changed";
  for (size_t i = 0; i < kSlack + dst_offset; i++)
    ASSERT_EQ(dst_buf[i], kGuardByte) << where << ": wrote before dst";
  for (size_t i = kSlack + dst_offset + n; i < dst_buf.size(); i++)
    ASSERT_EQ(dst_buf[i], kGuardByte) << where << ": wrote past dst";
}

std::vector<MaxPath> available_paths() {
  std::vector<MaxPath> paths;
  for (MaxPath path : kPaths)
    if (max_path_available(path)) paths.push_back(path);
  return paths;
}

TEST(HllRegisterMax, ScalarIsAlwaysAvailableAndTheBestPathIs) {
  EXPECT_TRUE(max_path_available(MaxPath::kScalar));
  EXPECT_TRUE(max_path_available(best_max_path()));
#if defined(__x86_64__)
  EXPECT_TRUE(max_path_available(MaxPath::kSse2));
  EXPECT_NE(best_max_path(), MaxPath::kScalar);
#endif
}

// Lengths 0..80 groups cover zero, one and several steps of every path and
// every tail the narrower paths finish; offsets 0..31 every alignment of
// both buffers against 16- and 32-byte vectors.
TEST(HllRegisterMax, EveryPathMatchesTheDefinitionAtEveryLengthAndAlignment) {
  std::mt19937_64 rng(20261201);
  const std::vector<MaxPath> paths = available_paths();
  for (size_t groups = 0; groups <= 80; groups++) {
    std::vector<uint8_t> a(3 * groups), b(3 * groups);
    for (size_t dst_offset = 0; dst_offset < 32; dst_offset++) {
      for (size_t src_offset = 0; src_offset < 32; src_offset++) {
        fill(rng, a.data(), a.size());
        fill(rng, b.data(), b.size());
        for (MaxPath path : paths) check_one(path, a, b, groups, dst_offset, src_offset);
      }
    }
  }
}

// Every dense size the format has (p = 4..18), at a few alignments.
TEST(HllRegisterMax, EveryPathMatchesTheDefinitionAtEveryPrecision) {
  std::mt19937_64 rng(15);
  for (int p = kMinPrecision; p <= kMaxPrecision; p++) {
    const size_t groups = register_count(p) / 4;
    std::vector<uint8_t> a(3 * groups), b(3 * groups);
    fill(rng, a.data(), a.size());
    fill(rng, b.data(), b.size());
    for (MaxPath path : available_paths())
      for (size_t offset : {0, 1, 5, 8, 31}) check_one(path, a, b, groups, offset, 31 - offset);
  }
}

// All 64 x 64 pairs of register values, at each of the 4 places of a group
// (the places straddle bytes differently), through every path.
TEST(HllRegisterMax, EveryPairOfValuesAtEveryPlace) {
  const size_t groups = 64 * 64;
  std::vector<uint8_t> a(3 * groups), b(3 * groups);
  for (int place = 0; place < 4; place++) {
    std::fill(a.begin(), a.end(), 0);
    std::fill(b.begin(), b.end(), 0);
    for (size_t g = 0; g < groups; g++) {
      const uint32_t x = static_cast<uint32_t>(g / 64) << (6 * place);
      const uint32_t y = static_cast<uint32_t>(g % 64) << (6 * place);
      for (int k = 0; k < 3; k++) {
        a[3 * g + k] = static_cast<uint8_t>(x >> (8 * k));
        b[3 * g + k] = static_cast<uint8_t>(y >> (8 * k));
      }
    }
    for (MaxPath path : available_paths()) {
      std::vector<uint8_t> dst = a;
      max_packed_registers_with(path, dst.data(), b.data(), groups);
      for (size_t g = 0; g < groups; g++)
        ASSERT_EQ(get_register(dst.data(), 4 * g + place),
                  static_cast<int>(std::max(g / 64, g % 64)))
            << max_path_name(path) << " place " << place << " values " << g / 64 << ", "
            << g % 64;
    }
  }
}

// The paths against each other on the same inputs (besides each against the
// definition above): the bytes of a union must not depend on the CPU.
TEST(HllRegisterMax, AllPathsGiveTheSameBytes) {
  std::mt19937_64 rng(7);
  const std::vector<MaxPath> paths = available_paths();
  if (paths.size() < 2) GTEST_SKIP() << "only the scalar path on this CPU";
  for (int round = 0; round < 200; round++) {
    const size_t groups = rng() % 5000;
    std::vector<uint8_t> a(3 * groups), b(3 * groups);
    fill(rng, a.data(), a.size());
    fill(rng, b.data(), b.size());
    std::vector<uint8_t> first = a;
    max_packed_registers_with(paths[0], first.data(), b.data(), groups);
    for (size_t k = 1; k < paths.size(); k++) {
      std::vector<uint8_t> other = a;
      max_packed_registers_with(paths[k], other.data(), b.data(), groups);
      ASSERT_EQ(other, first) << max_path_name(paths[k]) << " vs " << max_path_name(paths[0])
                              << ", groups " << groups;
    }
  }
}

// A sketch unioned with itself (dst == src) is unchanged.
TEST(HllRegisterMax, SameBufferIsUnchanged) {
  std::mt19937_64 rng(3);
  std::vector<uint8_t> a(3 * 4096);
  fill(rng, a.data(), a.size());
  for (MaxPath path : available_paths()) {
    std::vector<uint8_t> dst = a;
    max_packed_registers_with(path, dst.data(), dst.data(), 4096);
    EXPECT_EQ(dst, a) << max_path_name(path);
  }
}

TEST(HllRegisterMax, Avx2PathRunsWhereTheCpuHasIt) {
  if (!max_path_available(MaxPath::kAvx2)) GTEST_SKIP() << "this CPU has no AVX2";
  EXPECT_EQ(best_max_path(), MaxPath::kAvx2);
}

}  // namespace
}  // namespace sketch::hll::detail
