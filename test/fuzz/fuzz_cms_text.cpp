// Fuzz target: cms's text input, "\x<hex>" (cms_in: text literals, COPY text
// format, partial aggregates shipped as text), decoded like
// sketch_from_text (text_input.h), then parsed in kCanonical mode and
// checked like binary input (cms_readers.h); what is accepted prints back as
// the input, lowercased.
#include "cms_readers.h"
#include "text_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sketch;
  using namespace sketch::fuzz;
  TextInput in;
  if (!decode_text(data, size, &in)) return 0;
  cms::View v;
  if (!cms::parse(in.decoded.data(), in.decoded.size(), cms::Validation::kCanonical, &v).is_ok())
    return 0;
  cms_readers::exercise_canonical(in.decoded);
  check_prints_back(in);
  return 0;
}
