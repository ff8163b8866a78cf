// Byte layout and helpers shared by the theta_*.cpp files (not public).
//
// Both encodings, all integers little-endian:
//
//   0   8   common header: kind theta, version 1, hash identity (1, or 3
//           for DataSketches' hashes: theta_datasketches.h),
//           param[0] = lg_k (4..24), param[1] = encoding (1 stored,
//           2 working), byte 7 = element kind
//   8   4   count, hashes held
//   12  4   stored: reserved, 0; working: capacity, table slots
//   16  8   θ, in (0, 2^63]
//
// stored:
//   24  8·count   the hashes, strictly ascending, nonzero, below θ
//
// working:
//   24  8·capacity   the table: a slot is 0 (empty) or a hash h < θ; linear
//                    probing from h & (capacity - 1). capacity is a power of
//                    two from 16 to 2^(lg_k+1); count stays at most 3/4 of
//                    it, so every probe ends at an empty slot. There are no
//                    deletions except in rebuilds, which reinsert every
//                    survivor (see sweep_below in theta_working.cpp), so each
//                    hash lies in the run of occupied slots that starts at or
//                    before its home slot.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/bytes.h"
#include "core/common/element_kind.h"
#include "core/common/header.h"
#include "core/common/select.h"
#include "core/theta/theta.h"

namespace sketch::theta::detail {

constexpr size_t kCountOffset = 8;
constexpr size_t kReservedOffset = 12;  // stored
constexpr size_t kCapacityOffset = 12;  // working
constexpr size_t kThetaOffset = 16;
constexpr size_t kHashesOffset = 24;  // stored hashes, working slots
constexpr size_t kFixedBytes = 24;

// The table of a new state.
constexpr uint32_t kMinCapacity = 16;

inline uint32_t k_of(int lg_k) { return uint32_t{1} << lg_k; }

// The largest table: at 3/4 load it holds 3k/2 hashes, so a rebuild to the
// k smallest comes once per k/2 hashes retained.
inline uint32_t full_capacity(int lg_k) { return uint32_t{2} << lg_k; }

// The most hashes a table of `capacity` slots holds (3/4 of it).
inline uint32_t load_limit(uint32_t capacity) { return capacity / 2 + capacity / 4; }

// The same for a table of a sketch at lg_k of that hash identity: a
// full-size table of DataSketches' hashes (identity 3) holds what the
// libraries' QuickSelect table of 2k slots holds before it rebuilds, 15/16
// of it (their REBUILD_THRESHOLD), so that it rebuilds when theirs does and
// keeps the entries theirs keeps (theta_datasketches.h).
inline uint32_t load_limit(uint32_t capacity, int lg_k, uint8_t identity) {
  if (identity == kDatasketchesIdentity && capacity == full_capacity(lg_k))
    return capacity - capacity / 16;
  return load_limit(capacity);
}

inline size_t working_bytes(uint32_t capacity) { return kHashesOffset + 8 * size_t{capacity}; }

inline uint64_t hash_at(const uint8_t* s, uint32_t i) {
  return load_le64(s + kHashesOffset + 8 * size_t{i});
}
inline void set_hash(uint8_t* s, uint32_t i, uint64_t h) {
  store_le64(s + kHashesOffset + 8 * size_t{i}, h);
}

inline bool is_power_of_two(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

// The smallest table (a power of two, 16 up to the full 2k slots) with room
// for n hashes and one more.
inline uint32_t capacity_for(int lg_k, uint64_t n) {
  uint32_t capacity = kMinCapacity;
  while (capacity < full_capacity(lg_k) && n >= load_limit(capacity)) capacity *= 2;
  return capacity;
}

// The header's hash identity (byte 4) and the element kinds valid with it:
// identity 1 the recorded kinds of element_kind.h (never kUnknown), identity
// 3 the DataSketches kinds and kNone.
inline uint8_t identity_of(const uint8_t* sketch) { return sketch[4]; }
inline bool valid_identity(uint8_t identity) {
  return identity == kHashIdentity || identity == kDatasketchesIdentity;
}
inline bool valid_kind_for(uint8_t identity, uint8_t kind) {
  if (identity == kDatasketchesIdentity)
    return is_datasketches_kind(kind) || kind == static_cast<uint8_t>(ElementKind::kNone);
  return valid_recorded_element_kind(kind);
}

// is_current_header with either identity theta knows.
inline bool is_theta_header(const uint8_t* src, size_t len) {
  return len >= kHeaderSize && src[0] == kMagic0 && src[1] == kMagic1 &&
         src[2] == static_cast<uint8_t>(SketchKind::kTheta) && src[3] == kFormatVersion &&
         valid_identity(src[4]);
}

void write_theta_header(uint8_t* dst, int lg_k, Encoding encoding, ElementKind kind,
                        uint8_t identity);

// An empty working table of `capacity` slots at θ.
void write_working_empty(uint8_t* dst, int lg_k, uint32_t capacity, uint64_t theta,
                         ElementKind kind, uint8_t identity);

// Inserts h (nonzero, already shifted) into a working state unless it is
// at or above θ or already there; a full-size table at its load limit is
// rebuilt first (identity 3: h is inserted, then the table rebuilt, as the
// libraries do, so the (k+1)-th smallest is chosen among h too).
// kNeedsGrowth (nothing changed) from a smaller table at its load limit.
AddOutcome insert(uint8_t* state, uint64_t h);

// Lowers a working state's θ to `theta` (<= its θ), dropping the hashes at
// or above it; the survivors are reinserted in place.
void sweep_below(uint8_t* state, uint64_t theta);

// Calls f(h) for every hash a view holds (stored: ascending; working: in
// slot order).
template <class F>
void for_each_hash(const View& v, F f) {
  const uint32_t n = v.encoding == Encoding::kStored ? v.count : v.capacity;
  for (uint32_t i = 0; i < n; i++) {
    const uint64_t h = hash_at(v.data, i);
    if (h != 0) f(h);
  }
}

// Sorts n hashes stored at p (8 bytes each, unaligned) ascending: an
// in-place radix sort, O(n) per byte of the largest value, no scratch
// memory.
void sort_hashes(uint8_t* p, uint32_t n);

}  // namespace sketch::theta::detail
