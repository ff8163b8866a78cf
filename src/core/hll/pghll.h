// postgresql-hll's sketches inside this project's hll: hash identity 2.
//
// postgresql-hll (the peer) hashes a value with MurmurHash3 x64 128 (its
// first half, core/common/murmur3.h) and files the 64-bit hash h under
// register h & (m - 1), the *low* log2m bits, with the value
// 1 + ctz(h >> log2m) (0 when those bits are all zero), capped at
// 2^regwidth - 1. That is neither this project's hash (XXH3) nor its
// convention (top bits, leading zeros), so such sketches carry their own
// hash identity (header byte 4 = 2) with the peer's parameters, and never
// merge with identity 1 sketches (plan_merge refuses, naming both).
//
// The peer's storage format v1 (its storage specification, read, not copied):
//   byte 0  version 1 in the high nibble, the type in the low one
//           (0 UNDEFINED, 1 EMPTY, 2 EXPLICIT, 3 SPARSE, 4 FULL)
//   byte 1  (regwidth - 1) << 5 | log2m
//   byte 2  sparseon << 6 | cutoff code (0: no EXPLICIT, 63: auto,
//           k: EXPLICIT up to 2^(k-1) hashes)
//   data    EXPLICIT: sorted (signed) big-endian int64 hashes;
//           SPARSE: (log2m + regwidth)-bit words index << regwidth | value,
//           ascending index, packed from the high bit of the first byte;
//           FULL: m regwidth-bit registers packed the same way.
//
// Our two encodings of identity 2 (header byte 5 = log2m, byte 6 = encoding):
//   kPghll         stored: int32 seed (LE), then the peer's bytes exactly as
//                  the peer writes them for this content (the representation
//                  it would choose, see write_peer), so export is a copy and
//                  `=` stays a byte comparison.
//   kPghllWorking  aggregate states only: int32 seed, the peer's parameter
//                  and cutoff bytes, phase (0 explicit, 1 registers), 0,
//                  uint32 count, uint32 capacity, then `capacity` uint64 LE
//                  hashes (explicit, the first `count` used, unordered) or m
//                  one-byte registers, so an add is O(1) on registers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/header.h"
#include "core/common/status.h"
#include "core/common/validation.h"
#include "core/hll/hll.h"

namespace sketch::hll::pghll {

constexpr uint8_t kIdentity = kPostgresqlHllIdentity;
// The peer's own limits (what its hll_empty and hll_add_agg accept): log2m up
// to 17 (its register buffer), expthresh -1, 0 or a power of two up to 8192.
constexpr int kMinLog2m = 4;
constexpr int kMaxLog2m = 17;
constexpr int kMinRegwidth = 1;
constexpr int kMaxRegwidth = 8;   // the format's limit; the peer writes up to 7
constexpr int kMaxCutoffCode = 14;  // 2^13 = 8192 explicit hashes
constexpr int kAutoCutoff = 63;
constexpr size_t kPeerHeaderSize = 3;
constexpr size_t kSeedSize = 4;
constexpr size_t kWorkingHeaderSize = kHeaderSize + 16;

enum class PeerType : uint8_t { kUndefined = 0, kEmpty = 1, kExplicit = 2, kSparse = 3, kFull = 4 };

const char* peer_type_name(PeerType type);

// The parameters that make a sketch reproducible exactly, as the peer takes
// them (its typmod and hll_add_agg arguments) plus the hash seed.
struct Params {
  int32_t seed;
  int log2m;
  int regwidth;
  int cutoff;   // the cutoff code of byte 2
  bool sparse;  // sparseon

