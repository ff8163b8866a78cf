// Fuzz target: DataSketches' compact theta bytes as theta_from_datasketches
// reads them (core/theta/theta_datasketches.h), and back. What is refused is
// refused with a message; what is accepted is a canonical stored theta of
// hash identity 3, whose export (serial version 3 and 4) imports as the same
// sketch, whose union with itself is itself, and which never combines with
// a sketch of identity 1.
#include "core/theta/theta.h"
#include "core/theta/theta_datasketches.h"
#include "fuzz_check.h"

using namespace sketch;
using namespace sketch::fuzz;
namespace ds = sketch::theta::datasketches;

namespace {

bool import(const Bytes& input, Bytes* out) {
  ds::CompactView v;
  const Status st = ds::parse_compact(input.data(), input.size(), &v);
  if (!st.is_ok()) {
    FUZZ_CHECK(st.message()[0] != '\0');
    return false;
  }
  int lg_k;
  if (!ds::import_lg_k(v, &lg_k).is_ok()) return false;
  out->assign(theta::stored_size(v.count), 0);
  const Status w = ds::write_imported(v, lg_k, out->data());
  if (!w.is_ok()) FUZZ_CHECK(w.code() == StatusCode::kInvalidFormat && w.message()[0] != '\0');
  return w.is_ok();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Bytes input = copy_of(data, size);
  Bytes stored;
  if (!import(input, &stored)) return 0;
  theta::View v;
  FUZZ_CHECK(theta::parse(stored.data(), stored.size(), Validation::kCanonical, &v).is_ok());
  FUZZ_CHECK(v.hash_identity == kDatasketchesIdentity);
  for (bool compressed : {false, true}) {
    Bytes exported(ds::compact_size(v, compressed));
    ds::write_compact(v, compressed, exported.data());
    Bytes again;
    FUZZ_CHECK(import(exported, &again));
    // The lg_k of an import depends only on its entry count: the same bytes.
    FUZZ_CHECK(again == stored);
  }
  Bytes u(theta::merged_size(v, v));
  theta::write_merged(v, v, u.data());
  FUZZ_CHECK(u == stored);
  Bytes ours(theta::empty_size());
  theta::write_empty(12, ours.data());
  theta::View e;
  FUZZ_CHECK(theta::parse(ours.data(), ours.size(), Validation::kCanonical, &e).is_ok());
  FUZZ_CHECK(theta::check_combinable(v, e).code() == StatusCode::kMismatch);
  return 0;
}
