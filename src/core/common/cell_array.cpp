// The errors of cell arrays: parameters out of range, a malformed body, the
// refusal to combine arrays of different shapes.
#include "core/common/cell_array.h"

namespace sketch::cell_array {

Status check_params(const Format& format, int64_t cells, int64_t hashes) {
  if (cells < static_cast<int64_t>(format.min_cells) ||
      cells > static_cast<int64_t>(format.max_cells))
    return Status::error(StatusCode::kInvalidParameter,
                         "%s %ss must be between %llu and %llu, got %lld", format.filter,
                         format.cell, static_cast<unsigned long long>(format.min_cells),
                         static_cast<unsigned long long>(format.max_cells),
                         static_cast<long long>(cells));
  if (hashes < 1 || hashes > format.max_hashes)
    return Status::error(StatusCode::kInvalidParameter,
                         "%s hashes must be between 1 and %d, got %lld", format.filter,
                         format.max_hashes, static_cast<long long>(hashes));
  return Status::ok();
}

Status check_buildable(const Format& format, int64_t n, double p, uint64_t cells) {
  if (cells <= format.max_cells) return Status::ok();
  return Status::error(StatusCode::kInvalidParameter,
                       "a %s for n = %lld at p = %g needs %llu %ss, above the maximum of %llu "
                       "%ss (512 MiB, the largest value that can be dumped as text)",
                       format.filter, static_cast<long long>(n), p,
                       static_cast<unsigned long long>(cells), format.cell,
                       static_cast<unsigned long long>(format.max_cells), format.cell);
}

void write_header(const Format& format, uint8_t* dst, int hashes, uint8_t param1, uint64_t cells,
                  ElementKind element_kind) {
  sketch::write_header(dst, Header{format.kind, format.version, kHashIdentity,
                                   {static_cast<uint8_t>(hashes), param1}},
                       element_kind);
  store_le64(dst + kCellCountOffset, cells);
}

Status read_header(const Format& format, const uint8_t* data, size_t len, Header* header) {
  Status st = sketch::read_header(data, len, format.kind, format.version, header);
  if (!st.is_ok()) return st;
  const int hashes = header->param[0];
  if (hashes >= 1 && hashes <= format.max_hashes) return Status::ok();
  return Status::error(StatusCode::kInvalidFormat, "invalid %s data: %d hashes outside 1..%d",
                       format.name, hashes, format.max_hashes);
}

Status read_cell_count(const Format& format, const uint8_t* data, size_t len, uint64_t* cells) {
  if (len < kCellsOffset)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid %s data: truncated before the %s count (%zu bytes)",
                         format.name, format.cell, len);
  *cells = load_le64(data + kCellCountOffset);
  return Status::ok();
}

Status cells_out_of_range(const Format& format, uint64_t cells) {
  return Status::error(StatusCode::kInvalidFormat, "invalid %s data: %llu %ss outside %llu..%llu",
                       format.name, static_cast<unsigned long long>(cells), format.cell,
                       static_cast<unsigned long long>(format.min_cells),
                       static_cast<unsigned long long>(format.max_readable_cells));
}

Status body_error(BodyProblem problem, const char* family, const char* cell, uint64_t cells,
                  size_t expected, size_t len) {
  const auto m = static_cast<unsigned long long>(cells);
  switch (problem) {
    case BodyProblem::kLength:
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid %s data: %llu %ss need %zu bytes, got %zu", family, m, cell,
                           expected, len);
    case BodyProblem::kPadding:
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid %s data: padding %ss past %s %llu are not zero", family, cell,
                           cell, m);
    case BodyProblem::kQueue:
      return Status::error(StatusCode::kInvalidFormat, "invalid %s data: inconsistent queue",
                           family);
    case BodyProblem::kNone:
      break;
  }
  return Status::ok();
}

Status check_same_shape(const char* what, const Shape& a, const Shape& b) {
  if (a.cells == b.cells && a.hashes == b.hashes && a.hash_identity == b.hash_identity)
    return Status::ok();
  if (a.hash_identity != b.hash_identity)
    return Status::error(StatusCode::kMismatch,
                         "cannot combine %s with different parameters: "
                         "(m=%llu, k=%d, hash=%u) and (m=%llu, k=%d, hash=%u)",
                         what, static_cast<unsigned long long>(a.cells), a.hashes,
                         a.hash_identity, static_cast<unsigned long long>(b.cells), b.hashes,
                         b.hash_identity);
  return Status::error(StatusCode::kMismatch,
                       "cannot combine %s with different parameters: "
                       "(m=%llu, k=%d) and (m=%llu, k=%d)",
                       what, static_cast<unsigned long long>(a.cells), a.hashes,
                       static_cast<unsigned long long>(b.cells), b.hashes);
}

}  // namespace sketch::cell_array
