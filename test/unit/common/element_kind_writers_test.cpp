// The element kind (header byte 7) is written by every family's writers and
// kept by the shared state mechanism (core/common/working_state.h):
//
//   - every new sketch, stored or working, holds kNone ("no value yet"),
//     never 0, which means "built by 0.1.0" and skips the kind check;
//   - a state keeps its kind through growth (hll's set to dense registers,
//     theta's table, ddsketch's buckets, cuckoo's sub-filters), its stored
//     form and merges, which hold the combined kind of both inputs.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

#include "arena.h"
#include "core/bloom/bloom_family.h"
#include "core/cms/cms_family.h"
#include "core/common/hash.h"
#include "core/common/working_state.h"
#include "core/counting_bloom/counting_bloom_family.h"
#include "core/cuckoo/cuckoo_family.h"
#include "core/ddsketch/ddsketch_family.h"
#include "core/hll/hll_family.h"
#include "core/theta/theta_family.h"
#include "core/theta/theta_intersect_family.h"
#include "core/topk/topk_family.h"

namespace sketch {
namespace {

using test::Arena;

// The bytes `write(dst)` leaves in a zeroed buffer of `size` bytes.
std::vector<uint8_t> written(size_t size, const std::function<void(uint8_t*)>& write) {
  std::vector<uint8_t> b(size, 0);
  write(b.data());
  return b;
}

void expect_new(const std::vector<uint8_t>& b, const char* what) {
  ASSERT_GE(b.size(), kHeaderSize) << what;
  EXPECT_EQ(element_kind_of(b.data()), ElementKind::kNone) << what;
}

TEST(ElementKindWriters, EveryNewSketchHoldsNone) {
  expect_new(written(hll::sparse_size(0), [](uint8_t* d) { hll::write_empty(d, 12); }),
             "hll empty");
  expect_new(written(hll::sparse_set_size(8), [](uint8_t* d) { hll::write_empty_set(d, 12, 8); }),
             "hll empty set");

  const cms::Params cp = cms::default_params();
  expect_new(written(cms::stored_size(cp, 0, 0), [&](uint8_t* d) { cms::write_empty(cp, d); }),
             "cms empty");
  const uint32_t arena = cms::initial_arena_capacity(cp.candidates);
  expect_new(written(cms::working_size(cp, arena),
                     [&](uint8_t* d) { cms::write_empty_working(cp, arena, d); }),
             "cms empty working");

  for (bloom::Layout layout : {bloom::Layout::kClassic, bloom::Layout::kSplitBlock}) {
    const bloom::Params bp{1024, layout == bloom::Layout::kClassic ? 3 : 8, layout};
    expect_new(written(bloom::filter_size(bp.bits), [&](uint8_t* d) { bloom::write_empty(d, bp); }),
               "bloom empty");
    expect_new(written(bloom::working_size(bp.bits),
                       [&](uint8_t* d) { bloom::write_empty(d, bp, bloom::Encoding::kQueued); }),
               "bloom empty working");
  }

  const counting_bloom::Params kp{1024, 3};
  expect_new(written(counting_bloom::filter_size(kp.cells),
                     [&](uint8_t* d) { counting_bloom::write_empty(d, kp); }),
             "counting_bloom empty");
  expect_new(written(counting_bloom::working_size(kp.cells),
                     [&](uint8_t* d) {
                       counting_bloom::write_empty(d, kp, counting_bloom::Encoding::kQueued);
                     }),
             "counting_bloom empty working");

  const cuckoo::Params up{64, 12, 4};
  expect_new(written(cuckoo::filter_size(up), [&](uint8_t* d) { cuckoo::write_empty(d, up); }),
             "cuckoo empty");
  expect_new(written(cuckoo::filter_size(up) + cuckoo::kQueueBytes,
                     [&](uint8_t* d) { cuckoo::write_empty_deferred(d, up); }),
             "cuckoo empty deferred");

  const ddsketch::Params dp{8, 64};
  expect_new(written(ddsketch::empty_size(), [&](uint8_t* d) { ddsketch::write_empty(dp, d); }),
             "ddsketch empty");

  expect_new(written(topk::empty_size(), [](uint8_t* d) { topk::write_empty(10, d); }),
             "topk empty");
  expect_new(written(topk::new_working_size(10), [](uint8_t* d) { topk::write_new_working(10, d); }),
             "topk new working");

  expect_new(written(theta::empty_size(), [](uint8_t* d) { theta::write_empty(8, d); }),
             "theta empty");
  expect_new(written(theta::new_working_size(8), [](uint8_t* d) { theta::write_new_working(8, d); }),
             "theta new working");
}

// A parsed family view of bytes the test made, or a failed test.
template <class Family>
typename Family::View view_of(const uint8_t* data, size_t len) {
  typename Family::View v{};
  const Status st = Family::parse(data, len, &v);
  EXPECT_TRUE(st.is_ok()) << st.message();
  return v;
}

// Adds `n` elements made by `element(i)` to a working state of the kind
// `kind` through the mechanism, the way every transition function does.
template <class Family, class MakeElement>
uint8_t* add_all(uint8_t* state, ElementKind kind, int n, MakeElement element, Arena& arena) {
  EXPECT_TRUE(state::accept_kind(state, kind).is_ok());
  for (int i = 0; i < n; i++) {
    typename Family::Element e = element(i);
    uint8_t* out = nullptr;
    const Status st = state::add<Family>(state, arena.size_of(state), e, arena, &out);
    EXPECT_TRUE(st.is_ok()) << st.message();
    state = out;
  }
  return state;
}

// The kind of the stored form of a state, and of its merge with a state of
// `other_kind` (each through the mechanism).
template <class Family>
void expect_kind_kept(uint8_t* state, ElementKind kind, uint8_t* other, ElementKind merged_kind,
                      Arena& arena) {
  EXPECT_EQ(element_kind_of(state), kind);
  uint8_t* stored = nullptr;
  size_t stored_len = 0;
  ASSERT_TRUE(state::to_stored<Family>(state, arena.size_of(state), arena, &stored, &stored_len)
                  .is_ok());
  EXPECT_EQ(element_kind_of(stored), kind);

  const typename Family::View other_view = view_of<Family>(other, arena.size_of(other));
  uint8_t* merged = nullptr;
  size_t merged_len = 0;
  const Status st = state::merge<Family>(state, arena.size_of(state), other_view, arena, &merged,
                                         &merged_len);
  ASSERT_TRUE(st.is_ok()) << st.message();
  EXPECT_EQ(element_kind_of(merged), merged_kind);
}

uint64_t mixed(int i) {
  const uint64_t x = static_cast<uint64_t>(i) + 1;
  return hash64(&x, sizeof x);
}

TEST(ElementKindWriters, HllKeepsTheKindFromSetToDense) {
  Arena arena;
  auto element = [](int i) { return hll::Family::Element{mixed(i)}; };
  auto new_state = [&] {
    uint8_t* s = arena(hll::sparse_set_size(8));
    hll::write_empty_set(s, 10, 8);
    return s;
  };
  // 5000 values at p = 10 end in dense registers, after several set growths.
  uint8_t* state = add_all<hll::Family>(new_state(), ElementKind::kText, 5000, element, arena);
  EXPECT_EQ(hll::detail::encoding_of(state), hll::Encoding::kDense);
  uint8_t* empty = new_state();
  expect_kind_kept<hll::Family>(state, ElementKind::kText, empty, ElementKind::kText, arena);
  // The other way round: an empty state takes the kind of what it merges.
  uint8_t* dense = add_all<hll::Family>(new_state(), ElementKind::kUuid, 5000, element, arena);
  expect_kind_kept<hll::Family>(new_state(), ElementKind::kNone, dense, ElementKind::kUuid, arena);
}

TEST(ElementKindWriters, ThetaKeepsTheKindThroughGrowthAndSetOperations) {
  Arena arena;
  auto element = [](int i) { return theta::Family::Element{mixed(i)}; };
  auto new_state = [&] {
    uint8_t* s = arena(theta::new_working_size(8));
    theta::write_new_working(8, s);
    return s;
  };
  uint8_t* a = add_all<theta::Family>(new_state(), ElementKind::kNumber, 2000, element, arena);
  uint8_t* b = add_all<theta::Family>(new_state(), ElementKind::kNumber, 300, element, arena);
  expect_kind_kept<theta::Family>(a, ElementKind::kNumber, new_state(), ElementKind::kNumber,
                                  arena);

  // The intersection aggregate's traits: stored states, kinds combined.
  uint8_t* a_stored = nullptr;
  uint8_t* b_stored = nullptr;
  size_t a_len = 0, b_len = 0;
  ASSERT_TRUE(state::to_stored<theta::Family>(b, arena.size_of(b), arena, &b_stored, &b_len).is_ok());
  uint8_t* empty = arena(theta::empty_size());
  theta::write_empty(8, empty);
  ASSERT_TRUE(state::to_stored<theta::IntersectFamily>(empty, theta::empty_size(), arena,
                                                       &a_stored, &a_len)
                  .is_ok());
  EXPECT_EQ(element_kind_of(a_stored), ElementKind::kNone);
  uint8_t* state = nullptr;
  ASSERT_TRUE(state::to_working<theta::IntersectFamily>(a_stored, a_len, true, arena, &state).is_ok());
  EXPECT_EQ(state, a_stored);  // a stored theta is the intersection's state as it is
  uint8_t* out = nullptr;
  size_t out_len = 0;
  const theta::View bv = view_of<theta::IntersectFamily>(b_stored, b_len);
  ASSERT_TRUE(state::merge<theta::IntersectFamily>(state, a_len, bv, arena, &out, &out_len).is_ok());
  EXPECT_NE(out, state);  // a new buffer, never written in place
  EXPECT_EQ(element_kind_of(out), ElementKind::kNumber);

  // A working input is refused by the intersection's plan: the server makes
  // every input stored first.
  const theta::View working = view_of<theta::Family>(a, arena.size_of(a));
  EXPECT_EQ(state::merge<theta::IntersectFamily>(out, out_len, working, arena, &out, &out_len).code(),
            StatusCode::kInvalidFormat);
}

TEST(ElementKindWriters, DdsketchStaysNone) {
  Arena arena;
  const ddsketch::Params params{8, 256};
  auto new_state = [&] {
    uint8_t* s = arena(ddsketch::empty_working_size(params));
    ddsketch::write_empty_working(params, s);
    return s;
  };
  // Values over five orders of magnitude: the bucket window grows.
  auto element = [](int i) { return ddsketch::Family::Element{1.0 + i * i * 37.5}; };
  uint8_t* state = add_all<ddsketch::Family>(new_state(), ElementKind::kNone, 500, element, arena);
  expect_kind_kept<ddsketch::Family>(state, ElementKind::kNone, new_state(), ElementKind::kNone,
                                     arena);
}

TEST(ElementKindWriters, CuckooKeepsTheKindThroughNewSubfilters) {
  Arena arena;
  const cuckoo::Params params{16, 12, 2};
  auto new_state = [&] {
    uint8_t* s = arena(cuckoo::filter_size(params));
    cuckoo::write_empty(s, params);
    return s;
  };
  auto element = [](int i) {
    const uint64_t x = static_cast<uint64_t>(i) + 1;
    return cuckoo::Family::Element{hash128(&x, sizeof x), false};
  };
  // 32 slots in the first sub-filter: 200 values need more.
  uint8_t* state = add_all<cuckoo::Family>(new_state(), ElementKind::kBytea, 200, element, arena);
  EXPECT_GT(arena.size_of(state), cuckoo::filter_size(params));
  expect_kind_kept<cuckoo::Family>(state, ElementKind::kBytea, new_state(), ElementKind::kBytea,
                                   arena);
}

TEST(ElementKindWriters, BloomKeepsTheKindThroughMergeAndStoredForm) {
  Arena arena;
  const bloom::Params params{4096, 3};
  auto new_state = [&] {
    uint8_t* s = arena(bloom::filter_size(params.bits));
    bloom::write_empty(s, params);
    return s;
  };
  auto element = [](int i) {
    const uint64_t x = static_cast<uint64_t>(i) + 1;
    return bloom::Family::Element{hash128(&x, sizeof x)};
  };
  uint8_t* a = add_all<bloom::Family>(new_state(), ElementKind::kDate, 50, element, arena);
  expect_kind_kept<bloom::Family>(new_state(), ElementKind::kNone, a, ElementKind::kDate, arena);
}

}  // namespace
}  // namespace sketch
