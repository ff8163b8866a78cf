// The element-kind rules of core/common/element_kind.h: which kinds a sketch may
// combine, and that the result does not depend on the order of merges.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/common/element_kind.h"

namespace sketch {
namespace {

ElementKind combined(ElementKind a, ElementKind b) {
  ElementKind out = ElementKind::kUnknown;
  const Status st = combine_element_kinds(a, b, &out);
  EXPECT_TRUE(st.is_ok()) << st.message();
  return out;
}

std::string refusal(ElementKind a, ElementKind b) {
  ElementKind out;
  const Status st = combine_element_kinds(a, b, &out);
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  return st.message();
}

TEST(ElementKind, EqualKindsAndEmptySketchesCombine) {
  EXPECT_EQ(combined(ElementKind::kNumber, ElementKind::kNumber), ElementKind::kNumber);
  EXPECT_EQ(combined(ElementKind::kNone, ElementKind::kText), ElementKind::kText);
  EXPECT_EQ(combined(ElementKind::kText, ElementKind::kNone), ElementKind::kText);
  EXPECT_EQ(combined(ElementKind::kNone, ElementKind::kNone), ElementKind::kNone);
}

TEST(ElementKind, DifferentKindsAreRefusedNamingBoth) {
  const std::string message = refusal(ElementKind::kNumber, ElementKind::kText);
  EXPECT_NE(message.find("number"), std::string::npos) << message;
  EXPECT_NE(message.find("text"), std::string::npos) << message;
  refusal(ElementKind::kDate, ElementKind::kTimestampTz);
  refusal(ElementKind::kFloat, ElementKind::kNumber);
}

TEST(ElementKind, UnrecordedSketchesTakeOnlyKindsWhoseHashingDidNotChange) {
  EXPECT_EQ(combined(ElementKind::kUnknown, ElementKind::kNumber), ElementKind::kNumber);
  EXPECT_EQ(combined(ElementKind::kText, ElementKind::kUnknown), ElementKind::kText);
  EXPECT_EQ(combined(ElementKind::kUnknown, ElementKind::kNone), ElementKind::kUnknown);
  for (ElementKind changed :
       {ElementKind::kInterval, ElementKind::kCollatedText, ElementKind::kHashed}) {
    EXPECT_TRUE(changed_since_unrecorded(changed));
    EXPECT_NE(refusal(ElementKind::kUnknown, changed).find("0.1.0"), std::string::npos);
  }
}

TEST(ElementKind, CombiningIsOrderIndependent) {
  const ElementKind kinds[] = {ElementKind::kNone, ElementKind::kUnknown, ElementKind::kNumber};
  for (ElementKind a : kinds)
    for (ElementKind b : kinds)
      for (ElementKind c : kinds)
        EXPECT_EQ(combined(combined(a, b), c), combined(a, combined(b, c)));
}

// *_info shows the label: every valid kind has its own, distinct one.
TEST(ElementKind, EveryValidKindHasItsOwnLabel) {
  std::set<std::string> labels;
  for (int byte = 0; byte < 256; byte++) {
    if (!valid_element_kind(static_cast<uint8_t>(byte))) continue;
    const std::string label = element_kind_label(static_cast<ElementKind>(byte));
    EXPECT_NE(label, "invalid") << byte;
    EXPECT_TRUE(labels.insert(label).second) << "duplicate label " << label;
  }
  EXPECT_EQ(labels.size(), 17u);
  EXPECT_STREQ(element_kind_label(ElementKind::kNone), "none");
  EXPECT_STREQ(element_kind_label(ElementKind::kUnknown), "unrecorded");
}

TEST(ElementKind, ValidBytes) {
  for (int byte = 0; byte < 256; byte++)
    EXPECT_EQ(valid_element_kind(static_cast<uint8_t>(byte)), byte <= 15 || byte == 255) << byte;
}

TEST(ElementKind, DatasketchesKindsAreTheirOwnAndNotGenerallyValid) {
  for (int byte = 0; byte < 256; byte++)
    EXPECT_EQ(is_datasketches_kind(static_cast<uint8_t>(byte)), byte >= 22 && byte <= 25) << byte;
  std::set<std::string> labels;
  for (int byte = 22; byte <= 25; byte++) {
    EXPECT_FALSE(valid_element_kind(static_cast<uint8_t>(byte)));
    const std::string label = element_kind_label(static_cast<ElementKind>(byte));
    EXPECT_NE(label.find("DataSketches"), std::string::npos) << label;
    EXPECT_TRUE(labels.insert(label).second) << label;
    EXPECT_STRNE(element_kind_name(static_cast<ElementKind>(byte)), "invalid");
  }
}

TEST(ElementKind, AnImportedDatasketchesSketchTakesTheOtherSidesKind) {
  const ElementKind imported = ElementKind::kDatasketchesImported;
  for (ElementKind k : {ElementKind::kDatasketchesLong, ElementKind::kDatasketchesDouble,
                        ElementKind::kDatasketchesBytes}) {
    EXPECT_EQ(combined(imported, k), k);
    EXPECT_EQ(combined(k, imported), k);
  }
  EXPECT_EQ(combined(imported, imported), imported);
  EXPECT_EQ(combined(imported, ElementKind::kNone), imported);
  refusal(ElementKind::kDatasketchesLong, ElementKind::kDatasketchesBytes);
  refusal(imported, ElementKind::kNumber);
  refusal(ElementKind::kNumber, imported);
}

TEST(ElementKind, DatasketchesCombiningIsOrderIndependent) {
  const ElementKind kinds[] = {ElementKind::kNone, ElementKind::kDatasketchesImported,
                               ElementKind::kDatasketchesLong};
  for (ElementKind a : kinds)
    for (ElementKind b : kinds)
      for (ElementKind c : kinds)
        EXPECT_EQ(combined(combined(a, b), c), combined(a, combined(b, c)));
}

}  // namespace
}  // namespace sketch
