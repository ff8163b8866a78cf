// state::WithRequest (core/common/with_request.h) over ddsketch, through the
// shared mechanism the server runs (test/common/state_buffer.h): the request
// tail survives every growth, merge and stored form unchanged, the inner
// sketch is byte for byte the plain ddsketch of the same values, states
// asking different fractions never merge, and every malformed tail is
// refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/common/with_request.h"
#include "ddsketch_test_util.h"

namespace sketch::state {
namespace {

using Family = WithRequest<ddsketch::Family>;
using Bytes = std::vector<uint8_t>;
using ddsketch::test::Random;
using ddsketch::test::Sketch;

Bytes tail_of(const std::vector<double>& fractions) {
  Bytes tail(request_size(static_cast<uint32_t>(fractions.size())));
  write_request(fractions.data(), static_cast<uint32_t>(fractions.size()), tail.data());
  return tail;
}

Bytes concat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// An empty working state asking `fractions`, as the transition function
// starts one.
test::StateBuffer<Family> new_state(const std::vector<double>& fractions) {
  const Sketch empty = Sketch::for_accuracy(0.01);
  return test::StateBuffer<Family>(concat(empty.bytes(), tail_of(fractions)));
}

Status canonical_ddsketch(const uint8_t* data, size_t len) {
  ddsketch::View v;
  return ddsketch::parse(data, len, Validation::kCanonical, &v);
}

std::vector<double> values(uint64_t seed, size_t n) {
  Random r(seed);
  std::vector<double> out;
  for (size_t i = 0; i < n; i++) out.push_back(std::exp(r.normal() * 4) * (i % 9 == 0 ? -1 : 1));
  return out;
}

TEST(WithRequest, GrowthKeepsTheTailAndTheInnerSketchIsTheDdsketch) {
  const std::vector<double> asked = {0.99, 0, 0.5};
  test::StateBuffer<Family> state = new_state(asked);
  Sketch plain = Sketch::for_accuracy(0.01);
  size_t growths = 0;
  for (double v : values(7, 50000)) {
    Family::Element e{v};
    growths += state.add(e);
    plain.add(v);
  }
  EXPECT_GT(growths, 0u);  // the windows grew: the tail was carried by grow()
  const Family::View v = state.view();
  ASSERT_EQ(v.request.count, 3u);
  EXPECT_EQ(request_fraction(v.request, 0), 0.99);
  EXPECT_EQ(request_fraction(v.request, 1), 0.0);
  EXPECT_EQ(request_fraction(v.request, 2), 0.5);
  EXPECT_EQ(state.stored(), concat(plain.stored(), tail_of(asked)));
  EXPECT_EQ(ddsketch::quantile(v.inner, 0.99), plain.quantile(0.99));
}

TEST(WithRequest, MergesEqualRequestsExactlyAndRefusesOthers) {
  const std::vector<double> a_values = values(1, 20000), b_values = values(2, 3000);
  test::StateBuffer<Family> a = new_state({0.5}), b = new_state({0.5}), other = new_state({0.9});
  Sketch plain = Sketch::for_accuracy(0.01);
  for (double x : a_values) {
    Family::Element e{x};
    a.add(e);
    plain.add(x);
  }
  for (double x : b_values) {
    Family::Element e{x};
    b.add(e);
    other.add(e);
    plain.add(x);
  }
  const Bytes before = a.bytes();
  const Status refused = a.merge(other.view());
  EXPECT_EQ(refused.code(), StatusCode::kMismatch);
  EXPECT_EQ(a.bytes(), before);

  // A working and a stored other, as a combine and a Citus coordinator see them.
  test::StateBuffer<Family> a2(a.bytes());
  ASSERT_TRUE(a.merge(b.view()).is_ok());
  const Bytes b_stored = b.stored();
  Family::View b_stored_view;
  ASSERT_TRUE(Family::parse(b_stored.data(), b_stored.size(), &b_stored_view).is_ok());
  ASSERT_TRUE(a2.merge(b_stored_view).is_ok());
  EXPECT_EQ(a.stored(), concat(plain.stored(), tail_of({0.5})));
  EXPECT_EQ(a2.stored(), a.stored());
}

TEST(WithRequest, StoredFormIsTheCanonicalDdsketchThenTheTail) {
  test::StateBuffer<Family> state = new_state({0.25, 0.75});
  for (double x : values(3, 100)) {
    Family::Element e{x};
    state.add(e);
  }
  const Bytes stored = state.stored();
  EXPECT_TRUE(Family::is_working(state.bytes().data(), state.bytes().size()));
  EXPECT_FALSE(Family::is_working(stored.data(), stored.size()));
  EXPECT_TRUE(validate_with_request<canonical_ddsketch>(stored.data(), stored.size()).is_ok());
  // Input never accepts a working form, tail or not.
  EXPECT_FALSE(
      validate_with_request<canonical_ddsketch>(state.bytes().data(), state.bytes().size()).is_ok());
}

TEST(WithRequest, RefusesEveryMalformedTail) {
  const Bytes inner = Sketch::of(ddsketch::test::params(6), {1, 2, 3}).stored();
  Family::View v;
  auto parses = [&](const Bytes& b) { return Family::parse(b.data(), b.size(), &v).is_ok(); };
  const Bytes good = concat(inner, tail_of({0.5}));
  ASSERT_TRUE(parses(good));
  EXPECT_FALSE(parses(inner));  // no tail at all

  Bytes wrong_tag = good, wrong_version = good, zero = good, too_many = good;
  wrong_tag.back() = 0x52;
  wrong_version[good.size() - 2] = 2;
  zero[good.size() - 4] = 0;
  too_many[good.size() - 4] = 0x11;  // 0x2711 = 10001 fractions
  too_many[good.size() - 3] = 0x27;
  for (const Bytes& b : {wrong_tag, wrong_version, zero, too_many}) EXPECT_FALSE(parses(b));

  // A count larger than the bytes there are, a tail with no sketch before
  // it, and fractions the request can never hold (out of range, not a
  // number, -0).
  Bytes short_state = tail_of({0.5, 0.9});
  short_state.erase(short_state.begin());
  EXPECT_FALSE(parses(short_state));
  EXPECT_FALSE(parses(tail_of({0.5})));
  for (double bad : {1.5, -0.25, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity(), -0.0}) {
    Bytes b = good;
    uint64_t bits;
    std::memcpy(&bits, &bad, sizeof bits);
    store_le64(b.data() + inner.size(), bits);
    EXPECT_FALSE(parses(b)) << bad;
  }
  // The inner sketch is checked too: a truncated one fails.
  Bytes truncated(inner.begin(), inner.end() - 1);
  EXPECT_FALSE(parses(concat(truncated, tail_of({0.5}))));
}

}  // namespace
}  // namespace sketch::state
