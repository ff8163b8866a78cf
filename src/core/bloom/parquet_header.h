// The bytes a Parquet file stores for a bloom filter: a Thrift
// compact-protocol BloomFilterHeader followed by the bitset (parquet-format
// BloomFilter.md and parquet.thrift):
//
//   struct BloomFilterHeader {
//     1: required i32 numBytes;                          // bytes of the bitset
//     2: required BloomFilterAlgorithm algorithm;        // union { 1: SplitBlockAlgorithm BLOCK }
//     3: required BloomFilterHash hash;                  // union { 1: XxHash XXHASH }
//     4: required BloomFilterCompression compression;    // union { 1: Uncompressed UNCOMPRESSED }
//   }
//
// The three unions each hold one empty struct. In the compact protocol a
// field opens with a byte (field-id delta << 4 | type; i32 = 5, struct = 12)
// and an i32 is a zigzag varint, so the header is
//
//   15 <varint zigzag(numBytes)>  1C 1C 00 00  1C 1C 00 00  1C 1C 00 00  00
//
// (each union: field 2/3/4, one past the last, a struct (1C); its field 1, a
// struct (1C); the empty struct's stop; the union's stop; then the header's
// stop). write() makes
// exactly these bytes; parse() is strict: it reads the compact protocol's
// field headers (short or long form) but accepts only these four fields in
// this order with these types and values, numBytes a whole number of
// 32-byte blocks up to 128 MiB, and exactly numBytes bytes after the header.
// It never reads past `len`, whatever the bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/status.h"

namespace sketch::bloom::parquet {

// The longest header: a 5-byte varint.
constexpr size_t kMaxHeaderSize = 1 + 5 + 3 * 4 + 1;

// Writes the header for a bitset of num_bytes bytes (a multiple of 32, at
// most 128 MiB) into dst (kMaxHeaderSize bytes); returns its length.
size_t write_header(uint32_t num_bytes, uint8_t* dst);

struct Parsed {
  size_t header_size;  // the bitset starts here
  uint32_t num_bytes;  // and is this long (the rest of the input)
};

// kInvalidFormat naming what is wrong, for anything but a header as above
// followed by exactly numBytes bytes.
Status parse(const uint8_t* data, size_t len, Parsed* out);

}  // namespace sketch::bloom::parquet
