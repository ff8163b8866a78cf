// Fuzz target: approx_percentile_state (a ddsketch followed by the fractions
// asked, core/common/with_request.h) as its text and binary input meet it
// (the canonical validator) and as the aggregate's own functions re-read
// states (the structure parse). Whatever the structure parse accepts must
// survive a working copy, an add, a merge with itself and the stored form,
// each keeping the request byte for byte, and its quantiles must come back;
// what the validator accepts must be its own stored form.
#include <cmath>

#include "core/common/with_request.h"
#include "core/ddsketch/ddsketch_family.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace {

using namespace sketch;
using namespace sketch::fuzz;
using Family = state::WithRequest<ddsketch::Family>;

Status canonical_ddsketch(const uint8_t* data, size_t len) {
  ddsketch::View v;
  return ddsketch::parse(data, len, Validation::kCanonical, &v);
}

void check_request(const Family::View& v, const state::Request& asked) {
  FUZZ_CHECK(state::same_request(v.request, asked));
  for (uint32_t i = 0; i < v.request.count; i++) {
    const double q = state::request_fraction(v.request, i);
    FUZZ_CHECK(state::is_request_fraction(q));
    if (v.inner.count > 0) (void)ddsketch::quantile(v.inner, q);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Bytes input = copy_of(data, size);
  Family::View v;
  if (!Family::parse(input.data(), input.size(), &v).is_ok()) {
    FUZZ_CHECK(!state::validate_with_request<canonical_ddsketch>(input.data(), input.size())
                    .is_ok());
    return 0;
  }
  const Bytes request(v.request.fractions, v.request.fractions + v.request.size);
  const state::Request asked{request.data(), v.request.count, v.request.size};
  check_request(v, asked);

  const Bytes stored = states::stored<Family>(input);
  const Family::View sv = states::view_of<Family>(stored);
  FUZZ_CHECK(Family::is_stored(sv));
  check_request(sv, asked);
  FUZZ_CHECK(states::stored<Family>(stored) == stored);
  if (state::validate_with_request<canonical_ddsketch>(input.data(), input.size()).is_ok()) {
    FUZZ_CHECK(stored == input);
    // The canonical input of a state: a ∪ a keeps the request and parses.
    Bytes doubled = states::working_copy<Family>(stored);
    if (states::merge<Family>(&doubled, sv).is_ok())
      check_request(states::view_of<Family>(doubled), asked);
  }

  Bytes state = states::working_copy<Family>(input);
  Family::Element one{1.5};
  states::add<Family>(&state, one);
  Family::Element far{-1e300};
  states::add<Family>(&state, far);
  check_request(states::view_of<Family>(state), asked);
  check_request(states::view_of<Family>(states::stored<Family>(state)), asked);
  return 0;
}
