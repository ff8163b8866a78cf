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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/common/bytes.h"
#include "core/common/header.h"
#include "core/common/prefetch_queue.h"
#include "core/common/status.h"

namespace sketch::cell_array {

constexpr size_t kCellCountOffset = kHeaderSize;
constexpr size_t kCellsOffset = kHeaderSize + 8;

// Bit 0 of param[1] (header byte 6) is the encoding in both formats: 0
// stored, 1 working, with a queue (bloom keeps its layout in bit 1).
inline bool is_queued(const uint8_t* data) { return (data[6] & 1) != 0; }

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
  // Zeroes everything after the cell count of a new array: the cells, and
  // a working state's queue.
  static void clear(uint8_t* data, uint64_t cells, bool working) {
    std::fill(data + kCellsOffset, data + (working ? working_size(cells) : filter_size(cells)),
              uint8_t{0});
  }
  // The cells of a stored array at `cells_from` copied after dst's cell count.
  static void copy_cells(uint8_t* dst, const uint8_t* cells_from, uint64_t cells) {
    std::memcpy(dst + kCellsOffset, cells_from, filter_size(cells) - kCellsOffset);
  }
  // Calls f(hash) for each hash a working state queued (none in a stored
  // array).
  template <class F>
  static void for_each_pending(const uint8_t* data, uint64_t cells, F&& f) {
    if (is_queued(data)) prefetch_queue::for_each(queue_of(data, cells), f);
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

// A family's cell-array format: its header, how it names itself in errors
// and its limits -- what its parameter checks and parser refuse, in the
// words both families have always used ("invalid bloom data: 4 bits outside
// 8..8000000000", "bloom filter hashes must be between 1 and 64, got 70").
// Header param[0] is k in both; param[1] is the family's.
struct Format {
  SketchKind kind;
  uint8_t version;
  const char* name;    // "bloom": "invalid bloom data: ..."
  const char* filter;  // "bloom filter": parameter and sizing errors
  const char* cell;    // "bit": one cell; "bits" is many
  uint64_t min_cells;
  uint64_t max_cells;           // what is built
  uint64_t max_readable_cells;  // what is read (bloom: also 0.1.0's larger filters)
  int max_hashes;
};

// The header and m of an array: k, the family's param[1] and the element
// kind (ElementKind::kNone for a new filter).
void write_header(const Format& format, uint8_t* dst, int hashes, uint8_t param1, uint64_t cells,
                  ElementKind element_kind);

// kInvalidParameter unless min_cells <= cells <= max_cells and
// 1 <= hashes <= max_hashes. Wide argument types so that any SQL value can
// be checked before it is narrowed.
Status check_params(const Format& format, int64_t cells, int64_t hashes);

// kInvalidParameter when the m planned for n values at p, `cells`, is above
// max_cells (a filter that could not be dumped as text).
Status check_buildable(const Format& format, int64_t n, double p, uint64_t cells);

// A family's size_for: its plan_size for n values at p (`plan`), refused by
// check_buildable when the m it plans (`cells`, the member of Params that
// holds m) is too large. *out is written only when the filter can be built.
template <class Params>
Status size_for(const Format& format, int64_t n, double p, Status (*plan)(int64_t, double, Params*),
                uint64_t Params::*cells, Params* out) {
  Params planned;
  Status st = plan(n, p, &planned);
  if (st.is_ok()) st = check_buildable(format, n, p, planned.*cells);
  if (st.is_ok()) *out = planned;
  return st;
}

// Parsing, in this order around the family's own checks: the common header
// and k (param[0]) within 1..max_hashes; m, which the length must reach;
// then m within min_cells..max_readable_cells and the body (check_body).
Status read_header(const Format& format, const uint8_t* data, size_t len, Header* header);
Status read_cell_count(const Format& format, const uint8_t* data, size_t len, uint64_t* cells);

// The parse error of a problem check_body found (not kNone): "invalid
// <family> data: <m> <cell>s need <n> bytes, got <len>", "... padding
// <cell>s past <cell> <m> are not zero", "... inconsistent queue".
// `expected` is the size check_body wanted.
Status body_error(BodyProblem problem, const char* family, const char* cell, uint64_t cells,
                  size_t expected, size_t len);
Status cells_out_of_range(const Format& format, uint64_t cells);

template <unsigned kCellBits>
Status check_cells(const Format& format, const uint8_t* data, size_t len, uint64_t cells,
                   bool working, uint32_t* pending) {
  using G = Geometry<kCellBits>;
  if (cells < format.min_cells || cells > format.max_readable_cells)
    return cells_out_of_range(format, cells);
  // cells is now small enough for the sizes not to overflow; nothing past
  // the cell count is read before the length is known to match.
  const BodyProblem problem = check_body<kCellBits>(data, len, cells, working, pending);
  if (problem == BodyProblem::kNone) return Status::ok();
  return body_error(problem, format.name, format.cell, cells,
                    working ? G::working_size(cells) : G::filter_size(cells), len);
}

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
