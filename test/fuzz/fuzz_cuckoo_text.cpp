// Fuzz target: cuckoo's text input, "\x<hex>" (cuckoo_in), decoded like
// sketch_from_text (text_input.h), then parsed in kCanonical mode and checked
// like binary input (cuckoo_readers.h); what is accepted prints back as the
// input, lowercased.
#include "cuckoo_readers.h"
#include "text_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sketch;
  using namespace sketch::fuzz;
  TextInput in;
  if (!decode_text(data, size, &in)) return 0;
  cuckoo::View v;
  if (!cuckoo::parse(in.decoded.data(), in.decoded.size(), cuckoo::Validation::kCanonical, &v)
           .is_ok())
    return 0;
  cuckoo_readers::exercise_stored(in.decoded);
  check_prints_back(in);
  return 0;
}
