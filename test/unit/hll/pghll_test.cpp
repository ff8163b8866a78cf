// postgresql-hll's sketches (hash identity 2): the hash, the register rule,
// the peer's bytes for every representation, promotion, unions and the
// refusals. Expected bytes and hashes are what the installed peer
// (postgresql-15-hll) answered for the same calls (test/interop runs the
// peer itself over many more).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/hex.h"
#include "core/common/murmur3.h"
#include "core/hll/hll_family.h"
#include "core/hll/pghll.h"

namespace sketch::hll::pghll {
namespace {

using Bytes = std::vector<uint8_t>;

int64_t peer_hash(const void* data, size_t len, int32_t seed = 0) {
  return static_cast<int64_t>(murmur3_x64_128(data, len, static_cast<uint32_t>(seed)).h1);
}

TEST(PghllMurmur, MatchesThePeersHashFunctions) {
  const int16_t s = 1;
  const int32_t i = 1;
  const int64_t b = 1;
  const uint8_t t = 1;
  EXPECT_EQ(peer_hash(&s, 2), 1967286128051477038);     // hll_hash_smallint(1)
  EXPECT_EQ(peer_hash(&i, 4), -8604791237420463362);    // hll_hash_integer(1)
  EXPECT_EQ(peer_hash(&b, 8), 19144387141682250);       // hll_hash_bigint(1)
  EXPECT_EQ(peer_hash(&t, 1), 8849112093580131862);     // hll_hash_boolean(true)
  EXPECT_EQ(peer_hash("a", 1), -8839064797231613815);   // hll_hash_text('a')
  EXPECT_EQ(peer_hash(&i, 4, -1), -346345235961563750);  // hll_hash_integer(1, -1)
  const int64_t v = 3475270650314491794;                 // the peer's murmur_bigint vectors
  EXPECT_EQ(peer_hash(&v, 8, 2147483647), -3696531339345168657);
}

Bytes hex_bytes(const std::string& hex) {
  Bytes out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); i++) out[i] = std::stoi(hex.substr(2 * i, 2), nullptr, 16);
  return out;
}

std::string to_hex(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; i++) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

View parsed(const Bytes& b, Validation validation = Validation::kStructure) {
  View v;
  const Status st = hll::parse(b.data(), b.size(), validation, &v);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return v;
}

// Adds hashes through the traits the aggregate uses, growing as it asks.
Bytes add_all(const Params& params, const std::vector<uint64_t>& hashes) {
  Bytes state(empty_working_size());
  write_empty_working(params, state.data());
  for (uint64_t h : hashes) {
    Family::Element e{h, kIdentity, params.seed};
    Family::Growth g{};
    while (!Family::add(state.data(), e, &g)) {
      const View v = parsed(state);
      EXPECT_TRUE(Family::plan_growth(v, &g).is_ok());
      Bytes grown(g.size);
      Family::grow(v, g, grown.data());
      state = grown;
    }
  }
  return state;
}

Bytes stored(const Bytes& state) {
  const View v = parsed(state);
  Bytes out(hll::stored_size(v));
  hll::write_stored(v, out.data());
  parsed(out, Validation::kCanonical);  // what we store is canonical
  return out;
}

std::string peer_hex(const Bytes& stored_form) {
  size_t n;
  const uint8_t* p = peer_bytes(parsed(stored_form), &n);
  return to_hex(p, n);
}

std::vector<uint64_t> int_hashes(int from, int to, int32_t seed = 0) {
  std::vector<uint64_t> out;
  for (int32_t i = from; i <= to; i++)
    out.push_back(murmur3_x64_128(&i, 4, static_cast<uint32_t>(seed)).h1);
  return out;
}

Params params(int log2m, int regwidth, int64_t expthresh, int sparseon, int32_t seed = 0) {
  Params p;
  EXPECT_TRUE(make_params(log2m, regwidth, expthresh, sparseon, seed, &p).is_ok());
  return p;
}

TEST(PghllBuild, ReproducesThePeersAggregateBytes) {
  // hll_add_agg(hll_hash_integer(g), 4, 1, 0, 0 / 1) over g = 1..3
  EXPECT_EQ(peer_hex(stored(add_all(params(4, 1, 0, 0), int_hashes(1, 3)))), "1404008012");
  EXPECT_EQ(peer_hex(stored(add_all(params(4, 1, 0, 1), int_hashes(1, 3)))), "1304400dfa");
  // hll_add(hll_empty(), hll_hash_integer(1, 7)): EXPLICIT of one hash
  EXPECT_EQ(peer_hex(stored(add_all(params(11, 5, -1, 1, 7), int_hashes(1, 1, 7)))),
            "128b7f224fa4b6616b22c0");
}

