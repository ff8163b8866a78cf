// The refusal to combine cell arrays of different shapes.
#include "core/common/cell_array.h"

namespace sketch::cell_array {

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