  uint8_t parameter_byte() const;
  uint8_t cutoff_byte() const;
  // expthresh as the peer shows it: -1 (auto), 0, or 2^(cutoff - 1).
  int64_t expthresh() const;
  // The most hashes an EXPLICIT holds (auto: the peer's rule, one eighth of
  // the FULL bytes, at most 16384).
  uint32_t explicit_limit() const;
  // The largest register value: 2^regwidth - 1, and no more than a 64-bit
  // hash can give (64 - log2m).
  int register_max() const {
    const int width_max = (1 << regwidth) - 1;
    const int hash_max = 64 - log2m;
    return width_max < hash_max ? width_max : hash_max;
  }
};

bool same_params(const Params& a, const Params& b);

// The peer's argument checks (hll_empty, hll_add_agg): 22023 with the range.
Status make_params(int log2m, int regwidth, int64_t expthresh, int sparseon, int32_t seed,
                   Params* out);

// The register a 64-bit hash updates and its value, as the peer computes it.
// Inline: it runs once per added value (and per draw of the accuracy test's
// generator, test/interop/postgresql_hll/accuracy_registers.cpp).
struct Register {
  uint32_t index;
  int value;
};
inline Register register_of(uint64_t hash, const Params& params) {
  const uint32_t index = static_cast<uint32_t>(hash & ((uint64_t{1} << params.log2m) - 1));
  const uint64_t rest = hash >> params.log2m;
  int value = rest == 0 ? 0 : __builtin_ctzll(rest) + 1;
  if (value > params.register_max()) value = params.register_max();
  return Register{index, value};
}

// --- the peer's bytes ------------------------------------------------------

struct PeerView {
  Params params;
  PeerType type;
  const uint8_t* data;  // after the 3 header bytes
  size_t data_len;
  uint32_t count;       // EXPLICIT hashes, SPARSE words (0 for EMPTY, FULL)
};

// Validates every byte: version, type (UNDEFINED: kInvalidParameter, it
// holds no set), parameter ranges, lengths, order, register values, padding.
// Accepts every representation the peer can write, also one it would not
// choose for the content (a FULL with few registers).
Status parse_peer(const uint8_t* bytes, size_t len, int32_t seed, PeerView* out);

// True when the representation is the one write_peer would choose.
bool peer_is_canonical(const PeerView& v);

// --- our encodings of identity 2 ------------------------------------------

// Called by hll::parse for header byte 4 = 2.
Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

Params params_of(const View& v);

// The peer's bytes of a stored (kPghll) view: what hll_to_postgresql_hll returns.
const uint8_t* peer_bytes(const View& v, size_t* len);

// A working state from the peer's bytes (import) or an empty one.
size_t working_size_of(const PeerView& p);
void write_working_of(const PeerView& p, ElementKind kind, uint8_t* dst);
size_t empty_working_size();
void write_empty_working(const Params& params, uint8_t* dst);

// O(1) check that a buffer is a working state safe to update in place.
bool is_working(const uint8_t* data, size_t len);
size_t working_size(const View& v);
void write_working(const View& v, uint8_t* dst);
size_t stored_size(const View& v);
void write_stored(const View& v, uint8_t* dst);

// Adding one hash to a working state in place (kDone), or what it needs.
AddOutcome add(uint8_t* state, uint64_t hash);
size_t growth_size(const View& v, AddOutcome outcome);
void grow(const View& v, AddOutcome outcome, uint8_t* dst);

// a ∪ b, both identity 2 with the same parameters (else kMismatch naming
// both); the result is a new working state of `*size` bytes, explicit with
// `*explicit_count` hashes or (kRegistersResult) registers.
constexpr uint32_t kRegistersResult = UINT32_MAX;
Status plan_merge(const View& a, const View& b, size_t* size, uint32_t* explicit_count);
void merge(const View& a, const View& b, uint8_t* dst, uint32_t explicit_count);

// What the representation would be if exported now.
PeerType representation(const View& v);
// EXPLICIT: hashes held; registers: the non-zero ones.
uint32_t filled(const View& v);
bool is_exact(const View& v);

// This project's estimator on the peer's registers (Ertl's improved raw
// estimator for registers of regwidth bits); EXPLICIT: the exact count.
double estimate(const View& v);

}  // namespace sketch::hll::pghll
