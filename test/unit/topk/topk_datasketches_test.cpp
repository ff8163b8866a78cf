// DataSketches' frequent items sketches (core/topk/topk_datasketches.h):
// every shipped file of the C++ and Java libraries (MANIFEST.tsv) decodes
// with its items, counters, N and maximum error; its topk summary parses as
// canonical with the same bounds; malformed bytes are refused naming what.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/common/bytes.h"
#include "core/common/hash.h"
#include "core/topk/topk.h"
#include "core/topk/topk_datasketches.h"
#include "datasketches_files.h"

namespace sketch::topk::datasketches {
namespace {

namespace files = test::datasketches_files;

// "{999998: 1, 'ab': 2}" as key text (quotes removed) -> counter.
std::map<std::string, uint64_t> manifest_items(const std::string& dict) {
  std::map<std::string, uint64_t> out;
  if (dict.size() < 2 || dict.front() != '{') return out;
  const std::string body = dict.substr(1, dict.size() - 2);
  size_t i = 0;
  while (i < body.size()) {
    std::string key;
    if (body[i] == '\'') {
      const size_t close = body.find('\'', i + 1);
      key = body.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      const size_t colon = body.find(':', i);
      key = body.substr(i, colon - i);
      i = colon;
    }
    i = body.find(':', i) + 2;
    const size_t comma = body.find(',', i);
    out[key] = std::stoull(body.substr(i, comma - i));
    i = comma == std::string::npos ? body.size() : comma + 2;
  }
  return out;
}

std::map<std::string, uint64_t> decoded_items(const FrequentView& v) {
  std::map<std::string, uint64_t> out;
  size_t cursor = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const FrequentItem item = frequent_item(v, i, &cursor);
    const std::string key = v.type == ItemType::kLong
                                ? std::to_string(item.long_value)
                                : std::string(reinterpret_cast<const char*>(item.text), item.len);
    EXPECT_TRUE(out.emplace(key, item.counter).second) << "item twice: " << key;
  }
  return out;
}

TEST(TopkDatasketches, EveryShippedFileDecodesAsItsManifestSays) {
  SKETCH_REQUIRE_DATASKETCHES_FILES(dir);
  const auto entries = files::entries(dir, "frequent_");
  ASSERT_EQ(entries.size(), 36u);  // 9 long and 9 string files from each of C++ and Java
  for (const files::Entry& e : entries) {
    SCOPED_TRACE(e.file);
    const std::vector<uint8_t> bytes = files::read_file(dir + "/" + e.file);
    ASSERT_EQ(bytes.size(), e.bytes);
    FrequentView v;
    ASSERT_TRUE(parse_frequent(bytes.data(), bytes.size(), &v).is_ok());
    EXPECT_EQ(v.lg_max_map_size, std::stoi(e.fields.at("lgMaxMapSize")));
    EXPECT_EQ(v.lg_cur_map_size, std::stoi(e.fields.at("lgCurMapSize")));
    EXPECT_EQ(v.empty, e.fields.at("empty") == "True");
    if (v.empty) continue;
    const bool strings = e.fields.at("family") == "FREQUENT_STRING";
    EXPECT_EQ(v.type, strings ? ItemType::kString : ItemType::kLong);
    EXPECT_EQ(v.count, std::stoul(e.fields.at("numActive")));
    EXPECT_EQ(v.total, std::stoull(e.fields.at("streamWeight")));
    EXPECT_EQ(v.max_error, std::stoull(e.fields.at("offset_maxError")));
    const auto items = decoded_items(v);
    const std::string& listed = e.fields.at("items");
    if (listed.front() == '{') {
      EXPECT_EQ(items, manifest_items(listed));
    } else {
      // "40 items": the stream 1..N of weight 1 each; the held items are the
      // last ones, each at counter 1 (a purge drops the others)
      EXPECT_EQ(items.size(), std::stoul(listed));
      for (const auto& [key, c] : items) {
        EXPECT_EQ(c, 1u);
        EXPECT_GT(std::stoll(key), static_cast<long long>(v.total) - 100);
      }
    }
  }
}

// The summary of every shipped file: canonical, k 48 (3/4 of 2^6), the
// sketch's N and Δ, each item with the hash topk_add gives its value.
TEST(TopkDatasketches, EveryShippedFileBecomesACanonicalSummary) {
  SKETCH_REQUIRE_DATASKETCHES_FILES(dir);
  for (const files::Entry& e : files::entries(dir, "frequent_")) {
    SCOPED_TRACE(e.file);
    const std::vector<uint8_t> bytes = files::read_file(dir + "/" + e.file);
    FrequentView v;
    ASSERT_TRUE(parse_frequent(bytes.data(), bytes.size(), &v).is_ok());
    uint32_t k;
    ASSERT_TRUE(import_k(v, &k).is_ok());
    EXPECT_EQ(k, 48u);
    if (v.empty) continue;
    std::vector<std::string> texts;
    std::vector<ImportItem> items;
    size_t cursor = 0;
    for (uint32_t i = 0; i < v.count; i++) {
      const FrequentItem item = frequent_item(v, i, &cursor);
      uint64_t hash;
      if (v.type == ItemType::kLong) {
        texts.push_back(std::to_string(item.long_value));
        uint8_t le[8];
        store_le64(le, static_cast<uint64_t>(item.long_value));
        hash = hash64(le, 8);
      } else {
        texts.emplace_back(reinterpret_cast<const char*>(item.text), item.len);
        hash = hash64(item.text, item.len);
      }
      items.push_back(ImportItem{hash, item.counter, nullptr, 0, false});
    }
    for (size_t i = 0; i < items.size(); i++) {
      items[i].text = reinterpret_cast<const uint8_t*>(texts[i].data());
      items[i].len = static_cast<uint32_t>(texts[i].size());
    }
    std::vector<uint8_t> out(imported_size(items.data(), v.count));
    const ElementKind kind = v.type == ItemType::kLong ? ElementKind::kNumber : ElementKind::kText;
    ASSERT_TRUE(write_imported(k, kind, v.total, v.max_error, items.data(), v.count, out.data())
                    .is_ok());
    View s;
    ASSERT_TRUE(parse(out.data(), out.size(), Validation::kCanonical, &s).is_ok());
    EXPECT_EQ(s.count, v.count);
    EXPECT_EQ(s.total, v.total);
    EXPECT_EQ(s.max_error, v.max_error);
    EXPECT_EQ(element_kind_of(out.data()), kind);
    for (size_t i = 0; i < items.size(); i++) {
      Item held;
      ASSERT_TRUE(find(s, items[i].hash, &held));
      EXPECT_EQ(held.count, items[i].counter);
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(held.text), held.len), texts[i]);
    }
  }
}

