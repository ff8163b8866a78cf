// Apache DataSketches' compact KLL sketches, read by kll_from_datasketches
// and written by kll_to_datasketches.
//
// The libraries' KLL has this kll's layout (kll.h): levels 0..L-1, level h
// of weight 2^h, capacity max(m, round(k (2/3)^depth)) per level with m = 8,
// one item array of the summed capacities with the free slots before level
// 0, exact n, min and max. An import is therefore the library's own items
// at their own levels, with its k, n, min and max: every quantile, rank, cdf
// and pmf answers from the same weighted items as the library's sorted view.
// The item type is not in the bytes (a double and a long are both 8 bytes),
// so the caller names it:
//
//   double  -> a kll of double precision (element kind kFloat)
//   float   -> a kll of double precision: every float widens exactly
//   long    -> a kll of bigint (element kind kNumber)
//
// Serialized form (compact; little-endian):
//
//   byte 0     preamble ints: 2 (empty, single item) or 5
//   byte 1     serial version: 1 (empty or full), 2 (single item); 3 is
//              the Java library's updatable form (refused: kUnsupported)
//   byte 2     family id 15
//   byte 3     flags: 1 empty, 2 level zero sorted, 4 single item (old Java
//              writes a single item without it: serial version 2 says so)
//   byte 4-5   k (m..65535)
//   byte 6     m, 8 (the only value the libraries' defaults use)
//   byte 7     0
//   empty:     nothing more
//   single:    byte 8- the item
//   full:      byte 8-15 n; 16-17 min_k; 18 L; 19 0; then L uint32 level
//              offsets into the item array of total_capacity(k, L) slots
//              (the end, that total, is not written); then min, max and the
//              items from level 0's offset to the end.
//
// The libraries keep level 0 unsorted (newest first: an ascending stream
// leaves it descending) and every higher level ascending. The export writes
// level 0 descending, so that a sketch still exact after an ascending stream
// is byte for byte the library's for that stream, and leaves the sorted flag
// clear, as the libraries do.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/status.h"
#include "core/kll/kll.h"

namespace sketch::kll::datasketches {

constexpr uint8_t kFamilyId = 15;
constexpr uint8_t kM = 8;

enum class ItemType : uint8_t { kDouble, kFloat, kLong };

// The item type named "double", "float" or "long" (any case; name holds len
// bytes, not terminated); false for anything else.
bool item_type_of(const char* name, size_t len, ItemType* out);
const char* item_type_name(ItemType type);
size_t item_size(ItemType type);
// The element kind an import of `type` takes.
ElementKind kind_of(ItemType type);

struct CompactView {
  ItemType type = ItemType::kDouble;
  bool empty = false;
  bool level_zero_sorted = false;
  uint32_t k = 0;
  uint64_t n = 0;
  uint32_t levels = 0;     // L (1 for a single item)
  uint32_t capacity = 0;   // the library's item slots, total_capacity(k, L)
  const uint8_t* offsets = nullptr;  // L uint32; nullptr for a single item
  const uint8_t* min_item = nullptr;  // nullptr for a single item
  const uint8_t* max_item = nullptr;
  const uint8_t* items = nullptr;     // retained() items of item_size bytes

  // Level h's start in the library's item array (h = L: capacity).
  uint32_t offset(uint32_t h) const;
  uint32_t retained() const { return capacity - offset(0); }
};

// The preamble and the level structure: kInvalidFormat naming what is wrong
// (a wrong family, flags, m, k, level offsets out of order, a length that
// is not the items', n not the sum of the levels' weights); kUnsupported for
// valid forms not read here (updatable, merged from a smaller k). Reads
// only [data, data + len); the items are checked by write_imported.
Status parse_compact(const uint8_t* data, size_t len, ItemType type, CompactView* out);

// The stored kll of the import: imported_size(v) bytes, refused
// (kInvalidFormat) for a NaN, a level above 0 out of order (or level 0
// when flagged sorted), an item outside [min, max], or a min or max that is
// not the items' own while the sketch is exact.
size_t imported_size(const CompactView& v);
Status write_imported(const CompactView& v, uint8_t* dst);

// The item type a sketch exports as by default: long for bigint, double
// for double precision (and for an empty sketch).
ItemType default_item_type(const View& v);
// kUnsupported for timestamps and dates (the libraries have no such
// sketch); kInvalidParameter when `type` is not the sketch's (long for
// bigint; double or float for double precision, float only when every value
// kept is a float exactly).
Status check_exportable(const View& v, ItemType type);
size_t compact_size(const View& v, ItemType type);
void write_compact(const View& v, ItemType type, uint8_t* dst);

}  // namespace sketch::kll::datasketches
