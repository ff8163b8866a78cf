// The prefetch queue of bloom, counting_bloom and cuckoo working states
// (core/common/prefetch_queue.h): first in, first out; a full queue hands
// its oldest hash on before taking a new one; a refused hand-on changes
// nothing; drain stops where it is refused; parse bounds untrusted bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/common/prefetch_queue.h"

namespace sketch {
namespace {

using prefetch_queue::kBytes;
using prefetch_queue::kSlots;

Hash128 nth(uint64_t i) { return Hash128{i * 2 + 1, i * 3 + 7}; }

std::vector<uint64_t> lows(const uint8_t* queue) {
  std::vector<uint64_t> out;
  prefetch_queue::for_each(queue, [&](Hash128 h) { out.push_back(h.low); });
  return out;
}

TEST(PrefetchQueue, LayoutIsCountHeadAndSixteenSlots) {
  EXPECT_EQ(kSlots, 16u);
  EXPECT_EQ(kBytes, size_t{8 + 16 * 16});
}

TEST(PrefetchQueue, HandsOnTheOldestOnceFull) {
  std::vector<uint8_t> q(kBytes, 0xAB);
  prefetch_queue::clear(q.data());
  std::vector<uint64_t> applied;
  auto apply = [&](Hash128 h) {
    applied.push_back(h.low);
    return true;
  };
  for (uint64_t i = 0; i < kSlots; i++) EXPECT_TRUE(prefetch_queue::push(q.data(), nth(i), apply));
  EXPECT_TRUE(applied.empty());
  EXPECT_EQ(prefetch_queue::count(q.data()), kSlots);
  for (uint64_t i = kSlots; i < 3 * kSlots + 5; i++)
    EXPECT_TRUE(prefetch_queue::push(q.data(), nth(i), apply));
  // Every hash comes out exactly kSlots pushes after it went in, in order.
  ASSERT_EQ(applied.size(), 2 * kSlots + 5);
  for (size_t i = 0; i < applied.size(); i++) EXPECT_EQ(applied[i], nth(i).low);
  const std::vector<uint64_t> left = lows(q.data());
  ASSERT_EQ(left.size(), kSlots);
  for (size_t i = 0; i < left.size(); i++) EXPECT_EQ(left[i], nth(applied.size() + i).low);
}

TEST(PrefetchQueue, RefusedHandOnChangesNothing) {
  std::vector<uint8_t> q(kBytes);
  prefetch_queue::clear(q.data());
  for (uint64_t i = 0; i < kSlots + 3; i++)
    prefetch_queue::push(q.data(), nth(i), [](Hash128) { return true; });
  const std::vector<uint8_t> before = q;
  EXPECT_FALSE(prefetch_queue::push(q.data(), nth(99), [](Hash128) { return false; }));
  EXPECT_EQ(q, before);
}

TEST(PrefetchQueue, DrainStopsAtTheFirstRefusal) {
  std::vector<uint8_t> q(kBytes);
  prefetch_queue::clear(q.data());
  for (uint64_t i = 0; i < 5; i++)
    prefetch_queue::push(q.data(), nth(i), [](Hash128) { return true; });
  int taken = 0;
  EXPECT_FALSE(prefetch_queue::drain(q.data(), [&](Hash128) { return taken++ < 2; }));
  EXPECT_EQ(lows(q.data()), (std::vector<uint64_t>{nth(2).low, nth(3).low, nth(4).low}));
  std::vector<uint64_t> rest;
  EXPECT_TRUE(prefetch_queue::drain(q.data(), [&](Hash128 h) {
    rest.push_back(h.low);
    return true;
  }));
  EXPECT_EQ(rest, (std::vector<uint64_t>{nth(2).low, nth(3).low, nth(4).low}));
  EXPECT_EQ(prefetch_queue::count(q.data()), 0u);
}

TEST(PrefetchQueue, ParseBoundsCountAndHead) {
  std::vector<uint8_t> q(kBytes);
  prefetch_queue::clear(q.data());
  uint32_t pending = 7;
  EXPECT_TRUE(prefetch_queue::parse(q.data(), &pending));
  EXPECT_EQ(pending, 0u);
  const uint32_t too_many = kSlots + 1, last = kSlots - 1, past = kSlots;
  std::memcpy(q.data(), &too_many, 4);
  EXPECT_FALSE(prefetch_queue::parse(q.data(), &pending));
  std::memcpy(q.data(), &kSlots, 4);
  std::memcpy(q.data() + 4, &last, 4);
  EXPECT_TRUE(prefetch_queue::parse(q.data(), &pending));
  EXPECT_EQ(pending, kSlots);
  std::memcpy(q.data() + 4, &past, 4);
  EXPECT_FALSE(prefetch_queue::parse(q.data(), &pending));
}

}  // namespace
}  // namespace sketch
