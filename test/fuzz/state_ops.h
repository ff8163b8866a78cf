// The core's aggregate-state mechanism (core/common/working_state.h) as the fuzz
// targets drive it: every working state, added value, union and stored form
// in a fuzz target goes through state::to_working, state::add, state::merge
// and state::to_stored over the family's traits, the code the PostgreSQL
// wrapper runs (src/pg/common/aggregate_state.h), with a test::Arena in place of
// palloc. Each buffer is an exact-size heap block, so AddressSanitizer sees
// any write past a state.
//
// Whatever the mechanism must guarantee is checked here with FUZZ_CHECK:
// to_working with owned = false never writes its input; what it returns is a
// working state; to_working with owned = true hands a working state back as
// it is; a refused merge writes nothing; no growth loop runs away.
#pragma once

#include <cstddef>
#include <cstdint>

#include "arena.h"
#include "core/common/element_kind.h"
#include "core/common/status.h"
#include "core/common/working_state.h"
#include "fuzz_check.h"

namespace sketch::fuzz::states {

// The largest state PostgreSQL can hold (MaxAllocSize less the varlena
// header). palloc refuses more with an ERROR; no input a fuzzer can make is
// large enough to justify asking for it, so here it is a finding.
constexpr size_t kMaxStateBytes = 0x3fffffff - 4;

// More growths for one value than any family needs (hll: a larger set, then
// dense; cms: one larger arena) means a loop that does not converge.
constexpr int kMaxGrowthsPerAdd = 4;

// The allocator given to the mechanism: the arena, with the server's limit.
struct Allocator {
  test::Arena* arena;
  int calls = 0;
  uint8_t* operator()(size_t len) {
    FUZZ_CHECK(len > 0 && len <= kMaxStateBytes);
    calls++;
    return (*arena)(len);
  }
};

template <class Family>
typename Family::View view_of(const Bytes& bytes) {
  typename Family::View v;
  const Status st = Family::parse(bytes.data(), bytes.size(), &v);
  if (!st.is_ok()) std::fprintf(stderr, "state does not parse: %s\n", st.message());
  FUZZ_CHECK(st.is_ok());
  return v;
}

// state::to_working(owned = false): what the wrapper does with every value
// it does not own (an INITCOND, a direct call's argument, a value read
// through a detoasted copy). The input is never written; the result is a new
// working state. A refusal is kInvalidFormat with a message.
template <class Family>
Status working_copy(const Bytes& bytes, Bytes* out) {
  Bytes input = bytes;  // exact size; to_working must only read it
  test::Arena arena;
  Allocator alloc{&arena};
  uint8_t* state = nullptr;
  const Status st = state::to_working<Family>(input.data(), input.size(), false, alloc, &state);
  FUZZ_CHECK(input == bytes);
  if (!st.is_ok()) {
    FUZZ_CHECK(st.code() == StatusCode::kInvalidFormat && st.message()[0] != '\0');
    FUZZ_CHECK(alloc.calls == 0);
    return st;
  }
  FUZZ_CHECK(state != input.data() && alloc.calls == 1);
  *out = arena.take(state);
  FUZZ_CHECK(Family::is_working(out->data(), out->size()));
  view_of<Family>(*out);
  return st;
}

// A working copy of bytes the caller knows parse.
template <class Family>
Bytes working_copy(const Bytes& bytes) {
  Bytes out;
  FUZZ_CHECK(working_copy<Family>(bytes, &out).is_ok());
  return out;
}

// state::to_working(owned = true) on `state`, the executor's own buffer:
// returns the state to use (`state` itself when it already is a working
// state, else a new copy). Only for bytes a caller may own: a working state
// this mechanism made, or a valid stored value (an INITCOND); never
// arbitrary bytes that merely look like a working state.
template <class Family>
void take_owned(Bytes* state) {
  const Bytes before = *state;
  test::Arena arena;
  Allocator alloc{&arena};
  uint8_t* out = nullptr;
  FUZZ_CHECK(state::to_working<Family>(state->data(), state->size(), true, alloc, &out).is_ok());
  if (out == state->data()) {
    FUZZ_CHECK(alloc.calls == 0 && *state == before);
    return;
  }
  FUZZ_CHECK(*state == before);
  *state = arena.take(out);
  FUZZ_CHECK(Family::is_working(state->data(), state->size()));
}

// A working state made by this mechanism, taken back with owned = true: it
// must be used in place, as the executor's state is from row to row.
template <class Family>
void check_taken_in_place(Bytes* state) {
  const uint8_t* before = state->data();
  take_owned<Family>(state);
  FUZZ_CHECK(state->data() == before);
}

// state::add of one element to a working state, in place or into the grown
// buffer that replaces it.
template <class Family>
void add(Bytes* state, typename Family::Element& element) {
  test::Arena arena;
  Allocator alloc{&arena};
  uint8_t* out = nullptr;
  FUZZ_CHECK(state::add<Family>(state->data(), state->size(), element, alloc, &out).is_ok());
  FUZZ_CHECK(alloc.calls <= kMaxGrowthsPerAdd);
  if (out != state->data()) *state = arena.take(out);
}

// state::accept_kind before a value of `kind` is added: an empty state (or
// one built before kinds were recorded) takes the kind, an equal kind
// passes; a refusal is kMismatch and writes nothing.
inline Status accept_kind(Bytes* state, ElementKind kind) {
  const Bytes before = *state;
  const Status st = state::accept_kind(state->data(), kind);
  if (!st.is_ok()) {
    FUZZ_CHECK(*state == before);
    FUZZ_CHECK(st.code() == StatusCode::kMismatch && st.message()[0] != '\0');
    return st;
  }
  FUZZ_CHECK(element_kind_of(state->data()) == kind);
  return st;
}

// Whether bytes hold values a family deferred (cuckoo's queue): the
// mechanism settles them first, which may allocate (a copy of a settled
// other, growth) and writes the state before anything can be refused.
template <class Family>
bool has_pending(const uint8_t* data, size_t len) {
  if constexpr (Family::kDefersAdds) {
    return Family::has_pending(data, len);
  } else {
    (void)data;
    (void)len;
    return false;
  }
}

// state::merge of `other` into a working state. A refusal writes nothing
// (but settles a state with deferred values).
template <class Family>
Status merge(Bytes* state, const typename Family::View& other) {
  const Bytes before = *state;
  const bool settles = has_pending<Family>(state->data(), state->size()) ||
                       has_pending<Family>(Family::bytes_of(other), other.size);
  test::Arena arena;
  Allocator alloc{&arena};
  uint8_t* out = nullptr;
  size_t out_len = 0;
  const Status st = state::merge<Family>(state->data(), state->size(), other, alloc, &out, &out_len);
  if (!st.is_ok()) {
    FUZZ_CHECK(settles || (*state == before && alloc.calls == 0));
    FUZZ_CHECK(st.message()[0] != '\0');
    return st;
  }
  if (out == state->data()) {
    FUZZ_CHECK(out_len == state->size() && (settles || alloc.calls == 0));
  } else {
    FUZZ_CHECK(alloc.calls == 1 || (settles && alloc.calls > 1));
    *state = arena.take(out);
    FUZZ_CHECK(out_len == state->size());
  }
  view_of<Family>(*state);
  return st;
}

// state::to_stored: the final function's, output's and send's form. The
// input is not written.
template <class Family>
Bytes stored(const uint8_t* data, size_t len) {
  test::Arena arena;
  Allocator alloc{&arena};
  uint8_t* out = nullptr;
  size_t out_len = 0;
  const Status st = state::to_stored<Family>(data, len, alloc, &out, &out_len);
  if (!st.is_ok()) std::fprintf(stderr, "to_stored refused: %s\n", st.message());
  // A deferred state is settled on a copy first (one more buffer, and one
  // per growth while settling).
  FUZZ_CHECK(st.is_ok() && (alloc.calls == 1 || (has_pending<Family>(data, len) && alloc.calls > 1)));
  Bytes result = arena.take(out);
  FUZZ_CHECK(result.size() == out_len);
  return result;
}

template <class Family>
Bytes stored(const Bytes& bytes) {
  return stored<Family>(bytes.data(), bytes.size());
}

}  // namespace sketch::fuzz::states
