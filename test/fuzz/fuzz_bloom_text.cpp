// Fuzz target: bloom's text input, "\x<hex>" (bloom_in), decoded like
// sketch_from_text (text_input.h), then parsed in kCanonical mode and checked
// like binary input (bloom_readers.h); what is accepted prints back as the
// input, lowercased.
#include "bloom_readers.h"
#include "text_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sketch;
  using namespace sketch::fuzz;
  TextInput in;
  if (!decode_text(data, size, &in)) return 0;
  bloom::View v;
  if (!bloom::parse(in.decoded.data(), in.decoded.size(), bloom::Validation::kCanonical, &v).is_ok())
    return 0;
  bloom_readers::exercise_stored(in.decoded);
  check_prints_back(in);
  return 0;
}
