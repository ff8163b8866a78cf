#include "pg/common/detoast_cache.h"

#include <cstring>

extern "C" {
#include "access/detoast.h"
}

namespace sketch::pg {

namespace {

void forget(DetoastCache* cache) {
  cache->key = DetoastCache::Key::kNone;
  if (cache->value != nullptr) pfree(cache->value);
  if (cache->compressed != nullptr) pfree(cache->compressed);
  cache->value = nullptr;
  cache->compressed = nullptr;
}

// Detoasts into fn_mcxt. The cache is emptied first, so an error while
// fetching leaves it empty rather than half-filled.
void refill(FmgrInfo* flinfo, DetoastCache* cache, struct varlena* raw) {
  forget(cache);
  MemoryContext old = MemoryContextSwitchTo(flinfo->fn_mcxt);
  cache->value = detoast_attr(raw);
  MemoryContextSwitchTo(old);
  cache->generation++;
}

}  // namespace

const struct varlena* detoast_cached(FmgrInfo* flinfo, DetoastCache* cache, Datum datum) {
  auto* raw = reinterpret_cast<struct varlena*>(DatumGetPointer(datum));
  // Plain 4-byte or short 1-byte header (not a TOAST pointer, which also
  // has a 1-byte header): readable in place.
  if (VARATT_IS_4B_U(raw) || (VARATT_IS_1B(raw) && !VARATT_IS_1B_E(raw))) return raw;

  if (VARATT_IS_EXTERNAL_ONDISK(raw)) {
    varatt_external pointer;
    VARATT_EXTERNAL_GET_POINTER(pointer, raw);
    if (cache->key == DetoastCache::Key::kExternal && cache->toast_relid == pointer.va_toastrelid &&
        cache->value_id == pointer.va_valueid && cache->raw_size == pointer.va_rawsize &&
        cache->ext_info == pointer.va_extinfo)
      return cache->value;
    refill(flinfo, cache, raw);
    cache->toast_relid = pointer.va_toastrelid;
    cache->value_id = pointer.va_valueid;
    cache->raw_size = pointer.va_rawsize;
    cache->ext_info = pointer.va_extinfo;
    cache->key = DetoastCache::Key::kExternal;
    return cache->value;
  }

  if (VARATT_IS_COMPRESSED(raw)) {
    const Size size = VARSIZE(raw);
    if (cache->key == DetoastCache::Key::kCompressed && VARSIZE(cache->compressed) == size &&
        std::memcmp(cache->compressed, raw, size) == 0)
      return cache->value;
    refill(flinfo, cache, raw);
    cache->compressed = static_cast<struct varlena*>(MemoryContextAlloc(flinfo->fn_mcxt, size));
    std::memcpy(cache->compressed, raw, size);
    cache->key = DetoastCache::Key::kCompressed;
    return cache->value;
  }

  // Indirect or expanded values exist only in memory for the duration of
  // one call site's input; detoast them plainly.
  return PG_DETOAST_DATUM(datum);
}

}  // namespace sketch::pg