TEST(PghllBuild, RegisterRuleIsLowBitsAndTrailingZeros) {
  const Params p = params(11, 5, -1, 1);
  const Register r = register_of((uint64_t{0x8} << 11) | 5, p);
  EXPECT_EQ(r.index, 5u);
  EXPECT_EQ(r.value, 4);  // 1 + ctz(0b1000)
  EXPECT_EQ(register_of(uint64_t{7}, p).value, 0);        // nothing above the index bits
  EXPECT_EQ(register_of(uint64_t{1} << 63, p).value, 31);  // capped at 2^5 - 1
}

TEST(PghllBuild, PromotesPastTheExplicitThreshold) {
  const Params p = params(11, 5, 4, 1);
  Bytes four = stored(add_all(p, int_hashes(1, 4)));
  EXPECT_EQ(representation(parsed(four)), PeerType::kExplicit);
  EXPECT_DOUBLE_EQ(hll::estimate(parsed(four)), 4.0);
  Bytes five = stored(add_all(p, int_hashes(1, 5)));
  EXPECT_EQ(representation(parsed(five)), PeerType::kSparse);
  // Auto threshold at log2m 11, regwidth 5: 1280 FULL bytes / 8 = 160 hashes.
  EXPECT_EQ(params(11, 5, -1, 1).explicit_limit(), 160u);
  Bytes many = stored(add_all(params(11, 5, -1, 1), int_hashes(1, 160)));
  EXPECT_EQ(representation(parsed(many)), PeerType::kExplicit);
  Bytes full = stored(add_all(params(11, 5, -1, 1), int_hashes(1, 3000)));
  EXPECT_EQ(representation(parsed(full)), PeerType::kFull);
  EXPECT_NEAR(hll::estimate(parsed(full)), 3000, 3000 * 0.1);
}

TEST(PghllParse, SpecExampleSparseWords) {
  // The storage specification's example: log2m 11, regwidth 6, (11, 6), (1099, 19).
  const Bytes peer = hex_bytes("13ab7f0163445bc0");
  PeerView v;
  ASSERT_TRUE(parse_peer(peer.data(), peer.size(), 0, &v).is_ok());
  EXPECT_EQ(v.type, PeerType::kSparse);
  EXPECT_EQ(v.count, 2u);
  EXPECT_EQ(v.params.log2m, 11);
  EXPECT_EQ(v.params.regwidth, 6);
}

// Import: the peer's bytes into a working state, then our stored form.
Bytes import(const std::string& hex, int32_t seed = 0) {
  const Bytes peer = hex_bytes(hex);
  PeerView v;
  const Status st = parse_peer(peer.data(), peer.size(), seed, &v);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  Bytes working(working_size_of(v));
  write_working_of(v, ElementKind::kNone, working.data());
  return stored(working);
}

TEST(PghllParse, RoundTripsEveryRepresentation) {
  for (const char* hex : {"118b7f", "128b7f224fa4b6616b22c0", "1304400dfa", "1404008012",
                          "13ab7f0163445bc0"})
    EXPECT_EQ(peer_hex(import(hex)), hex);
}

TEST(PghllParse, CanonicalizesAFullOfFewRegisters) {
  // FULL with three registers set at sparseon 1 is written SPARSE.
  Bytes full = stored(add_all(params(4, 1, 0, 0), int_hashes(1, 3)));
  std::string hex = peer_hex(full);
  hex[4] = '4';  // cutoff byte 0x00 -> 0x40: sparse on
  EXPECT_EQ(peer_hex(import(hex)), "1304400dfa");
}

TEST(PghllParse, RefusesCorruptAndUndefined) {
  PeerView v;
  auto status_of = [&](const std::string& hex) {
    const Bytes b = hex_bytes(hex);
    return parse_peer(b.data(), b.size(), 0, &v).code();
  };
  EXPECT_EQ(status_of("108b7f"), StatusCode::kInvalidParameter);  // UNDEFINED
  EXPECT_EQ(status_of("118b"), StatusCode::kInvalidFormat);       // truncated
  EXPECT_EQ(status_of("218b7f"), StatusCode::kInvalidFormat);     // schema version 2
  EXPECT_EQ(status_of("158b7f"), StatusCode::kInvalidFormat);     // type 5
  EXPECT_EQ(status_of("118b7f00"), StatusCode::kInvalidFormat);   // EMPTY with data
  EXPECT_EQ(status_of("128b7f224fa4b6616b22"), StatusCode::kInvalidFormat);  // 7 bytes
  EXPECT_EQ(status_of("1283" "7f00"), StatusCode::kInvalidFormat);  // log2m 3
  EXPECT_EQ(status_of("1292" "7f"), StatusCode::kInvalidFormat);    // log2m 18
  EXPECT_EQ(status_of("118bbf"), StatusCode::kInvalidFormat);     // cutoff top bit
  EXPECT_EQ(status_of("118b5f"), StatusCode::kInvalidFormat);     // cutoff code 31
  // EXPLICIT not ascending
  EXPECT_EQ(status_of("128b7f00000000000000020000000000000001"), StatusCode::kInvalidFormat);
  // EXPLICIT duplicate
  EXPECT_EQ(status_of("128b7f00000000000000010000000000000001"), StatusCode::kInvalidFormat);
  // EXPLICIT at cutoff 0
  EXPECT_EQ(status_of("128b400000000000000001"), StatusCode::kInvalidFormat);
  // SPARSE indices descending, non-zero padding, FULL short by a byte
  EXPECT_EQ(status_of("13ab7f89600b18"), StatusCode::kInvalidFormat);
  EXPECT_EQ(status_of("13ab7f0163445bc1"), StatusCode::kInvalidFormat);
  EXPECT_EQ(status_of("14040000"), StatusCode::kInvalidFormat);
}

