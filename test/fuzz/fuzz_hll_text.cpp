// Fuzz target: hll's text input, "\x<hex>" (hll_in: text literals, COPY text
// format, and the text form distributed engines ship partial states in).
// The input is the C string hll_in receives: it is cut at the first NUL, as
// PostgreSQL's cstring is, then decoded and parsed like sketch_from_text
// (text_input.h).
#include "hll_readers.h"
#include "text_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sketch;
  using namespace sketch::fuzz;
  TextInput in;
  if (!decode_text(data, size, &in)) return 0;
  hll::View v;
  if (!hll::parse(in.decoded.data(), in.decoded.size(), hll::Validation::kCanonical, &v).is_ok())
    return 0;
  hll_readers::exercise_canonical(in.decoded);
  check_prints_back(in);
  return 0;
}
