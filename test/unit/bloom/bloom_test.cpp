// Bloom filter core: layout, positions, membership, union and intersection,
// sizing, estimates, and every class of corrupt input.
//
// The central properties: a filter never reports an added key absent (no
// false negatives, whatever the parameters, even far over capacity), and the
// union of two filters is byte for byte the filter of the union of their sets.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bloom_test_util.h"

namespace sketch::bloom {
namespace {

using test::Filter;
using test::key_hash;

constexpr uint64_t kSeed = 20240617;

std::vector<uint8_t> valid_bytes(uint64_t bits = 100, int hashes = 3, uint64_t keys = 5) {
  Filter f(bits, hashes);
  f.add_keys(kSeed, 0, keys);
  return f.bytes();
}

Status parse_bytes(const std::vector<uint8_t>& b, Validation validation = Validation::kCanonical) {
  View v;
  return parse(b.data(), b.size(), validation, &v);
}

void expect_invalid(const std::vector<uint8_t>& b, const std::string& message_part) {
  const Status st = parse_bytes(b);
  EXPECT_EQ(st.code(), StatusCode::kInvalidFormat) << message_part;
  EXPECT_NE(std::string(st.message()).find(message_part), std::string::npos)
      << "message: " << st.message();
}

std::string params_text(uint64_t bits, int hashes) {
  return "m=" + std::to_string(bits) + " k=" + std::to_string(hashes);
}

// --- layout and positions ----------------------------------------------------

// Pins the stored format byte for byte.
TEST(BloomFormat, EmptyFilterLayout) {
  const Filter f(100, 3);
  const std::vector<uint8_t> expected = {
      'S', 'K', 3, 1, 1, 3, 0, 0xff,   // header: bloom v1, hash 1, k = 3, kind none yet
      100, 0, 0, 0, 0, 0, 0, 0,        // m = 100, uint64 LE
      0, 0, 0, 0, 0, 0, 0, 0,          // two words: bits 0..63
      0, 0, 0, 0, 0, 0, 0, 0,          //            bits 64..127 (100..127 padding)
  };
  EXPECT_EQ(f.bytes(), expected);
  EXPECT_EQ(filter_size(100), expected.size());
  EXPECT_EQ(filter_size(64), 16u + 8u);
  EXPECT_EQ(filter_size(65), 16u + 16u);
}

// h1 = 0 and h2 = 2^58 + 1 over m = 64 give g_i = i * h2 and positions
// floor(g_i * 64 / 2^64) = g_i >> 58 = i: bits 0, 1 and 2, byte 16 = 0x07.
TEST(BloomFormat, PositionsAreMultiplyShiftOfDoubleHashing) {
  Filter f(64, 3);
  f.add(Hash128{0, (uint64_t{1} << 58) + 1});
  EXPECT_EQ(f.bytes()[16], 0x07);
  EXPECT_EQ(f.set_bits(), 3u);

  // The even high half is made odd: h2 = 2^58 + 1 either way.
  Filter g(64, 3);
  g.add(Hash128{0, uint64_t{1} << 58});
  EXPECT_EQ(g.bytes(), f.bytes());

  // Bit 63 of the array is bit 7 of byte 7 of the words: little-endian.
  Filter top(64, 1);
  top.add(Hash128{~uint64_t{0}, 1});
  EXPECT_EQ(top.bytes()[16 + 7], 0x80);
}

TEST(BloomFormat, PositionsMatchTheFormula) {
  for (uint64_t m : {uint64_t{8}, uint64_t{100}, uint64_t{95851}, kMaxBits}) {
    for (uint64_t i = 0; i < 200; i++) {
      const Hash128 h = key_hash(kSeed, i);
      Positions positions(h, m);
      const uint64_t h2 = h.high | 1;
      for (uint64_t j = 0; j < 20; j++) {
        const uint64_t g = h.low + j * h2;
        const auto expected =
            static_cast<uint64_t>((static_cast<unsigned __int128>(g) * m) >> 64);
        const uint64_t p = positions.next();
        ASSERT_EQ(p, expected);
        ASSERT_LT(p, m);
      }
    }
  }
}

// Every position is hit about equally often: chi-square over 1000 bits.
TEST(BloomFormat, PositionsAreUniform) {
  constexpr uint64_t m = 1000;
  std::vector<uint64_t> hits(m, 0);
  constexpr uint64_t keys = 200000;
  constexpr int k = 5;
  for (uint64_t i = 0; i < keys; i++) {
    Positions positions(key_hash(kSeed, i), m);
    for (int j = 0; j < k; j++) hits[positions.next()]++;
  }
  const double expected = double(keys) * k / m;
  double chi2 = 0;
  for (uint64_t h : hits) chi2 += (h - expected) * (h - expected) / expected;
  // 999 degrees of freedom: mean 999, sd 44.7; 1250 is > 5 sd.
  EXPECT_LT(chi2, 1250.0);
  EXPECT_GT(chi2, 750.0);
}

// --- membership ------------------------------------------------------------------

TEST(BloomMembership, NoFalseNegativesEver) {
  // Under, at and far over capacity; tiny and odd sizes; 1 and 64 hashes.
  const std::vector<Params> shapes = {
      {8, 1}, {8, 64}, {100, 3}, {1000, 7}, {4096, 2}, {65, 5}, {95851, 7}, {143776, 10},
      {100000, 14}, {12345, 64}, {1 << 20, 1},
  };
  const std::vector<uint64_t> sizes = {1, 10, 1000, 50000};
  uint64_t seed = kSeed;
  for (const Params& shape : shapes) {
    for (uint64_t n : sizes) {
      for (int round = 0; round < 3; round++) {
        seed++;
        Filter f(shape);
        f.add_keys(seed, 0, n);
        SCOPED_TRACE(params_text(shape.bits, shape.hashes) + " n=" + std::to_string(n));
        ASSERT_EQ(f.count_present(seed, 0, n), n);
      }
    }
  }
}

TEST(BloomMembership, EmptyFilterContainsNothing) {
  const Filter f(1000, 7);
  EXPECT_EQ(f.count_present(kSeed, 0, 10000), 0u);
}

TEST(BloomMembership, AddingIsIdempotentAndOrderFree) {
  Filter a(5000, 4), b(5000, 4);
  a.add_keys(kSeed, 0, 500);
  for (uint64_t i = 500; i-- > 0;) {
    b.add(key_hash(kSeed, i));
    b.add(key_hash(kSeed, i));
  }
  EXPECT_EQ(a.bytes(), b.bytes());
}

TEST(BloomMembership, ZeroHashIsFine) {
  Filter f(100, 64);
  f.add(Hash128{0, 0});
  EXPECT_TRUE(f.contains(Hash128{0, 0}));
  EXPECT_GE(f.set_bits(), 1u);
}

// --- union and intersection ------------------------------------------------------

TEST(BloomCombine, UnionIsTheFilterOfTheUnion) {
  for (const Params& shape : std::vector<Params>{{95851, 7}, {1000, 3}, {65, 2}, {8, 64}}) {
    Filter a(shape), b(shape), direct(shape);
    a.add_keys(kSeed, 0, 3000);
    b.add_keys(kSeed, 2000, 7000);
    direct.add_keys(kSeed, 0, 7000);
    Filter ab = a;
    ASSERT_TRUE(ab.merge(b).is_ok());
    Filter ba = b;
    ASSERT_TRUE(ba.merge(a).is_ok());
    SCOPED_TRACE(params_text(shape.bits, shape.hashes));
    EXPECT_EQ(ab.bytes(), direct.bytes());
    EXPECT_EQ(ba.bytes(), direct.bytes());
  }
}

TEST(BloomCombine, ManySmallFiltersLikeAnHourlyRollup) {
  Filter total(20000, 5);
  for (uint64_t hour = 0; hour < 24; hour++) {
    Filter h(20000, 5);
    h.add_keys(kSeed, hour * 30, hour * 30 + 40);
    ASSERT_TRUE(total.merge(h).is_ok());
  }
  Filter direct(20000, 5);
  direct.add_keys(kSeed, 0, 23 * 30 + 40);
  EXPECT_EQ(total.bytes(), direct.bytes());
}

TEST(BloomCombine, IntersectionContainsTheTrueIntersection) {
  for (const Params& shape : std::vector<Params>{{95851, 7}, {2000, 3}, {100, 2}}) {
    Filter a(shape), b(shape), exact(shape);
    a.add_keys(kSeed, 0, 6000);
    b.add_keys(kSeed, 4000, 10000);
    exact.add_keys(kSeed, 4000, 6000);
    Filter both = a;
    ASSERT_TRUE(both.merge(b, /*intersect=*/true).is_ok());
    SCOPED_TRACE(params_text(shape.bits, shape.hashes));
    // Every key of A ∩ B is present, and the filter of A ∩ B is a subset.
    EXPECT_EQ(both.count_present(kSeed, 4000, 6000), 2000u);
    const std::vector<uint8_t>& x = both.bytes();
    const std::vector<uint8_t>& y = exact.bytes();
    const std::vector<uint8_t>& xa = a.bytes();
    for (size_t i = kBitsOffset; i < x.size(); i++) {
      ASSERT_EQ(x[i] & y[i], y[i]) << "byte " << i;    // ⊇ filter of the intersection
      ASSERT_EQ(x[i] & xa[i], x[i]) << "byte " << i;   // ⊆ each operand
    }
  }
}

TEST(BloomCombine, IntersectionOfDisjointSetsIsAlmostEmptyAtLowFill) {
  Filter a(95851, 7), b(95851, 7);
  a.add_keys(kSeed, 0, 1000);
  b.add_keys(kSeed, 1000, 2000);
  ASSERT_TRUE(a.merge(b, true).is_ok());
  // Each operand fills ~7% of the bits, so ~0.5% survive the AND by chance.
  EXPECT_LT(a.set_bits(), 95851u / 100);
  EXPECT_LT(a.count_present(kSeed, 0, 2000), 10u);
}

TEST(BloomCombine, MismatchedParametersAreRefusedNamingBoth) {
  const Filter a(1000, 7), b(2000, 7), c(1000, 5);
  Filter x = a;
  Status st = x.merge(b);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_STREQ(st.message(),
               "cannot combine bloom filters with different parameters: "
               "(m=1000, k=7) and (m=2000, k=7)");
  st = x.merge(c, true);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_STREQ(st.message(),
               "cannot combine bloom filters with different parameters: "
               "(m=1000, k=7) and (m=1000, k=5)");
  EXPECT_EQ(x.bytes(), a.bytes()) << "a refused merge changes nothing";

  // A different hash identity cannot be parsed by this build, but the check
  // does not rely on that.
  View va = a.view();
  View vb = a.view();
  vb.hash_identity = 2;
  st = check_compatible(va, vb);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_STREQ(st.message(),
               "cannot combine bloom filters with different parameters: "
               "(m=1000, k=7, hash=1) and (m=1000, k=7, hash=2)");
}

// The PostgreSQL payload of a varlena starts 4 bytes into an 8-byte aligned
// allocation: everything must work on unaligned buffers.
TEST(BloomCombine, UnalignedBuffers) {
  Filter a(1000, 4), b(1000, 4);
  a.add_keys(kSeed, 0, 100);
  b.add_keys(kSeed, 50, 150);
  Filter expected = a;
  ASSERT_TRUE(expected.merge(b).is_ok());

  std::vector<uint8_t> storage(a.bytes().size() + 3);
  uint8_t* odd = storage.data() + 3;
  std::memcpy(odd, a.bytes().data(), a.bytes().size());
  View va, vb;
  ASSERT_TRUE(parse(odd, a.bytes().size(), Validation::kCanonical, &va).is_ok());
  ASSERT_TRUE(parse(b.bytes().data(), b.bytes().size(), Validation::kCanonical, &vb).is_ok());
  merge(odd, vb);
  add_hash(odd, key_hash(kSeed, 7));  // already present: no change
  EXPECT_EQ(std::vector<uint8_t>(odd, odd + a.bytes().size()), expected.bytes());
  ASSERT_TRUE(parse(odd, a.bytes().size(), Validation::kCanonical, &va).is_ok());
  for (uint64_t i = 0; i < 150; i++) EXPECT_TRUE(contains_hash(va, key_hash(kSeed, i)));
  EXPECT_EQ(bits_set(va), expected.set_bits());
}

// --- the working encoding of aggregate states -------------------------------------

// However many values are still queued, the stored form of a working state
// is byte for byte the filter built by adding every value at once.
TEST(BloomWorking, StoredFormEqualsDirectBuilding) {
  for (const Params& shape : std::vector<Params>{{95851, 7}, {100, 3}, {8, 64}, {1 << 20, 1}}) {
    for (uint64_t n : {0, 1, 5, 15, 16, 17, 31, 32, 33, 1000}) {
      Filter working = Filter::working(shape);
      working.add_keys(kSeed, 0, n);
      Filter direct(shape);
      direct.add_keys(kSeed, 0, n);
      SCOPED_TRACE(params_text(shape.bits, shape.hashes) + " n=" + std::to_string(n));
      const View v = working.view();
      EXPECT_EQ(v.encoding, Encoding::kQueued);
      EXPECT_EQ(v.pending, std::min<uint64_t>(n, kPendingSlots));
      EXPECT_EQ(v.size, working_size(shape.bits));
      EXPECT_EQ(working.stored().bytes(), direct.bytes());
      EXPECT_EQ(working.count_present(kSeed, 0, n), n);
    }
  }
}

TEST(BloomWorking, EmptyWorkingLayout) {
  const Filter w = Filter::working(Params{64, 2});
  std::vector<uint8_t> expected = {'S', 'K', 3, 1, 1, 2, 1, 0xff, 64, 0, 0, 0, 0, 0, 0, 0};
  expected.resize(working_size(64), 0);  // one word, count 0, head 0, 16 empty slots
  EXPECT_EQ(w.bytes(), expected);
  EXPECT_EQ(working_size(64), 24u + 8u + 256u);
  EXPECT_EQ(w.stored().bytes(), Filter(64, 2).bytes());
}

// The combine function merges working states from parallel workers: their
// queued values must not be lost, whichever side holds them.
TEST(BloomWorking, UnionWithWorkingStates) {
  const Params shape{20000, 5};
  for (uint64_t na : {3, 16, 40}) {
    for (uint64_t nb : {0, 7, 16, 50}) {
      Filter a = Filter::working(shape);
      a.add_keys(kSeed, 0, na);
      Filter b = Filter::working(shape);
      b.add_keys(kSeed, 1000, 1000 + nb);
      Filter direct(shape);
      direct.add_keys(kSeed, 0, na);
      direct.add_keys(kSeed, 1000, 1000 + nb);
      SCOPED_TRACE("na=" + std::to_string(na) + " nb=" + std::to_string(nb));
      Filter ab = a;
      ASSERT_TRUE(ab.merge(b).is_ok());
      EXPECT_EQ(ab.stored().bytes(), direct.bytes());
      Filter stored_a = a.stored();
      ASSERT_TRUE(stored_a.merge(b).is_ok());
      EXPECT_EQ(stored_a.bytes(), direct.bytes());
      Filter ba = b;
      ASSERT_TRUE(ba.merge(a.stored()).is_ok());
      EXPECT_EQ(ba.stored().bytes(), direct.bytes());
      // The state keeps working after a merge.
      ab.add_keys(kSeed, 5000, 5020);
      direct.add_keys(kSeed, 5000, 5020);
      EXPECT_EQ(ab.stored().bytes(), direct.bytes());
    }
  }
}

// bloom_agg defers bit sets only where they miss the caches: from 1 MiB on.
TEST(BloomWorking, DeferredFromOneMebibyte) {
  EXPECT_FALSE(defer_adds(test::params_for(100000, 0.01).bits));   // 117 KiB
  EXPECT_FALSE(defer_adds(kMinBits));
  EXPECT_TRUE(defer_adds(test::params_for(1000000, 0.01).bits));   // 1.14 MiB
  const uint64_t first = (kDeferredMinBytes - kBitsOffset) * 8;    // exactly 1 MiB
  EXPECT_TRUE(defer_adds(first));
  EXPECT_FALSE(defer_adds(first - 64));
}

TEST(BloomWorking, NeverAcceptedAsStored) {
  Filter w = Filter::working(Params{100, 3});
  w.add_keys(kSeed, 0, 20);
  expect_invalid(w.bytes(), "encoding 1 is an aggregate's working state");
  EXPECT_TRUE(parse_bytes(w.bytes(), Validation::kStructure).is_ok());
}

TEST(BloomWorking, CorruptQueueIsRejected) {
  Filter w = Filter::working(Params{100, 3});
  w.add_keys(kSeed, 0, 20);
  const size_t queue = filter_size(100);
  std::vector<uint8_t> b = w.bytes();
  store_le32(b.data() + queue, kPendingSlots + 1);
  EXPECT_STREQ(parse_bytes(b, Validation::kStructure).message(),
               "invalid bloom data: inconsistent queue");
  b = w.bytes();
  store_le32(b.data() + queue + 4, kPendingSlots);
  EXPECT_FALSE(parse_bytes(b, Validation::kStructure).is_ok());
  b = w.bytes();
  b.pop_back();
  EXPECT_STREQ(parse_bytes(b, Validation::kStructure).message(),
               "invalid bloom data: 100 bits need 296 bytes, got 295");
  // A stored filter's length is not a working state's.
  b = Filter(100, 3).bytes();
  b[6] = 1;
  EXPECT_FALSE(parse_bytes(b, Validation::kStructure).is_ok());
}

// --- serialization -----------------------------------------------------------

TEST(BloomSerialize, BytesAndHexRoundTrip) {
  for (const Params& shape : std::vector<Params>{{8, 1}, {100, 3}, {95851, 7}, {64 * 50, 64}}) {
    Filter f(shape);
    f.add_keys(kSeed, 0, 300);
    const Filter back = Filter::from_bytes(f.bytes());
    EXPECT_EQ(back.bytes(), f.bytes());
    EXPECT_EQ(back.bits(), shape.bits);
    EXPECT_EQ(back.hashes(), shape.hashes);
    EXPECT_EQ(back.count_present(kSeed, 0, 300), 300u);

    const std::string text = f.hex();
    std::vector<uint8_t> decoded(hex_decoded_size(text.size()));
    ASSERT_TRUE(hex_decode(text.data(), text.size(), decoded.data()).is_ok());
    EXPECT_EQ(decoded, f.bytes());
  }
}

// --- corrupt input -----------------------------------------------------------

TEST(BloomCorrupt, ValidReferenceParses) {
  const std::vector<uint8_t> b = valid_bytes();
  View v;
  ASSERT_TRUE(parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok());
  EXPECT_EQ(v.bits, 100u);
  EXPECT_EQ(v.hashes, 3);
  EXPECT_EQ(v.hash_identity, kHashIdentity);
  EXPECT_EQ(v.size, b.size());
  EXPECT_EQ(v.encoding, Encoding::kStored);
  EXPECT_EQ(v.pending, 0u);
  EXPECT_EQ(v.data, b.data());
  EXPECT_EQ(v.words, b.data() + kBitsOffset);
}

TEST(BloomCorrupt, EveryTruncationIsRejected) {
  const std::vector<uint8_t> b = valid_bytes(1000, 5, 50);
  for (size_t len = 0; len < b.size(); len++) {
    const std::vector<uint8_t> prefix(b.begin(), b.begin() + len);
    EXPECT_FALSE(parse_bytes(prefix).is_ok()) << "length " << len;
  }
  expect_invalid({b.begin(), b.begin() + 4}, "the header alone needs 8");
  expect_invalid({b.begin(), b.begin() + 12}, "truncated before the bit count (12 bytes)");
  expect_invalid({b.begin(), b.end() - 8}, "1000 bits need 144 bytes, got 136");
}

TEST(BloomCorrupt, BadHeader) {
  std::vector<uint8_t> b = valid_bytes();
  b[0] = 'X';
  expect_invalid(b, "bad magic");
  b = valid_bytes();
  b[2] = 1;
  expect_invalid(b, "data is a hll sketch, not bloom");
  b = valid_bytes();
  b[3] = 2;
  expect_invalid(b, "unsupported bloom format version 2");
  b[3] = 0;
  expect_invalid(b, "unsupported bloom format version 0");
  b = valid_bytes();
  b[4] = 9;
  expect_invalid(b, "unknown hash identity 9");
  b = valid_bytes();
  b[6] = 1;
  expect_invalid(b, "encoding 1 is an aggregate's working state, which is never stored");
  // 2 and 3 are the split-block layout (split_block_test.cpp), whose rules
  // these classic bytes break; 4 and up are nothing.
  b[6] = 2;
  expect_invalid(b, "a split-block filter has 8 hashes, not 3");
  b[6] = 4;
  expect_invalid(b, "unknown encoding 4");
  b = valid_bytes();
  // Byte 7 is the element kind (element_kind.h): 0..15 and 255 are kinds.
  b[7] = 16;
  expect_invalid(b, "unknown element kind 16");
  b[7] = 254;
  expect_invalid(b, "unknown element kind 254");
}

TEST(BloomCorrupt, HashesOutOfRange) {
  std::vector<uint8_t> b = valid_bytes();
  b[5] = 0;
  expect_invalid(b, "0 hashes outside 1..64");
  b[5] = 65;
  expect_invalid(b, "65 hashes outside 1..64");
  b[5] = 255;
  expect_invalid(b, "255 hashes outside 1..64");
  b[5] = 64;
  EXPECT_TRUE(parse_bytes(b).is_ok());
}

TEST(BloomCorrupt, BitCountOutOfRange) {
  std::vector<uint8_t> b = valid_bytes();
  store_le64(b.data() + kBitCountOffset, 0);
  expect_invalid(b, "0 bits outside 8..8000000000");
  store_le64(b.data() + kBitCountOffset, 7);
  expect_invalid(b, "7 bits outside 8..8000000000");
  // Reading accepts the 0.1.0 limit (kMaxReadableBits), above what is made now.
  store_le64(b.data() + kBitCountOffset, kMaxReadableBits + 1);
  expect_invalid(b, "8000000001 bits outside 8..8000000000");
  // A huge declared m is refused from the header alone: nothing is read or
  // sized from it (no overflow in filter_size, no read past the buffer).
  store_le64(b.data() + kBitCountOffset, ~uint64_t{0});
  expect_invalid(b, "18446744073709551615 bits outside");
  store_le64(b.data() + kBitCountOffset, uint64_t{1} << 61);
  expect_invalid(b, "bits outside");
  // The largest valid m with a 32-byte buffer: refused by the length check.
  store_le64(b.data() + kBitCountOffset, kMaxReadableBits);
  expect_invalid(b, "8000000000 bits need 1000000016 bytes, got 32");
}

TEST(BloomCorrupt, LengthMustMatchTheBitCount) {
  std::vector<uint8_t> b = valid_bytes(100, 3);  // 32 bytes
  std::vector<uint8_t> longer = b;
  longer.push_back(0);
  expect_invalid(longer, "100 bits need 32 bytes, got 33");
  longer.insert(longer.end(), 7, 0);
  expect_invalid(longer, "100 bits need 32 bytes, got 40");
  store_le64(b.data() + kBitCountOffset, 129);  // needs three words
  expect_invalid(b, "129 bits need 40 bytes, got 32");
  store_le64(b.data() + kBitCountOffset, 64);  // needs one word
  expect_invalid(b, "64 bits need 24 bytes, got 32");
}

TEST(BloomCorrupt, PaddingBitsMustBeZero) {
  // m = 100: bits 100..127 of the second word are padding.
  for (int bit = 100; bit < 128; bit++) {
    std::vector<uint8_t> b = valid_bytes(100, 3);
    b[kBitsOffset + bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    expect_invalid(b, "padding bits past bit 100 are not zero");
  }
  // Bit 99 is a real bit: setting it gives a valid filter.
  std::vector<uint8_t> b = valid_bytes(100, 3);
  b[kBitsOffset + 99 / 8] |= static_cast<uint8_t>(1u << (99 % 8));
  EXPECT_TRUE(parse_bytes(b).is_ok());
  // m a multiple of 64 has no padding: every bit is a real one.
  b = valid_bytes(128, 3);
  b.back() = 0xff;
  EXPECT_TRUE(parse_bytes(b).is_ok());
}

TEST(BloomCorrupt, RandomByteChangesGiveAValidFilterOrAnError) {
  const std::vector<uint8_t> base = valid_bytes(300, 4, 40);
  uint64_t state = 12345;
  for (int trial = 0; trial < 20000; trial++) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    std::vector<uint8_t> b = base;
    b[(state >> 33) % b.size()] ^= static_cast<uint8_t>(1 + (state >> 17) % 255);
    View v;
    if (parse(b.data(), b.size(), Validation::kCanonical, &v).is_ok()) {
      // Accepted: usable without reading past the buffer.
      ASSERT_EQ(v.size, b.size());
      ASSERT_LE(filter_size(v.bits), b.size());
      (void)bits_set(v);
      (void)contains_hash(v, key_hash(kSeed, 1));
    }
  }
}

// --- parameters and sizing ---------------------------------------------------------

TEST(BloomParams, Limits) {
  EXPECT_TRUE(check_params(8, 1).is_ok());
  EXPECT_TRUE(check_params(static_cast<int64_t>(kMaxBits), 64).is_ok());
  const Status small = check_params(7, 1);
  EXPECT_EQ(small.code(), StatusCode::kInvalidParameter);
  EXPECT_STREQ(small.message(), "bloom filter bits must be between 8 and 4294442880, got 7");
  EXPECT_FALSE(check_params(-1, 1).is_ok());
  EXPECT_FALSE(check_params(static_cast<int64_t>(kMaxBits) + 1, 1).is_ok());
  const Status hashes = check_params(100, 65);
  EXPECT_EQ(hashes.code(), StatusCode::kInvalidParameter);
  EXPECT_STREQ(hashes.message(), "bloom filter hashes must be between 1 and 64, got 65");
  EXPECT_FALSE(check_params(100, 0).is_ok());
  EXPECT_FALSE(check_params(100, -3).is_ok());
  // The largest filter can be dumped: its text form ("\\x" + 2 hex digits per
  // byte + NUL) and a COPY line holding it stay below PostgreSQL's 1 GB
  // allocation limit, with 64 KiB to spare for other columns.
  EXPECT_EQ(filter_size(kMaxBits), kMaxDumpableBytes);
  EXPECT_LE(2 * filter_size(kMaxBits) + 3 + (size_t{64} << 10), size_t{0x3fffffff});
}

TEST(BloomSizing, KnownValues) {
  struct Case {
    int64_t n;
    double p;
    uint64_t bits;
    int hashes;
  };
  // m = ceil(-n ln p / ln(2)^2), k = round(m/n ln 2), as computed by hand:
  // 10000 * 4.60517 / 0.480453 = 95850.58; 9.5851 * 0.693147 = 6.644.
  const std::vector<Case> cases = {
      {10000, 0.01, 95851, 7},
      {10000, 0.001, 143776, 10},
      {1000000, 0.01, 9585059, 7},
      {100, 0.05, 624, 4},
      {1, 0.5, 8, 6},          // 1.44 bits raised to the 8-bit minimum; k fits m = 8
      {1000000, 0.9, 219295, 1},  // k = round(0.15) = 0, raised to 1
      {1, 1e-19, 92, 64},      // the most hashes there are
  };
  for (const Case& c : cases) {
    Params params;
    ASSERT_TRUE(size_for(c.n, c.p, &params).is_ok()) << c.n << " " << c.p;
    EXPECT_EQ(params.bits, c.bits) << c.n << " " << c.p;
    EXPECT_EQ(params.hashes, c.hashes) << c.n << " " << c.p;
  }
}

TEST(BloomSizing, ExpectedFppAtCapacityIsNearTarget) {
  for (double p : {0.1, 0.05, 0.01, 0.001, 1e-4, 1e-6}) {
    for (int64_t n : {1000, 100000, 10000000}) {
      const Params params = test::params_for(n, p);
      const double fpp = expected_fpp(double(n), params.bits, params.hashes);
      // Integer k costs a little: never more than 7% above the target here.
      EXPECT_LE(fpp, p * 1.07) << "n=" << n << " p=" << p;
      EXPECT_GE(fpp, p * 0.8) << "n=" << n << " p=" << p;
    }
  }
  EXPECT_NEAR(expected_fpp(10000, 100000, 7), std::pow(1 - std::exp(-0.7), 7), 1e-15);
  EXPECT_EQ(expected_fpp(0, 100, 3), 0.0);
}

TEST(BloomSizing, BadParameters) {
  Params params{0, 0};
  auto message = [&](int64_t n, double p) {
    const Status st = size_for(n, p, &params);
    EXPECT_EQ(st.code(), StatusCode::kInvalidParameter) << n << " " << p;
    return std::string(st.message());
  };
  EXPECT_EQ(message(0, 0.01), "bloom filter capacity n must be at least 1, got 0");
  EXPECT_EQ(message(-5, 0.01), "bloom filter capacity n must be at least 1, got -5");
  const std::string p_range =
      "bloom filter false-positive probability p must be between 0 and 1 (exclusive), got ";
  EXPECT_EQ(message(10, 0), p_range + "0");
  EXPECT_EQ(message(10, 1), p_range + "1");
  EXPECT_EQ(message(10, -0.5), p_range + "-0.5");
  EXPECT_EQ(message(10, 1.5), p_range + "1.5");
  EXPECT_EQ(message(10, std::numeric_limits<double>::quiet_NaN()), p_range + "nan");
  EXPECT_EQ(message(10, std::numeric_limits<double>::infinity()), p_range + "inf");
  EXPECT_EQ(message(1000000000, 0.01),
            "a bloom filter for n = 1000000000 at p = 0.01 needs 9585058378 bits, above the "
            "maximum of 4294442880 bits (512 MiB, the largest value that can be dumped as text)");
  EXPECT_EQ(message(std::numeric_limits<int64_t>::max(), 0.5).substr(0, 42),
            "a bloom filter for n = 9223372036854775807");
  EXPECT_EQ(message(1, 1e-20), "a bloom filter at p = 1e-20 needs 67 hashes, above the maximum of 64");
  EXPECT_EQ(message(1, 4.9e-324).substr(0, 28), "a bloom filter at p = 4.9406");
  EXPECT_EQ(params.bits, 0u) << "a failed sizing leaves the output alone";
}

// --- estimates --------------------------------------------------------------

TEST(BloomEstimate, EmptyIsZero) {
  const Filter f(95851, 7);
  EXPECT_EQ(f.cardinality(), 0.0);
  EXPECT_FALSE(std::signbit(f.cardinality())) << "would print as -0";
  EXPECT_EQ(f.fpp(), 0.0);
  EXPECT_EQ(f.set_bits(), 0u);
}

TEST(BloomEstimate, CardinalityFromFill) {
  for (uint64_t n : {1, 10, 100, 1000, 5000, 10000}) {
    Filter f(test::params_for(10000, 0.01));
    f.add_keys(kSeed + n, 0, n);
    EXPECT_NEAR(f.cardinality(), double(n), 0.02 * n + 0.5) << "n=" << n;
  }
  // The formula itself, on a hand-made fill.
  Filter f(128, 2);
  for (int bit = 0; bit < 32; bit++) f.mutable_bytes()[kBitsOffset + bit / 8] |= 1u << (bit % 8);
  EXPECT_DOUBLE_EQ(f.cardinality(), -(128.0 / 2) * std::log(1 - 32.0 / 128));
  EXPECT_DOUBLE_EQ(f.fpp(), std::pow(32.0 / 128, 2));
}

TEST(BloomEstimate, FullFilterHasAFiniteEstimate) {
  Filter f(64, 3);
  for (size_t i = kBitsOffset; i < f.bytes().size(); i++) f.mutable_bytes()[i] = 0xff;
  EXPECT_EQ(f.set_bits(), 64u);
  EXPECT_DOUBLE_EQ(f.cardinality(), -(64.0 / 3) * std::log(1.0 / 64));
  EXPECT_EQ(f.fpp(), 1.0);
}

TEST(BloomEstimate, FppGrowsPastCapacity) {
  Filter f(test::params_for(1000, 0.01));
  f.add_keys(kSeed, 0, 1000);
  const double at_capacity = f.fpp();
  EXPECT_NEAR(at_capacity, 0.01, 0.003);
  f.add_keys(kSeed, 1000, 3000);
  EXPECT_GT(f.fpp(), 10 * at_capacity);
}

}  // namespace
}  // namespace sketch::bloom
