// The 8-byte header that starts every serialized sketch.
//
//   byte 0-1  magic "SK"
//   byte 2    kind (1 = hll, 2 = cms, 3 = bloom)
//   byte 3    format version of that kind
//   byte 4    hash identity (see hash.h)
//   byte 5-7  three bytes the kind uses for its own small parameters
//
// Reading the header first lets every decoder refuse foreign bytes (a cms cast
// to hll, a newer format, another hash) before it trusts any length.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/status.h"

namespace sketch {

enum class SketchKind : uint8_t { kHll = 1, kCms = 2, kBloom = 3 };

constexpr size_t kHeaderSize = 8;

// The largest sketch (header included) any function may create: one that
// still passes through text. Text output is "\x" plus two hex digits per
// byte, allocated as one string, and a COPY line (pg_dump, COPY TO/FROM) must
// hold it, so 2 * size must stay below PostgreSQL's 1 GB allocation limit
// (MaxAllocSize, 2^30 - 1) with room for the row's other columns: 512 MiB less
// 64 KiB. Larger values could be created but never dumped or restored.
constexpr size_t kMaxDumpableBytes = (size_t{512} << 20) - (size_t{64} << 10);

struct Header {
  SketchKind kind;
  uint8_t version;
  uint8_t hash_identity;
  uint8_t param[3];
};

const char* kind_name(SketchKind kind);

void write_header(uint8_t* dst, const Header& header);

// Checks magic, kind, version (1..max_version) and hash identity.
Status read_header(const uint8_t* src, size_t len, SketchKind expected,
                   uint8_t max_version, Header* out);

}  // namespace sketch
