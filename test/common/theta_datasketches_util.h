// Helpers of the DataSketches theta tests (test/unit/theta/theta_datasketches*):
// a library's bytes imported as theta_from_datasketches does, a stored view,
// the export, and the stream length a MANIFEST verification names.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/theta/theta.h"
#include "core/theta/theta_datasketches.h"

namespace sketch::theta::datasketches::test_util {

inline std::vector<uint8_t> import_bytes(const std::vector<uint8_t>& bytes, Status* st) {
  CompactView v;
  *st = parse_compact(bytes.data(), bytes.size(), &v);
  if (!st->is_ok()) return {};
  int lg_k;
  *st = import_lg_k(v, &lg_k);
  if (!st->is_ok()) return {};
  std::vector<uint8_t> out(stored_size(v.count));
  *st = write_imported(v, lg_k, out.data());
  return out;
}

// The import of bytes that must import.
inline std::vector<uint8_t> import_or_fail(const std::vector<uint8_t>& bytes) {
  Status st;
  std::vector<uint8_t> out = import_bytes(bytes, &st);
  EXPECT_TRUE(st.is_ok()) << st.message();
  return out;
}

inline View must_view(const std::vector<uint8_t>& s) {
  View v{};
  EXPECT_TRUE(parse(s.data(), s.size(), Validation::kCanonical, &v).is_ok());
  return v;
}

inline std::vector<uint8_t> exported(const View& v, bool compressed) {
  std::vector<uint8_t> out(compact_size(v, compressed));
  write_compact(v, compressed, out.data());
  return out;
}

// "i in 0..999" -> 1000; -1 for a file of no such stream.
inline int64_t stream_length(const std::string& verification) {
  const size_t at = verification.find("i in 0..");
  if (at == std::string::npos) return -1;
  return std::stoll(verification.substr(at + 8)) + 1;
}

}  // namespace sketch::theta::datasketches::test_util
