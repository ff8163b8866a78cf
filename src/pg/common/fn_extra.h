// What a call site keeps between calls: fn_extra, as one struct per
// function, allocated zeroed in fn_mcxt on the site's first call (so it
// lives as long as the FmgrInfo and is never freed or destroyed by us).
//
// Every fn_extra this extension makes starts with a TrustedState
// (trusted_state.h), so that the shared state mechanism can find it without
// knowing what else the function keeps there: nothing in src/pg sets
// fn_extra except fn_extra_of.
#pragma once

#include <type_traits>

#include "core/common/status.h"  // before the server headers: port.h renames printf
#include "pg/common/postgres_headers.h"
#include "pg/common/trusted_state.h"

namespace sketch::pg {

// The layout of every fn_extra of ours: the TrustedState first.
template <class T>
struct FnExtra {
  TrustedState trusted;
  T value;
};

// fn_extra as a T, made on the first call, when `init(T*)` runs.
template <class T, class Init>
pg_attribute_always_inline T* fn_extra_of(FunctionCallInfo fcinfo, Init init) {
  static_assert(std::is_trivially_destructible_v<T>,
                "fn_extra is freed with its memory context, never destroyed");
  auto* extra = static_cast<FnExtra<T>*>(fcinfo->flinfo->fn_extra);
  if (likely(extra != nullptr)) return &extra->value;
  extra = static_cast<FnExtra<T>*>(
      MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FnExtra<T>)));
  init(&extra->value);
  fcinfo->flinfo->fn_extra = extra;
  return &extra->value;
}

template <class T>
pg_attribute_always_inline T* fn_extra_of(FunctionCallInfo fcinfo) {
  return fn_extra_of<T>(fcinfo, [](T*) {});
}

}  // namespace sketch::pg
