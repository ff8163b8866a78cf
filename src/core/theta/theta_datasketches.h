// Apache DataSketches' compact theta sketches, read by
// theta_from_datasketches and written by theta_to_datasketches.
//
// The libraries keep h = h1 >> 1 of MurmurHash3 x64 128 (seed 9001) of a
// value, 63 bits, exactly as this extension's theta keeps hash >> 1 of its
// own hash: an imported sketch is a theta of hash identity 3
// (header.h kDatasketchesIdentity, element kind kDatasketchesImported) whose
// entries are the library's, so estimates, unions, intersections,
// differences and Jaccard apply unchanged among such sketches, and a sketch
// of identity 1 (xxh3) never combines with one (check_combinable).
//
// Their θ of exact mode is 2^63 - 1 (Long.MAX_VALUE), ours 2^63: the only
// value they differ on. Serialized forms, little-endian, family id 3
// (compact; 2 is an update sketch, refused: serialize its compact form):
//
//   byte 0  preamble longs   1 empty or one entry, 2 exact, 3 estimation
//                            (v4: 1 exact, 2 estimation)
//   byte 1  serial version   1, 2, 3 or 4
//   byte 2  family id        3
//   byte 3  v4: entry bits (1..64); else lg sizes of an update sketch, 0
//   byte 4  v4: bytes of the entry count (1..4)
//   byte 5  flags: 1 big-endian (refused), 2 read-only, 4 empty, 8 compact,
//           16 ordered, 32 single item
//   6..7    seed hash (not in v1): 0x93CC for the seed 9001; an empty
//           sketch may hold 0 (the Java library writes that)
//   v1..v3, preamble longs >= 2: 8..11 the entry count, 12..15 unused
//           (v1: a float p); preamble longs 3: 16..23 θ. The entries (8
//           bytes each) follow the preamble.
//   v1      always 3 preamble longs, no flags or seed hash: empty when it
//           holds nothing at θ = 2^63 - 1.
//   v4      (compressed) preamble longs 2: 8..15 θ; then the count in its
//           bytes, then the deltas between successive entries (the first
//           from 0), each in `entry bits` bits, packed most significant
//           bit first. The libraries write v3 for a sketch with no entries
//           or one entry in exact mode.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/status.h"
#include "core/theta/theta.h"

namespace sketch::theta::datasketches {

constexpr uint8_t kCompactFamilyId = 3;
constexpr uint8_t kUpdateFamilyId = 2;
constexpr uint64_t kLibraryThetaExact = 0x7fffffffffffffffULL;
// The lg_k an import takes: the libraries' default (4096 nominal entries),
// or the smallest larger one that holds every entry.
constexpr int kImportLgK = 12;

struct CompactView {
  uint8_t serial_version;  // 1..4
  bool empty;
  bool ordered;
  uint16_t seed_hash;   // 0 in v1
  uint64_t theta;       // the library's: kLibraryThetaExact in exact mode
  uint32_t count;
  uint8_t entry_bits;   // v4 only
  const uint8_t* entries;  // count LE u64 (v1..v3), the packed deltas (v4)
  size_t entries_len;
};

// kInvalidFormat naming what is wrong (a wrong seed hash too);
// kInvalidParameter for what is valid but not read here (an update sketch).
// Reads only [data, data + len); the entries themselves are checked by
// write_imported.
Status parse_compact(const uint8_t* data, size_t len, CompactView* out);

// The lg_k of the import (kImportLgK, or more for more entries);
// kInvalidParameter past kMaxLgK.
Status import_lg_k(const CompactView& v, int* lg_k);

// The smallest lg_k from `lg_k` up (at most kMaxLgK) whose k holds `count`
// entries: where a library sketch of that many entries is stored.
int lg_k_holding(int lg_k, uint64_t count);

// The stored theta of identity 3 (kind kDatasketchesImported) at lg_k,
// stored_size(v.count) bytes: θ mapped to ours, the entries decoded, sorted
// when the sketch is not ordered, and refused (kInvalidFormat) unless they
// are nonzero, distinct and below θ.
Status write_imported(const CompactView& v, int lg_k, uint8_t* dst);

// The library's bytes of a stored sketch of identity 3: serial version 3,
// or 4 when `compressed` (and the sketch has more than one entry or is in
// estimation mode, as the libraries do), byte for byte what the C++
// library's serialize() / serialize_compressed() write for the same set.
size_t compact_size(const View& v, bool compressed);
void write_compact(const View& v, bool compressed, uint8_t* dst);

// --- building: the libraries' update sketch ------------------------------
//
// theta_datasketches_agg and theta_datasketches_add build what the
// libraries' default update sketch (QuickSelect, p = 1, nominal k =
// 2^lg_k) holds after the same updates. Its table of 2k slots rebuilds once
// an insert takes it past 15/16 of them (after 15k/8 + 1 entries): θ becomes
// the (k+1)-th smallest of the entries, the k below it stay. Smaller tables
// before it only resize, which moves entries but keeps every one, so only
// that rule decides what is kept; an identity-3 working state follows it
// (detail::load_limit, detail::insert). compact() of the update sketch keeps
// every entry (k to 15k/8 of them in estimation mode, up to 15k/8 in exact
// mode), so its stored form is untrimmed, at the lg_k that holds them, as
// an import of the library's bytes is: the same entries, θ and lg_k.

// The hash a working state of identity 3 takes for a value whose
// MurmurHash3 is h1:h2 (the sketch keeps h1 >> 1). 0, which is skipped,
// where the libraries skip it: h1 >> 1 = 2^63 - 1 is not below their θ of
// exact mode (our 2^63).
uint64_t update_hash(uint64_t h1);

// A new working state of identity 3 at lg_k (new_working_size bytes).
void write_new_update(int lg_k, uint8_t* dst);

// The stored form of a view of identity 3 as compact() of the update sketch
// writes it: every entry and θ as they are, at lg_k_holding(v.lg_k,
// v.count); trimmed to the k smallest only past kMaxLgK's k.
size_t update_stored_size(const View& v);
void write_update_stored(const View& v, uint8_t* dst);

}  // namespace sketch::theta::datasketches
