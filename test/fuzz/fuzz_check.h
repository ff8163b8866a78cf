// What every fuzz target shares: a check that aborts (so libFuzzer and the
// replay driver both report it as a crash, with the input saved), and exact
// size copies of inputs (so AddressSanitizer sees any read past the end).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/common/status.h"

#define FUZZ_CHECK(cond)                                                         \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s at %s:%d\n", #cond, __FILE__, \
                   __LINE__);                                                    \
      std::abort();                                                              \
    }                                                                            \
  } while (0)

namespace sketch::fuzz {

using Bytes = std::vector<uint8_t>;

inline Bytes copy_of(const uint8_t* data, size_t size) { return Bytes(data, data + size); }

// Every sketch type's parse has this shape.
template <class View, class Validation>
using ParseFn = Status (*)(const uint8_t*, size_t, Validation, View*);

// Bytes the caller knows parse accepts (it checked, or wrote them).
template <class View, class Validation>
View parse_or_abort(ParseFn<View, Validation> parse, const Bytes& bytes, Validation validation) {
  View v;
  const Status st = parse(bytes.data(), bytes.size(), validation, &v);
  if (!st.is_ok()) std::fprintf(stderr, "unexpected parse failure: %s\n", st.message());
  FUZZ_CHECK(st.is_ok());
  return v;
}

// The driver of every *_parse target: parses in the strict mode (what
// external input goes through) and the lenient one (our own values and
// aggregate states) and runs the matching readers. A refusal is always
// kInvalidFormat with a message, and what the strict mode accepts the
// lenient one accepts too.
template <class View, class Validation, class OnStrict, class OnLenient>
void exercise_both_modes(ParseFn<View, Validation> parse, Validation strict, Validation lenient,
                         const uint8_t* data, size_t size, OnStrict on_strict,
                         OnLenient on_lenient) {
  const Bytes input = copy_of(data, size);
  View v;
  const Status strict_status = parse(input.data(), input.size(), strict, &v);
  if (strict_status.is_ok()) {
    on_strict(input);
  } else {
    FUZZ_CHECK(strict_status.code() == StatusCode::kInvalidFormat);
    FUZZ_CHECK(strict_status.message()[0] != '\0');
  }
  const Status lenient_status = parse(input.data(), input.size(), lenient, &v);
  if (lenient_status.is_ok()) {
    on_lenient(input);
  } else {
    FUZZ_CHECK(lenient_status.code() == StatusCode::kInvalidFormat);
    FUZZ_CHECK(!strict_status.is_ok());
  }
}

}  // namespace sketch::fuzz
