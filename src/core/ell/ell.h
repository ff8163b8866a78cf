// ExaLogLog (Ertl 2024/25): distinct counting in fixed memory, about 43%
// fewer bits than HyperLogLog for the same error, mergeable exactly.
//
// Parameters t = 2, d = 20 (fixed in format version 1), p = 4..18 index
// bits, m = 2^p registers of 28 bits. A value's 64-bit hash (XXH3, identity
// 1, the same hash hll uses) gives
//
//   index  i = the top p bits                      (hll's register index)
//   level  j = leading zeros of the 64 - p - t bits below the index, at
//              most J = 64 - p - t                  (hll's rank - 1, below J)
//   sub    s = the lowest t bits
//   update value k = 4j + s + 1, in 1..4(J + 1)
//
// A register holds u, the largest k seen (8 bits, 0 = none), and 20
// indicator bits: bit 20 - δ is set iff k = u - δ was seen (δ = 1..20). The
// implied HyperLogLog register is exactly our hll's at the same p (for
// j < J it is j + 1; at the top level, where hll's rank reads the low bits
// too, the indicator bits tell every top-level value apart): to_hll().
//
// Encodings (header byte 6; byte 5 = p), every one starting with a uint32
// of flags at byte 8 (bit 0: kUnmerged, the sketch is one stream of adds,
// never merged nor folded, so its martingale estimate is valid):
//
//   sparse      uint32 count, then `count` uint32 tokens, strictly increasing.
//               A token keeps (index at 24 bits, level at 24 bits + 1, s): it
//               converts exactly to the update of any p <= 24, so a sparse
//               sketch becomes exactly the dense state one-pass inserts give.
//               Used while no larger than the dense form (7m/8 tokens).
//   dense       float64 martingale estimate, uint64 state-change probability
//               in units of 2^-64 (both 0 unless kUnmerged), then m registers
//               of 28 bits packed little-endian (register i at bit 28i): two
//               registers per 7 bytes, 3.5 m bytes.
//   sparse set  the working form of aggregate states only: uint32 count,
//               uint32 capacity (a power of two), `capacity` uint32 slots of
//               an open-addressing set of tokens (0 = empty). Never stored.
//
// Every function works on caller-owned buffers and never allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/header.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::ell {

constexpr int kMinPrecision = 4;
constexpr int kMaxPrecision = 18;
// p = 11: 7,168 register bytes for an RMS error of 0.80% (ML), the error of
// hll at its default p = 14 in 58% of its 12,288 bytes.
constexpr int kDefaultPrecision = 11;
constexpr uint8_t kFormatVersion = 1;

constexpr int kT = 2;              // sub-level bits
constexpr int kD = 20;             // indicator bits
constexpr int kRegisterBits = 28;  // 8 bits of u + kD
constexpr int kTokenPrecision = 24;

constexpr uint32_t kUnmerged = 1;  // flags bit 0

enum class Encoding : uint8_t { kSparse = 1, kDense = 2, kSparseSet = 3 };

const char* encoding_name(Encoding encoding);
bool valid_precision(int p);

inline size_t register_count(int p) { return size_t{1} << p; }
constexpr size_t kFlagsOffset = kHeaderSize;
inline size_t sparse_size(uint32_t count) { return kHeaderSize + 8 + size_t{4} * count; }
inline size_t sparse_set_size(uint32_t capacity) {
  return kHeaderSize + 12 + size_t{4} * capacity;
}
inline size_t dense_size(int p) {
  return kHeaderSize + 4 + 16 + register_count(p) * kRegisterBits / 8;
}
// The most tokens a sparse sketch holds: 7m/8, where it reaches the dense size.
inline uint32_t max_sparse_tokens(int p) {
  return static_cast<uint32_t>(register_count(p) * 7 / 8);
}
uint32_t set_capacity_for(uint32_t count);

struct View {
  int p;
  Encoding encoding;
  uint32_t flags;
  uint32_t count;     // tokens (sparse, set); 0 for dense
  uint32_t capacity;  // set slots; 0 otherwise
  const uint8_t* data;  // the sketch, header first
  size_t size;
};

inline bool is_unmerged(const View& v) { return (v.flags & kUnmerged) != 0; }

