// Fuzz target: kll's binary format, as it arrives through recv (COPY BINARY,
// the binary protocol) and casts from bytea, and as stored values and
// aggregate working states are re-read. Both validation modes; see
// kll_readers.h.
#include "kll_readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sketch::fuzz::kll_readers::exercise(data, size);
  return 0;
}
