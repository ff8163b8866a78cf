// Fuzz target: ell's binary format, as it will arrive through recv and casts
// from bytea, and as aggregate states are re-read. Both validation modes; see
// ell_readers.h.
#include "ell_readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sketch::fuzz::ell_readers::exercise(data, size);
  return 0;
}
