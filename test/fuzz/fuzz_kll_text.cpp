// Fuzz target: kll's text input, "\x<hex>" (kll_in: text literals, COPY text
// format, and the text form distributed engines ship partial states in).
// The input is the C string kll_in receives: cut at the first NUL, then
// decoded and parsed like sketch_from_text (text_input.h).
#include "kll_readers.h"
#include "text_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sketch;
  using namespace sketch::fuzz;
  TextInput in;
  if (!decode_text(data, size, &in)) return 0;
  kll::View v;
  if (!kll::parse(in.decoded.data(), in.decoded.size(), Validation::kCanonical, &v).is_ok())
    return 0;
  kll_readers::on_strict(in.decoded);
  check_prints_back(in);
  return 0;
}
