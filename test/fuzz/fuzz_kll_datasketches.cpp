// Fuzz target: DataSketches' compact KLL bytes as kll_from_datasketches
// reads them (core/kll/kll_datasketches.h), as doubles, floats and longs,
// and back. What is refused is refused with a message; what is accepted is
// a canonical stored kll of the item type's element kind whose export (in
// the default and in its own item type) imports as the same kll, whose
// union with itself is valid with twice n, and whose quantiles stay in
// [min, max].
#include <initializer_list>

#include "core/kll/kll.h"
#include "core/kll/kll_datasketches.h"
#include "fuzz_check.h"

using namespace sketch;
using namespace sketch::fuzz;
namespace ds = sketch::kll::datasketches;

namespace {

bool import(const Bytes& input, ds::ItemType type, Bytes* out) {
  ds::CompactView v;
  Status st = ds::parse_compact(input.data(), input.size(), type, &v);
  if (st.is_ok()) {
    out->assign(ds::imported_size(v), 0);
    st = ds::write_imported(v, out->data());
  }
  if (!st.is_ok())
    FUZZ_CHECK((st.code() == StatusCode::kInvalidFormat || st.code() == StatusCode::kUnsupported) &&
               st.message()[0] != '\0');
  return st.is_ok();
}

void check_round_trip(const kll::View& v, const Bytes& stored, ds::ItemType type) {
  FUZZ_CHECK(ds::check_exportable(v, type).is_ok());
  Bytes exported(ds::compact_size(v, type));
  ds::write_compact(v, type, exported.data());
  Bytes again;
  FUZZ_CHECK(import(exported, type, &again));
  FUZZ_CHECK(again == stored);
}

void check_import(const Bytes& stored, ds::ItemType type) {
  kll::View v;
  FUZZ_CHECK(kll::parse(stored.data(), stored.size(), Validation::kCanonical, &v).is_ok());
  FUZZ_CHECK(v.empty() ? v.kind == ElementKind::kNone : v.kind == ds::kind_of(type));
  check_round_trip(v, stored, ds::default_item_type(v));
  check_round_trip(v, stored, type);
  if (v.empty()) return;
  Bytes scratch(kll::query_scratch_size(v) + 16);
  const kll::Sorted s = kll::sort_items(v, scratch.data());
  FUZZ_CHECK(kll::quantile_key(v, s, 0.0) == v.min_key && kll::quantile_key(v, s, 1.0) == v.max_key);
  const uint64_t median = kll::quantile_key(v, s, 0.5);
  FUZZ_CHECK(median >= v.min_key && median <= v.max_key);
  if (!kll::check_mergeable(v, v).is_ok()) return;  // n past 2^64 - 1
  Bytes merged(kll::merged_working_size(v, v));
  kll::write_merged_working(v, v, merged.data());
  kll::View m;
  FUZZ_CHECK(kll::parse(merged.data(), merged.size(), Validation::kStructure, &m).is_ok());
  FUZZ_CHECK(m.n == 2 * v.n && m.min_key == v.min_key && m.max_key == v.max_key);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Bytes input = copy_of(data, size);
  for (ds::ItemType type : {ds::ItemType::kDouble, ds::ItemType::kFloat, ds::ItemType::kLong}) {
    Bytes stored;
    if (import(input, type, &stored)) check_import(stored, type);
  }
  return 0;
}
