// The protobuf wire format, as much of it as a hand-written decoder and
// encoder of one known message need (no protobuf library: the foreign
// messages read here are small and fixed, and a generated parser would be
// a second dependency to fuzz).
//
// A message is a sequence of fields, each a varint key (field number << 3 |
// wire type) and a payload: a varint (0), 8 little-endian bytes (1), a
// varint length and that many bytes (2) or 4 little-endian bytes (5). Wire
// types 3 and 4 (groups, deprecated) and 6, 7 (undefined) are refused, and
// so are field number 0, varints longer than 10 bytes or above 2^64 - 1
// and lengths past the end. Every read is bounded by the message's bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/common/bytes.h"
#include "core/common/varint.h"

namespace sketch::protobuf {

enum class Wire : uint8_t { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

struct Field {
  uint32_t number = 0;
  Wire wire = Wire::kVarint;
  uint64_t value = 0;             // kVarint: the varint; kFixed64, kFixed32: the bits
  const uint8_t* data = nullptr;  // kBytes: the payload
  size_t size = 0;
};

// The fields of one message, in wire order.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}

  bool at_end() const { return p_ == end_; }

  // Reads the next field; false (error() says why) when the bytes at the
  // read position are not one. Call only while !at_end().
  bool next(Field* f) {
    uint64_t key;
    if (!varint(&key)) return fail("a field key is truncated or longer than 10 bytes");
    if (key >> 3 == 0 || key >> 3 > 0x1fffffff) return fail("a field number is 0 or above 2^29 - 1");
    f->number = static_cast<uint32_t>(key >> 3);
    switch (key & 7) {
      case 0:
        f->wire = Wire::kVarint;
        if (!varint(&f->value)) return fail("a varint field is truncated or longer than 10 bytes");
        return true;
      case 1:
        f->wire = Wire::kFixed64;
        if (end_ - p_ < 8) return fail("a 64-bit field is truncated");
        f->value = load_le64(p_);
        p_ += 8;
        return true;
      case 2: {
        f->wire = Wire::kBytes;
        uint64_t length;
        if (!varint(&length)) return fail("a length is truncated or longer than 10 bytes");
        if (length > static_cast<uint64_t>(end_ - p_)) return fail("a length runs past the end");
        f->data = p_;
        f->size = static_cast<size_t>(length);
        p_ += length;
        return true;
      }
      case 5:
        f->wire = Wire::kFixed32;
        if (end_ - p_ < 4) return fail("a 32-bit field is truncated");
        f->value = load_le32(p_);
        p_ += 4;
        return true;
      default:
        return fail("a field has wire type 3, 4, 6 or 7 (groups or undefined)");
    }
  }

  const char* error() const { return error_; }

 private:
  bool varint(uint64_t* out) {
    const VarintRead r = get_varint(&p_, end_, out);
    return r == VarintRead::kOk || r == VarintRead::kOverlong;  // protobuf allows padding
  }
  bool fail(const char* why) {
    error_ = why;
    return false;
  }

  const uint8_t* p_;
  const uint8_t* end_;
  const char* error_ = "";
};

inline double bits_to_double(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

inline uint64_t double_to_bits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

// sint32/sint64's zigzag: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
inline int64_t zigzag_decode(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}
inline uint64_t zigzag_encode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ (v < 0 ? ~uint64_t{0} : uint64_t{0});
}

// --- writing ---------------------------------------------------------------------

inline uint64_t key_of(uint32_t number, Wire wire) {
  return uint64_t{number} << 3 | static_cast<uint64_t>(wire);
}

inline uint8_t* put_key(uint8_t* p, uint32_t number, Wire wire) {
  return put_varint(p, key_of(number, wire));
}

inline uint8_t* put_double(uint8_t* p, double d) {
  store_le64(p, double_to_bits(d));
  return p + 8;
}

// The bytes of a length-delimited field's key and length.
inline size_t bytes_header_size(uint32_t number, size_t length) {
  return varint_size(key_of(number, Wire::kBytes)) + varint_size(length);
}

inline uint8_t* put_bytes_header(uint8_t* p, uint32_t number, size_t length) {
  return put_varint(put_key(p, number, Wire::kBytes), length);
}

}  // namespace sketch::protobuf
