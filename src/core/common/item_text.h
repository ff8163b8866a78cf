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

}  // namespace sketch
