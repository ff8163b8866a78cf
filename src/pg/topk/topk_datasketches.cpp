// topk_from_datasketches(bytea): a frequent items sketch of the Apache
// DataSketches libraries (longs or strings, core/topk/topk_datasketches.h)
// as a topk summary of element kind number (longs) or text (strings).
//
// Each item is hashed as topk_add hashes the SQL value it stands for (a
// bigint: its canonical 8 bytes; a text: its bytes in the server
// encoding), so topk_estimate, unions with topk_agg output and the readers
// treat imported items as the same items as new rows of that value.
#include <cinttypes>
#include <cstdio>

#include "core/common/canonical.h"
#include "core/common/hash.h"
#include "core/topk/topk_datasketches.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/topk/topk_datum.h"

extern "C" {
#include "mb/pg_wchar.h"

PG_FUNCTION_INFO_V1(topk_from_datasketches);
}

using namespace sketch;
using namespace sketch::pg;
namespace ds = sketch::topk::datasketches;

namespace {

// A long as its decimal text (int8out's) and canonical hash.
ds::ImportItem long_item(const ds::FrequentItem& item) {
  char* text = psprintf("%" PRId64, item.long_value);
  uint8 bytes[kCanonicalScalarSize];
  encode_int64(item.long_value, bytes);
  return ds::ImportItem{hash64(bytes, sizeof bytes), item.counter,
                        reinterpret_cast<const uint8*>(text),
                        static_cast<uint32>(std::strlen(text)), false};
}

// A string in the server encoding (22P05 if it has no form there), hashed
// whole and clipped for display as topk_add clips it.
ds::ImportItem string_item(const ds::FrequentItem& item) {
  const char* utf8 = reinterpret_cast<const char*>(item.text);
  const int len = static_cast<int>(item.len);
  const char* server = pg_any_to_server(utf8, len, PG_UTF8);
  const int server_len = server == utf8 ? len : static_cast<int>(std::strlen(server));
  const bool clipped = server_len > static_cast<int>(topk::kMaxItemBytes);
  const int shown =
      clipped ? pg_mbcliplen(server, server_len, static_cast<int>(topk::kMaxItemBytes))
              : server_len;
  return ds::ImportItem{hash64(server, static_cast<size_t>(server_len)), item.counter,
                        reinterpret_cast<const uint8*>(server), static_cast<uint32>(shown),
                        clipped};
}

}  // namespace

extern "C" Datum topk_from_datasketches(PG_FUNCTION_ARGS) {
  const bytea* b = PG_GETARG_BYTEA_PP(0);
  ds::FrequentView v;
  check(ds::parse_frequent(reinterpret_cast<const uint8*>(VARDATA_ANY(b)), VARSIZE_ANY_EXHDR(b),
                           &v),
        ERRCODE_INVALID_BINARY_REPRESENTATION);
  uint32 k;
  check(ds::import_k(v, &k), ERRCODE_FEATURE_NOT_SUPPORTED);
  if (v.empty) {
    struct varlena* out = new_sketch(topk::empty_size());
    topk::write_empty(k, payload(out));
    PG_RETURN_POINTER(out);
  }
  auto* items = static_cast<ds::ImportItem*>(palloc(sizeof(ds::ImportItem) * v.count));
  size_t cursor = 0;
  for (uint32 i = 0; i < v.count; i++) {
    const ds::FrequentItem item = ds::frequent_item(v, i, &cursor);
    items[i] = v.type == ds::ItemType::kLong ? long_item(item) : string_item(item);
  }
  const ElementKind kind = v.type == ds::ItemType::kLong ? ElementKind::kNumber : ElementKind::kText;
  struct varlena* out = new_sketch(ds::imported_size(items, v.count));
  check(ds::write_imported(k, kind, v.total, v.max_error, items, v.count, payload(out)),
        ERRCODE_INVALID_BINARY_REPRESENTATION);
  PG_RETURN_POINTER(out);
}
