// HyperLogLog: distinct counting in fixed memory, mergeable by register max.
//
// A value's 64-bit hash picks a register (its top p bits) and a rank rho (one
// plus the number of leading zeros in the remaining bits). Each register
// keeps the largest rank it saw; since P(rho >= r) = 2^-(r-1), the register
// values of m = 2^p registers estimate log2 of the distinct count, with a
// relative standard error of about 1.04/sqrt(m).
//
// Three encodings share one header (param[0] = p, param[1] = encoding):
//
//   sparse      uint32 count, then `count` uint32 entries, strictly increasing.
//               An entry is (idx << 6 | rho) at the fixed sparse precision of
//               26 bits, so small sketches are (nearly) exact and independent
//               of p: a sparse entry converts exactly to a register at any
//               p <= 26. Used while it is no larger than the dense form.
//   dense       m registers of 6 bits, packed little-endian (register i at bit
//               6i): 3m/4 bytes. Register values are 0..(64 - p + 1).
//   sparse set  the working form inside aggregate states only: uint32 count,
//               uint32 capacity (a power of two), then `capacity` uint32 slots
//               of an open-addressing hash set of entries (0 = empty slot), so
//               that adding a value costs O(1). Never stored, never accepted
//               from outside; write_stored turns it into `sparse`.
//
// Every function here works on caller-owned byte buffers and never allocates:
// the PostgreSQL wrapper sizes the buffer (palloc) and the core fills it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/header.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::hll {

constexpr int kMinPrecision = 4;
constexpr int kMaxPrecision = 18;
constexpr int kDefaultPrecision = 14;
constexpr int kSparsePrecision = 26;
constexpr uint8_t kFormatVersion = 1;

// kPghll and kPghllWorking are postgresql-hll's sketches, hash identity 2
// (pghll.h): stored, and the working form of their aggregate states.
enum class Encoding : uint8_t {
  kSparse = 1,
  kDense = 2,
  kSparseSet = 3,
  kPghll = 4,
  kPghllWorking = 5,
  kDatasketches = 6,
  kDatasketchesWorking = 7,
};

inline bool is_pghll(Encoding e) { return e == Encoding::kPghll || e == Encoding::kPghllWorking; }
// kDatasketches and kDatasketchesWorking are DataSketches HLL sketches,
// hash identity 3 (dshll.h).
inline bool is_dshll(Encoding e) {
  return e == Encoding::kDatasketches || e == Encoding::kDatasketchesWorking;
}

const char* encoding_name(Encoding encoding);

inline size_t register_count(int p) { return size_t{1} << p; }
inline int max_register_value(int p) { return 64 - p + 1; }
inline size_t dense_size(int p) { return kHeaderSize + register_count(p) * 3 / 4; }
inline size_t sparse_size(uint32_t count) { return kHeaderSize + 4 + size_t{4} * count; }
inline size_t sparse_set_size(uint32_t capacity) {
  return kHeaderSize + 8 + size_t{4} * capacity;
}

// The most entries a sparse sketch holds before it is promoted to dense:
// beyond it, the sparse form would be larger than the dense one.
inline uint32_t max_sparse_entries(int p) {
  return static_cast<uint32_t>(register_count(p) * 3 / 16 - 1);
}

// Smallest power-of-two set capacity that holds `count` entries at a load
// factor of at most 3/4.
uint32_t set_capacity_for(uint32_t count);

bool valid_precision(int p);

// A parsed, read-only look at a sketch. `body` points just past the header.
struct View {
  int p;              // identity 2: the peer's log2m; identity 3: lgK
  Encoding encoding;
  uint32_t count;     // entries (sparse, set); 0 for dense
  uint32_t capacity;  // set slots; 0 otherwise
  const uint8_t* body;
  size_t size;        // whole sketch in bytes, header included
};

// Validation (core/common/validation.h): kStructure checks the header and
// the lengths only, in O(1).
using sketch::Validation;

Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

// --- building -------------------------------------------------------------

// An empty sketch in canonical form: sparse_size(0) bytes.
void write_empty(uint8_t* dst, int p);

// An empty working set with `capacity` slots: sparse_set_size(capacity) bytes.
void write_empty_set(uint8_t* dst, int p, uint32_t capacity);

// kRefused: the value was hashed under another hash identity (or seed) than
// the sketch's; nothing was added.
enum class AddOutcome { kDone, kNeedsGrowth, kNeedsDense, kRefused };

// Adds one hashed value to a working sketch (sparse set or dense) in place.
// kNeedsGrowth: the set is full; rebuild it with grow_set and retry.
// kNeedsDense: the set has reached max_sparse_entries; convert with
// write_dense and retry.
AddOutcome add_hash(uint8_t* sketch, uint64_t hash);

// The set capacity to grow a full working set to.
uint32_t grown_capacity(const View& set);

// Copies a sparse or set sketch into a new working set of `capacity` slots.
void write_set(const View& src, uint32_t capacity, uint8_t* dst);

// Writes `src` (any encoding, precision >= p) as a dense sketch of precision
// p into dst (dense_size(p) bytes). Lowering p folds registers exactly.
void write_dense(const View& src, int p, uint8_t* dst);

// --- canonical form -------------------------------------------------------

size_t stored_size(const View& v);

// Writes the stored form: a set becomes a sorted sparse list.
void write_stored(const View& v, uint8_t* dst);

// --- union ----------------------------------------------------------------

// How a ∪ b will be built. The result has precision min(p_a, p_b): the
// larger precision is folded down, which is exact.
struct MergePlan {
  int p;
  Encoding encoding;  // kDense or kSparseSet
  bool in_place;      // a can absorb b in its own buffer
  size_t size;        // bytes of the result buffer (a's size if in_place)
  uint32_t capacity;  // set capacity when encoding == kSparseSet
};

MergePlan plan_merge(const View& a, const View& b);

// Carries out the plan. If plan.in_place, `a_buffer` (the bytes of a) is
// updated and `dst` is ignored; otherwise the result is written into dst.
void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan,
                 uint8_t* dst);

// --- estimates ------------------------------------------------------------

double estimate(const View& v);

// Relative standard error of the estimate.
double standard_error(const View& v);

struct Bounds {
  double lower;
  double upper;
};

// Two-sided interval around the estimate holding the true count with the
// given confidence (0 < confidence < 1), never below what the sketch proves.
Bounds bounds(const View& v, double confidence);

}  // namespace sketch::hll
