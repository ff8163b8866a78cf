// Register and entry arithmetic shared by the hll_*.cpp files (not public).
#pragma once

#include <cstdint>

#include "core/common/bytes.h"
#include "core/hll/hll.h"

namespace sketch::hll::detail {

// --- sparse entries: (idx << 6 | rho) at kSparsePrecision -----------------

inline uint32_t entry_index(uint32_t entry) { return entry >> 6; }
inline int entry_rank(uint32_t entry) { return static_cast<int>(entry & 63); }
inline uint32_t make_entry(uint32_t idx, int rho) {
  return idx << 6 | static_cast<uint32_t>(rho);
}

// The rank of a hash after its top `bits` bits are used as the index: one
// plus the leading zeros of the rest, capped at 64 - bits + 1 when the rest is
// all zeros.
inline int rank_after(uint64_t hash, int bits) {
  const uint64_t rest = hash << bits;
  return rest == 0 ? 64 - bits + 1 : __builtin_clzll(rest) + 1;
}

inline uint32_t entry_from_hash(uint64_t hash) {
  return make_entry(static_cast<uint32_t>(hash >> (64 - kSparsePrecision)),
                    rank_after(hash, kSparsePrecision));
}

// Lowering the precision of a (index, rank) pair from `from` bits to `to`
// bits. The `from - to` low index bits are the bits right after the new
// index in the original hash: if any is set, the rank is decided by them;
// otherwise those bits were all zeros and add to the old rank. Either way the
// result equals what direct insertion at `to` bits would have produced.
struct Register {
  uint32_t index;
  int rank;
};

inline Register fold(uint32_t index, int rank, int from, int to) {
  const int dropped = from - to;
  if (dropped == 0) return {index, rank};
  const uint32_t low = index & ((uint32_t{1} << dropped) - 1);
  if (low != 0) {
    const int bit_length = 32 - __builtin_clz(low);
    return {index >> dropped, dropped - bit_length + 1};
  }
  return {index >> dropped, dropped + rank};
}

// --- dense registers: 6 bits each, little-endian bit order ---------------
//
// Register i occupies bits [6i, 6i + 6) of the little-endian bit stream, so
// every 4 registers fill exactly 3 bytes. Reading the whole 3-byte group
// avoids a data-dependent branch on whether a register straddles two bytes
// and never touches a byte outside the array.

inline uint32_t load_group(const uint8_t* regs, size_t i) {
  const uint8_t* g = regs + (i >> 2) * 3;
  return uint32_t{g[0]} | uint32_t{g[1]} << 8 | uint32_t{g[2]} << 16;
}

inline int get_register(const uint8_t* regs, size_t i) {
  return static_cast<int>((load_group(regs, i) >> ((i & 3) * 6)) & 63);
}

inline void raise_register(uint8_t* regs, size_t i, int rank) {
  const unsigned shift = (i & 3) * 6;
  uint32_t word = load_group(regs, i);
  if (static_cast<int>((word >> shift) & 63) >= rank) return;
  word = (word & ~(uint32_t{63} << shift)) | (static_cast<uint32_t>(rank) << shift);
  uint8_t* g = regs + (i >> 2) * 3;
  g[0] = static_cast<uint8_t>(word);
  g[1] = static_cast<uint8_t>(word >> 8);
  g[2] = static_cast<uint8_t>(word >> 16);
}

// --- layout accessors ------------------------------------------------------

constexpr size_t kCountOffset = kHeaderSize;         // sparse and set
constexpr size_t kCapacityOffset = kHeaderSize + 4;  // set
constexpr size_t kSparseEntriesOffset = kHeaderSize + 4;
constexpr size_t kSetSlotsOffset = kHeaderSize + 8;
constexpr size_t kRegistersOffset = kHeaderSize;

inline int precision_of(const uint8_t* sketch) { return sketch[5]; }
inline Encoding encoding_of(const uint8_t* sketch) { return static_cast<Encoding>(sketch[6]); }

void write_hll_header(uint8_t* dst, int p, Encoding encoding, ElementKind kind);

// An empty sparse set of `capacity` slots holding values of `kind`.
void write_set_fixed(uint8_t* dst, int p, uint32_t capacity, ElementKind kind);

// Calls f(entry) for every entry of a sparse or set view.
template <class F>
void for_each_entry(const View& v, F&& f) {
  if (v.encoding == Encoding::kSparse) {
    const uint8_t* e = v.body + 4;
    for (uint32_t i = 0; i < v.count; i++) f(load_le32(e + 4 * i));
  } else {
    const uint8_t* s = v.body + 8;
    for (uint32_t i = 0; i < v.capacity; i++) {
      const uint32_t entry = load_le32(s + 4 * i);
      if (entry != 0) f(entry);
    }
  }
}

enum class SetInsert { kDone, kFull, kAtLimit };

// Inserts an entry into a working set in place, keeping the larger rank when
// the index is already present. kFull: no room at load factor 3/4; kAtLimit:
// the set already holds max_sparse_entries for its precision.
SetInsert set_insert(uint8_t* sketch, uint32_t entry);

// Merges every entry or register of src (precision >= p) into dense
// registers of precision p.
void merge_into_dense(uint8_t* regs, int p, const View& src);

// Ertl's improved raw estimator over a register histogram: m registers,
// histogram[0..q + 1], where q + 1 is the saturated value (a register that
// cannot tell larger ranks apart).
double ertl_estimate(const uint32_t* histogram, size_t m, int q);

// True if a sparse or set view holds an entry with this sparse index.
bool contains_index(const View& v, uint32_t idx);

}  // namespace sketch::hll::detail
