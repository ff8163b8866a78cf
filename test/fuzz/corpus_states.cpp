// Writes the seed corpus of fuzz_states (states_input.h): for each family, a
// state's bytes (stored values of each encoding, an aggregate's working
// state, bytes that are refused), an other sketch (matching, of other
// parameters, a working state, none) and a stream of elements, with each
// flag. The sketches are real ones, built by the test helpers, small to keep
// the fuzzer fast. Deterministic (make fuzz-corpus).
//
//   make_corpus_states <corpus-dir>    writes <dir>/states/*.bin
#include "bloom_test_util.h"
#include "cms_test_util.h"
#include "corpus_util.h"
#include "counting_bloom_test_util.h"
#include "cuckoo_test_util.h"
#include "ddsketch_test_util.h"
#include "hll_test_util.h"
#include "states_input.h"
#include "theta_test_util.h"
#include "topk_test_util.h"

namespace in = sketch::fuzz::states_input;
using in::Bytes;

namespace {

Bytes hll_elements(uint64_t seed, uint64_t n) {
  Bytes out;
  for (uint64_t i = 0; i < n; i++) in::put_hll_element(&out, sketch::hll::test::stream_hash(seed, i));
  return out;
}

Bytes bloom_elements(uint64_t seed, uint64_t n) {
  Bytes out;
  for (uint64_t i = 0; i < n; i++) {
    const sketch::Hash128 h = sketch::bloom::test::key_hash(seed, i);
    in::put_bloom_element(&out, h.low, h.high);
  }
  return out;
}

// Values of every magnitude and sign, a few zeros and a non-finite one
// (skipped, as the wrapper refuses it).
Bytes ddsketch_elements(uint64_t seed, int n) {
  sketch::ddsketch::test::Random r(seed);
  Bytes out;
  for (int i = 0; i < n; i++) {
    const double u = r.uniform();
    const double v = u < 0.1 ? 0.0 : std::exp(r.normal() * 4) * (u < 0.4 ? -1 : 1);
    in::put_ddsketch_element(&out, v);
  }
  in::put_ddsketch_element(&out, std::nan(""));
  in::put_ddsketch_element(&out, 1e300);
  return out;
}

// Keys of a Zipf stream with their bigint texts, every seventh one with a
// count code other than 1, and one text longer than kMaxValueBytes.
Bytes cms_elements(uint64_t seed, size_t n) {
  namespace cms = sketch::cms;
  Bytes out;
  const std::vector<uint64_t> keys = cms::test::Zipf(60, 1.1, seed).take(n);
  for (size_t i = 0; i < keys.size(); i++) {
    const uint8_t code = i % 7 == 3 ? static_cast<uint8_t>(2 + i % 5) : 1;
    in::put_cms_element(&out, cms::test::key_hash(keys[i]), code, cms::test::key_text(keys[i]));
  }
  in::put_cms_element(&out, cms::test::key_hash(1000), 3, std::string(cms::kMaxValueBytes + 30, 'y'));
  in::put_cms_element(&out, cms::test::key_hash(1001), 0, "skipped");   // count 0
  in::put_cms_element(&out, cms::test::key_hash(1002), 255, "max");     // kMaxCount
  return out;
}

// A skewed stream of integer items with their decimal texts (as topk_agg
// gets a bigint's output), weight 1 but every seventh 2..6, then one text
// longer than kMaxItemBytes, one weight 0 (skipped) and one kMaxTotal
// (refused unless the state is empty: an overflow writes nothing).
Bytes topk_elements(uint64_t seed, int n, int64_t keys = 60) {
  namespace tk = sketch::topk;
  tk::test::Random r(seed);
  Bytes out;
  for (int i = 0; i < n; i++) {
    const int64_t key = static_cast<int64_t>(std::pow(static_cast<double>(keys), r.uniform())) - 1;
    const uint8_t code = i % 7 == 3 ? static_cast<uint8_t>(2 + i % 5) : 1;
    in::put_topk_element(&out, tk::test::item_hash(key), code, std::to_string(key));
  }
  in::put_topk_element(&out, tk::test::item_hash(1000), 3, std::string(tk::kMaxItemBytes + 30, 'y'));
  in::put_topk_element(&out, tk::test::item_hash(1001), 0, "skipped");  // weight 0
  in::put_topk_element(&out, tk::test::item_hash(1002), 255, "max");    // kMaxTotal
  return out;
}

// Hashes of a stream (those of i = from..from + n - 1), every ninth one
// repeated, then 0 and 1 (kept hash 0: skipped) and the largest kept hash.
// With `one_run`, every kept hash ends in the same five bits (one long run of
// slots in a table of up to 32 slots, probed and rebuilt).
Bytes theta_elements(uint64_t seed, uint64_t n, uint64_t from = 0, bool one_run = false) {
  namespace th = sketch::theta;
  Bytes out;
  for (uint64_t i = from; i < from + n; i++) {
    uint64_t h = th::test::stream_hash(seed, i);
    if (one_run) h = (h & ~uint64_t{0x3e}) | 0x14;
    in::put_theta_element(&out, h);
    if (i % 9 == 4) in::put_theta_element(&out, h);
  }
  in::put_theta_element(&out, 0);
  in::put_theta_element(&out, 1);
  in::put_theta_element(&out, ~uint64_t{0});
  return out;
}

Bytes counting_bloom_elements(uint64_t seed, uint64_t n) {
  Bytes out;
  for (uint64_t i = 0; i < n; i++) {
    const sketch::Hash128 h = sketch::counting_bloom::test::key_hash(seed, i);
    in::put_counting_bloom_element(&out, h.low, h.high);
  }
  return out;
}

// Keys of key space `seed` (cuckoo's test keys) added with set semantics
// (cuckoo_agg), every fifth one as one more copy (cuckoo_add) and, every
// seventh, a delete of the key added three before; every eleventh a delete
// of a key never added; then `copies` more copies of key 0 (cuckoo_add), which
// fill its buckets in every sub-filter and grow the filter.
Bytes cuckoo_elements(uint64_t seed, uint64_t n, uint64_t copies = 0) {
  using sketch::cuckoo::test::key_hash;
  Bytes out;
  auto put = [&](in::CuckooOp op, sketch::Hash128 h) { in::put_cuckoo_element(&out, op, h.low, h.high); };
  for (uint64_t i = 0; i < n; i++) {
    put(i % 5 == 3 ? in::kCuckooAdd : in::kCuckooAddNew, key_hash(seed, i));
    if (i % 7 == 6) put(in::kCuckooDelete, key_hash(seed, i - 3));
    if (i % 11 == 10) put(in::kCuckooDelete, key_hash(seed + 1000, i));
  }
  for (uint64_t i = 0; i < copies; i++) put(in::kCuckooAdd, key_hash(seed, 0));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const sketch::fuzz::corpus::Folder out(argc, argv, "states");
  const Bytes none;
  const Bytes refused = {'n', 'o', 't', ' ', 'a', ' ', 's', 'k', 'e', 't', 'c', 'h'};

  {  // hll
    using sketch::hll::test::Sketch;
    using sketch::hll::test::stream;
    auto put = [&](const std::string& name, uint8_t flags, uint8_t params, const Bytes& state,
                   const Bytes& other, const Bytes& elements, uint8_t kind = 0) {
      out.write("hll_" + name, in::encode(in::kHll, flags, params, kind, state, other, elements));
    };
    const Bytes sparse_p14 = Sketch::from_hashes(14, stream(1, 0, 3)).canonical();
    const Bytes sparse_p10 = Sketch::from_hashes(10, stream(2, 0, 40)).canonical();
    const Bytes sparse_p12 = Sketch::from_hashes(12, stream(3, 0, 30)).canonical();
    const Bytes dense_p8 = Sketch::from_hashes(8, stream(4, 0, 800)).canonical();
    const Bytes dense_p4 = Sketch::from_hashes(4, stream(5, 0, 100)).canonical();
    const Bytes set_p10 = Sketch::from_hashes(10, stream(6, 0, 30)).bytes();
    const Bytes empty_p14 = Sketch(14).canonical();
    Sketch saturated = Sketch::empty_dense(4);
    for (uint32_t i = 0; i < 16; i++) saturated.add(uint64_t{i} << 60);

    put("stored_sparse_initcond", 0, 0, sparse_p14, none, hll_elements(10, 5));
    put("empty_then_values", 0, 0, empty_p14, none, hll_elements(11, 20));
    put("sparse_promoted_by_values", 0, 0, sparse_p10, sparse_p12, hll_elements(12, 200));
    put("dense_with_working_other_split", in::kOtherAsWorking | in::kSplitElements, 0, dense_p8,
        sparse_p10, hll_elements(13, 50));
    put("working_set_with_dense_other", 0, 0, set_p10, dense_p4, hll_elements(14, 10));
    put("refused_state_other_p6", 0, 0, refused, Sketch::from_hashes(6, stream(7, 0, 5)).canonical(),
        hll_elements(15, 100));
    put("refused_state_no_other", 0, 3, refused, none, hll_elements(16, 30));
    put("saturated_dense", 0, 0, saturated.canonical(), none, hll_elements(17, 4));
    put("sparse_with_sparse_other_split", in::kOtherAsWorking | in::kSplitElements, 0, sparse_p12,
        sparse_p14, hll_elements(18, 300));
    // Element kinds (element_kind.h): the test helpers' sketches are
    // unrecorded (0), which takes a number but refuses an interval (11).
    put("kind_number_unrecorded_state", 0, 0, sparse_p10, dense_p4, hll_elements(19, 10), 1);
    put("kind_interval_unrecorded_state", 0, 0, sparse_p10, none, hll_elements(20, 10), 11);
    put("kind_text_new_state_split", in::kOtherAsWorking | in::kSplitElements, 2, refused,
        sparse_p12, hll_elements(21, 40), 3);
  }

  {  // cms
    namespace cms = sketch::cms;
    using cms::test::Sketch;
    auto put = [&](const std::string& name, uint8_t flags, uint8_t params, const Bytes& state,
                   const Bytes& other, const Bytes& elements, uint8_t kind = 0) {
      out.write("cms_" + name, in::encode(in::kCms, flags, params, kind, state, other, elements));
    };
    auto zipf = [](const cms::Params& p, uint64_t seed, size_t n) {
      Sketch s(p);
      s.add_all(cms::test::Zipf(80, 1.2, seed).take(n));
      return s;
    };
    const cms::Params k4_cons = cms::test::params(16, 2, true, 4);
    const cms::Params k10 = cms::test::params(16, 2, false, 10);
    const cms::Params k0 = cms::test::params(8, 3, false, 0);
    put("stored_with_stored_other", 0, 0, zipf(k4_cons, 1, 100).canonical(),
        zipf(k4_cons, 2, 60).canonical(), cms_elements(3, 40));
    put("working_with_working_other_split", in::kOtherAsWorking | in::kSplitElements, 0,
        zipf(k4_cons, 4, 80).bytes(), zipf(k10, 5, 80).canonical(), cms_elements(6, 60));
    put("stored_k0", 0, 0, zipf(k0, 7, 50).canonical(), zipf(k0, 8, 10).canonical(),
        cms_elements(9, 20));
    put("mismatched_other", 0, 0, zipf(cms::test::params(4, 2, false, 3), 10, 30).canonical(),
        zipf(cms::test::params(8, 2, false, 3), 11, 30).canonical(), cms_elements(12, 10));
    put("refused_state_other_params", 0, 0, refused, zipf(k10, 13, 40).canonical(),
        cms_elements(14, 30));
    put("refused_state_no_other", 0, 0x45, refused, none, cms_elements(15, 30));
    put("empty_stored", 0, 0, Sketch(k4_cons).canonical(), none, cms_elements(16, 50));
    put("kind_number_new_state", 0, 0x13, refused, none, cms_elements(17, 30), 1);
    put("kind_interval_unrecorded_state", 0, 0, zipf(k10, 18, 40).canonical(), none,
        cms_elements(19, 10), 11);
  }

  {  // bloom
    namespace bloom = sketch::bloom;
    using bloom::test::Filter;
    auto put = [&](const std::string& name, uint8_t flags, uint8_t params, const Bytes& state,
                   const Bytes& other, const Bytes& elements, uint8_t kind = 0) {
      out.write("bloom_" + name,
                in::encode(in::kBloom, flags, params, kind, state, other, elements));
    };
    auto filled = [](uint64_t bits, int hashes, uint64_t seed, uint64_t n) {
      Filter f(bits, hashes);
      f.add_keys(seed, 0, n);
      return f;
    };
    auto working = [](uint64_t bits, int hashes, uint64_t seed, uint64_t n) {
      Filter f = Filter::working(bloom::Params{bits, hashes});
      f.add_keys(seed, 0, n);
      return f;
    };
    put("stored_with_stored_other", 0, 0, filled(1000, 7, 1, 10).bytes(),
        filled(1000, 7, 2, 10).bytes(), bloom_elements(3, 20));
    put("working_with_working_other_split", in::kOtherAsWorking | in::kSplitElements, 0,
        working(512, 4, 4, 5).bytes(), working(512, 4, 5, 40).bytes(), bloom_elements(6, 30));
    put("stored_with_working_other", 0, 0, filled(512, 4, 7, 20).bytes(),
        working(512, 4, 8, 20).bytes(), bloom_elements(9, 10));
    put("mismatched_other", 0, 0, filled(64, 3, 10, 5).bytes(), filled(100, 2, 11, 5).bytes(),
        bloom_elements(12, 10));
    put("refused_state_empty_working", in::kEmptyWorking, 0x31, refused, none,
        bloom_elements(13, 40));
    put("refused_state_other_params", 0, 0, refused, filled(4096, 5, 14, 100).bytes(),
        bloom_elements(15, 20));
    put("stored_refused_other", 0, 0, filled(100, 2, 16, 10).bytes(), refused,
        bloom_elements(17, 20));
    put("kind_uuid_new_working_state", in::kEmptyWorking, 0x23, refused, none,
        bloom_elements(18, 30), 5);
    put("kind_hashed_stored_split", in::kOtherAsWorking | in::kSplitElements, 0,
        filled(1000, 7, 19, 10).bytes(), filled(1000, 7, 20, 10).bytes(), bloom_elements(21, 30),
        13);
  }
  {  // ddsketch
    namespace dd = sketch::ddsketch;
    using dd::test::params;
    using dd::test::Sketch;
    auto put = [&](const std::string& name, uint8_t flags, uint8_t p, const Bytes& state,
                   const Bytes& other, const Bytes& elements) {
      out.write("ddsketch_" + name, in::encode(in::kDdsketch, flags, p, 0, state, other, elements));
    };
    auto of = [](const dd::Params& p, uint64_t seed, int n) {
      Sketch s(p);
      sketch::ddsketch::test::Random r(seed);
      for (int i = 0; i < n; i++) s.add(std::exp(r.normal() * 3) * (r.uniform() < 0.3 ? -1 : 1));
      return s;
    };
    const dd::Params s6 = params(6, 2048), s6_small = params(6, 32), s3 = params(3, 16);
    put("stored_with_stored_other", 0, 0, of(s6, 1, 50).stored(), of(s6, 2, 40).stored(),
        ddsketch_elements(3, 30));
    put("working_with_working_other_split", in::kOtherAsWorking | in::kSplitElements, 0,
        of(s6, 4, 30).bytes(), of(s6_small, 5, 60).stored(), ddsketch_elements(6, 60));
    put("collapsing_split", in::kOtherAsWorking | in::kSplitElements, 0, of(s3, 7, 40).stored(),
        of(s3, 8, 40).stored(), ddsketch_elements(9, 80));
    put("other_scale_folds", 0, 0, of(s6, 10, 30).stored(), of(s3, 11, 30).stored(),
        ddsketch_elements(12, 20));
    put("refused_state_other_params", 0, 0, refused, of(s6_small, 13, 20).stored(),
        ddsketch_elements(14, 40));
    put("refused_state_no_other", 0, 0x2a, refused, none, ddsketch_elements(15, 50));
    put("empty_stored", 0, 0, Sketch(s6).stored(), none, ddsketch_elements(16, 30));
    put("empty_working_stored_other", 0, 0, Sketch(s6).bytes(), of(s6, 17, 10).stored(),
        ddsketch_elements(18, 10));
  }
  {  // topk
    namespace tk = sketch::topk;
    using tk::test::Summary;
    auto put = [&](const std::string& name, uint8_t flags, uint8_t params, const Bytes& state,
                   const Bytes& other, const Bytes& elements, uint8_t kind = 0) {
      out.write("topk_" + name, in::encode(in::kTopk, flags, params, kind, state, other, elements));
    };
    auto skewed = [](uint32_t k, uint64_t seed, int n) {
      Summary s(k);
      tk::test::Random r(seed);
      for (int i = 0; i < n; i++)
        s.add(static_cast<int64_t>(std::pow(40.0, r.uniform())) - 1, 1 + r.below(3));
      return s;
    };
    auto with_kind = [](Bytes b, sketch::ElementKind kind) {
      b[sketch::kElementKindOffset] = static_cast<uint8_t>(kind);
      return b;
    };
    Summary nearly_full(4);
    nearly_full.add(5, tk::kMaxTotal - 10);
    put("stored_with_stored_other", 0, 0, skewed(8, 1, 100).stored(), skewed(8, 2, 60).stored(),
        topk_elements(3, 40));
    put("working_with_working_other_split", in::kOtherAsWorking | in::kSplitElements, 0,
        skewed(8, 4, 80).bytes(), skewed(16, 5, 80).stored(), topk_elements(6, 60));
    put("stored_split_other_smaller_k", in::kOtherAsWorking | in::kSplitElements, 0,
        skewed(16, 7, 100).stored(), skewed(4, 8, 50).stored(), topk_elements(9, 80));
    put("refused_state_other_params", 0, 0, refused, skewed(4, 10, 30).stored(),
        topk_elements(11, 40));
    put("refused_state_no_other", 0, 0x05, refused, none, topk_elements(12, 50));
    put("refused_state_large_k", 0, 0x83, refused, none, topk_elements(13, 300, 2000));
    put("empty_stored", 0, 0, Summary(4).stored(), none, topk_elements(14, 30));
    put("other_near_max_total", 0, 0, skewed(4, 15, 20).stored(), nearly_full.stored(),
        topk_elements(16, 5));
    put("kind_number_new_state", 0, 0x02, refused, none, topk_elements(17, 30), 1);
    put("kind_text_state_refuses_number", 0, 0,
        with_kind(skewed(8, 18, 40).stored(), sketch::ElementKind::kText), none,
        topk_elements(19, 10), 1);
    put("kind_number_split_other_text", in::kOtherAsWorking | in::kSplitElements, 0,
        with_kind(skewed(8, 20, 40).stored(), sketch::ElementKind::kNumber),
        with_kind(skewed(8, 21, 40).stored(), sketch::ElementKind::kText), topk_elements(22, 20),
        1);
  }
  {  // theta
    namespace th = sketch::theta;
    using th::test::Sketch;
    auto put = [&](const std::string& name, uint8_t flags, uint8_t params, const Bytes& state,
                   const Bytes& other, const Bytes& elements, uint8_t kind = 0) {
      out.write("theta_" + name,
                in::encode(in::kTheta, flags, params, kind, state, other, elements));
    };
    // The sketch of the hashes of stream `seed` from `from` to from + n - 1.
    auto streamed = [](int lg_k, uint64_t seed, uint64_t n, uint64_t from = 0) {
      Sketch s(lg_k);
      for (uint64_t i = from; i < from + n; i++) s.add_hash(th::test::stream_hash(seed, i));
      return s;
    };
    auto with_kind = [](Bytes b, sketch::ElementKind kind) {
      b[sketch::kElementKindOffset] = static_cast<uint8_t>(kind);
      return b;
    };
    const uint8_t split = in::kOtherAsWorking | in::kSplitElements;
    put("stored_with_stored_other", 0, 0, streamed(5, 1, 100).stored(), streamed(5, 2, 60).stored(),
        theta_elements(3, 40));
    put("working_with_working_other_split", split, 0, streamed(6, 4, 80).bytes(),
        streamed(5, 5, 80).stored(), theta_elements(6, 200));
    put("stored_split_other_larger_lg", split, 0, streamed(4, 7, 50).stored(),
        streamed(6, 8, 50).stored(), theta_elements(9, 80));
    // Overlapping sets, exact while apart, past k together.
    put("exact_state_exact_other_overlap", 0, 0, streamed(5, 10, 20).stored(),
        streamed(5, 10, 20, 10).stored(), theta_elements(10, 30, 15));
    put("refused_state_other_params", 0, 0, refused,
        streamed(4, 11, 30).stored(), theta_elements(12, 60));
    put("refused_state_no_other", 0, 0x01, refused, none, theta_elements(13, 100));
    put("refused_state_large_lg", 0, 0x88, refused, none, theta_elements(14, 300));
    put("empty_stored", 0, 0, th::test::empty_stored(4), none, theta_elements(15, 50));
    // An INITCOND with θ below 2^63 and fewer than k hashes: an
    // intersection's result.
    put("intersection_initcond_split", split, 0,
        th::test::intersection(streamed(5, 16, 200).stored(), streamed(5, 16, 200, 100).stored()),
        streamed(6, 16, 50, 150).stored(), theta_elements(16, 60, 120));
    put("kind_number_new_state", 0, 0x02, refused, none, theta_elements(17, 30), 1);
    put("kind_text_state_refuses_number", 0, 0,
        with_kind(streamed(5, 18, 40).stored(), sketch::ElementKind::kText), none,
        theta_elements(19, 10), 1);
    put("kind_number_split_other_text", split, 0,
        with_kind(streamed(5, 20, 40).stored(), sketch::ElementKind::kNumber),
        with_kind(streamed(5, 21, 40).stored(), sketch::ElementKind::kText),
        theta_elements(22, 20), 1);
    put("one_run_new_state", 0, 0x00, refused, none, theta_elements(23, 200, 0, true));
    // A full stored sketch (its working copy has the full 2k slots) merged
    // in place with a sketch of a lower θ and few hashes (an intersection's
    // result, so that no trim to k hides what the sweep must drop).
    put("stored_full_other_lower_theta", 0, 0, streamed(4, 27, 40).stored(),
        th::test::intersection(streamed(4, 28, 400).stored(), streamed(4, 28, 400, 300).stored()),
        theta_elements(29, 10));
    // A small table and an other sketch that do not fit its load limit
    // together: the merge makes a larger table.
    put("small_state_small_other_no_room", 0, 0, streamed(6, 30, 10).stored(),
        streamed(6, 31, 5).stored(), none);
    put("working_full_one_run_other", 0, 0, streamed(4, 24, 100).bytes(),
        streamed(4, 25, 30).stored(), theta_elements(26, 100, 0, true));
  }
  {  // counting_bloom
    namespace cb = sketch::counting_bloom;
    using cb::test::Filter;
    auto put = [&](const std::string& name, uint8_t flags, uint8_t params, const Bytes& state,
                   const Bytes& other, const Bytes& elements, uint8_t kind = 0) {
      out.write("counting_bloom_" + name,
                in::encode(in::kCountingBloom, flags, params, kind, state, other, elements));
    };
    auto filled = [](uint64_t cells, int hashes, uint64_t seed, uint64_t n) {
      Filter f(cells, hashes);
      f.add_keys(seed, 0, n);
      return f;
    };
    auto working = [](uint64_t cells, int hashes, uint64_t seed, uint64_t n) {
      Filter f = Filter::working(cb::Params{cells, hashes});
      f.add_keys(seed, 0, n);
      return f;
    };
    const uint8_t split = in::kOtherAsWorking | in::kSplitElements;
    put("stored_with_stored_other", 0, 0, filled(1000, 7, 1, 10).bytes(),
        filled(1000, 7, 2, 10).bytes(), counting_bloom_elements(3, 20));
    put("working_with_working_other_split", split, 0, working(512, 4, 4, 5).bytes(),
        working(512, 4, 5, 40).bytes(), counting_bloom_elements(6, 30));
    put("stored_with_working_other", 0, 0, filled(512, 4, 7, 20).bytes(),
        working(512, 4, 8, 20).bytes(), counting_bloom_elements(9, 10));
    // Few cells, many values: counters saturate at 15 on both sides.
    put("saturating_split", split, 0, filled(16, 8, 10, 30).bytes(), filled(16, 8, 11, 30).bytes(),
        counting_bloom_elements(12, 40));
    put("mismatched_other", 0, 0, filled(64, 3, 13, 5).bytes(), filled(100, 2, 14, 5).bytes(),
        counting_bloom_elements(15, 10));
    put("refused_state_empty_working", in::kEmptyWorking, 0x31, refused, none,
        counting_bloom_elements(16, 40));
    put("refused_state_other_params", 0, 0, refused, filled(4096, 5, 17, 100).bytes(),
        counting_bloom_elements(18, 20));
    put("refused_state_no_other", 0, 0x7c, refused, none, counting_bloom_elements(19, 60));
    put("stored_refused_other", 0, 0, filled(100, 2, 20, 10).bytes(), refused,
        counting_bloom_elements(21, 20));
    put("kind_uuid_new_working_state", in::kEmptyWorking, 0x23, refused, none,
        counting_bloom_elements(22, 30), 5);
    put("kind_hashed_stored_split", split, 0, filled(1000, 7, 23, 10).bytes(),
        filled(1000, 7, 24, 10).bytes(), counting_bloom_elements(25, 30), 13);
  }
  {  // cuckoo
    namespace ck = sketch::cuckoo;
    using ck::test::Filter;
    using ck::test::key_hash;
    auto put = [&](const std::string& name, uint8_t flags, uint8_t params, const Bytes& state,
                   const Bytes& other, const Bytes& elements, uint8_t kind = 0) {
      out.write("cuckoo_" + name,
                in::encode(in::kCuckoo, flags, params, kind, state, other, elements));
    };
    // A filter of B buckets, f-bit fingerprints and bucket size b holding
    // keys 0..n-1 of key space `seed` (set semantics) and `copies` more
    // copies of key 0, which grow it.
    auto filled = [](uint64_t buckets, int f, int b, uint64_t seed, uint64_t n,
                     uint64_t copies = 0) {
      Filter filter(ck::Params{buckets, f, b});
      for (uint64_t i = 0; i < n; i++) filter.add(key_hash(seed, i), true);
      for (uint64_t i = 0; i < copies; i++) filter.add(key_hash(seed, 0));
      return filter;
    };
    // A chain of `count` sub-filters of first_b, first_b + 1, ... buckets
    // (f = 4, b = 2), one fingerprint each: unions append a sub-filter for
    // each, so the chain stays small.
    auto chain = [&](uint64_t first_b, int count, uint64_t seed) {
      Filter u = filled(first_b, 4, 2, seed, 1);
      for (int j = 1; j < count; j++) {
        const sketch::Status st = u.merge(filled(first_b + j, 4, 2, seed + j, 1));
        if (!st.is_ok()) throw std::runtime_error(st.message());
      }
      return u.stored().bytes();
    };
    const uint8_t split = in::kOtherAsWorking | in::kSplitElements;
    put("stored_with_stored_other", 0, 0, filled(8, 8, 4, 1, 20).bytes(),
        filled(8, 8, 4, 2, 20).bytes(), cuckoo_elements(3, 30));
    put("stored_split_grows", split, 0, filled(2, 12, 2, 4, 3).bytes(),
        filled(2, 12, 2, 5, 3).bytes(), cuckoo_elements(6, 60, 12));
    // Grown filters are working states (kStructure only) without a tail; a
    // union's result not made in place has one.
    Filter with_tail = filled(4, 8, 4, 7, 10);
    if (!with_tail.merge(filled(3, 8, 4, 8, 12)).is_ok()) return 1;
    put("working_grown_with_working_tail_other", 0, 0, filled(2, 8, 4, 9, 30).bytes(),
        with_tail.bytes(), cuckoo_elements(10, 20));
    put("working_tail_state_split", split, 0, with_tail.bytes(), filled(5, 8, 4, 11, 10).bytes(),
        cuckoo_elements(12, 30));
    // Deferred states (cuckoo_agg's queue of hashes added later): settled
    // before an operation reads them, or merged (the merge settles both).
    Filter deferred = Filter::deferred(ck::Params{6, 10, 4});
    for (uint64_t i = 0; i < 9; i++) deferred.add(key_hash(40, i), true);
    put("deferred_state_with_stored_other", 0, 0, deferred.bytes(), filled(6, 10, 4, 41, 12).bytes(),
        cuckoo_elements(42, 30));
    put("stored_state_with_deferred_other_split", split, 0, filled(6, 10, 4, 43, 10).bytes(),
        deferred.bytes(), cuckoo_elements(44, 20));
    // Copies of one value fill its buckets: many growths of the chain.
    put("copies_grow_chain", 0, 0x00, filled(1, 4, 2, 13, 1).bytes(), none,
        cuckoo_elements(14, 4, 60));
    // 32 sub-filters: the next growth is refused (kOverflow), nothing
    // written; a union with another chain passes kMaxSubfilters.
    put("thirty_two_subfilters_refuse_growth", 0, 0, chain(1, 32, 15), none,
        cuckoo_elements(16, 10, 150));
    put("union_past_max_subfilters", 0, 0, chain(1, 20, 17), chain(40, 20, 18),
        cuckoo_elements(19, 10));
    put("union_appends_subfilters_split", split, 0, chain(1, 10, 20), chain(20, 10, 21),
        cuckoo_elements(22, 40));
    put("mismatched_other", 0, 0, filled(8, 8, 4, 23, 5).bytes(), filled(8, 12, 4, 24, 5).bytes(),
        cuckoo_elements(25, 10));
    put("refused_state_other_params", 0, 0, refused, filled(16, 32, 8, 26, 40).bytes(),
        cuckoo_elements(27, 60));
    put("refused_state_no_other", 0, 0x05, refused, none, cuckoo_elements(28, 80, 20));
    put("refused_state_f32_b8", 0, 0xb3, refused, none, cuckoo_elements(29, 60));
    put("stored_refused_other", 0, 0, filled(4, 13, 2, 30, 5).bytes(), refused,
        cuckoo_elements(31, 20));
    put("kind_number_new_state", 0, 0x12, refused, none, cuckoo_elements(32, 30), 1);
    put("kind_interval_unrecorded_state", 0, 0, filled(8, 8, 4, 33, 10).bytes(), none,
        cuckoo_elements(34, 10), 11);
    put("kind_text_split", split, 0x22, refused, filled(3, 13, 2, 35, 6).bytes(),
        cuckoo_elements(36, 40), 3);
  }
  return 0;
}
