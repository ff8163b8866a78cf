// The shared sketch header, the "\x..." text form and Status.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/common/hash.h"
#include "core/common/header.h"
#include "core/common/hex.h"
#include "core/common/status.h"

namespace sketch {
namespace {

// --- header ----------------------------------------------------------------

std::vector<uint8_t> header_bytes(SketchKind kind, uint8_t version = 1) {
  std::vector<uint8_t> b(kHeaderSize);
  write_header(b.data(), Header{kind, version, kHashIdentity, {7, 8}}, ElementKind::kUuid);
  return b;
}

TEST(Header, WritesTheDocumentedLayout) {
  EXPECT_EQ(header_bytes(SketchKind::kCms, 3),
            (std::vector<uint8_t>{'S', 'K', 2, 3, kHashIdentity, 7, 8, 5}));
}

TEST(Header, RoundTrips) {
  for (SketchKind kind : {SketchKind::kHll, SketchKind::kCms, SketchKind::kBloom}) {
    const std::vector<uint8_t> b = header_bytes(kind);
    Header h;
    ASSERT_TRUE(read_header(b.data(), b.size(), kind, 1, &h).is_ok()) << kind_name(kind);
    EXPECT_EQ(h.kind, kind);
    EXPECT_EQ(h.version, 1);
    EXPECT_EQ(h.hash_identity, kHashIdentity);
    EXPECT_EQ(h.param[0], 7);
    EXPECT_EQ(h.param[1], 8);
    EXPECT_EQ(element_kind_of(b.data()), ElementKind::kUuid);
  }
}

TEST(Header, VersionsUpToTheMaximumAreRead) {
  Header h;
  for (uint8_t version : {1, 2, 3}) {
    const std::vector<uint8_t> b = header_bytes(SketchKind::kBloom, version);
    EXPECT_TRUE(read_header(b.data(), b.size(), SketchKind::kBloom, 3, &h).is_ok());
  }
  for (uint8_t version : {0, 4}) {
    const std::vector<uint8_t> b = header_bytes(SketchKind::kBloom, version);
    const Status st = read_header(b.data(), b.size(), SketchKind::kBloom, 3, &h);
    EXPECT_EQ(st.code(), StatusCode::kInvalidFormat) << int(version);
  }
}

TEST(Header, AnotherKindIsRefusedByName) {
  const std::vector<uint8_t> cms = header_bytes(SketchKind::kCms);
  Header h;
  const Status st = read_header(cms.data(), cms.size(), SketchKind::kHll, 1, &h);
  EXPECT_EQ(st.code(), StatusCode::kInvalidFormat);
  EXPECT_NE(std::string(st.message()).find("cms"), std::string::npos) << st.message();
  EXPECT_NE(std::string(st.message()).find("hll"), std::string::npos) << st.message();
}

TEST(Header, ForeignOrShortBytesAreRefused) {
  Header h;
  const std::vector<uint8_t> valid = header_bytes(SketchKind::kHll);
  for (size_t len = 0; len < kHeaderSize; len++)
    EXPECT_EQ(read_header(valid.data(), len, SketchKind::kHll, 1, &h).code(),
              StatusCode::kInvalidFormat) << len;
  for (size_t at : {0, 1, 2, 4}) {  // magic, magic, kind, hash identity
    std::vector<uint8_t> b = valid;
    b[at] ^= 0x5a;
    EXPECT_EQ(read_header(b.data(), b.size(), SketchKind::kHll, 1, &h).code(),
              StatusCode::kInvalidFormat) << "byte " << at;
  }
}

TEST(Header, KindNames) {
  EXPECT_STREQ(kind_name(SketchKind::kHll), "hll");
  EXPECT_STREQ(kind_name(SketchKind::kCms), "cms");
  EXPECT_STREQ(kind_name(SketchKind::kBloom), "bloom");
  EXPECT_STREQ(kind_name(SketchKind::kCountingBloom), "counting_bloom");
  EXPECT_STREQ(kind_name(SketchKind::kCuckoo), "cuckoo");
  EXPECT_STREQ(kind_name(SketchKind::kKll), "kll");
}

// --- hex text ----------------------------------------------------------------

std::string encode(const std::vector<uint8_t>& bytes) {
  std::string text(hex_text_size(bytes.size()), '\0');
  hex_encode(bytes.data(), bytes.size(), text.data());
  return text;
}

Status decode(const std::string& text, std::vector<uint8_t>* out) {
  out->assign(hex_decoded_size(text.size()), 0);
  return hex_decode(text.data(), text.size(), out->data());
}

TEST(Hex, EncodesLowercaseWithPrefix) {
  EXPECT_EQ(encode({}), "\\x");
  EXPECT_EQ(encode({0x00, 0xff, 0x10, 0xab, 0x7e}), "\\x00ff10ab7e");
}

TEST(Hex, RoundTripsEveryByteValue) {
  std::vector<uint8_t> all;
  for (int b = 0; b < 256; b++) all.push_back(static_cast<uint8_t>(b));
  std::vector<uint8_t> decoded;
  ASSERT_TRUE(decode(encode(all), &decoded).is_ok());
  EXPECT_EQ(decoded, all);
}

TEST(Hex, AcceptsUppercaseDigits) {
  std::vector<uint8_t> decoded;
  ASSERT_TRUE(decode("\\xABcdEF09", &decoded).is_ok());
  EXPECT_EQ(decoded, (std::vector<uint8_t>{0xab, 0xcd, 0xef, 0x09}));
  ASSERT_TRUE(decode("\\x", &decoded).is_ok());
  EXPECT_TRUE(decoded.empty());
}

TEST(Hex, DecodedSize) {
  EXPECT_EQ(hex_decoded_size(2), 0u);
  EXPECT_EQ(hex_decoded_size(4), 1u);
  EXPECT_EQ(hex_decoded_size(3), 0u);
  EXPECT_EQ(hex_decoded_size(0), 0u);
  EXPECT_EQ(hex_decoded_size(hex_text_size(1000)), 1000u);
}

TEST(Hex, RejectsMalformedText) {
  const std::vector<std::string> bad = {
      "",        "\\",       "x00",      "00",       "\\X00",    "/x00",  "\\y00",
      "\\x0",    "\\x000",   "\\x0g",    "\\xg0",    "\\x 0",    "\\x0 ", "\\x0\n",
      "\\x-1",   "\\x0x",    "\\x\\x00", std::string("\\x0\0", 4), "\\x00ff1",
  };
  for (const std::string& text : bad) {
    // The decoder gets a buffer of at least the size it could write.
    std::vector<uint8_t> out(text.size() + 1);
    const Status st = hex_decode(text.data(), text.size(), out.data());
    EXPECT_EQ(st.code(), StatusCode::kInvalidText) << '"' << text << '"';
    EXPECT_NE(st.message()[0], '\0');
  }
}

// --- status -------------------------------------------------------------------

TEST(Status, OkAndErrors) {
  EXPECT_TRUE(Status().is_ok());
  EXPECT_TRUE(Status::ok().is_ok());
  const Status st = Status::error(StatusCode::kMismatch, "p %d vs %d", 12, 14);
  EXPECT_FALSE(st.is_ok());
  EXPECT_EQ(st.code(), StatusCode::kMismatch);
  EXPECT_STREQ(st.message(), "p 12 vs 14");
  // Long messages are cut, never overflow.
  const std::string long_text(1000, 'a');
  const Status cut = Status::error(StatusCode::kInvalidText, "%s", long_text.c_str());
  EXPECT_LT(std::string(cut.message()).size(), 1000u);
}

}  // namespace
}  // namespace sketch
