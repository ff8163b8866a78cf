// The Thrift compact-protocol BloomFilterHeader (parquet_header.h).
#include "core/bloom/parquet_header.h"

#include "core/bloom/split_block.h"

namespace sketch::bloom::parquet {

namespace {

constexpr uint8_t kTypeI32 = 5;
constexpr uint8_t kTypeStruct = 12;

// A bounds-checked reader of compact-protocol pieces.
class Reader {
 public:
  Reader(const uint8_t* data, size_t len) : data_(data), len_(len) {}

  size_t offset() const { return pos_; }

  bool byte(uint8_t* out) {
    if (pos_ >= len_) return false;
    *out = data_[pos_++];
    return true;
  }

  // An unsigned varint of at most `max_bytes` bytes whose value fits 32 bits.
  bool varint32(uint32_t* out, int max_bytes = 5) {
    uint64_t value = 0;
    for (int i = 0; i < max_bytes; i++) {
      uint8_t b;
      if (!byte(&b)) return false;
      value |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        if (value > 0xFFFFFFFFULL) return false;
        *out = static_cast<uint32_t>(value);
        return true;
      }
    }
    return false;
  }

  // A field header: false at the end of input; *type = 0 is the stop field.
  bool field(int16_t last_id, int16_t* id, uint8_t* type) {
    uint8_t b;
    if (!byte(&b)) return false;
    *type = b & 0x0F;
    if (*type == 0) {
      *id = 0;
      return b == 0;  // a stop is the single byte 0
    }
    const uint8_t delta = b >> 4;
    if (delta != 0) {
      *id = static_cast<int16_t>(last_id + delta);
      return true;
    }
    uint32_t zigzag;  // long form: the id as a zigzag i16 varint
    if (!varint32(&zigzag, 3) || zigzag > 0xFFFF) return false;
    *id = static_cast<int16_t>((zigzag >> 1) ^ (0U - (zigzag & 1)));
    return true;
  }

 private:
  const uint8_t* data_;
  size_t len_;
  size_t pos_ = 0;
};

Status invalid(const char* what) {
  return Status::error(StatusCode::kInvalidFormat,
                       "invalid Parquet bloom filter: %s", what);
}

// A union field `id` holding field 1, an empty struct, as the header's
// algorithm (BLOCK), hash (XXHASH) and compression (UNCOMPRESSED).
Status expect_union(Reader& r, int16_t id, const char* name) {
  int16_t got;
  uint8_t type;
  if (!r.field(id - 1, &got, &type) || got != id || type != kTypeStruct)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid Parquet bloom filter: field %d (%s) is missing or not a "
                         "struct", id, name);
  if (!r.field(0, &got, &type) || got != 1 || type != kTypeStruct)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid Parquet bloom filter: unsupported %s (only BLOCK, XXHASH "
                         "and UNCOMPRESSED exist)", name);
  if (!r.field(1, &got, &type) || type != 0)  // the empty struct's stop
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid Parquet bloom filter: the %s struct is not empty", name);
  if (!r.field(1, &got, &type) || type != 0)  // the union's stop
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid Parquet bloom filter: the %s union holds more than one "
                         "field", name);
  return Status::ok();
}

}  // namespace

size_t write_header(uint32_t num_bytes, uint8_t* dst) {
  size_t n = 0;
  dst[n++] = 0x10 | kTypeI32;
  uint64_t zigzag = static_cast<uint64_t>(num_bytes) << 1;  // num_bytes >= 0
  while (zigzag >= 0x80) {
    dst[n++] = static_cast<uint8_t>(zigzag | 0x80);
    zigzag >>= 7;
  }
  dst[n++] = static_cast<uint8_t>(zigzag);
  for (int i = 0; i < 3; i++) {
    dst[n++] = 0x10 | kTypeStruct;  // field 2, 3, 4: delta 1
    dst[n++] = 0x10 | kTypeStruct;  // the union's field 1
    dst[n++] = 0;                   // the empty struct ends
    dst[n++] = 0;                   // the union ends
  }
  dst[n++] = 0;  // the header ends
  return n;
}

Status parse(const uint8_t* data, size_t len, Parsed* out) {
  Reader r(data, len);
  int16_t id;
  uint8_t type;
  if (!r.field(0, &id, &type) || id != 1 || type != kTypeI32)
    return invalid("the header does not start with field 1, numBytes (i32)");
  uint32_t zigzag;
  if (!r.varint32(&zigzag)) return invalid("numBytes is not a valid varint");
  if (zigzag & 1) return invalid("numBytes is negative");
  const uint32_t num_bytes = zigzag >> 1;
  if (num_bytes == 0 || num_bytes % split_block::kBlockBytes != 0 ||
      num_bytes > split_block::kMaxBits / 8)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid Parquet bloom filter: numBytes %u is not a whole number of "
                         "32-byte blocks between 32 and %llu", num_bytes,
                         static_cast<unsigned long long>(split_block::kMaxBits / 8));
  Status st = expect_union(r, 2, "algorithm");
  if (!st.is_ok()) return st;
  st = expect_union(r, 3, "hash");
  if (!st.is_ok()) return st;
  st = expect_union(r, 4, "compression");
  if (!st.is_ok()) return st;
  if (!r.field(4, &id, &type) || type != 0)
    return invalid("the header has fields after compression, or no end");
  const size_t header_size = r.offset();
  if (len - header_size != num_bytes)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid Parquet bloom filter: the header says %u bytes of bitset, "
                         "%zu follow", num_bytes, len - header_size);
  *out = Parsed{header_size, num_bytes};
  return Status::ok();
}

}  // namespace sketch::bloom::parquet
