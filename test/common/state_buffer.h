// A sketch held in a std::vector and updated through the core's
// aggregate-state mechanism (core/common/working_state.h: to_working, add, merge,
// to_stored), the code the PostgreSQL wrapper runs for every transition,
// combine and final function (src/pg/common/aggregate_state.h). The test helpers of
// every family (test/common/<type>_test_util.h) keep their sketch in one, so
// that what the tests, accuracy tests, corpus generators and benchmarks add
// and merge goes through the real conversions and grow-and-retry loop, not a
// copy of them.
//
// The buffer plays the executor's own transition state: the first update
// hands it to state::to_working with owned = true, which updates it in place
// when the family says it already is a working state and copies it into a
// new one otherwise (a stored sparse hll, a stored cms). After that every
// add is one state::add: the family's in-place add, and a grown buffer only
// when the family asks for one. A grown buffer is made by a test::Arena and
// moved into the vector, so the vector always holds exactly the state's
// bytes (AddressSanitizer sees a write past its end).
//
// No GoogleTest here: failures throw, which GoogleTest reports as a test
// failure and which the benchmarks and corpus generators can include too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arena.h"
#include "core/common/status.h"
#include "core/common/working_state.h"

#if defined(__GNUC__) || defined(__clang__)
#define SKETCH_TEST_FLATTEN __attribute__((flatten))
#else
#define SKETCH_TEST_FLATTEN
#endif

namespace sketch::test {

template <class Family>
class StateBuffer {
 public:
  using View = typename Family::View;
  using Element = typename Family::Element;

  StateBuffer() = default;
  // Any bytes Family::parse accepts, stored or working; they are not known
  // to be a working state until the first update has checked.
  explicit StateBuffer(std::vector<uint8_t> bytes) : buf_(std::move(bytes)) {}

  const std::vector<uint8_t>& bytes() const { return buf_; }
  // For tests that edit the bytes: the next update checks them again.
  std::vector<uint8_t>& mutable_bytes() {
    working_ = false;
    return buf_;
  }
  void assign(std::vector<uint8_t> bytes) {
    buf_ = std::move(bytes);
    working_ = false;
  }

  View view() const {
    View v;
    const Status st = Family::parse(buf_.data(), buf_.size(), &v);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    return v;
  }

  // One element, as a transition function adds it. Returns how many new
  // buffers state::add made for it (the family's growths).
  //
  // Tests add hundreds of millions of values: `flatten` inlines state::add
  // and the family's add here, so that an in-place add costs a call of the
  // core's add and little more (hll accuracy tests 4.2 s without it, 3.5 s
  // with it, as with the hand-written loop this replaced).
  SKETCH_TEST_FLATTEN size_t add(Element& element) {
    if (!working_) make_working();
    // The arena is made only when the family asks for a larger buffer, so
    // that the common in-place add costs the family's add and no more.
    std::optional<Arena> arena;
    auto alloc = [&arena](size_t len) {
      if (!arena) arena.emplace();
      return (*arena)(len);
    };
    uint8_t* out = nullptr;
    const Status st = state::add<Family>(buf_.data(), buf_.size(), element, alloc, &out);
    if (!st.is_ok()) throw std::logic_error(std::string("state::add: ") + st.message());
    if (out == buf_.data()) return 0;
    buf_ = arena->take(out);
    return arena->allocations();
  }

  // this ∪ other, as the union transition and combine functions do it.
  // `other` must not point into this buffer. A refusal (mismatched
  // parameters) leaves the bytes as they were.
  Status merge(const View& other) {
    Arena arena;
    uint8_t* state = nullptr;
    Status st = state::to_working<Family>(buf_.data(), buf_.size(), true, arena, &state);
    if (!st.is_ok()) return st;
    const size_t len = state == buf_.data() ? buf_.size() : arena.size_of(state);
    uint8_t* out = nullptr;
    size_t out_len = 0;
    st = state::merge<Family>(state, len, other, arena, &out, &out_len);
    if (!st.is_ok()) return st;
    if (out != buf_.data()) buf_ = arena.take(out);
    if (buf_.size() != out_len) throw std::logic_error("state::merge: wrong result length");
    working_ = true;
    return Status::ok();
  }

  // The stored form, as the final functions, output and send give it.
  std::vector<uint8_t> stored() const {
    Arena arena;
    uint8_t* out = nullptr;
    size_t len = 0;
    const Status st = state::to_stored<Family>(buf_.data(), buf_.size(), arena, &out, &len);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    return arena.take(out);
  }

 private:
  void make_working() {
    Arena arena;
    uint8_t* state = nullptr;
    const Status st = state::to_working<Family>(buf_.data(), buf_.size(), true, arena, &state);
    if (!st.is_ok()) throw std::runtime_error(st.message());
    if (state != buf_.data()) buf_ = arena.take(state);
    working_ = true;
  }

  std::vector<uint8_t> buf_;
  bool working_ = false;  // buf_ came out of to_working, add or merge
};

}  // namespace sketch::test
