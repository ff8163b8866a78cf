// Fuzz target: cuckoo's binary format, as it arrives through recv (COPY
// BINARY, the binary protocol) and casts from bytea, and as aggregate states
// are re-read. Both validation modes; see cuckoo_readers.h.
#include "cuckoo_readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sketch::fuzz::cuckoo_readers::exercise(data, size);
  return 0;
}
