// The 8-byte header that starts every serialized sketch.
//
//   byte 0-1  magic "SK"
//   byte 2    kind (1 = hll, 2 = cms, 3 = bloom, 4 = ddsketch, 5 = topk,
//             6 = theta, 7 = counting_bloom, 8 = cuckoo, 9 = kll, 10 = ell)
//   byte 3    format version of that kind
//   byte 4    hash identity (see kHashIdentity below)
//   byte 5-6  two bytes the kind uses for its own small parameters
//             (Header::param[0..1]); byte 6 holds the encoding in every kind
//             (bloom: in bit 0, its layout in bit 1)
//   byte 7    the element kind (element_kind.h): a required argument of
//             write_header, read by element_kind_byte; 255 in every
//             ddsketch, which hashes nothing
//
// Reading the header first lets every decoder refuse foreign bytes (a cms cast
// to hll, a newer format, another hash) before it trusts any length.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/element_kind.h"
#include "core/common/status.h"

namespace sketch {

enum class SketchKind : uint8_t {
  kHll = 1,
  kCms = 2,
  kBloom = 3,
  kDdsketch = 4,
  kTopk = 5,
  kTheta = 6,
  kCountingBloom = 7,
  kCuckoo = 8,
  kKll = 9,
  kEll = 10,
};

// The highest kind byte this build knows.
constexpr uint8_t kMaxSketchKind = static_cast<uint8_t>(SketchKind::kEll);

constexpr size_t kHeaderSize = 8;

// The largest sketch (header included) any function may create: one that
// still passes through text. Text output is "\x" plus two hex digits per
// byte, allocated as one string, and a COPY line (pg_dump, COPY TO/FROM) must
// hold it, so 2 * size must stay below PostgreSQL's 1 GB allocation limit
// (MaxAllocSize, 2^30 - 1) with room for the row's other columns: 512 MiB less
// 64 KiB. Larger values could be created but never dumped or restored.
constexpr size_t kMaxDumpableBytes = (size_t{512} << 20) - (size_t{64} << 10);

// Identity 1: XXH3 seed 0 (core/common/hash.h; 64-bit for hll, cms, topk
// and theta, 128-bit for bloom, counting_bloom and cuckoo; bloom's
// split-block layout hashes as Parquet does, XXH64 of the PLAIN encoding),
// canonical element encoding version 1. Stored in every header (ddsketch
// writes it but hashes nothing): sketches with different identities hash
// the same value differently and are never merged.
constexpr uint8_t kHashIdentity = 1;

// Identity 2, postgresql-hll's hashing (MurmurHash3 x64 128 of the value's
// bytes with a recorded seed, registers indexed by the hash's low bits), is
// hll's only: its own layout and parameters are in core/hll/pghll.h, and
// hll::parse reads it before read_header, which knows identity 1 only.
constexpr uint8_t kPostgresqlHllIdentity = 2;

// Identity 3, Apache DataSketches' hashing (MurmurHash3 x64 128 with seed
// 9001 of the libraries' value encodings, core/common/datasketches_hash.h),
// for sketches read from or written as DataSketches bytes and those built by
// the *_datasketches_agg / *_datasketches_add functions. Its element kinds are
// the DataSketches ones (element_kind.h, is_datasketches_kind) only; each
// family records its own layout and parameters for it.
constexpr uint8_t kDatasketchesIdentity = 3;

// The magic bytes that open every sketch ("SK").
constexpr uint8_t kMagic0 = 'S';
constexpr uint8_t kMagic1 = 'K';

// Bytes 2-6. The element kind, byte 7, is not part of it: read_header leaves
// it to each family's parse (element_kind_byte), write_header takes it as a
// required argument of its own.
struct Header {
  SketchKind kind;
  uint8_t version;
  uint8_t hash_identity;
  uint8_t param[2];
};

const char* kind_name(SketchKind kind);

// Writes the 8 header bytes. The element kind is required so that no writer
// can leave it 0 by forgetting (kUnknown: "built by 0.1.0", which skips the
// kind check and would let a probe of another kind answer a wrong
// "definitely not"): a new sketch passes ElementKind::kNone, a sketch made
// from another that one's kind.
void write_header(uint8_t* dst, const Header& header, ElementKind element_kind);

// Checks magic, kind, version (1..max_version) and hash identity.
// True when the first kHeaderSize bytes open a sketch of `kind` exactly as
// this build writes it (format `version`, our hash identity). Inline and
// without a Status: the families' per-row shape check of an aggregate state
// (working_state.h) starts with it, and working states are only ever
// written by this build, at its current version.
inline bool is_current_header(const uint8_t* src, size_t len, SketchKind kind,
                              uint8_t version) {
  return len >= kHeaderSize && src[0] == kMagic0 && src[1] == kMagic1 &&
         src[2] == static_cast<uint8_t>(kind) && src[3] == version && src[4] == kHashIdentity;
}

Status read_header(const uint8_t* src, size_t len, SketchKind expected,
                   uint8_t max_version, Header* out);

}  // namespace sketch
