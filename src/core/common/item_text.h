// The text an item carries into a sketch that lists its items by value
// (cms's heavy-hitter candidates, topk's items), asked for only when the
// item enters the list: most rows repeat an item already held, and
// rendering a value's text (its type's output function, in the SQL layer)
// costs more than the rest of the add. src/pg/common/item_text.h produces
// it; the core copies at most the family's limit of bytes.
#pragma once

#include <cstdint>

namespace sketch {

struct ItemText {
  const uint8_t* bytes;
  uint32_t len;
  bool clipped;  // the value's text was longer than the family's limit
};

// Called with the caller's context when the item's text is needed.
using ItemTextSource = ItemText (*)(void* context);

// A value on its way into an item table (the base of cms's and topk's
// Element): its hash and weight, and its text once the sketch asks for it,
// produced at most once however often the add is retried after growth.
struct PendingItem {
  uint64_t hash;
  uint64_t weight;  // >= 1
  ItemTextSource text_source;
  void* context;
  bool has_text;
  ItemText text;  // {nullptr, 0, false} until has_text

  static PendingItem of(uint64_t hash, uint64_t weight, ItemTextSource source, void* context) {
    return PendingItem{hash, weight, source, context, false, ItemText{nullptr, 0, false}};
  }

  const ItemText& text_now() {
    if (!has_text) {
      text = text_source(context);
      has_text = true;
    }
    return text;
  }
};

}  // namespace sketch