// A 2-item sketch of longs {7: 3, -1: 2}, N 6, Δ 1.
std::vector<uint8_t> two_longs() {
  std::vector<uint8_t> b(32 + 16 * 2, 0);
  b[0] = 4; b[1] = 1; b[2] = 10; b[3] = 6; b[4] = 3;
  store_le32(&b[8], 2);
  store_le64(&b[16], 6);
  store_le64(&b[24], 1);
  store_le64(&b[32], 3);
  store_le64(&b[40], 2);
  store_le64(&b[48], 7);
  store_le64(&b[56], ~uint64_t{0});
  return b;
}

std::string refusal(const std::vector<uint8_t>& b) {
  FrequentView v;
  const Status st = parse_frequent(b.data(), b.size(), &v);
  EXPECT_EQ(st.code(), StatusCode::kInvalidFormat);
  return st.message();
}

TEST(TopkDatasketches, ABuiltSketchDecodes) {
  const auto b = two_longs();
  FrequentView v;
  ASSERT_TRUE(parse_frequent(b.data(), b.size(), &v).is_ok());
  EXPECT_EQ(v.type, ItemType::kLong);
  size_t cursor = 0;
  EXPECT_EQ(frequent_item(v, 0, &cursor).long_value, 7);
  const FrequentItem second = frequent_item(v, 1, &cursor);
  EXPECT_EQ(second.long_value, -1);
  EXPECT_EQ(second.counter, 2u);
}

