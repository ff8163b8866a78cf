// Fuzz target: theta's text input, "\x<hex>" (theta_in: text literals, COPY
// text format, and the text form distributed engines ship partial states
// in). The input is the C string theta_in receives: it is cut at the first
// NUL, as PostgreSQL's cstring is, then decoded and parsed like
// sketch_from_text (text_input.h).
#include "text_input.h"
#include "theta_readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sketch;
  using namespace sketch::fuzz;
  TextInput in;
  if (!decode_text(data, size, &in)) return 0;
  theta::View v;
  if (!theta::parse(in.decoded.data(), in.decoded.size(), Validation::kCanonical, &v).is_ok())
    return 0;
  theta_readers::exercise_canonical(in.decoded);
  check_prints_back(in);
  return 0;
}
