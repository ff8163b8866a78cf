#include "core/common/header.h"

#include "core/common/hash.h"

namespace sketch {

const char* kind_name(SketchKind kind) {
  switch (kind) {
    case SketchKind::kHll: return "hll";
    case SketchKind::kCms: return "cms";
    case SketchKind::kBloom: return "bloom";
    case SketchKind::kDdsketch: return "ddsketch";
    case SketchKind::kTopk: return "topk";
    case SketchKind::kTheta: return "theta";
    case SketchKind::kCountingBloom: return "counting_bloom";
    case SketchKind::kCuckoo: return "cuckoo";
    case SketchKind::kKll: return "kll";
    case SketchKind::kEll: return "ell";
  }
  return "unknown";
}

void write_header(uint8_t* dst, const Header& header, ElementKind element_kind) {
  dst[0] = kMagic0;
  dst[1] = kMagic1;
  dst[2] = static_cast<uint8_t>(header.kind);
  dst[3] = header.version;
  dst[4] = header.hash_identity;
  dst[5] = header.param[0];
  dst[6] = header.param[1];
  dst[kElementKindOffset] = static_cast<uint8_t>(element_kind);
}

Status read_header(const uint8_t* src, size_t len, SketchKind expected,
                   uint8_t max_version, Header* out) {
  const char* want = kind_name(expected);
  if (len < kHeaderSize)
    return Status::error(StatusCode::kInvalidFormat,
                         "%s data is truncated: %zu bytes, the header alone needs %zu",
                         want, len, kHeaderSize);
  if (src[0] != kMagic0 || src[1] != kMagic1)
    return Status::error(StatusCode::kInvalidFormat,
                         "data is not a sketch (bad magic bytes 0x%02x%02x)", src[0], src[1]);
  const uint8_t kind = src[2];
  if (kind != static_cast<uint8_t>(expected)) {
    if (kind >= 1 && kind <= kMaxSketchKind)
      return Status::error(StatusCode::kInvalidFormat, "data is a %s sketch, not %s",
                           kind_name(static_cast<SketchKind>(kind)), want);
    return Status::error(StatusCode::kInvalidFormat,
                         "data is not a sketch of type %s (unknown kind byte %u)", want, kind);
  }
  if (src[3] == 0 || src[3] > max_version)
    return Status::error(StatusCode::kInvalidFormat,
                         "unsupported %s format version %u (this build reads 1..%u)", want,
                         src[3], max_version);
  if (src[4] != kHashIdentity)
    return Status::error(StatusCode::kInvalidFormat,
                         "unknown hash identity %u in %s data (this build uses %u)", src[4],
                         want, kHashIdentity);
  out->kind = expected;
  out->version = src[3];
  out->hash_identity = src[4];
  out->param[0] = src[5];
  out->param[1] = src[6];
  return Status::ok();
}

}  // namespace sketch
