// Adding values to working sketches and converting between encodings.
#include <algorithm>

#include "core/hll/hll.h"
#include "core/hll/hll_internal.h"
#include "core/hll/hll_register_max.h"

namespace sketch::hll {

using namespace detail;

namespace detail {

// Linear probing keyed by the sparse index. The index is the top 26 bits of
// the hash, so its low bits are already uniformly spread over the slots.
SetInsert set_insert(uint8_t* sketch, uint32_t entry) {
  const uint32_t capacity = load_le32(sketch + kCapacityOffset);
  uint8_t* slots = sketch + kSetSlotsOffset;
  const uint32_t mask = capacity - 1;
  const uint32_t idx = entry_index(entry);
  // At most `capacity` probes: a valid set always has an empty slot (load
  // factor <= 3/4), but a corrupt one (count below its real entries; parse in
  // kStructure mode does not scan the slots) may not, and must not hang.
  uint32_t s = idx & mask;
  for (uint32_t probes = 0; probes < capacity; probes++, s = (s + 1) & mask) {
    const uint32_t current = load_le32(slots + 4 * s);
    if (current == 0) {
      const uint32_t count = load_le32(sketch + kCountOffset);
      if (count + 1 > max_sparse_entries(precision_of(sketch))) return SetInsert::kAtLimit;
      if (uint64_t{count + 1} * 4 > uint64_t{capacity} * 3) return SetInsert::kFull;
      store_le32(slots + 4 * s, entry);
      store_le32(sketch + kCountOffset, count + 1);
      return SetInsert::kDone;
    }
    if (entry_index(current) == idx) {
      if (entry_rank(entry) > entry_rank(current)) store_le32(slots + 4 * s, entry);
      return SetInsert::kDone;
    }
  }
  return SetInsert::kFull;
}

}  // namespace detail

AddOutcome add_hash(uint8_t* sketch, uint64_t hash) {
  const int p = precision_of(sketch);
  if (encoding_of(sketch) == Encoding::kDense) {
    raise_register(sketch + kRegistersOffset, hash >> (64 - p), rank_after(hash, p));
    return AddOutcome::kDone;
  }
  switch (set_insert(sketch, entry_from_hash(hash))) {
    case SetInsert::kDone: return AddOutcome::kDone;
    case SetInsert::kFull: return AddOutcome::kNeedsGrowth;
    case SetInsert::kAtLimit: return AddOutcome::kNeedsDense;
  }
  return AddOutcome::kDone;
}

uint32_t grown_capacity(const View& set) { return set.capacity * 2; }

void write_set(const View& src, uint32_t capacity, uint8_t* dst) {
  write_set_fixed(dst, src.p, capacity, element_kind_of(src.body - kHeaderSize));
  for_each_entry(src, [&](uint32_t entry) { set_insert(dst, entry); });
}

namespace detail {

void merge_into_dense(uint8_t* regs, int p, const View& src) {
  if (src.encoding == Encoding::kDense && src.p == p) {
    // The hot loop of every dense union: packed, SIMD (hll_register_max.h).
    max_packed_registers(regs, src.body, register_count(p) / 4);
    return;
  }
  if (src.encoding == Encoding::kDense) {
    const size_t m_src = register_count(src.p);
    for (size_t i = 0; i < m_src; i++) {
      const int rank = get_register(src.body, i);
      if (rank == 0) continue;
      const Register r = fold(static_cast<uint32_t>(i), rank, src.p, p);
      raise_register(regs, r.index, r.rank);
    }
    return;
  }
  for_each_entry(src, [&](uint32_t entry) {
    const Register r = fold(entry_index(entry), entry_rank(entry), kSparsePrecision, p);
    raise_register(regs, r.index, r.rank);
  });
}

bool contains_index(const View& v, uint32_t idx) {
  if (v.encoding == Encoding::kSparse) {
    const uint8_t* entries = v.body + 4;
    uint32_t lo = 0, hi = v.count;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      const uint32_t at = entry_index(load_le32(entries + 4 * mid));
      if (at == idx) return true;
      if (at < idx) lo = mid + 1; else hi = mid;
    }
    return false;
  }
  const uint8_t* slots = v.body + 8;
  const uint32_t mask = v.capacity - 1;
  uint32_t s = idx & mask;
  for (uint32_t probes = 0; probes < v.capacity; probes++, s = (s + 1) & mask) {  // see set_insert
    const uint32_t current = load_le32(slots + 4 * s);
    if (current == 0) return false;
    if (entry_index(current) == idx) return true;
  }
  return false;
}

}  // namespace detail

void write_dense(const View& src, int p, uint8_t* dst) {
  write_hll_header(dst, p, Encoding::kDense, element_kind_of(src.body - kHeaderSize));
  uint8_t* regs = dst + kRegistersOffset;
  std::fill(regs, regs + register_count(p) * 3 / 4, uint8_t{0});
  merge_into_dense(regs, p, src);
}

}  // namespace sketch::hll
