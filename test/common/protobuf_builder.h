// Protobuf messages written field by field, for the DDSketch protobuf's unit
// tests and seed corpus (core/ddsketch/ddsketch_proto.h): any field, any
// wire type, in any order, so that malformed messages are as easy to write
// as the ones DataDog's libraries produce.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/protobuf_wire.h"

namespace sketch::test {

class Proto {
 public:
  Proto& varint(uint32_t field, uint64_t v) {
    key(field, protobuf::Wire::kVarint);
    raw_varint(v);
    return *this;
  }
  Proto& sint(uint32_t field, int64_t v) { return varint(field, protobuf::zigzag_encode(v)); }
  Proto& fixed64(uint32_t field, uint64_t bits) {
    key(field, protobuf::Wire::kFixed64);
    raw_fixed64(bits);
    return *this;
  }
  Proto& dbl(uint32_t field, double d) { return fixed64(field, protobuf::double_to_bits(d)); }
  Proto& message(uint32_t field, const Proto& m) { return bytes(field, m.bytes_); }
  Proto& bytes(uint32_t field, const std::vector<uint8_t>& payload) {
    key(field, protobuf::Wire::kBytes);
    raw_varint(payload.size());
    bytes_.insert(bytes_.end(), payload.begin(), payload.end());
    return *this;
  }
  // A packed repeated double.
  Proto& packed(uint32_t field, const std::vector<double>& values) {
    Proto p;
    for (double d : values) p.raw_fixed64(protobuf::double_to_bits(d));
    return bytes(field, p.bytes_);
  }
  Proto& raw(const std::vector<uint8_t>& b) {
    bytes_.insert(bytes_.end(), b.begin(), b.end());
    return *this;
  }

  const std::vector<uint8_t>& data() const { return bytes_; }

 private:
  void key(uint32_t field, protobuf::Wire wire) { raw_varint(protobuf::key_of(field, wire)); }
  void raw_varint(uint64_t v) {
    uint8_t buf[10];
    bytes_.insert(bytes_.end(), buf, put_varint(buf, v));
  }
  void raw_fixed64(uint64_t bits) {
    uint8_t buf[8];
    store_le64(buf, bits);
    bytes_.insert(bytes_.end(), buf, buf + 8);
  }
  std::vector<uint8_t> bytes_;
};

// DDSketch's messages (field numbers of ddsketch.proto).
inline Proto dd_mapping(double gamma, double offset = 0, uint64_t interpolation = 0) {
  Proto m;
  m.dbl(1, gamma);
  if (offset != 0) m.dbl(2, offset);
  if (interpolation != 0) m.varint(3, interpolation);
  return m;
}

inline Proto dd_entry(int64_t key, double count) {
  Proto e;
  e.sint(1, key).dbl(2, count);
  return e;
}

inline Proto dd_contiguous(int64_t offset, const std::vector<double>& counts) {
  Proto s;
  s.packed(2, counts);
  if (offset != 0) s.sint(3, offset);
  return s;
}

}  // namespace sketch::test
