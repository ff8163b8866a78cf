// DataSketches' compact theta sketches (theta_datasketches.h).

#include "core/theta/theta_datasketches.h"

#include <cstring>

#include "core/common/datasketches_hash.h"
#include "core/theta/theta_internal.h"

namespace sketch::theta::datasketches {

using namespace theta::detail;

namespace {

constexpr uint8_t kFlagBigEndian = 1;
constexpr uint8_t kFlagReadOnly = 2;
constexpr uint8_t kFlagEmpty = 4;
constexpr uint8_t kFlagCompact = 8;
constexpr uint8_t kFlagOrdered = 16;
constexpr uint8_t kCompressedVersion = 4;

Status invalid(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid DataSketches theta sketch: %s", what);
}

Status check_seed_hash(uint16_t seed_hash, bool empty) {
  if (seed_hash == sketch::datasketches::kDefaultSeedHash) return Status::ok();
  if (empty && seed_hash == 0) return Status::ok();
  return Status::error(StatusCode::kInvalidFormat,
                       "invalid DataSketches theta sketch: seed hash 0x%04x is not 0x%04x (the "
                       "default seed 9001's): its hashes are of another seed",
                       seed_hash, sketch::datasketches::kDefaultSeedHash);
}

// Entries of 8 bytes after `offset`: exactly `count` of them.
Status plain_entries(const uint8_t* data, size_t len, size_t offset, CompactView* out) {
  if (len < offset) return invalid("truncated preamble");
  if ((len - offset) / 8 < out->count || len - offset != 8 * size_t{out->count})
    return invalid("length does not match the entry count");
  out->entries = data + offset;
  out->entries_len = len - offset;
  return Status::ok();
}

Status parse_v1(const uint8_t* data, size_t len, CompactView* out) {
  if (data[0] != 3) return invalid("a serial version 1 sketch without 3 preamble longs");
  if (len < 24) return invalid("truncated preamble");
  out->count = load_le32(data + 8);
  out->theta = load_le64(data + 16);
  out->empty = out->count == 0 && out->theta == kLibraryThetaExact;
  out->ordered = true;  // the libraries wrote v1 compact sketches ordered
  return plain_entries(data, len, 24, out);
}

// v2 and v3 share their layout; v2 has no single-entry form.
Status parse_v2_v3(const uint8_t* data, size_t len, CompactView* out) {
  const uint8_t pre_longs = data[0];
  const uint8_t flags = data[5];
  out->seed_hash = static_cast<uint16_t>(data[6] | (data[7] << 8));
  out->ordered = (flags & kFlagOrdered) != 0;
  out->theta = kLibraryThetaExact;
  if ((flags & kFlagCompact) == 0 && out->serial_version == 3)
    return invalid("not a compact sketch (the compact flag is not set)");
  if (pre_longs == 1) {
    out->empty = (flags & kFlagEmpty) != 0 || out->serial_version == 2;
    if (out->empty) {
      if (len != 8) return invalid("an empty sketch longer than its preamble");
      return check_seed_hash(out->seed_hash, true);
    }
    out->count = 1;
    Status st = check_seed_hash(out->seed_hash, false);
    if (!st.is_ok()) return st;
    return plain_entries(data, len, 8, out);
  }
  if (pre_longs != 2 && pre_longs != 3) return invalid("preamble longs not 1, 2 or 3");
  if (len < 8 * size_t{pre_longs}) return invalid("truncated preamble");
  out->count = load_le32(data + 8);
  if (pre_longs == 3) out->theta = load_le64(data + 16);
  out->empty = (flags & kFlagEmpty) != 0 ||
               (out->count == 0 && out->theta == kLibraryThetaExact);
  if (out->empty && out->count != 0) return invalid("an empty sketch with entries");
  Status st = check_seed_hash(out->seed_hash, out->empty);
  if (!st.is_ok()) return st;
  return plain_entries(data, len, 8 * size_t{pre_longs}, out);
}

Status parse_v4(const uint8_t* data, size_t len, CompactView* out) {
  const uint8_t pre_longs = data[0];
  out->entry_bits = data[3];
  const uint8_t count_bytes = data[4];
  out->seed_hash = static_cast<uint16_t>(data[6] | (data[7] << 8));
  out->ordered = true;  // deltas of ascending entries
  out->theta = kLibraryThetaExact;
  if (pre_longs != 1 && pre_longs != 2) return invalid("compressed: preamble longs not 1 or 2");
  if (out->entry_bits < 1 || out->entry_bits > 64) return invalid("compressed: entry bits out of range");
  if (count_bytes < 1 || count_bytes > 4) return invalid("compressed: entry count bytes out of range");
  const size_t header = 8 * size_t{pre_longs};
  if (len < header + count_bytes) return invalid("truncated preamble");
  if (pre_longs == 2) out->theta = load_le64(data + 8);
  uint32_t count = 0;
  for (unsigned i = 0; i < count_bytes; i++) count |= uint32_t{data[header + i]} << (8 * i);
  out->count = count;
  out->empty = false;
  Status st = check_seed_hash(out->seed_hash, false);
  if (!st.is_ok()) return st;
  const uint64_t bits = uint64_t{out->count} * out->entry_bits;
  const size_t at = header + count_bytes;
  if (len - at != (bits + 7) / 8) return invalid("compressed: length does not match the entries");
  out->entries = data + at;
  out->entries_len = len - at;
  return Status::ok();
}

// Reads `bits` (1..64) bits at bit position *pos, most significant first.
uint64_t read_bits(const uint8_t* p, uint64_t* pos, unsigned bits) {
  uint64_t v = 0;
  while (bits > 0) {
    const unsigned used = static_cast<unsigned>(*pos & 7);
    const unsigned avail = 8 - used;
    const unsigned take = bits < avail ? bits : avail;
    const unsigned byte = p[*pos >> 3];
    v = (v << take) | ((byte >> (avail - take)) & ((1u << take) - 1));
    *pos += take;
    bits -= take;
  }
  return v;
}

// Appends `bits` (1..64) bits of v at bit position *pos (dst zeroed).
void write_bits(uint8_t* p, uint64_t* pos, uint64_t v, unsigned bits) {
  while (bits > 0) {
    const unsigned used = static_cast<unsigned>(*pos & 7);
    const unsigned avail = 8 - used;
    const unsigned take = bits < avail ? bits : avail;
    const unsigned chunk = static_cast<unsigned>((v >> (bits - take)) & ((1u << take) - 1));
    p[*pos >> 3] = static_cast<uint8_t>(p[*pos >> 3] | (chunk << (avail - take)));
    *pos += take;
    bits -= take;
  }
}

uint64_t ours_of(uint64_t library_theta) {
  return library_theta == kLibraryThetaExact ? kThetaExact : library_theta;
}

uint64_t library_of(uint64_t our_theta) {
  return our_theta == kThetaExact ? kLibraryThetaExact : our_theta;
}

unsigned bit_width(uint64_t x) {
  unsigned n = 0;
  while (x != 0) { n++; x >>= 1; }
  return n;
}

}  // namespace

Status parse_compact(const uint8_t* data, size_t len, CompactView* out) {
  *out = CompactView{};
  if (len < 8) return invalid("shorter than its 8-byte preamble");
  out->serial_version = data[1];
  if (data[2] == kUpdateFamilyId)
    return Status::error(StatusCode::kInvalidParameter,
                         "a DataSketches theta update sketch (family 2) is not read here: "
                         "serialize its compact form (compact().serialize())");
  if (data[2] != kCompactFamilyId) return invalid("family id is not 3 (compact theta)");
  if (out->serial_version != 1 && (data[5] & kFlagBigEndian) != 0)
    return invalid("big-endian sketches are not read");
  Status st;
  switch (out->serial_version) {
    case 1: st = parse_v1(data, len, out); break;
    case 2:
    case 3: st = parse_v2_v3(data, len, out); break;
    case kCompressedVersion: st = parse_v4(data, len, out); break;
    default: return invalid("serial version is not 1, 2, 3 or 4");
  }
  if (!st.is_ok()) return st;
  // θ is a positive signed long in the libraries (2^63 - 1 in exact mode).
  if (!out->empty && (out->theta == 0 || out->theta > kLibraryThetaExact))
    return invalid("theta out of range");
  return Status::ok();
}

int lg_k_holding(int lg_k, uint64_t count) {
  int lg = lg_k;
  while (lg < kMaxLgK && (uint64_t{1} << lg) < count) lg++;
  return lg;
}

Status import_lg_k(const CompactView& v, int* lg_k) {
  const int lg = lg_k_holding(kImportLgK, v.count);
  if ((uint64_t{1} << lg) < v.count)
    return Status::error(StatusCode::kInvalidParameter,
                         "the sketch holds %u entries, more than a theta sketch's largest k (2^%d)",
                         v.count, kMaxLgK);
  *lg_k = lg;
  return Status::ok();
}

Status write_imported(const CompactView& v, int lg_k, uint8_t* dst) {
  const uint64_t theta = v.empty ? kThetaExact : ours_of(v.theta);
  std::memset(dst, 0, stored_size(v.count));
  write_theta_header(dst, lg_k, Encoding::kStored, ElementKind::kDatasketchesImported,
                     kDatasketchesIdentity);
  store_le32(dst + kCountOffset, v.count);
  store_le64(dst + kThetaOffset, theta);
  if (v.serial_version == kCompressedVersion) {
    uint64_t pos = 0, previous = 0;
    for (uint32_t i = 0; i < v.count; i++) {
      const uint64_t delta = read_bits(v.entries, &pos, v.entry_bits);
      if (delta == 0 || delta >= v.theta - previous)
        return invalid("compressed entries not ascending below theta");
      previous += delta;
      set_hash(dst, i, previous);
    }
    return Status::ok();
  }
  if (v.count > 0) std::memcpy(dst + kHashesOffset, v.entries, 8 * size_t{v.count});
  if (!v.ordered) sort_hashes(dst + kHashesOffset, v.count);
  uint64_t previous = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const uint64_t h = hash_at(dst, i);
    if (h == 0) return invalid("a zero entry");
    if (h <= previous) return invalid(v.ordered ? "entries not strictly ascending" : "an entry held twice");
    if (h >= v.theta) return invalid("an entry at or above theta");
    previous = h;
  }
  return Status::ok();
}