TEST(TopkDatasketches, MalformedBytesAreRefusedSayingWhat) {
  auto b = two_longs();
  EXPECT_NE(refusal(std::vector<uint8_t>(b.begin(), b.begin() + 7)).find("preamble"),
            std::string::npos);
  for (size_t cut : {8u, 31u, 40u, 63u})
    EXPECT_FALSE(refusal(std::vector<uint8_t>(b.begin(), b.begin() + cut)).empty());
  auto bad = b; bad[1] = 2;
  EXPECT_NE(refusal(bad).find("serial version"), std::string::npos);
  bad = b; bad[2] = 3;
  EXPECT_NE(refusal(bad).find("family"), std::string::npos);
  bad = b; bad[4] = 7;  // lg_cur > lg_max
  EXPECT_NE(refusal(bad).find("map sizes"), std::string::npos);
  bad = b; bad[0] = 2;
  EXPECT_NE(refusal(bad).find("preamble longs"), std::string::npos);
  bad = b; store_le64(&bad[32], 0);
  EXPECT_NE(refusal(bad).find("counter 0"), std::string::npos);
  bad = b; store_le64(&bad[24], 2);  // 3 + 2 + 2 > 6
  EXPECT_NE(refusal(bad).find("maximum error"), std::string::npos);
  bad = b; store_le64(&bad[32], ~uint64_t{0});
  EXPECT_NE(refusal(bad).find("more than N"), std::string::npos);
  bad = b; store_le32(&bad[8], 7);  // more than 3/4 of 2^3
  EXPECT_NE(refusal(bad).find("more items"), std::string::npos);
  bad = b; store_le64(&bad[16], uint64_t{1} << 63);
  EXPECT_NE(refusal(bad).find("2^63"), std::string::npos);
  bad = b; bad.push_back(0);
  EXPECT_NE(refusal(bad).find("neither"), std::string::npos);
  bad = b; bad[5] = 5;  // empty flag on a non-empty sketch
  EXPECT_NE(refusal(bad).find("empty"), std::string::npos);
}

TEST(TopkDatasketches, StringsMustBeValidUtf8WithoutNul) {
  // one item "a\xff" (invalid UTF-8) and one "b": neither strings nor 2 longs
  std::vector<uint8_t> b(32 + 16, 0);
  b[0] = 4; b[1] = 1; b[2] = 10; b[3] = 6; b[4] = 3;
  store_le32(&b[8], 2);
  store_le64(&b[16], 2);
  store_le64(&b[32], 1);
  store_le64(&b[40], 1);
  const uint8_t items[] = {2, 0, 0, 0, 'a', 0xff, 1, 0, 0, 0, 'b'};
  b.insert(b.end(), items, items + sizeof items);
  EXPECT_NE(refusal(b).find("neither"), std::string::npos);
  b[53] = 'a';  // the first item now "aa"
  FrequentView v;
  ASSERT_TRUE(parse_frequent(b.data(), b.size(), &v).is_ok());
  EXPECT_EQ(v.type, ItemType::kString);
}

TEST(TopkDatasketches, ADuplicateItemIsRefused) {
  const char text[] = "x";
  const ImportItem items[] = {{5, 1, reinterpret_cast<const uint8_t*>(text), 1, false},
                              {5, 2, reinterpret_cast<const uint8_t*>(text), 1, false}};
  std::vector<uint8_t> out(imported_size(items, 2));
  EXPECT_EQ(write_imported(48, ElementKind::kText, 3, 0, items, 2, out.data()).code(),
            StatusCode::kInvalidFormat);
}

TEST(TopkDatasketches, KIsThreeQuartersOfTheMaximumMapAtMostKMaxK) {
  FrequentView v{};
  v.lg_max_map_size = 10;
  v.count = 1;
  uint32_t k;
  ASSERT_TRUE(import_k(v, &k).is_ok());
  EXPECT_EQ(k, 768u);
  v.lg_max_map_size = 20;
  ASSERT_TRUE(import_k(v, &k).is_ok());
  EXPECT_EQ(k, kMaxK);
  v.count = kMaxK + 1;
  EXPECT_EQ(import_k(v, &k).code(), StatusCode::kInvalidParameter);
}

}  // namespace
}  // namespace sketch::topk::datasketches
