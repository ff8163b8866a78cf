// ell's register arithmetic against a model that keeps every value seen:
// a register must be exactly the model's largest value and its window.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/ell/ell_internal.h"
#include "core/hll/hll_internal.h"

namespace sketch::ell::detail {
namespace {

uint32_t encode(const std::set<uint32_t>& values) {
  if (values.empty()) return 0;
  const uint32_t u = *values.rbegin();
  uint32_t r = u << kD;
  for (uint32_t k : values)
    if (k < u && u - k <= kD) r |= uint32_t{1} << (kD - (u - k));
  return r;
}

TEST(EllRegister, AddAndMergeAreTheWindowOfTheSetOfValues) {
  std::mt19937_64 rng(7);
  const int p = 10;
  for (int trial = 0; trial < 2000; trial++) {
    std::set<uint32_t> a, b;
    uint32_t ra = 0, rb = 0;
    const int n = static_cast<int>(rng() % 12);
    for (int i = 0; i < n; i++) {
      // Values clustered so that windows overlap, sometimes far apart.
      const uint32_t k = 1 + static_cast<uint32_t>(rng() % (trial % 2 ? 30 : max_update(p)));
      if (rng() & 1) {
        a.insert(k);
        ra = reg_add(ra, k);
      } else {
        b.insert(k);
        rb = reg_add(rb, k);
      }
      ASSERT_EQ(ra, encode(a));
      ASSERT_EQ(rb, encode(b));
    }
    std::set<uint32_t> both = a;
    both.insert(b.begin(), b.end());
    ASSERT_EQ(reg_merge(ra, rb), encode(both));
    ASSERT_EQ(reg_merge(rb, ra), encode(both));
    ASSERT_EQ(reg_merge(ra, ra), ra);
  }
}

// change_weight: every value above u and every unseen value of the window,
// summed value by value.
TEST(EllRegister, ChangeWeightIsTheSumOfTheUnseenKnownValues) {
  std::mt19937_64 rng(8);
  for (int p : {4, 11, 18}) {
    EXPECT_EQ(change_weight(0, p), uint64_t{1} << (64 - p));
    uint64_t all = 0;
    for (uint32_t k = 1; k <= max_update(p); k++) all += value_weight(k, p);
    EXPECT_EQ(all, uint64_t{1} << (64 - p));
    for (int trial = 0; trial < 500; trial++) {
      uint32_t r = 0;
      for (int i = 0; i < 1 + trial % 6; i++)
        r = reg_add(r, 1 + static_cast<uint32_t>(rng() % max_update(p)));
      std::set<uint32_t> seen;
      for_each_value(r, [&](uint32_t k) { seen.insert(k); });
      uint64_t expected = 0;
      for (uint32_t k = 1; k <= max_update(p); k++) {
        const bool known = k > reg_u(r) || reg_u(r) - k <= kD;
        if (known && !seen.count(k)) expected += value_weight(k, p);
      }
      ASSERT_EQ(change_weight(r, p), expected) << "p=" << p << " r=" << r;
    }
  }
}

TEST(EllRegister, PackedRegistersRoundTripWithoutTouchingNeighbours) {
  const int p = 4;
  std::vector<uint8_t> regs(register_count(p) * kRegisterBits / 8, 0);
  std::mt19937_64 rng(9);
  std::vector<uint32_t> model(register_count(p), 0);
  for (int i = 0; i < 1000; i++) {
    const size_t at = rng() % model.size();
    const uint32_t r = static_cast<uint32_t>(rng()) & kRegisterMask;
    set_register(regs.data(), at, r);
    model[at] = r;
    for (size_t j = 0; j < model.size(); j++) ASSERT_EQ(get_register(regs.data(), j), model[j]);
  }
}

// One hash: the update value's level is hll's rank - 1 below the top level,
// and hll_rank gives hll's rank everywhere, the top level included.
TEST(EllRegister, HllRankOfOneHashIsHllsRank) {
  std::mt19937_64 rng(10);
  for (int p : {4, 10, 16, 18}) {
    for (int trial = 0; trial < 4000; trial++) {
      uint64_t h = rng();
      // Force the top level (all bits between index and sub-level zero) often.
      if (trial % 4 == 0) h &= ~(((uint64_t{1} << (64 - p)) - 1) & ~uint64_t{3});
      const Update u = update_of(h, p);
      ASSERT_EQ(u.index, h >> (64 - p));
      ASSERT_EQ(hll_rank(reg_add(0, u.k), p), hll::detail::rank_after(h, p)) << std::hex << h;
      // Tokens give the same update and the same hll rank at every p <= 24.
      const uint32_t token = token_of(h);
      ASSERT_EQ(token_update(token, p).k, u.k);
      ASSERT_EQ(token_update(token, p).index, u.index);
      const uint64_t rep = token_hash(token);
      ASSERT_EQ(hll::detail::rank_after(rep, p), hll::detail::rank_after(h, p));
      ASSERT_EQ(rep >> (64 - p), h >> (64 - p));
    }
  }
}

}  // namespace
}  // namespace sketch::ell::detail