// Header byte 5 of a sketch of any encoding (parsed or working state).
inline int precision_of(const uint8_t* sketch) { return sketch[5]; }

// kCanonical: a stored encoding, every token and register checked (sorted
// distinct tokens of valid levels; registers without indicator bits for
// values below 1, u within range; the martingale fields zero when not
// kUnmerged, else a finite estimate and the exact change probability of the
// registers). kStructure: header and lengths, O(1), working encodings too.
Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

// --- building -------------------------------------------------------------

// The empty sketch in canonical form (sparse, kUnmerged): sparse_size(0) bytes.
void write_empty(uint8_t* dst, int p);
void write_empty_set(uint8_t* dst, int p, uint32_t capacity);

enum class AddOutcome { kDone, kNeedsGrowth, kNeedsDense };

// Adds one hash to a working sketch (set or dense) in place; a dense
// kUnmerged sketch also advances its martingale estimate.
// kNeedsGrowth: rebuild the set with write_set(grown_capacity) and retry;
// kNeedsDense: write_dense at the same p and retry.
AddOutcome add_hash(uint8_t* sketch, uint64_t hash);
uint32_t grown_capacity(const View& set);

// A sparse or set sketch copied into a new set of `capacity` slots.
void write_set(const View& src, uint32_t capacity, uint8_t* dst);

// `src` (any encoding, precision >= p) as a dense sketch of precision p
// (dense_size(p) bytes). At src.p the result is the one-pass dense state and
// a kUnmerged sparse source starts its martingale at the sparse estimate;
// below src.p registers are folded (fold_exact says when that is exact) and
// kUnmerged is cleared.
void write_dense(const View& src, int p, uint8_t* dst);

// --- canonical form -------------------------------------------------------

size_t stored_size(const View& v);
void write_stored(const View& v, uint8_t* dst);

// Clears kUnmerged in place, and zeroes a dense sketch's martingale fields:
// the sketch as a merge leaves it, whose bytes no longer depend on the order
// the stream's values first arrived in (any encoding; a working state too).
void forget_stream(uint8_t* sketch);

// --- union ----------------------------------------------------------------

// a ∪ b at min(p_a, p_b). An empty side leaves the other as it is (at the
// lower p); otherwise the result is merged and kUnmerged cleared. Tokens stay
// tokens while the union fits 7m/8 of them; registers merge by the exact
// register union, which is commutative, associative and idempotent.
struct MergePlan {
  int p;
  Encoding encoding;  // kDense or kSparseSet
  bool in_place;
  size_t size;
  uint32_t capacity;
  bool keep_a;        // b is empty: a stays (folded if p < a.p)
  bool take_b;        // a is empty: the result is b (folded if p < b.p)
};
MergePlan plan_merge(const View& a, const View& b);
void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan, uint8_t* dst);

// True when folding this dense sketch to p gives exactly the dense state a
// one-pass insert at p would (always true for sparse and set sketches, and for
// p == v.p). See ell_fold.cpp for the one case a fold cannot know.
bool fold_exact(const View& v, int p);

// --- estimates ------------------------------------------------------------

// The estimate the sketch offers: the martingale estimate for a kUnmerged
// dense sketch, the maximum-likelihood estimate for any other dense sketch,
// the token-count estimate (nearly exact) for sparse ones.
double estimate(const View& v);
// Maximum likelihood (dense) or token count (sparse), whatever the flag.
double ml_estimate(const View& v);
// The martingale estimate of a kUnmerged dense sketch; *available false (and
// 0 returned) otherwise.
double martingale_estimate(const View& v, bool* available);

// Relative standard error of estimate(v).
double standard_error(const View& v);
// Relative standard error of the maximum-likelihood estimate of a dense
// sketch of precision p, 0.362/sqrt(m): what a merged sketch promises.
double ml_standard_error(int p);

struct Bounds {
  double lower;
  double upper;
};
// Two-sided interval (0 < confidence < 1) around estimate(v), never below
// the number of distinct values the sketch proves.
Bounds bounds(const View& v, double confidence);

// --- hll ------------------------------------------------------------------

// The hll dense sketch (hll::dense_size(v.p) bytes, element kind carried)
// whose registers are exactly those one-pass hll inserts of the same hashes
// at p = v.p give.
void write_hll(const View& v, uint8_t* dst);

}  // namespace sketch::ell
