// Fuzz target: DataSketches' frequent items bytes as topk_from_datasketches
// reads them (core/topk/topk_datasketches.h). What is refused is refused
// with a message; what is accepted walks every item inside the input and
// becomes a topk summary that parses as canonical with the sketch's N, Δ
// and counters, or is refused as an item held twice.
#include <string>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/hash.h"
#include "core/topk/topk.h"
#include "core/topk/topk_datasketches.h"
#include "fuzz_check.h"

using namespace sketch;
using namespace sketch::fuzz;
namespace ds = sketch::topk::datasketches;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Bytes input = copy_of(data, size);  // exactly sized, so ASan sees overreads
  ds::FrequentView v;
  const Status st = ds::parse_frequent(input.data(), input.size(), &v);
  if (!st.is_ok()) {
    FUZZ_CHECK(st.code() == StatusCode::kInvalidFormat && st.message()[0] != '\0');
    return 0;
  }
  uint32_t k;
  if (!ds::import_k(v, &k).is_ok() || v.empty) return 0;
  FUZZ_CHECK(v.count <= k);
  std::vector<std::string> texts(v.count);
  std::vector<ds::ImportItem> items(v.count);
  size_t cursor = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const ds::FrequentItem item = ds::frequent_item(v, i, &cursor);
    FUZZ_CHECK(cursor <= v.items_len);
    if (v.type == ds::ItemType::kLong) {
      texts[i] = std::to_string(item.long_value);
    } else {
      FUZZ_CHECK(item.text >= v.items && item.text + item.len <= v.items + v.items_len);
      texts[i].assign(reinterpret_cast<const char*>(item.text), item.len);
    }
    if (texts[i].size() > topk::kMaxItemBytes) texts[i].resize(topk::kMaxItemBytes);
    const uint64_t hash = hash64(texts[i].data(), texts[i].size());
    items[i] = ds::ImportItem{hash, item.counter, reinterpret_cast<const uint8_t*>(texts[i].data()),
                              static_cast<uint32_t>(texts[i].size()), false};
  }
  FUZZ_CHECK(cursor == v.items_len);
  Bytes out(ds::imported_size(items.data(), v.count));
  const ElementKind kind =
      v.type == ds::ItemType::kLong ? ElementKind::kNumber : ElementKind::kText;
  if (!ds::write_imported(k, kind, v.total, v.max_error, items.data(), v.count, out.data())
           .is_ok())
    return 0;  // two items with one text (a truncated long string twice)
  topk::View s;
  FUZZ_CHECK(topk::parse(out.data(), out.size(), Validation::kCanonical, &s).is_ok());
  FUZZ_CHECK(s.total == v.total && s.max_error == v.max_error && s.count == v.count);
  return 0;
}
