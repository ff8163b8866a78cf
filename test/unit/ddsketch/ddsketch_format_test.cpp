// Reading and writing ddsketch bytes: the stored layout byte for byte (built
// here independently of the library's writer), round trips through every
// encoding, every class of non-canonical input parse(kCanonical) refuses
// (with its message), what kStructure accepts and how the stored form
// canonicalizes it, and the working layout's checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/ddsketch/ddsketch_internal.h"
#include "ddsketch_test_util.h"

namespace sketch::ddsketch {
namespace {

using test::params;
using test::Random;
using test::Sketch;
using Bytes = std::vector<uint8_t>;

// --- an independent writer of the documented layout ------------------------------

void put_u32(Bytes* b, uint32_t v) {
  for (int i = 0; i < 4; i++) b->push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_u64(Bytes* b, uint64_t v) {
  for (int i = 0; i < 8; i++) b->push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_f64(Bytes* b, double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  put_u64(b, bits);
}
Bytes varint(uint64_t v) {
  Bytes out;
  do {
    uint8_t byte = v & 0x7f;
    v >>= 7;
    if (v != 0) byte |= 0x80;
    out.push_back(byte);
  } while (v != 0);
  return out;
}

struct RawStore {
  uint32_t buckets = 0;
  int32_t lowest = 0;
  Bytes entries;  // raw (gap, count) varints
  void entry(uint64_t gap, uint64_t count) {
    buckets++;
    for (uint64_t v : {gap, count}) {
      const Bytes b = varint(v);
      entries.insert(entries.end(), b.begin(), b.end());
    }
  }
};

struct Raw {
  uint8_t kind = 4, version = 1, hash = 1, scale = 6, encoding = 1, element = 255;
  uint32_t max_buckets = 2048;
  uint8_t flags = 0;
  uint8_t reserved[3] = {0, 0, 0};
  uint64_t count = 0, zero_count = 0;
  double min = 0, max = 0;
  uint8_t sum_low = 0;
  std::vector<uint64_t> sum_words;
  int sum_len_override = -1;
  RawStore pos, neg;

  Bytes bytes() const {
    Bytes b = {'S', 'K', kind, version, hash, scale, encoding, element};
    put_u32(&b, max_buckets);
    b.push_back(flags);
    b.insert(b.end(), reserved, reserved + 3);
    put_u64(&b, count);
    put_u64(&b, zero_count);
    put_f64(&b, min);
    put_f64(&b, max);
    b.push_back(sum_low);
    b.push_back(static_cast<uint8_t>(sum_len_override >= 0 ? sum_len_override : sum_words.size()));
    for (uint64_t w : sum_words) put_u64(&b, w);
    for (const RawStore* s : {&pos, &neg}) {
      put_u32(&b, s->buckets);
      if (s->buckets > 0 || !s->entries.empty()) {
        put_u32(&b, static_cast<uint32_t>(s->lowest));
        b.insert(b.end(), s->entries.begin(), s->entries.end());
      }
    }
    return b;
  }
};

// {1, 2, 2, 3, -0.5, 0} at scale 0 (gamma 2), max_buckets 16:
// positive buckets 0 (1), 1 (2, 2), 2 (3: log2 3 = 1.58), negative bucket -1
// (0.5), one zero; sum 7.5 = 15 * 2^-1 = 15 * 2^1073 units: word 16 (bits
// 1024..1087) holds 15 << 49.
Raw base_raw() {
  Raw r;
  r.scale = 0;
  r.max_buckets = 16;
  r.count = 6;
  r.zero_count = 1;
  r.min = -0.5;
  r.max = 3;
  r.sum_low = 16;
  r.sum_words = {uint64_t{15} << 49};
  r.pos.lowest = 0;
  r.pos.entry(0, 1);
  r.pos.entry(0, 2);
  r.pos.entry(0, 1);
  r.neg.lowest = -1;
  r.neg.entry(0, 1);
  return r;
}

// {1, 3} at scale 0: only positive values, so min must be in the lowest
// bucket. Sum 4 = 2^1076 units: word 16, bit 52.
Raw positive_raw() {
  Raw r;
  r.scale = 0;
  r.max_buckets = 16;
  r.count = 2;
  r.min = 1;
  r.max = 3;
  r.sum_low = 16;
  r.sum_words = {uint64_t{1} << 52};
  r.pos.lowest = 0;
  r.pos.entry(0, 1);
  r.pos.entry(1, 1);
  return r;
}

// Vectors hold exactly their bytes, so an overread is an ASan error. A view
// points into `bytes`, which must outlive it.
Status parse_exact(const Bytes& bytes, Validation validation, View* out = nullptr) {
  View v;
  return parse(bytes.data(), bytes.size(), validation, out != nullptr ? out : &v);
}

::testing::AssertionResult Rejected(const Bytes& bytes, const std::string& part,
                                    Validation validation = Validation::kCanonical) {
  const Status st = parse_exact(bytes, validation);
  if (st.is_ok()) return ::testing::AssertionFailure() << "accepted";
  if (st.code() != StatusCode::kInvalidFormat)
    return ::testing::AssertionFailure() << "wrong code: " << st.message();
  if (std::string(st.message()).find(part) == std::string::npos)
    return ::testing::AssertionFailure()
           << "message \"" << st.message() << "\" lacks \"" << part << "\"";
  return ::testing::AssertionSuccess();
}

// --- the layout --------------------------------------------------------------------

TEST(DdsketchFormat, EmptyStoredLayout) {
  Bytes empty(empty_size());
  write_empty(params(6, 2048), empty.data());
  const Bytes expected = {
      'S', 'K', 4, 1, 1, 6, 1, 255,  // header: ddsketch v1, hash 1, scale 6, stored, kind none
      0,   8,   0, 0,                // max_buckets 2048
      0,   0,   0, 0,                // flags, reserved
      0,   0,   0, 0, 0, 0, 0, 0,    // count
      0,   0,   0, 0, 0, 0, 0, 0,    // zero_count
      0,   0,   0, 0, 0, 0, 0, 0,    // min +0
      0,   0,   0, 0, 0, 0, 0, 0,    // max +0
      0,   0,                        // sum: no words
      0,   0,   0, 0,                // positive store: no bucket
      0,   0,   0, 0,                // negative store: no bucket
  };
  EXPECT_EQ(empty, expected);
  Raw r;
  EXPECT_EQ(r.bytes(), expected);
  View v;
  ASSERT_TRUE(parse_exact(empty, Validation::kCanonical, &v).is_ok());
  EXPECT_EQ(v.scale, 6);
  EXPECT_EQ(v.max_buckets, 2048u);
  EXPECT_EQ(v.count, 0u);
  EXPECT_EQ(v.encoding, Encoding::kStored);
  EXPECT_EQ(scale_of(empty.data()), 6);
  EXPECT_EQ(max_buckets_of(empty.data()), 2048u);
  EXPECT_EQ(count_of(empty.data()), 0u);
  EXPECT_EQ(stored_size(v), empty.size());
}

TEST(DdsketchFormat, StoredLayoutByteForByte) {
  const Sketch s = Sketch::of(params(0, 16), {1, 2, -0.5, 2, 0, 3});
  EXPECT_EQ(s.stored(), base_raw().bytes());
  const View v = s.stored_view();
  EXPECT_EQ(v.count, 6u);
  EXPECT_EQ(v.zero_count, 1u);
  EXPECT_EQ(v.min, -0.5);
  EXPECT_EQ(v.max, 3.0);
  EXPECT_EQ(v.positive.buckets, 3u);
  EXPECT_EQ(v.positive.min_index, 0);
  EXPECT_EQ(v.positive.max_index, 2);
  EXPECT_EQ(v.negative.buckets, 1u);
  EXPECT_EQ(v.negative.min_index, -1);
  EXPECT_EQ(v.negative.max_index, -1);
  EXPECT_EQ(sum(v), 7.5);
  EXPECT_EQ(test::buckets_of(v.positive), (std::map<int32_t, uint64_t>{{0, 1}, {1, 2}, {2, 1}}));
}

// A negative sum is two's complement; the trimmed form keeps the lowest
// nonzero word and drops the pure sign extension above: -1 = -2^1074 units
// is word 16 = -2^50 (0xfffc000000000000), everything above all ones.
TEST(DdsketchFormat, NegativeSumIsTrimmedTwosComplement) {
  const Sketch s = Sketch::of(params(0, 16), {-1});
  Raw r;
  r.scale = 0;
  r.max_buckets = 16;
  r.count = 1;
  r.min = r.max = -1;
  r.sum_low = 16;
  r.sum_words = {0xfffc000000000000ull};
  r.neg.lowest = 0;
  r.neg.entry(0, 1);
  EXPECT_EQ(s.stored(), r.bytes());
  // A positive word with its top bit set needs the 0 word above it: 2^973
  // is 2^2047 units, bit 63 of word 31.
  const Sketch big = Sketch::of(params(0, 16), {std::ldexp(1.0, 973)});
  const View v = big.stored_view();
  EXPECT_EQ(v.data[detail::kSumLowOffset], 31);
  EXPECT_EQ(v.data[detail::kSumLenOffset], 2);  // 0x8000... and a 0 word to keep it positive
  EXPECT_EQ(sum(v), std::ldexp(1.0, 973));
  const Sketch neg_big = Sketch::of(params(0, 16), {-std::ldexp(1.0, 973)});
  const View nv = neg_big.stored_view();
  EXPECT_EQ(nv.data[detail::kSumLowOffset], 31);
  EXPECT_EQ(nv.data[detail::kSumLenOffset], 1);  // -2^2047: 0x8000... sign-extends itself
  EXPECT_EQ(sum(nv), -std::ldexp(1.0, 973));
}

TEST(DdsketchFormat, EmptyWorkingState) {
  const Bytes w = test::empty_working(params(3, 100));
  EXPECT_EQ(w.size(), empty_working_size(params(3, 100)));
  EXPECT_EQ(w.size(), 320u + 48u + 8u * 16u);
  View v;
  ASSERT_TRUE(parse_exact(w, Validation::kStructure, &v).is_ok());
  EXPECT_EQ(v.encoding, Encoding::kWorking);
  EXPECT_EQ(v.scale, 3);
  EXPECT_EQ(v.max_buckets, 100u);
  EXPECT_EQ(v.positive.capacity, 16u);
  EXPECT_EQ(v.negative.capacity, 0u);
  EXPECT_TRUE(Family::is_working(w.data(), w.size()));
  EXPECT_TRUE(Rejected(w, "encoding 2 is an aggregate's working state, which is never stored"));
  // Its stored form is the empty sketch.
  EXPECT_EQ(Sketch::from_bytes(w).stored(), test::empty_stored(params(3, 100)));
}

// --- round trips ----------------------------------------------------------------------

std::vector<Sketch> assorted_sketches() {
  std::vector<Sketch> out;
  for (int scale : {0, 3, 6, 9, 12}) out.push_back(Sketch(params(scale, 64)));
  out.push_back(Sketch::of(params(6), {0.0, -0.0, 0.0}));
  out.push_back(Sketch::of(params(6), {42}));
  out.push_back(Sketch::of(params(6), {-1e-300, -5, -7e100}));
  out.push_back(Sketch::of(params(12, 65536), {DBL_MAX, -DBL_MAX, DBL_TRUE_MIN, -DBL_TRUE_MIN, 0}));
  out.push_back(Sketch::of(params(2), {DBL_MIN, std::nextafter(DBL_MIN, 0.0), 1e-310}));
  Random r(7);
  for (int scale : {0, 4, 8}) {
    for (uint32_t m : {16u, 200u}) {
      Sketch s(params(scale, m));
      for (int i = 0; i < 3000; i++) s.add((r.uniform() < 0.3 ? -1 : 1) * std::exp(r.normal() * 8));
      for (int i = 0; i < 300; i++) s.add(1.0);  // a count with a two-byte varint
      out.push_back(s);
    }
  }
  return out;
}

TEST(DdsketchFormat, EveryEncodingRoundTrips) {
  for (const Sketch& s : assorted_sketches()) {
    const Bytes stored = s.stored();
    View sv;
    ASSERT_TRUE(parse_exact(stored, Validation::kCanonical, &sv).is_ok())
        << parse_exact(stored, Validation::kCanonical).message();
    ASSERT_TRUE(parse_exact(stored, Validation::kStructure).is_ok());
    // stored -> stored
    Bytes again(stored_size(sv));
    write_stored(sv, again.data());
    EXPECT_EQ(again, stored);
    // stored -> working -> stored
    Bytes working(working_size(sv));
    write_working(sv, working.data());
    View wv;
    ASSERT_TRUE(parse_exact(working, Validation::kStructure, &wv).is_ok());
    EXPECT_TRUE(Family::is_working(working.data(), working.size()));
    EXPECT_EQ(wv.count, sv.count);
    Bytes back(stored_size(wv));
    write_stored(wv, back.data());
    EXPECT_EQ(back, stored);
    // the aggregate's own working state -> stored
    EXPECT_EQ(Sketch::from_bytes(s.bytes()).stored(), stored);
    // the same answers from both encodings
    for (double q : {0.0, 0.1, 0.5, 0.99, 1.0})
      if (sv.count > 0) {
        EXPECT_EQ(quantile(sv, q), quantile(wv, q));
      }
    EXPECT_EQ(sum(sv), sum(wv));
    EXPECT_EQ(test::buckets_of(sv.positive), test::buckets_of(wv.positive));
    EXPECT_EQ(test::buckets_of(sv.negative), test::buckets_of(wv.negative));
  }
}

// --- what kCanonical refuses ---------------------------------------------------------------

TEST(DdsketchFormat, TheBaseCasesAreCanonical) {
  EXPECT_TRUE(parse_exact(base_raw().bytes(), Validation::kCanonical).is_ok());
  EXPECT_TRUE(parse_exact(positive_raw().bytes(), Validation::kCanonical).is_ok());
}

TEST(DdsketchFormat, RejectsForeignHeaders) {
  Raw r = base_raw();
  Bytes b = r.bytes();
  EXPECT_TRUE(Rejected(Bytes(b.begin(), b.begin() + 5), "ddsketch data is truncated"));
  r.kind = 1;
  EXPECT_TRUE(Rejected(r.bytes(), "data is a hll sketch, not ddsketch"));
  r = base_raw();
  r.version = 2;
  EXPECT_TRUE(Rejected(r.bytes(), "unsupported ddsketch format version 2"));
  r = base_raw();
  r.hash = 9;
  EXPECT_TRUE(Rejected(r.bytes(), "unknown hash identity 9"));
  b = r.bytes();
  b[0] = 'X';
  EXPECT_TRUE(Rejected(b, "bad magic"));
}

TEST(DdsketchFormat, RejectsBadParameters) {
  Raw r = base_raw();
  r.scale = 13;
  EXPECT_TRUE(Rejected(r.bytes(), "invalid ddsketch data: scale 13 outside 0..12"));
  r.scale = 255;
  EXPECT_TRUE(Rejected(r.bytes(), "scale -1 outside 0..12"));
  r = base_raw();
  r.encoding = 2;
  EXPECT_TRUE(Rejected(r.bytes(), "encoding 2 is an aggregate's working state"));
  r.encoding = 3;
  EXPECT_TRUE(Rejected(r.bytes(), "unknown encoding 3"));
  r.encoding = 0;
  EXPECT_TRUE(Rejected(r.bytes(), "unknown encoding 0"));
  r = base_raw();
  r.element = 0;
  EXPECT_TRUE(Rejected(r.bytes(), "element kind byte 0, not 255"));
  r = base_raw();
  r.max_buckets = 15;
  EXPECT_TRUE(Rejected(r.bytes(), "max_buckets 15 outside 16..65536"));
  r.max_buckets = 65537;
  EXPECT_TRUE(Rejected(r.bytes(), "max_buckets 65537 outside 16..65536"));
  r = base_raw();
  r.flags = 4;
  EXPECT_TRUE(Rejected(r.bytes(), "unknown flags 0x04"));
  r = base_raw();
  r.reserved[1] = 1;
  EXPECT_TRUE(Rejected(r.bytes(), "reserved bytes 13-15 are not 0"));
}

TEST(DdsketchFormat, RejectsBadSums) {
  Raw r = base_raw();
  r.sum_low = 15;
  r.sum_words = {0, uint64_t{15} << 49};  // a zero lowest word
  EXPECT_TRUE(Rejected(r.bytes(), "the sum's words are not trimmed"));
  r = base_raw();
  r.sum_words.push_back(0);  // a pure sign extension on top
  EXPECT_TRUE(Rejected(r.bytes(), "the sum's words are not trimmed"));
  r = base_raw();
  r.sum_low = 34;
  EXPECT_TRUE(Rejected(r.bytes(), "the sum's words 34..34 are outside 0..33"));
  r.sum_low = 33;
  r.sum_words = {1, 2};
  EXPECT_TRUE(Rejected(r.bytes(), "the sum's words 33..34 are outside 0..33"));
  r = base_raw();
  r.sum_low = 3;
  r.sum_words = {};
  EXPECT_TRUE(Rejected(r.bytes(), "a sum of 0 words starts at word 3, not 0"));
  r = base_raw();
  r.sum_low = 0;
  r.sum_len_override = 30;  // the words are not there
  EXPECT_TRUE(Rejected(r.bytes(), "truncated in the sum"));
  r = base_raw();
  r.sum_words = {uint64_t{30} << 49};  // 15, not reachable from 6 values in [-0.5, 3]
  EXPECT_TRUE(Rejected(r.bytes(), "the sum 15 is not the sum of 6 values between min -0.5"));
  r.sum_words = {uint64_t{1} << 49};  // 0.5: the lowest possible, max + 5 min
  EXPECT_TRUE(parse_exact(r.bytes(), Validation::kCanonical).is_ok());
  r.sum_words = {uint64_t{1} << 48};  // 0.25: below it
  EXPECT_TRUE(Rejected(r.bytes(), "is not the sum of 6 values"));
  r = positive_raw();
  r.sum_words = {(uint64_t{1} << 52) + 1};  // 4 + 2^-1074: a hair above 1 + 3
  EXPECT_TRUE(Rejected(r.bytes(), "is not the sum of 2 values"));
  // An empty sketch's sum is 0.
  Raw e;
  e.sum_low = 16;
  e.sum_words = {1};
  EXPECT_TRUE(Rejected(e.bytes(), "an empty sketch has a sum of 0"));
}

TEST(DdsketchFormat, RejectsBadStores) {
  Raw r = base_raw();
  r.pos.buckets = 1000;
  EXPECT_TRUE(Rejected(r.bytes(), "the positive store declares 1000 buckets, more than its"));
  r = base_raw();
  r.neg.lowest = -1075;
  EXPECT_TRUE(
      Rejected(r.bytes(),
               "the negative store's lowest index -1075 is outside -1074..1024, the buckets "
               "of scale 0"));
  r = base_raw();
  r.pos.lowest = 1025;
  EXPECT_TRUE(Rejected(r.bytes(), "lowest index 1025 is outside"));
  r = base_raw();
  r.pos = RawStore{};
  r.pos.lowest = 0;
  r.pos.entry(1, 1);
  r.pos.entry(0, 2);
  r.pos.entry(0, 1);
  EXPECT_TRUE(Rejected(r.bytes(), "the first entry of the positive store has gap 1, not 0"));
  r = base_raw();
  r.neg.entries = {0x00, 0x81, 0x00};  // count 1 as two bytes
  EXPECT_TRUE(Rejected(r.bytes(),
                       "the count of entry 0 of the negative store is not in its shortest form"));
  r = base_raw();
  r.neg.entries = {0x80, 0x00, 0x01};  // gap 0 as two bytes
  EXPECT_TRUE(
      Rejected(r.bytes(), "the gap of entry 0 of the negative store is not in its shortest"));
  r = base_raw();
  r.neg.entries = {0x00};
  for (int i = 0; i < 10; i++) r.neg.entries.push_back(0xff);
  r.neg.entries.push_back(0x01);
  EXPECT_TRUE(Rejected(r.bytes(), "is not a varint of at most 64 bits"));
  r = base_raw();
  r.neg.entries = {0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};  // 2^64+
  EXPECT_TRUE(Rejected(r.bytes(), "is not a varint of at most 64 bits"));
  r = base_raw();
  r.pos = RawStore{};
  r.pos.lowest = 0;
  r.pos.entry(0, 1);
  r.pos.entry(0, 0);
  r.pos.entry(0, 3);
  EXPECT_TRUE(Rejected(r.bytes(), "entry 1 of the positive store has a count of 0"));
  r = base_raw();
  r.neg.entries = {0x00, 0x81, 0x01};  // count 129
  Bytes cut = r.bytes();
  cut.pop_back();
  EXPECT_TRUE(Rejected(cut, "the negative store is truncated in entry 0"));
  cut.resize(cut.size() - 4);
  EXPECT_TRUE(Rejected(cut, "the negative store declares 1 buckets, more than its"));
  cut.resize(cut.size() - 4);  // half of the negative store's bucket count
  EXPECT_TRUE(Rejected(cut, "truncated before the negative store"));
  Bytes b = base_raw().bytes();
  b.push_back(0);
  EXPECT_TRUE(Rejected(b, "1 bytes after the negative store"));
  r = base_raw();
  r.pos = RawStore{};
  r.pos.lowest = 1000;
  r.pos.entry(0, 1);
  r.pos.entry(30, 2);
  r.pos.entry(0, 1);
  EXPECT_TRUE(Rejected(r.bytes(), "entry 1 of the positive store is past index 1024"));
  // More than max_buckets buckets, and a span wider than max_buckets.
  Raw wide = positive_raw();
  wide.pos = RawStore{};
  wide.pos.lowest = 0;
  for (int i = 0; i < 17; i++) wide.pos.entry(0, 1);
  EXPECT_TRUE(
      Rejected(wide.bytes(), "the positive store holds 17 buckets, more than max_buckets 16"));
  wide.pos = RawStore{};
  wide.pos.lowest = 0;
  wide.pos.entry(0, 1);
  wide.pos.entry(20, 1);
  EXPECT_TRUE(
      Rejected(wide.bytes(), "the positive store spans indices 0..21, more than max_buckets 16"));
  // Counts that overflow when summed.
  r = positive_raw();
  r.pos = RawStore{};
  r.pos.lowest = 0;
  r.pos.entry(0, uint64_t{1} << 63);
  r.pos.entry(1, uint64_t{1} << 63);
  EXPECT_TRUE(Rejected(r.bytes(), "the counts of the positive store add up to more than 2^64 - 1"));
}

TEST(DdsketchFormat, RejectsInconsistentCounts) {
  Raw r = base_raw();
  r.count = 7;
  EXPECT_TRUE(Rejected(r.bytes(), "and zero_count 1 do not add up to count 7"));
  r.count = 5;
  EXPECT_TRUE(Rejected(r.bytes(), "do not add up to count 5"));
  r = base_raw();
  r.zero_count = 7;
  EXPECT_TRUE(Rejected(r.bytes(), "zero_count 7 exceeds count 6"));
  r = base_raw();
  r.zero_count = 0;
  EXPECT_TRUE(Rejected(r.bytes(), "do not add up to count 6"));
}

TEST(DdsketchFormat, RejectsInconsistentMinAndMax) {
  Raw r = base_raw();
  r.min = NAN;
  EXPECT_TRUE(Rejected(r.bytes(), "min or max is not a finite number"));
  r.min = -INFINITY;
  EXPECT_TRUE(Rejected(r.bytes(), "min or max is not a finite number"));
  r = base_raw();
  r.min = 4;
  EXPECT_TRUE(Rejected(r.bytes(), "min 4 exceeds max 3"));
  r = base_raw();
  r.max = 4.5;  // bucket 3
  EXPECT_TRUE(
      Rejected(r.bytes(), "max 4.5 belongs to bucket 3, but the positive store's highest is 2"));
  r = base_raw();
  r.max = -0.25;
  EXPECT_TRUE(Rejected(r.bytes(), "max is -0.25 but the positive store holds 3 buckets"));
  r = base_raw();
  r.min = 0;
  EXPECT_TRUE(Rejected(r.bytes(), "min is 0 but the negative store holds 1 buckets"));
  r = base_raw();
  r.min = -2;  // bucket 1 of the negative store, which only has -1
  EXPECT_TRUE(
      Rejected(r.bytes(), "min -2 belongs to bucket 1, but the negative store's highest is -1"));
  r = positive_raw();
  r.min = 0.4;  // bucket -1, below the lowest kept bucket 0 of a store that did not collapse
  EXPECT_TRUE(Rejected(
      r.bytes(),
      "min 0.40000000000000002 belongs to bucket -1, but the positive store's lowest is 0"));
  r.flags = 1;  // collapsed: a lower bucket is allowed (but then the sum must fit too)
  EXPECT_TRUE(Rejected(r.bytes(), "is not the sum of 2 values"));
  // Zeros: all zeros means min = max = +0.
  Raw z;
  z.count = 2;
  z.zero_count = 2;
  EXPECT_TRUE(parse_exact(z.bytes(), Validation::kCanonical).is_ok());
  z.min = -0.0;
  EXPECT_TRUE(Rejected(z.bytes(), "min or max is -0 (a zero value is stored as +0)"));
  Raw e;
  e.max = 1;
  EXPECT_TRUE(Rejected(e.bytes(), "an empty sketch has min and max 0"));
}

TEST(DdsketchFormat, RejectsCollapseFlagsOnEmptyStores) {
  Raw r = positive_raw();
  r.flags = 2;
  EXPECT_TRUE(Rejected(r.bytes(), "the negative store is marked collapsed but holds no bucket"));
  Raw e;
  e.flags = 1;
  EXPECT_TRUE(Rejected(e.bytes(), "the positive store is marked collapsed but holds no bucket"));
}

// A collapsed store: its lowest bucket may hold values of lower buckets, so
// min may belong below it (only positive values here).
TEST(DdsketchFormat, CollapsedStoreMayHoldMinBelowItsLowestBucket) {
  Sketch s(params(0, 16));
  s.add_all({1e-10, 1, 1000});
  const View v = s.stored_view();
  EXPECT_TRUE(v.positive.collapsed);
  EXPECT_LT(bucket_index(v.min, 0), v.positive.min_index);
  EXPECT_EQ(v.positive.max_index - v.positive.min_index + 1, 16);
}

// Every truncation of a valid sketch is refused, in both modes, without a
// read past the end (exact-size copies; the sanitizer build checks).
TEST(DdsketchFormat, EveryTruncationIsRefused) {
  // Every prefix of small sketches; of large ones, about 500 lengths
  // (including the last 64 bytes), to keep the test quick.
  for (const Sketch& s : assorted_sketches()) {
    const Bytes stored = s.stored();
    const size_t step = std::max<size_t>(1, stored.size() / 500);
    for (size_t n = 0; n < stored.size(); n += n + 64 >= stored.size() ? 1 : step) {
      const Bytes prefix(stored.begin(), stored.begin() + n);
      ASSERT_FALSE(parse_exact(prefix, Validation::kCanonical).is_ok()) << n;
      ASSERT_FALSE(parse_exact(prefix, Validation::kStructure).is_ok()) << n;
    }
    const Bytes working = s.bytes();
    const size_t working_step = std::max<size_t>(7, working.size() / 300);
    for (size_t n = 0; n < working.size(); n += n + 64 >= working.size() ? 1 : working_step) {
      const Bytes prefix(working.begin(), working.begin() + n);
      ASSERT_FALSE(parse_exact(prefix, Validation::kStructure).is_ok()) << n;
      ASSERT_FALSE(Family::is_working(prefix.data(), prefix.size()));
    }
  }
}

// Single-byte changes of valid sketches: whatever kCanonical still accepts
// is its own stored form; whatever kStructure accepts can be read and
// stored, and its stored form is a fixed point.
TEST(DdsketchFormat, MutationsAreRefusedOrCanonical) {
  Random r(3);
  int canonical = 0, structure = 0;
  for (const Sketch& s : assorted_sketches()) {
    const Bytes stored = s.stored();
    for (int i = 0; i < 400; i++) {
      Bytes m = stored;
      m[r.below(m.size())] ^= static_cast<uint8_t>(1 + r.below(255));
      View v;
      if (parse_exact(m, Validation::kCanonical, &v).is_ok()) {
        canonical++;
        Bytes again(stored_size(v));
        write_stored(v, again.data());
        ASSERT_EQ(again, m);
      }
      if (parse_exact(m, Validation::kStructure, &v).is_ok()) {
        structure++;
        Bytes out(stored_size(v));
        write_stored(v, out.data());
        View ov;
        ASSERT_TRUE(parse_exact(out, Validation::kStructure, &ov).is_ok());
        Bytes twice(stored_size(ov));
        write_stored(ov, twice.data());
        ASSERT_EQ(twice, out);
        if (v.count > 0) (void)quantile(v, 0.5);
        (void)sum(v);
        (void)rank(v, 1.0);
      }
    }
  }
  std::printf("mutations accepted: %d canonical, %d structure\n", canonical, structure);
}

// --- what only kStructure accepts ------------------------------------------------------------

TEST(DdsketchFormat, StructureAcceptsNonCanonicalEntriesAndTheStoredFormCanonicalizes) {
  Raw r = base_raw();
  r.pos = RawStore{};
  r.pos.lowest = 0;
  r.pos.entries = {0x80, 0x00, 0x01,   // gap 0 overlong, count 1
                   0x00, 0x00,         // a zero count
                   0x00, 0x02,         // bucket 2: count 2
                   0x00, 0x81, 0x00};  // bucket 3: count 1, overlong
  r.pos.buckets = 4;
  const Bytes bytes = r.bytes();
  EXPECT_FALSE(parse_exact(bytes, Validation::kCanonical).is_ok());
  View v;
  ASSERT_TRUE(parse_exact(bytes, Validation::kStructure, &v).is_ok());
  EXPECT_EQ(test::buckets_of(v.positive), (std::map<int32_t, uint64_t>{{0, 1}, {2, 2}, {3, 1}}));
  Bytes out(stored_size(v));
  write_stored(v, out.data());
  View ov;
  ASSERT_TRUE(parse_exact(out, Validation::kStructure, &ov).is_ok());
  EXPECT_EQ(ov.positive.buckets, 3u);
  EXPECT_EQ(test::buckets_of(ov.positive), test::buckets_of(v.positive));
}

// --- the working layout ----------------------------------------------------------------------

TEST(DdsketchFormat, WorkingLayoutChecks) {
  Sketch s(params(4, 32));
  s.add_all({1, 2, 3, -5, 100});
  const Bytes good = s.bytes();
  ASSERT_TRUE(Family::is_working(good.data(), good.size()));
  const View v = s.view();
  const size_t pos = detail::kWorkingStoresOffset;
  const size_t neg = pos + detail::kWinHeader + 8 * size_t{v.positive.capacity};
  auto expect_refused = [&](Bytes b, const std::string& part) {
    EXPECT_FALSE(Family::is_working(b.data(), b.size())) << part;
    EXPECT_TRUE(Rejected(b, part, Validation::kStructure));
  };
  Bytes b = good;
  store_le32(&b[pos + detail::kWinCapacity], 65);  // above 2 * 32
  expect_refused(b, "working window larger than 2 * max_buckets");
  b = good;
  b.push_back(0);
  expect_refused(b, "working state length does not match its windows");
  b = good;
  store_le32(&b[neg + detail::kWinMin], static_cast<uint32_t>(v.negative.offset - 1));
  expect_refused(b, "working window with its buckets outside it");
  b = good;
  store_le32(&b[pos + detail::kWinMax],
             static_cast<uint32_t>(v.positive.offset + static_cast<int32_t>(v.positive.capacity)));
  expect_refused(b, "working window with its buckets outside it");
  b = good;
  store_le32(&b[pos + detail::kWinReserved], 1);
  expect_refused(b, "nonzero reserved field");
  b = good;
  b[detail::kFlagsOffset] = 8;
  expect_refused(b, "unknown flags");
  b = good;
  b[7] = 1;
  EXPECT_FALSE(Family::is_working(b.data(), b.size()));
  EXPECT_TRUE(Rejected(b, "element kind byte 1", Validation::kStructure));
  b = good;
  b[5] = 13;
  EXPECT_FALSE(Family::is_working(b.data(), b.size()));
  b = good;
  store_le32(&b[detail::kMaxBucketsOffset], 8);
  expect_refused(b, "max_buckets outside 16..65536");
}

}  // namespace
}  // namespace sketch::ddsketch
