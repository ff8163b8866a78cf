// The allocator the tests, fuzz targets and benchmarks give the core's
// aggregate-state mechanism (core/common/working_state.h), so that they drive the
// very code the PostgreSQL wrapper drives (src/pg/common/aggregate_state.h, where
// the allocator is palloc) instead of a copy of it.
//
// arena(len) returns `len` zeroed bytes that stay where they are as long as
// the arena lives. Each block is its own heap allocation of exactly `len`
// bytes, so AddressSanitizer reports a write one byte past a state, which a
// shared or rounded-up buffer would hide. A caller that keeps a state beyond
// the arena moves its block out with take().
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace sketch::test {

class Arena {
 public:
  Arena() = default;
  // Blocks are handed out by address: an arena is never copied. Moving one
  // keeps every block where it is.
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  Arena(Arena&&) = default;
  Arena& operator=(Arena&&) = default;

  uint8_t* operator()(size_t len) {
    // The first block is held inline: most callers (a state that grows once
    // for one value) then allocate nothing but the block itself.
    std::vector<uint8_t>& block = allocations_ == 0 ? first_ : more_.emplace_back();
    block.resize(len);  // zeroed, exactly len bytes
    allocations_++;
    return block.data();
  }

  // Blocks handed out since the arena was made.
  size_t allocations() const { return allocations_; }

  // The length of a block this arena handed out and still holds.
  size_t size_of(const uint8_t* block) const { return find(block).size(); }

  // Moves a block out of the arena: the bytes stay where they are and now
  // belong to the returned vector (whose size is the block's length).
  std::vector<uint8_t> take(const uint8_t* block) {
    std::vector<uint8_t>& b = find(block);
    std::vector<uint8_t> out = std::move(b);
    b = std::vector<uint8_t>();
    return out;
  }

 private:
  std::vector<uint8_t>& find(const uint8_t* block) {
    for (auto it = more_.rbegin(); it != more_.rend(); ++it)
      if (!it->empty() && it->data() == block) return *it;
    if (!first_.empty() && first_.data() == block) return first_;
    throw std::logic_error("test::Arena: not a block of this arena");
  }
  const std::vector<uint8_t>& find(const uint8_t* block) const {
    return const_cast<Arena*>(this)->find(block);
  }

  std::vector<uint8_t> first_;
  std::vector<std::vector<uint8_t>> more_;
  size_t allocations_ = 0;
};

}  // namespace sketch::test
