// Fuzz target: hll's text input, "\x<hex>" (hll_in: text literals, COPY text
// format, and the text form distributed engines ship partial states in).
// The input is the C string hll_in receives: it is cut at the first NUL, as
// PostgreSQL's cstring is, then decoded and parsed like sketch_from_text.
#include <cctype>
#include <cstring>
#include <string>

#include "core/hex.h"
#include "hll_readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sketch;
  using namespace sketch::fuzz;
  const std::string text(reinterpret_cast<const char*>(data),
                         strnlen(reinterpret_cast<const char*>(data), size));
  // An exact-size copy of the characters (no terminating NUL to lean on).
  const Bytes chars(text.begin(), text.end());
  Bytes decoded(hex_decoded_size(chars.size()));
  const Status st =
      hex_decode(reinterpret_cast<const char*>(chars.data()), chars.size(), decoded.data());
  if (!st.is_ok()) {
    FUZZ_CHECK(st.code() == StatusCode::kInvalidText);
    FUZZ_CHECK(st.message()[0] != '\0');
    return 0;
  }
  FUZZ_CHECK(chars.size() >= 2 && chars.size() % 2 == 0);
  hll::View v;
  if (!hll::parse(decoded.data(), decoded.size(), hll::Validation::kCanonical, &v).is_ok())
    return 0;
  hll_readers::exercise_canonical(decoded);
  // The text form round-trips: what hll_out prints is the input, lowercased.
  std::string printed(hex_text_size(decoded.size()), '\0');
  hex_encode(decoded.data(), decoded.size(), printed.data());
  std::string lowered = text;
  for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  FUZZ_CHECK(printed == lowered);
  return 0;
}
