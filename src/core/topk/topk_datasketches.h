// Apache DataSketches' frequent items sketches (ItemsSketch<String>,
// LongsSketch, frequent_items_sketch<T> of the C++ library), read into topk
// summaries by topk_from_datasketches.
//
// The serialized form (serial version 1, family id 10), little-endian:
//
//   0   1   preamble longs: 1 (empty) or 4
//   1   1   serial version, 1
//   2   1   family id, 10
//   3   1   lg_max_map_size (3..31)
//   4   1   lg_cur_map_size (3..lg_max_map_size)
//   5   1   flags: bit 0 or bit 2 marks an empty sketch (the libraries
//           write 5)
//   6   2   unused
//  (preamble longs 4 only:)
//   8   4   n, the active items (at most 3/4 of 2^lg_cur_map_size)
//   12  4   unused
//   16  8   the stream weight N
//   24  8   the offset: the sketch's one maximum error Δ
//   32  8n  the items' counters, LE u64
//   ..      the items: longs as 8 LE bytes each; strings as a u32 length
//           and that many UTF-8 bytes each
//
// A counter c is a lower bound of its item's true count f, and c + Δ an
// upper bound: exactly topk's model (core/topk/topk.h: c <= f <= c + Δ),
// so an imported summary answers topk_estimate with the library's
// get_estimate/get_lower_bound/get_upper_bound. The libraries purge by a
// sampled median, so Δ is at most about 3.5·N/2^lg_max_map_size rather
// than topk's N/(k+1): the per-item bounds hold, the summary's error_bound
// may be below its Δ.
//
// Nothing in the bytes says whether the items are longs or strings. The
// reader takes them for strings when their lengths chain exactly to the
// end and every string is valid UTF-8 without NUL, else for longs when the
// size is exactly that of n longs; anything else is malformed. A sketch of
// longs read as strings needs its 8n bytes to spell n length-prefixed
// strings of non-NUL bytes, which the longs a library writes never do in
// practice (and an ambiguous sketch can be recognised by its caller).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/element_kind.h"
#include "core/common/status.h"

namespace sketch::topk::datasketches {

constexpr uint8_t kFamilyId = 10;
constexpr uint8_t kSerialVersion = 1;
constexpr int kMinLgMapSize = 3;
constexpr int kMaxLgMapSize = 31;

enum class ItemType : uint8_t { kLong, kString };

struct FrequentView {
  bool empty;
  int lg_max_map_size;
  int lg_cur_map_size;
  ItemType type;       // kLong for an empty sketch (it holds no items)
  uint32_t count;      // active items
  uint64_t total;      // N
  uint64_t max_error;  // Δ, the offset
  const uint8_t* counters;  // count LE u64
  const uint8_t* items;     // the items' bytes
  size_t items_len;
};

// kInvalidFormat naming what is wrong; every later read stays inside
// [data, data + len). Checks: the preamble, lengths, counters >= 1 with
// Σ c + Δ <= N (what the libraries' purges keep), and the items.
Status parse_frequent(const uint8_t* data, size_t len, FrequentView* out);

// The largest number of items a library's map of 2^lg_max_map_size holds
// (its load factor 3/4): the k a topk summary of the sketch needs.
uint64_t max_items(const FrequentView& v);

struct FrequentItem {
  uint64_t counter;
  int64_t long_value;     // kLong
  const uint8_t* text;    // kString: UTF-8, into the view's bytes
  uint32_t len;
};

// Walks the items in their serialized order. `cursor` starts at 0 and is
// advanced past item i (strings are variable-length).
FrequentItem frequent_item(const FrequentView& v, uint32_t i, size_t* cursor);

// --- the topk summary of a sketch -------------------------------------------

// The k of the summary: max_items, at most topk's kMaxK. kInvalidParameter
// when the sketch holds more items than that (a map past 2^16 slots).
Status import_k(const FrequentView& v, uint32_t* k);

// One item as topk holds it: the hash of its canonical encoding (the
// caller's: core/common/hash.h over what element_hash gives the SQL value)
// and its text, already clipped at kMaxItemBytes.
struct ImportItem {
  uint64_t hash;
  uint64_t counter;
  const uint8_t* text;
  uint32_t len;
  bool clipped;
};

size_t imported_size(const ImportItem* items, uint32_t n);

// The stored summary (records sorted by hash) of n <= k items with N and Δ,
// of element kind `kind`. kInvalidFormat when two items share a hash (an
// item held twice). `items` is not changed.
Status write_imported(uint32_t k, ElementKind kind, uint64_t total, uint64_t max_error,
                      const ImportItem* items, uint32_t n, uint8_t* dst);

}  // namespace sketch::topk::datasketches
