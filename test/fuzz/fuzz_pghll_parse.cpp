// Fuzz target: postgresql-hll's bytes as hll_from_postgresql_hll reads them,
// and our hash identity 2 encodings as every hll reader meets them (stored
// values, casts from bytea, aggregate states). See pghll.h.
//
// Byte 0 of the input picks the path: even, the rest is the peer's bytes
// (seed from byte 0); odd, the rest is an hll value of ours. What is accepted
// goes through import, the stored form, export, unions with itself and an
// empty sketch of its parameters, and adds of the peer's hashes through the
// aggregate-state mechanism; what is refused is refused with a message, never
// a memory error.
#include <cmath>

#include "core/hll/hll_family.h"
#include "core/hll/pghll.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace {

using namespace sketch;
using namespace sketch::fuzz;
using hll::Family;
namespace pghll = hll::pghll;

void check_estimate(const hll::View& v) {
  const double n = hll::estimate(v);
  FUZZ_CHECK(std::isfinite(n) && n >= 0);
  const hll::Bounds b = hll::bounds(v, 0.95);
  FUZZ_CHECK(std::isfinite(b.lower) && std::isfinite(b.upper) && b.lower <= b.upper);
}

// Our stored form of a valid identity 2 sketch: canonical, exports bytes the
// peer format accepts as canonical, and survives unions and adds.
void exercise_stored(const Bytes& stored) {
  hll::View v;
  FUZZ_CHECK(hll::parse(stored.data(), stored.size(), hll::Validation::kCanonical, &v).is_ok());
  FUZZ_CHECK(v.encoding == hll::Encoding::kPghll);
  check_estimate(v);
  size_t n;
  const uint8_t* peer = pghll::peer_bytes(v, &n);
  pghll::PeerView p;
  const pghll::Params params = pghll::params_of(v);
  FUZZ_CHECK(pghll::parse_peer(peer, n, params.seed, &p).is_ok());
  FUZZ_CHECK(pghll::peer_is_canonical(p));
  FUZZ_CHECK(states::stored<Family>(stored) == stored);

  // a ∪ a = a; a ∪ ∅ = a
  Bytes state = states::working_copy<Family>(stored);
  FUZZ_CHECK(states::merge<Family>(&state, v).is_ok());
  FUZZ_CHECK(states::stored<Family>(state) == stored);
  Bytes empty(pghll::empty_working_size());
  pghll::write_empty_working(params, empty.data());
  Bytes empty_stored = states::stored<Family>(empty);
  Bytes e = states::working_copy<Family>(empty_stored);
  FUZZ_CHECK(states::merge<Family>(&e, v).is_ok());
  FUZZ_CHECK(states::stored<Family>(e) == stored);

  // Adds of the peer's hashes; an identity 1 hash is refused.
  for (uint64_t h : {0ull, 1ull, 0x8000000000000000ull, 0x0123456789abcdefull, ~0ull}) {
    Family::Element el{h, pghll::kIdentity, params.seed};
    states::add<Family>(&state, el);
  }
  const Bytes grown = states::stored<Family>(state);
  hll::View g;
  FUZZ_CHECK(hll::parse(grown.data(), grown.size(), hll::Validation::kCanonical, &g).is_ok());
  check_estimate(g);
  Family::Element ours{42};
  Family::Growth growth{};
  if (!Family::add(state.data(), ours, &growth))
    FUZZ_CHECK(Family::plan_growth(states::view_of<Family>(state), &growth).code() ==
               StatusCode::kMismatch);
}

void exercise_peer(const uint8_t* data, size_t size, int32_t seed) {
  pghll::PeerView p;
  const Status st = pghll::parse_peer(data, size, seed, &p);
  if (!st.is_ok()) {
    FUZZ_CHECK(st.message()[0] != '\0');
    return;
  }
  Bytes working(pghll::working_size_of(p));
  pghll::write_working_of(p, ElementKind::kNone, working.data());
  FUZZ_CHECK(Family::is_working(working.data(), working.size()));
  const Bytes stored = states::stored<Family>(working);
  exercise_stored(stored);
  // A canonical input is exported as itself.
  if (pghll::peer_is_canonical(p)) {
    size_t n;
    const uint8_t* out = pghll::peer_bytes(states::view_of<Family>(stored), &n);
    FUZZ_CHECK(n == size && std::equal(out, out + n, data));
  }
}

void exercise_ours(const Bytes& input) {
  hll::View v;
  if (hll::parse(input.data(), input.size(), hll::Validation::kCanonical, &v).is_ok()) {
    if (hll::is_pghll(v.encoding)) exercise_stored(input);
    return;
  }
  if (!hll::parse(input.data(), input.size(), hll::Validation::kStructure, &v).is_ok() ||
      !hll::is_pghll(v.encoding))
    return;
  // A working state, possibly crafted: every reader runs without a memory
  // error and what it writes parses.
  check_estimate(v);
  const Bytes stored = states::stored<Family>(input);
  hll::View s;
  FUZZ_CHECK(hll::parse(stored.data(), stored.size(), hll::Validation::kStructure, &s).is_ok());
  check_estimate(s);
  Bytes state = states::working_copy<Family>(input);
  FUZZ_CHECK(states::merge<Family>(&state, v).is_ok());
  Family::Element el{7, pghll::kIdentity, pghll::params_of(v).seed};
  states::add<Family>(&state, el);
  states::stored<Family>(state);
  Bytes owned = input;
  states::take_owned<Family>(&owned);
  states::add<Family>(&owned, el);
  states::stored<Family>(owned);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Bytes rest = copy_of(data + 1, size - 1);
  if ((data[0] & 1) == 0) exercise_peer(rest.data(), rest.size(), static_cast<int32_t>(data[0]) - 128);
  else exercise_ours(rest);
  return 0;
}
