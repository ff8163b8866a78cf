// cms_scale: aged sketches stay valid stored values (rows still add up to
// N as parse() requires) and their estimates never fall below the scaled
// true counts.

#include <gtest/gtest.h>

#include "../../common/cms_test_util.h"
#include "core/common/scale.h"

namespace sketch::cms {
namespace {

using test::Sketch;

void expect_scaled_valid(bool conservative, uint32_t width, uint64_t seed) {
  Sketch s(test::params(width, 4, conservative, 20));
  test::Zipf zipf(5000, 1.1, seed);
  const std::vector<uint64_t> keys = zipf.take(20000);
  s.add_all(keys);
  const auto truth = test::exact_counts(keys);
  const std::vector<uint8_t> stored = s.canonical();
  View v;
  ASSERT_TRUE(parse(stored.data(), stored.size(), Validation::kCanonical, &v).is_ok());
  for (double factor : {1.0, 0.5, 0.37, 0.01, 0.0001}) {
    ASSERT_TRUE(check_scalable(v, factor).is_ok());
    std::vector<uint8_t> out(v.size);
    out.resize(write_scaled(v, factor, out.data()));
    View w;
    const Status st = parse(out.data(), out.size(), Validation::kCanonical, &w);
    ASSERT_TRUE(st.is_ok()) << st.message() << " factor " << factor;
    const ExactFactor f(factor);
    EXPECT_LE(w.total, f.floor(v.total));
    if (!conservative) {
      EXPECT_EQ(w.total, f.floor(v.total));
    }
    for (const auto& [key, count] : truth) {
      const uint64_t e = estimate(w, test::key_hash(key));
      EXPECT_GE(e, f.floor(count)) << key;
      EXPECT_LE(e, f.floor(estimate(v, test::key_hash(key))) + 1) << key;
    }
    if (factor == 1.0) {
      EXPECT_EQ(out, stored);
    }
  }
}

TEST(CmsScaleTest, PlainSketchesStayValidAndNeverLow) { expect_scaled_valid(false, 64, 1); }
TEST(CmsScaleTest, ConservativeSketchesStayValidAndNeverLow) { expect_scaled_valid(true, 64, 2); }
TEST(CmsScaleTest, WideSketches) { expect_scaled_valid(false, 2719, 3); }

TEST(CmsScaleTest, SaturatedAndBadFactorsAreRefused) {
  Sketch s(test::params(16, 2));
  s.add(1, kMaxCount);
  const std::vector<uint8_t> stored = s.canonical();
  View v;
  ASSERT_TRUE(parse(stored.data(), stored.size(), Validation::kCanonical, &v).is_ok());
  EXPECT_EQ(check_scalable(v, 0.5).code(), StatusCode::kInvalidParameter);
  Sketch t(test::params(16, 2));
  t.add(1, 3);
  const std::vector<uint8_t> small = t.canonical();
  ASSERT_TRUE(parse(small.data(), small.size(), Validation::kCanonical, &v).is_ok());
  for (double bad : {0.0, -0.5, 1.5, std::nan("")})
    EXPECT_EQ(check_scalable(v, bad).code(), StatusCode::kInvalidParameter);
}

}  // namespace
}  // namespace sketch::cms
