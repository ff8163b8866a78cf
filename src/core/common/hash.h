// The one hash function every sketch uses, and its recorded identity.
//
// Sketches built on different servers must merge, so the hash must not depend
// on the process, the CPU or the version: XXH3 with a fixed seed over a
// canonical byte encoding of the value (the encoding is the caller's job, see
// src/pg/common/element_hash.h). The identity below is stored in every sketch; two
// sketches with different identities hash the same value differently and are
// never merged.
#pragma once

#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#include <xxhash.h>

// XXH3's output is declared stable only from xxHash 0.8.0 (earlier releases
// marked it experimental, and 0.7.x changed it between versions): a build
// against an older xxhash.h would hash values differently from every stored
// sketch, so it must not compile. XXH_VERSION_NUMBER is major*10000 +
// minor*100 + release.
#if !defined(XXH_VERSION_NUMBER) || XXH_VERSION_NUMBER < 800
#error "sketch needs xxHash >= 0.8.0: XXH3 output is stable only from 0.8.0 (stored sketches depend on it)"
#endif

#include "core/common/header.h"  // kHashIdentity, the identity of this hash

namespace sketch {

constexpr uint64_t kHashSeed = 0;

inline uint64_t hash64(const void* data, size_t len) {
  return XXH3_64bits_withSeed(data, len, kHashSeed);
}

struct Hash128 {
  uint64_t low;
  uint64_t high;
};

inline Hash128 hash128(const void* data, size_t len) {
  XXH128_hash_t h = XXH3_128bits_withSeed(data, len, kHashSeed);
  return Hash128{h.low64, h.high64};
}

}  // namespace sketch
