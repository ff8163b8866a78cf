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
