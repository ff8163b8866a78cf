// Reading hll bytes: round trips, the dense bit layout, and every class of
// corrupt input that parse(kCanonical) -- the check behind text input, recv
// and casts from bytea -- must refuse with kInvalidFormat instead of
// crashing or returning a wrong sketch.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/hll/hll_internal.h"
#include "hll_test_util.h"

namespace sketch::hll {
namespace {

using test::Sketch;
using test::stream;

constexpr uint64_t kParseSeed = 77;
constexpr size_t kEntries = detail::kSparseEntriesOffset;

std::vector<uint8_t> valid_sparse(int p = 14, uint64_t n = 20) {
  std::vector<uint8_t> bytes = Sketch::from_hashes(p, stream(kParseSeed, 0, n)).canonical();
  if (bytes[6] != static_cast<uint8_t>(Encoding::kSparse)) throw std::logic_error("not sparse");
  return bytes;
}

std::vector<uint8_t> valid_dense(int p = 14) {
  std::vector<uint8_t> bytes = Sketch::empty_dense(p).bytes();
  Sketch s = Sketch::from_bytes(bytes);
  s.add_all(stream(kParseSeed, 0, 4 * register_count(p)));
  return s.canonical();
}

uint32_t entry_at(const std::vector<uint8_t>& b, size_t i) { return load_le32(&b[kEntries + 4 * i]); }
void set_entry(std::vector<uint8_t>& b, size_t i, uint32_t e) { store_le32(&b[kEntries + 4 * i], e); }
void set_count(std::vector<uint8_t>& b, uint32_t count) { store_le32(&b[detail::kCountOffset], count); }

// Writes a 6-bit register directly from the documented layout (register i
// at bit 6i, little-endian), independently of the library's own accessors.
void poke_register(std::vector<uint8_t>& b, size_t i, int value) {
  for (int k = 0; k < 6; k++) {
    const size_t bit = 6 * i + k;
    uint8_t& byte = b[kHeaderSize + bit / 8];
    const uint8_t mask = static_cast<uint8_t>(1u << (bit % 8));
    byte = (value >> k & 1) ? (byte | mask) : (byte & ~mask);
  }
}

// Parses a copy sized exactly to the data, so that an overread is an
// out-of-bounds access a sanitizer build catches.
Status parse_copy(const std::vector<uint8_t>& bytes, Validation validation, View* out) {
  const std::vector<uint8_t> exact(bytes.begin(), bytes.end());
  return parse(exact.data(), exact.size(), validation, out);
}

::testing::AssertionResult Rejected(const std::vector<uint8_t>& bytes,
                                    Validation validation = Validation::kCanonical) {
  View v;
  const Status st = parse_copy(bytes, validation, &v);
  if (st.is_ok()) return ::testing::AssertionFailure() << "accepted " << bytes.size() << " bytes";
  if (st.code() != StatusCode::kInvalidFormat)
    return ::testing::AssertionFailure() << "wrong status code: " << st.message();
  if (st.message()[0] == '\0') return ::testing::AssertionFailure() << "empty message";
  return ::testing::AssertionSuccess() << st.message();
}

::testing::AssertionResult Accepted(const std::vector<uint8_t>& bytes,
                                    Validation validation = Validation::kCanonical) {
  View v;
  const Status st = parse_copy(bytes, validation, &v);
  if (!st.is_ok()) return ::testing::AssertionFailure() << st.message();
  return ::testing::AssertionSuccess();
}

// --- what valid input looks like -------------------------------------------

TEST(HllParse, ValidSketchesParseWithTheirFields) {
  const std::vector<uint8_t> sparse = valid_sparse(12, 20);
  View v;
  ASSERT_TRUE(parse_copy(sparse, Validation::kCanonical, &v).is_ok());
  EXPECT_EQ(v.p, 12);
  EXPECT_TRUE(v.encoding == Encoding::kSparse);
  EXPECT_EQ(v.size, sparse.size());
  EXPECT_EQ(sparse_size(v.count), sparse.size());

  const std::vector<uint8_t> dense = valid_dense(10);
  ASSERT_TRUE(parse_copy(dense, Validation::kCanonical, &v).is_ok());
  EXPECT_EQ(v.p, 10);
  EXPECT_TRUE(v.encoding == Encoding::kDense);
  EXPECT_EQ(v.size, dense_size(10));
}

TEST(HllParse, PrecisionLimitsAreAccepted) {
  for (int p : {kMinPrecision, kMaxPrecision}) {
    std::vector<uint8_t> empty(sparse_size(0));
    write_empty(empty.data(), p);
    EXPECT_TRUE(Accepted(empty)) << "p=" << p;
    EXPECT_TRUE(Accepted(valid_dense(p))) << "p=" << p;
  }
}

// Dense layout pinned against an independent packing: register i holds i+1.
TEST(HllParse, DenseRegistersArePacked6BitsLittleEndian) {
  const int p = 4;
  Sketch s = Sketch::empty_dense(p);
  std::vector<uint8_t> expected = s.bytes();
  for (uint32_t i = 0; i < register_count(p); i++) {
    const int rank = static_cast<int>(i) + 1;
    s.add(uint64_t{i} << 60 | uint64_t{1} << (60 - rank));  // index i, rank i+1
    poke_register(expected, i, rank);
  }
  EXPECT_EQ(s.bytes(), expected);
  for (uint32_t i = 0; i < register_count(p); i++)
    EXPECT_EQ(detail::get_register(s.view().body, i), static_cast<int>(i) + 1);
}

TEST(HllParse, CanonicalRoundTrip) {
  for (int p : {4, 10, 14, 18}) {
    for (uint64_t n : {0, 1, 100, 3000, 60000}) {
      SCOPED_TRACE("p=" + std::to_string(p) + " n=" + std::to_string(n));
      const Sketch working = Sketch::from_hashes(p, stream(kParseSeed, 0, n));
      const std::vector<uint8_t> stored = working.canonical();
      const Sketch parsed = Sketch::from_bytes(stored, Validation::kCanonical);
      EXPECT_EQ(parsed.estimate(), working.estimate());
      EXPECT_EQ(parsed.canonical(), stored);  // canonical of canonical: a fixpoint
    }
  }
}

TEST(HllParse, HexRoundTrip) {
  for (uint64_t n : {0, 100, 20000}) {
    const Sketch s = Sketch::from_hashes(14, stream(kParseSeed, 0, n));
    const std::vector<uint8_t> bytes = s.canonical();
    const std::string text = s.hex();
    ASSERT_EQ(text.size(), hex_text_size(bytes.size()));
    EXPECT_EQ(text.substr(0, 2), "\\x");
    EXPECT_EQ(text.find_first_not_of("0123456789abcdef", 2), std::string::npos);
    std::vector<uint8_t> decoded(hex_decoded_size(text.size()));
    ASSERT_TRUE(hex_decode(text.data(), text.size(), decoded.data()).is_ok());
    EXPECT_EQ(decoded, bytes);
    EXPECT_TRUE(Accepted(decoded));
  }
}

// --- corrupt input, one class at a time ------------------------------------

TEST(HllCorrupt, TruncatedHeader) {
  const std::vector<uint8_t> b = valid_sparse();
  for (size_t len = 0; len < kHeaderSize; len++)
    EXPECT_TRUE(Rejected(std::vector<uint8_t>(b.begin(), b.begin() + len))) << len;
}

TEST(HllCorrupt, BadMagic) {
  for (size_t at : {0, 1}) {
    std::vector<uint8_t> b = valid_sparse();
    b[at] ^= 0x20;  // "sK", "Sk"
    EXPECT_TRUE(Rejected(b));
  }
}

TEST(HllCorrupt, OtherKind) {
  for (uint8_t kind : {0, 2, 3, 4, 255}) {
    std::vector<uint8_t> b = valid_sparse();
    b[2] = kind;
    EXPECT_TRUE(Rejected(b)) << "kind " << int(kind);
  }
}

TEST(HllCorrupt, UnknownVersion) {
  for (uint8_t version : {0, 2, 255}) {
    std::vector<uint8_t> b = valid_sparse();
    b[3] = version;
    EXPECT_TRUE(Rejected(b)) << "version " << int(version);
  }
}

TEST(HllCorrupt, UnknownHashIdentity) {
  for (uint8_t identity : {0, 2, 255}) {
    std::vector<uint8_t> b = valid_sparse();
    b[4] = identity;
    EXPECT_TRUE(Rejected(b)) << "hash identity " << int(identity);
  }
}

TEST(HllCorrupt, PrecisionOutOfRange) {
  for (uint8_t p : {0, 3, 19, 26, 255}) {
    std::vector<uint8_t> b = valid_sparse();
    b[5] = p;
    EXPECT_TRUE(Rejected(b)) << "p " << int(p);
    std::vector<uint8_t> d = valid_dense(4);
    d[5] = p;
    EXPECT_TRUE(Rejected(d)) << "dense p " << int(p);
  }
}

TEST(HllCorrupt, UnknownEncoding) {
  // 3 is the working set: valid inside aggregate states, never as input.
  for (uint8_t encoding : {0, 3, 4, 255}) {
    std::vector<uint8_t> b = valid_sparse();
    b[6] = encoding;
    EXPECT_TRUE(Rejected(b)) << "encoding " << int(encoding);
  }
  const Sketch set = Sketch::from_hashes(14, stream(kParseSeed, 0, 20));
  ASSERT_EQ(set.encoding(), Encoding::kSparseSet);
  EXPECT_TRUE(Accepted(set.bytes(), Validation::kStructure));
  EXPECT_TRUE(Rejected(set.bytes(), Validation::kCanonical));
}

// Byte 7 is the element kind (core/common/element_kind.h): 0..15 and 255 are
// kinds, anything else is refused.
TEST(HllCorrupt, UnknownElementKind) {
  for (uint8_t value : {16, 128, 254}) {
    std::vector<uint8_t> b = valid_sparse();
    b[7] = value;
    EXPECT_TRUE(Rejected(b));
    std::vector<uint8_t> d = valid_dense();
    d[7] = value;
    EXPECT_TRUE(Rejected(d));
  }
  for (uint8_t value : {0, 1, 15, 255}) {
    std::vector<uint8_t> b = valid_sparse();
    b[7] = value;
    EXPECT_TRUE(Accepted(b, Validation::kCanonical));
  }
}

TEST(HllCorrupt, SparseCountLargerThanTheBytes) {
  const std::vector<uint8_t> valid = valid_sparse();
  const uint32_t count = load_le32(&valid[detail::kCountOffset]);
  for (uint32_t bad : {count + 1, count + 1000, 0x40000000u, 0xFFFFFFFFu}) {
    std::vector<uint8_t> b = valid;
    set_count(b, bad);
    EXPECT_TRUE(Rejected(b)) << "count " << bad;
    EXPECT_TRUE(Rejected(b, Validation::kStructure)) << "count " << bad;
  }
}

TEST(HllCorrupt, SparseCountSmallerThanTheBytes) {
  const std::vector<uint8_t> valid = valid_sparse();
  std::vector<uint8_t> b = valid;
  set_count(b, load_le32(&valid[detail::kCountOffset]) - 1);
  EXPECT_TRUE(Rejected(b));
  EXPECT_TRUE(Rejected(b, Validation::kStructure));
  for (size_t extra : {1, 2, 3, 4, 5}) {
    std::vector<uint8_t> trailing = valid;
    trailing.resize(valid.size() + extra, 0);
    EXPECT_TRUE(Rejected(trailing)) << extra << " trailing bytes";
    EXPECT_TRUE(Rejected(trailing, Validation::kStructure)) << extra << " trailing bytes";
  }
}

// Sorted, well-formed entries, but more than the precision allows sparse.
TEST(HllCorrupt, SparseCountAboveMaximum) {
  for (int p : {4, 10}) {
    const uint32_t limit = max_sparse_entries(p);
    for (uint32_t count : {limit, limit + 1}) {
      std::vector<uint8_t> b(sparse_size(count));
      write_empty(b.data(), p);
      set_count(b, count);
      for (uint32_t i = 0; i < count; i++) set_entry(b, i, detail::make_entry(i * 3, 1));
      if (count == limit) {
        EXPECT_TRUE(Accepted(b)) << "p=" << p;
      } else {
        EXPECT_TRUE(Rejected(b)) << "p=" << p;
      }
    }
  }
}

TEST(HllCorrupt, UnsortedEntries) {
  std::vector<uint8_t> b = valid_sparse();
  const uint32_t e3 = entry_at(b, 3);
  set_entry(b, 3, entry_at(b, 4));
  set_entry(b, 4, e3);
  EXPECT_TRUE(Rejected(b));
  // Reversed as a whole.
  const std::vector<uint8_t> valid = valid_sparse();
  std::vector<uint8_t> r = valid;
  const uint32_t count = load_le32(&r[detail::kCountOffset]);
  for (uint32_t i = 0; i < count; i++) set_entry(r, i, entry_at(valid, count - 1 - i));
  EXPECT_TRUE(Rejected(r));
}

TEST(HllCorrupt, DuplicateIndex) {
  // Entry 3 takes entry 2's index: with the same rank, a larger one and a
  // smaller one (a larger rank makes the whole entry increase, so comparing
  // whole entries instead of indexes would miss it).
  const std::vector<uint8_t> valid = valid_sparse();
  const uint32_t e = entry_at(valid, 2);
  const uint32_t index = detail::entry_index(e);
  const int rank = detail::entry_rank(e);
  const int larger = rank < 39 ? rank + 1 : rank;
  const int smaller = rank > 1 ? rank - 1 : rank;
  for (int duplicate_rank : {rank, larger, smaller}) {
    std::vector<uint8_t> b = valid;
    set_entry(b, 3, detail::make_entry(index, duplicate_rank));
    EXPECT_TRUE(Rejected(b)) << "rank " << duplicate_rank << " after rank " << rank;
  }
}

TEST(HllCorrupt, RankOutOfRange) {
  const std::vector<uint8_t> valid = valid_sparse();
  const uint32_t last = load_le32(&valid[detail::kCountOffset]) - 1;
  for (uint32_t at : {0u, last}) {
    const uint32_t index = detail::entry_index(entry_at(valid, at));
    for (int rank : {0, 40, 63}) {
      std::vector<uint8_t> b = valid;
      set_entry(b, at, detail::make_entry(index, rank));
      EXPECT_TRUE(Rejected(b)) << "rank " << rank << " at entry " << at;
    }
    std::vector<uint8_t> top = valid;
    set_entry(top, at, detail::make_entry(index, 64 - kSparsePrecision + 1));  // 39
    EXPECT_TRUE(Accepted(top));
  }
}

TEST(HllCorrupt, DenseWithWrongLength) {
  const std::vector<uint8_t> valid = valid_dense(14);
  std::vector<uint8_t> shorter(valid.begin(), valid.end() - 1);
  EXPECT_TRUE(Rejected(shorter));
  std::vector<uint8_t> longer = valid;
  longer.push_back(0);
  EXPECT_TRUE(Rejected(longer));
  EXPECT_TRUE(Rejected(longer, Validation::kStructure));
  // Registers of p = 12 under a header that says 14, and the reverse.
  std::vector<uint8_t> p12 = valid_dense(12);
  p12[5] = 14;
  EXPECT_TRUE(Rejected(p12));
  std::vector<uint8_t> p14 = valid;
  p14[5] = 12;
  EXPECT_TRUE(Rejected(p14));
  // A header alone.
  EXPECT_TRUE(Rejected(std::vector<uint8_t>(valid.begin(), valid.begin() + kHeaderSize)));
}

TEST(HllCorrupt, DenseRegisterAboveMaximum) {
  for (int p : {4, 14, 18}) {
    const std::vector<uint8_t> valid = valid_dense(p);
    const size_t m = register_count(p);
    // Registers 0..3 cover every bit offset of the 6-bit packing.
    for (size_t i : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, m / 2 + 1, m - 1}) {
      SCOPED_TRACE("p=" + std::to_string(p) + " register " + std::to_string(i));
      std::vector<uint8_t> b = valid;
      poke_register(b, i, max_register_value(p));
      EXPECT_TRUE(Accepted(b));
      poke_register(b, i, max_register_value(p) + 1);
      EXPECT_TRUE(Rejected(b));
      poke_register(b, i, 63);
      EXPECT_TRUE(Rejected(b));
    }
  }
}

// --- truncation and fuzzing -------------------------------------------------

TEST(HllCorrupt, EveryTruncationIsRejected) {
  const Sketch set = Sketch::from_hashes(14, stream(kParseSeed, 0, 200));
  const std::vector<std::vector<uint8_t>> inputs = {valid_sparse(14, 200), valid_dense(14),
                                                    valid_dense(4), set.bytes()};
  for (const std::vector<uint8_t>& valid : inputs) {
    for (size_t len = 0; len < valid.size(); len++) {
      const std::vector<uint8_t> prefix(valid.begin(), valid.begin() + len);
      ASSERT_TRUE(Rejected(prefix, Validation::kStructure)) << len << " of " << valid.size();
      ASSERT_TRUE(Rejected(prefix, Validation::kCanonical)) << len << " of " << valid.size();
    }
  }
}

// Random byte changes: whatever parse accepts in canonical mode must be a
// usable sketch (finite estimate, canonical form is itself).
TEST(HllCorrupt, RandomByteChangesNeverYieldAnUnusableSketch) {
  std::mt19937_64 rng(kParseSeed);
  const std::vector<std::vector<uint8_t>> inputs = {valid_sparse(14, 50), valid_sparse(4, 2),
                                                    valid_dense(4), valid_dense(10)};
  for (const std::vector<uint8_t>& valid : inputs) {
    for (int trial = 0; trial < 3000; trial++) {
      std::vector<uint8_t> b = valid;
      const int changes = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < changes; k++) b[rng() % b.size()] = static_cast<uint8_t>(rng());
      View v;
      const Status st = parse_copy(b, Validation::kCanonical, &v);
      if (!st.is_ok()) {
        ASSERT_EQ(st.code(), StatusCode::kInvalidFormat) << st.message();
        continue;
      }
      const Sketch s = Sketch::from_bytes(b, Validation::kCanonical);
      ASSERT_TRUE(std::isfinite(s.estimate()));
      ASSERT_GE(s.estimate(), 0.0);
      ASSERT_EQ(s.canonical(), b);
    }
  }
}

}  // namespace
}  // namespace sketch::hll
