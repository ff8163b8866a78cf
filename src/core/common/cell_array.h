// The cell array under bloom (1-bit cells) and counting_bloom (4-bit
// counters): one layout, one body check, one word-wise combine.
//
// Both formats are the common header, the cell count m (uint64 LE at byte
// 8) and ceil(m / cells-per-word) 64-bit little-endian words from byte 16;
// cell j sits at bits kCellBits*(j % per-word).. of word j / per-word, and
// the padding cells past m in the last word are zero, so that equal sets
// give equal bytes. A working state (aggregates only) appends the prefetch
// queue (prefetch_queue.h). What differs between the two families -- the
// header's parameter bytes, the element kinds, the limits on m, the cell
// arithmetic -- stays with each family.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/bytes.h"
#include "core/common/header.h"
#include "core/common/prefetch_queue.h"
#include "core/common/status.h"

namespace sketch::cell_array {

constexpr size_t kCellCountOffset = kHeaderSize;
constexpr size_t kCellsOffset = kHeaderSize + 8;

template <unsigned kCellBits>
struct Geometry {
  static_assert(kCellBits == 1 || kCellBits == 2 || kCellBits == 4 || kCellBits == 8,
                "cells tile a 64-bit word");
  static constexpr uint64_t kCellsPerWord = 64 / kCellBits;

  static constexpr uint64_t word_count(uint64_t cells) {
    return (cells + kCellsPerWord - 1) / kCellsPerWord;
  }
  // Bytes of a stored array of `cells` cells, header included.
  static constexpr size_t filter_size(uint64_t cells) {
    return kCellsOffset + 8 * static_cast<size_t>(word_count(cells));
  }
  // Bytes of a working state: the stored layout, then the queue.
  static constexpr size_t working_size(uint64_t cells) {
    return filter_size(cells) + prefetch_queue::kBytes;
  }
  static uint8_t* queue_of(uint8_t* data, uint64_t cells) { return data + filter_size(cells); }
  static const uint8_t* queue_of(const uint8_t* data, uint64_t cells) {
    return data + filter_size(cells);
  }
  // Whether the cells past `cells` in the last word are zero; `data` holds
  // at least filter_size(cells) bytes.
  static bool padding_is_zero(const uint8_t* data, uint64_t cells) {
    const uint64_t used = cells % kCellsPerWord;
    return used == 0 || (load_le64(data + filter_size(cells) - 8) >> (kCellBits * used)) == 0;
  }
};

// What is wrong with the part after the cell count, if anything.
enum class BodyProblem { kNone, kLength, kPadding, kQueue };

// Checks the length against m and the encoding, the padding cells and a
// working state's queue, in constant time. `cells` must already be within
// the family's limits (so the sizes cannot overflow). *pending: the hashes
// queued (0 for a stored array). Inline: is_working runs it on every row.
template <unsigned kCellBits>
inline BodyProblem check_body(const uint8_t* data, size_t len, uint64_t cells, bool working,
                              uint32_t* pending) {
  using G = Geometry<kCellBits>;
  *pending = 0;
  if (len != (working ? G::working_size(cells) : G::filter_size(cells))) return BodyProblem::kLength;
  if (!G::padding_is_zero(data, cells)) return BodyProblem::kPadding;
  if (working && !prefetch_queue::parse(G::queue_of(data, cells), pending))
    return BodyProblem::kQueue;
  return BodyProblem::kNone;
}

// The parse error of a problem check_body found (not kNone), in the words
// both families have always used: "invalid <family> data: <m> <cell>s need
// <n> bytes, got <len>", "... padding <cell>s past <cell> <m> are not zero",
// "... inconsistent queue". `expected` is the size check_body wanted.
Status body_error(BodyProblem problem, const char* family, const char* cell, uint64_t cells,
                  size_t expected, size_t len);

// a[i] = op(a[i], b[i]) over `words` little-endian 64-bit words: the
// union (OR, saturating sum) and intersection (AND) of two arrays of one
// shape. On a little-endian host the loads and stores are plain moves.
template <class Op>
inline void combine_words(uint8_t* a, const uint8_t* b, uint64_t words, Op op) {
  for (uint64_t i = 0; i < words; i++)
    store_le64(a + 8 * i, op(load_le64(a + 8 * i), load_le64(b + 8 * i)));
}

// The parameters two arrays must share to combine.
struct Shape {
  uint64_t cells;  // m
  int hashes;      // k
  uint8_t hash_identity;
};

// kMismatch unless a and b have one shape, naming both parameter sets (and
// the hash identities when they differ): "cannot combine <what> with
// different parameters: (m=.., k=..) and (m=.., k=..)".
Status check_same_shape(const char* what, const Shape& a, const Shape& b);

}  // namespace sketch::cell_array
