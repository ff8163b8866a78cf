// Fuzz target: counting_bloom's binary format, as it arrives through recv (COPY
// BINARY, the binary protocol) and casts from bytea, and as aggregate states
// are re-read. Both validation modes; see counting_bloom_readers.h.
#include "counting_bloom_readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sketch::fuzz::counting_bloom_readers::exercise(data, size);
  return 0;
}