TEST(PghllMerge, UnionsWithinTheIdentityAndRefusesOthers) {
  const Params p = params(11, 5, -1, 1);
  Bytes a = stored(add_all(p, int_hashes(1, 100)));
  Bytes b = stored(add_all(p, int_hashes(50, 120)));
  Family::MergePlan plan;
  ASSERT_TRUE(Family::plan_merge(parsed(a), parsed(b), &plan).is_ok());
  Bytes u(plan.size);
  Family::merge(a.data(), parsed(a), parsed(b), plan, u.data());
  EXPECT_DOUBLE_EQ(hll::estimate(parsed(u)), 120.0);  // explicit: exact
  EXPECT_EQ(stored(u), stored(add_all(p, int_hashes(1, 120))));
  // Past the threshold: registers, equal to adding all values directly.
  Bytes c = stored(add_all(p, int_hashes(100, 2000)));
  ASSERT_TRUE(Family::plan_merge(parsed(a), parsed(c), &plan).is_ok());
  Bytes u2(plan.size);
  Family::merge(a.data(), parsed(a), parsed(c), plan, u2.data());
  EXPECT_EQ(stored(u2), stored(add_all(p, int_hashes(1, 2000))));
  // Other parameters or seed: refused, naming both.
  Bytes other = stored(add_all(params(11, 5, -1, 1, 9), int_hashes(1, 3, 9)));
  Status st = Family::plan_merge(parsed(a), parsed(other), &plan);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_NE(std::string(st.message()).find("seed 9"), std::string::npos);
  // Identity 1: refused.
  Bytes ours(hll::sparse_size(0));
  hll::write_empty(ours.data(), 11);
  st = Family::plan_merge(parsed(a), parsed(ours), &plan);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_NE(std::string(st.message()).find("identity 1"), std::string::npos);
}

TEST(PghllAdd, RefusesHashesOfAnotherIdentityOrSeed) {
  Bytes state = add_all(params(11, 5, -1, 1, 3), {});
  Family::Element xxh3{42};
  Family::Growth g{};
  EXPECT_FALSE(Family::add(state.data(), xxh3, &g));
  EXPECT_EQ(Family::plan_growth(parsed(state), &g).code(), StatusCode::kMismatch);
  Family::Element other_seed{42, kIdentity, 4};
  EXPECT_FALSE(Family::add(state.data(), other_seed, &g));
  EXPECT_EQ(Family::plan_growth(parsed(state), &g).code(), StatusCode::kMismatch);
  // And an identity 1 sketch refuses the peer's hashes.
  Bytes ours(hll::sparse_set_size(8));
  hll::write_empty_set(ours.data(), 11, 8);
  Family::Element peer{42, kIdentity, 0};
  EXPECT_FALSE(Family::add(ours.data(), peer, &g));
  EXPECT_EQ(Family::plan_growth(parsed(ours), &g).code(), StatusCode::kMismatch);
}

TEST(PghllParse, RefusesStateEncodingAsStoredAndWrongIdentityEncodings) {
  Bytes state = add_all(params(11, 5, -1, 1), int_hashes(1, 5));
  View v;
  EXPECT_FALSE(hll::parse(state.data(), state.size(), Validation::kCanonical, &v).is_ok());
  EXPECT_TRUE(Family::is_working(state.data(), state.size()));
  Bytes bad = state;
  bad[kHeaderSize + 8] = 200;  // count above capacity
  EXPECT_FALSE(Family::is_working(bad.data(), bad.size()));
  EXPECT_FALSE(hll::parse(bad.data(), bad.size(), Validation::kStructure, &v).is_ok());
  // An identity 1 encoding byte under identity 2, and the reverse.
  Bytes s = stored(state);
  s[6] = static_cast<uint8_t>(Encoding::kDense);
  EXPECT_FALSE(hll::parse(s.data(), s.size(), Validation::kStructure, &v).is_ok());
  Bytes ours(hll::sparse_size(0));
  hll::write_empty(ours.data(), 11);
  ours[6] = static_cast<uint8_t>(Encoding::kPghll);
  EXPECT_FALSE(hll::parse(ours.data(), ours.size(), Validation::kStructure, &v).is_ok());
}

}  // namespace
}  // namespace sketch::hll::pghll
