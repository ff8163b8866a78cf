// Test helpers for the topk core: a std::vector-backed summary that adds,
// merges and stores through the same aggregate-state mechanism as the
// PostgreSQL wrapper (core/common/working_state.h over topk::Family, see
// test/common/state_buffer.h), items named by integers (hash = the real
// element hash of the number's canonical encoding, text = its decimal
// digits), and exact counts to compare with.
//
// No GoogleTest here: failures throw, which GoogleTest reports as a test
// failure and which the corpus generators and benchmarks can include too.
#pragma once

#include "number_items.h"
#include "state_buffer.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/element_kind.h"
#include "core/common/hash.h"
#include "core/topk/topk.h"
#include "core/topk/topk_family.h"

namespace sketch::topk::test {

using sketch::test::item_hash;
using sketch::test::Random;

inline std::vector<uint8_t> empty_stored(uint32_t k) {
  std::vector<uint8_t> out(empty_size());
  write_empty(k, out.data());
  out[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kNone);
  return out;
}

inline View must_parse(const std::vector<uint8_t>& bytes,
                       Validation validation = Validation::kStructure) {
  View v;
  const Status st = parse(bytes.data(), bytes.size(), validation, &v);
  if (!st.is_ok()) throw std::runtime_error(st.message());
  return v;
}

struct HeldItem {
  std::string text;
  uint64_t hash;
  uint64_t lower;
  uint64_t upper;
};

// A summary of integer items through the real state mechanism.
class Summary {
 public:
  explicit Summary(uint32_t k = kDefaultK) : buffer_(empty_stored(k)) {}
  explicit Summary(std::vector<uint8_t> bytes) : buffer_(std::move(bytes)) {}

  // Adds `weight` occurrences; false when N would pass kMaxTotal (nothing
  // added). Counts how often the item's text was asked for.
  bool add(int64_t item, uint64_t weight = 1) {
    Pending pending{item, {}, &texts_made_};
    Family::Element e = Family::element(item_hash(item), weight, &Summary::text_of, &pending);
    buffer_.add(e);
    return !e.overflowed;
  }

  Status merge(const Summary& other) {
    const std::vector<uint8_t> bytes = other.stored();
    return buffer_.merge(must_parse(bytes));
  }
  Status merge_bytes(const std::vector<uint8_t>& bytes) { return buffer_.merge(must_parse(bytes)); }

  std::vector<uint8_t> stored() const { return buffer_.stored(); }
  const std::vector<uint8_t>& bytes() const { return buffer_.bytes(); }
  size_t texts_made() const { return texts_made_; }

  // The stored summary's items best first.
  std::vector<HeldItem> items() const { return items_of(stored()); }

  static std::vector<HeldItem> items_of(const std::vector<uint8_t>& bytes) {
    const View v = must_parse(bytes, Validation::kCanonical);
    std::vector<uint32_t> order(v.count);
    best_first(v, order.data());
    std::vector<HeldItem> out;
    for (uint32_t i : order) {
      const Item item = stored_item(v, i);
      out.push_back(HeldItem{std::string(reinterpret_cast<const char*>(item.text), item.len),
                             item.hash, item.count, item.count + v.max_error});
    }
    return out;
  }

 private:
  struct Pending {
    int64_t item;
    std::string text;
    size_t* texts_made;
  };

  static Family::Text text_of(void* context) {
    auto* p = static_cast<Pending*>(context);
    p->text = std::to_string(p->item);
    (*p->texts_made)++;
    return Family::Text{reinterpret_cast<const uint8_t*>(p->text.data()),
                        static_cast<uint32_t>(p->text.size()), false};
  }

  sketch::test::StateBuffer<Family> buffer_;
  size_t texts_made_ = 0;
};

}  // namespace sketch::topk::test