namespace {

bool writes_compressed(const View& v, bool compressed) {
  return compressed && v.count > 0 && (v.count > 1 || v.theta < kThetaExact);
}

// The OR of the deltas between successive hashes (the first from 0): its
// width is the bits each delta takes.
unsigned entry_bits_of(const View& v) {
  uint64_t ored = 0, previous = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const uint64_t h = stored_hash(v, i);
    ored |= h - previous;
    previous = h;
  }
  return bit_width(ored);
}

unsigned count_bytes_of(uint32_t count) { return (bit_width(count) + 7) / 8; }

}  // namespace

size_t compact_size(const View& v, bool compressed) {
  const bool estimation = v.theta < kThetaExact;
  if (writes_compressed(v, compressed)) {
    const uint64_t bits = uint64_t{v.count} * entry_bits_of(v);
    return 8 * size_t{estimation ? 2u : 1u} + count_bytes_of(v.count) + (bits + 7) / 8;
  }
  const bool empty = v.count == 0 && !estimation;
  const size_t pre_longs = estimation ? 3 : (empty || v.count == 1) ? 1 : 2;
  return 8 * pre_longs + 8 * size_t{v.count};
}

void write_compact(const View& v, bool compressed, uint8_t* dst) {
  const bool estimation = v.theta < kThetaExact;
  const uint16_t seed_hash = sketch::datasketches::kDefaultSeedHash;
  std::memset(dst, 0, compact_size(v, compressed));
  if (writes_compressed(v, compressed)) {
    const unsigned bits = entry_bits_of(v);
    const unsigned count_bytes = count_bytes_of(v.count);
    const uint8_t pre_longs = estimation ? 2 : 1;
    dst[0] = pre_longs;
    dst[1] = kCompressedVersion;
    dst[2] = kCompactFamilyId;
    dst[3] = static_cast<uint8_t>(bits);
    dst[4] = static_cast<uint8_t>(count_bytes);
    dst[5] = kFlagReadOnly | kFlagCompact | kFlagOrdered;
    dst[6] = static_cast<uint8_t>(seed_hash);
    dst[7] = static_cast<uint8_t>(seed_hash >> 8);
    if (estimation) store_le64(dst + 8, v.theta);
    uint8_t* p = dst + 8 * size_t{pre_longs};
    for (unsigned i = 0; i < count_bytes; i++) *p++ = static_cast<uint8_t>(v.count >> (8 * i));
    uint64_t pos = 0, previous = 0;
    for (uint32_t i = 0; i < v.count; i++) {
      const uint64_t h = stored_hash(v, i);
      write_bits(p, &pos, h - previous, bits);
      previous = h;
    }
    return;
  }
  const bool empty = v.count == 0 && !estimation;
  const uint8_t pre_longs = estimation ? 3 : (empty || v.count == 1) ? 1 : 2;
  dst[0] = pre_longs;
  dst[1] = 3;
  dst[2] = kCompactFamilyId;
  dst[5] = static_cast<uint8_t>(kFlagReadOnly | kFlagCompact | kFlagOrdered |
                                (empty ? kFlagEmpty : 0));
  dst[6] = static_cast<uint8_t>(seed_hash);
  dst[7] = static_cast<uint8_t>(seed_hash >> 8);
  if (pre_longs > 1) store_le32(dst + 8, v.count);
  if (estimation) store_le64(dst + 16, library_of(v.theta));
  std::memcpy(dst + 8 * size_t{pre_longs}, v.data + kHashesOffset, 8 * size_t{v.count});
}

uint64_t update_hash(uint64_t h1) {
  return retained_hash(h1) == kLibraryThetaExact ? 0 : h1;
}

void write_new_update(int lg_k, uint8_t* dst) {
  write_working_empty(dst, lg_k, kMinCapacity, kThetaExact, ElementKind::kNone,
                      kDatasketchesIdentity);
}

namespace {

// v at the lg_k its stored form takes: write_stored then keeps every entry
// (it trims to the view's k only when there are more).
View at_holding_lg_k(const View& v) {
  View w = v;
  w.lg_k = lg_k_holding(v.lg_k, v.count);
  w.k = k_of(w.lg_k);
  return w;
}

}  // namespace

size_t update_stored_size(const View& v) { return stored_size(at_holding_lg_k(v)); }

void write_update_stored(const View& v, uint8_t* dst) { write_stored(at_holding_lg_k(v), dst); }

}  // namespace sketch::theta::datasketches
