// What every fuzz target shares: a check that aborts (so libFuzzer and the
// replay driver both report it as a crash, with the input saved), and exact
// size copies of inputs (so AddressSanitizer sees any read past the end).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define FUZZ_CHECK(cond)                                                         \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s at %s:%d\n", #cond, __FILE__, \
                   __LINE__);                                                    \
      std::abort();                                                              \
    }                                                                            \
  } while (0)

namespace sketch::fuzz {

using Bytes = std::vector<uint8_t>;

inline Bytes copy_of(const uint8_t* data, size_t size) { return Bytes(data, data + size); }

}  // namespace sketch::fuzz
