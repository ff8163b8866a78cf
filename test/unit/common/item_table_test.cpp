// The item table shared by cms and topk (core/common/item_table.h): a stored
// list written from items in any order comes out sorted by hash with its
// texts in record order, reads back item for item, is searched by hash, and
// a list with corrupt end words is read clamped inside its texts.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/item_table.h"

namespace sketch::item_table {
namespace {

struct Source {
  uint64_t hash;
  uint64_t payload;
  std::string text;
  bool clipped;
};

// A stored list of `stride` bytes a record (payload at 8 when stride is
// 20, none when 12), written the two-step way the families write theirs.
std::vector<uint8_t> write_list(const std::vector<Source>& items, uint32_t stride) {
  size_t texts = 0;
  for (const Source& s : items) texts += s.text.size();
  std::vector<uint8_t> out(size_t{stride} * items.size() + texts);
  for (uint32_t i = 0; i < items.size(); i++) {
    uint8_t* r = begin_record(out.data(), stride, i, items[i].hash, i);
    if (stride == 20) store_le64(r + 8, items[i].payload);
  }
  finish_stored(out.data(), static_cast<uint32_t>(items.size()), stride, false, [&](uint32_t id) {
    const Source& s = items[id];
    return ItemRef{s.hash, reinterpret_cast<const uint8_t*>(s.text.data()),
                   static_cast<uint32_t>(s.text.size()), s.clipped};
  });
  return out;
}

StoredList list_of(const std::vector<uint8_t>& bytes, uint32_t count, uint32_t stride,
                   uint64_t text_bytes) {
  return StoredList{bytes.data(), count, stride, text_bytes, 1024};
}

std::string text_of(const ItemRef& r) {
  return std::string(reinterpret_cast<const char*>(r.text), r.len);
}

TEST(ItemTable, StoredListIsSortedByHashWithItsTexts) {
  const std::vector<Source> items = {
      {30, 3, "thirty", false}, {10, 1, "ten", true}, {20, 2, "", false}, {5, 9, "five", false}};
  for (uint32_t stride : {12u, 20u}) {
    const std::vector<uint8_t> bytes = write_list(items, stride);
    const StoredList l = list_of(bytes, 4, stride, 13);
    const uint64_t hashes[] = {5, 10, 20, 30};
    const char* texts[] = {"five", "ten", "", "thirty"};
    for (uint32_t i = 0; i < 4; i++) {
      const ItemRef r = stored_item(l, i);
      EXPECT_EQ(r.hash, hashes[i]);
      EXPECT_EQ(text_of(r), texts[i]);
      EXPECT_EQ(r.clipped, hashes[i] == 10);
      if (stride == 20) {
        const uint64_t payload = load_le64(l.record(i) + 8);
        EXPECT_EQ(payload, hashes[i] == 5 ? 9u : hashes[i] / 10);
      }
    }
    uint32_t at = 99;
    EXPECT_TRUE(find_stored(l, 20, &at));
    EXPECT_EQ(at, 2u);
    EXPECT_FALSE(find_stored(l, 21, &at));
    EXPECT_FALSE(find_stored(l, 1, &at));
  }
}

TEST(ItemTable, CorruptEndsAreReadInsideTheTexts) {
  std::vector<uint8_t> bytes = write_list({{1, 0, "abcd", false}, {2, 0, "efgh", false}}, 12);
  // The second record's end far past the texts, the first's past the second's.
  store_le32(bytes.data() + 12 + 8, 0x7fffffffu);
  StoredList l = list_of(bytes, 2, 12, 8);
  EXPECT_EQ(text_of(stored_item(l, 1)), "efgh");
  store_le32(bytes.data() + 8, 6);
  store_le32(bytes.data() + 12 + 8, 5);
  EXPECT_EQ(stored_item(l, 1).len, 0u);
  l.max_len = 2;
  EXPECT_EQ(text_of(stored_item(l, 0)), "ab");
}

TEST(ItemTable, EntriesHoldHashCounterAndText) {
  uint8_t entries[2 * 32] = {};
  uint8_t arena[16] = {};
  uint32_t used = 0;
  append_entry(entries, arena, &used, 7, 70, reinterpret_cast<const uint8_t*>("seven"), 5, false);
  append_entry(entries + 32, arena, &used, 8, 80, reinterpret_cast<const uint8_t*>("ate"), 3, true);
  EXPECT_EQ(used, 8u);
  const ItemRef second = entry_item(entries + 32, arena);
  EXPECT_EQ(second.hash, 8u);
  EXPECT_EQ(text_of(second), "ate");
  EXPECT_TRUE(second.clipped);
  EXPECT_EQ(entry_counter(entries + 32), 80u);
  set_entry_counter(entries, 71);
  EXPECT_EQ(entry_counter(entries), 71u);
  EXPECT_EQ(entry_text_offset(entries + 32), 5u);
  EXPECT_FALSE(entry_clipped(entries));
}

TEST(ItemTable, IndexHasAtLeastTwiceTheSlots) {
  EXPECT_EQ(index_slots_for(1), 2u);
  EXPECT_EQ(index_slots_for(2), 4u);
  EXPECT_EQ(index_slots_for(3), 8u);
  EXPECT_EQ(index_slots_for(100), 256u);
}

}  // namespace
}  // namespace sketch::item_table
