// Fuzz target: starts aggregation from arbitrary states.
//
// A transition or combine function can be handed any sketch as its state:
// the executor's own working state, an INITCOND of a user-defined aggregate
// (any valid stored value), a direct call's argument, a parallel worker's or
// a distributed engine's partial state. The core's aggregate-state mechanism
// (core/common/working_state.h) decides what may be written in place; this target
// drives it exactly as src/pg/common/aggregate_state.h does, with a test::Arena in
// place of palloc (state_ops.h), for all eight families. The input
// (states_input.h) picks a family and holds a state's bytes, an other
// sketch's bytes and a stream of elements:
//
//   1. the state's bytes through state::to_working with owned = false (a
//      value the caller does not own: copied or refused). When they are a
//      valid stored value (the strictest parse accepts them: what an
//      INITCOND or any input path gives), also with owned = true on a copy,
//      as the executor treats an INITCOND: written in place only when the
//      family says it already is a working state. Both must be the same
//      sketch. Refused bytes give kInvalidFormat, and the state starts as an
//      empty sketch instead (of the other sketch's parameters when it
//      parses), so the rest still runs. owned = true is never applied to
//      arbitrary bytes that merely look like a working state: in the server
//      those can only come from this code, since every input path refuses
//      working encodings. It is applied to every working state this
//      mechanism made (which must then be used in place).
//   2. the elements through state::add (hll: hashes; cms: hash, count and a
//      text source reading the value's text from the input, called at most
//      once per add; bloom: 128-bit hashes; ddsketch: finite doubles; topk:
//      hash, weight and a text source like cms's, an add past kMaxTotal
//      refused with nothing written, as the wrapper then raises an error;
//      theta: hashes, as hll's; counting_bloom: 128-bit hashes, as bloom's;
//      cuckoo: 128-bit hashes added with set semantics (cuckoo_agg), as one
//      more copy (cuckoo_add) or deleted (cuckoo_delete, delete_hash in the
//      state), added as cuckoo_add_element does: the in-place add, then
//      plan_grow's limit (a clean kOverflow refusal with nothing written, the
//      kick path undone) and one state::add_growing), into
//      every state of step 1, after state::accept_kind when the input gives
//      the elements a kind (element_kind.h): a new state takes it, a state of
//      another kind refuses it (kMismatch, nothing written) and gets no
//      element. ddsketch holds numbers, not hashes: its kind byte stays 255
//      and the wrapper never calls accept_kind for it, so neither does this.
//   3. state::merge with the other sketch when it parses (optionally its
//      working copy, holding every second element: a combine of two partial
//      states). A refusal (other parameters or element kind) is kMismatch
//      (ddsketch: kInvalidParameter, a union of more than 2^64 - 1 values;
//      topk: also a union of more than kMaxTotal, with check_mergeable's
//      status; theta sketches of any lg_k merge, so only another element
//      kind; cuckoo: also kOverflow, a union past kMaxSubfilters) and writes
//      nothing.
//   4. state::to_stored. When everything that went in was a valid stored
//      value or made by this mechanism, the result must pass the strictest
//      parse, be its own stored form (to_stored is idempotent), be the same
//      from every state of step 1, and for hll, bloom, theta and ddsketch
//      (when the state and the other sketch share a scale: ddsketch.h says
//      why across scales it may not) equal the sketch that got every element
//      itself (the stored form depends only on the parameters and the
//      multiset of values added). A theta sketch is moreover a function of
//      the set that went in, so its result must be, byte for byte, the
//      reference computed from the definition (theta_readers.h, Kmv): the
//      k smallest kept hashes, at the smaller lg_k, of the state's and the
//      other sketch's hashes and the elements each got, below the lower of
//      their θ. topk's unions depend on where its purges fall, so
//      instead its result (the working state and its stored form) must be
//      sound for what went in: within the Misra-Gries bounds of the state,
//      the other sketch and the exact counts of the elements added
//      (topk_readers.h, Expected). counting_bloom's result must be, byte for
//      byte, the filter of the counters computed from the definition
//      (bloom's positions; every counter min(15, its total): saturating sums
//      are order-free, so this holds with saturation too), every value added
//      contained. cuckoo's bytes depend on the insert order, so instead:
//      every value added is contained (no false negatives) unless a delete
//      took a copy of its fingerprint, the count is the start's plus the
//      successful adds less the successful deletes, every fingerprint copy
//      of the start and of both sides of the union stays in its bucket pair
//      (a union keeps at least one copy of each of the other's), and the
//      stored form passes parse(kCanonical). The stored result used as a
//      state again (owned = true, an INITCOND) is unchanged by an empty
//      stream. Otherwise (the state's or other sketch's bytes were a working
//      encoding, possibly corrupt) everything must still run without a
//      memory error, and the readers must answer finite numbers.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <tuple>
#include <type_traits>
#include <vector>

#include "bloom_readers.h"
#include "cms_readers.h"
#include "core/cuckoo/cuckoo.h"
#include "core/cuckoo/cuckoo_family.h"
#include "counting_bloom_readers.h"
#include "ddsketch_readers.h"
#include "fuzz_check.h"
#include "hll_readers.h"
#include "state_ops.h"
#include "states_input.h"
#include "theta_readers.h"
#include "topk_readers.h"

namespace sketch::fuzz {
namespace {

using states_input::Input;

// --- per family: the strictest parse, empty sketches, elements, readers ----

struct HllHarness {
  using Family = hll::Family;
  using View = hll::View;
  static constexpr bool kExactUnion = true;
  static constexpr bool kTakesKinds = true;
  static bool exact_between(const View&, const View&) { return true; }

  static Status strict_parse(const Bytes& b) {
    View v;
    return hll::parse(b.data(), b.size(), hll::Validation::kCanonical, &v);
  }
  static bool strict(const Bytes& b) { return strict_parse(b).is_ok(); }
  static Bytes empty_of_precision(int p) {
    Bytes out(hll::sparse_size(0));
    hll::write_empty(out.data(), p);
    return out;
  }
  static Bytes empty_like(const View& v) { return empty_of_precision(v.p); }
  static Bytes empty_for(uint8_t params, uint8_t) {
    return empty_of_precision(hll::kMinPrecision +
                              params % (hll::kMaxPrecision - hll::kMinPrecision + 1));
  }
  template <class F>
  static void for_each_element(const uint8_t* p, size_t len, F&& f) {
    for (; len >= states_input::kHllElementBytes;
         p += states_input::kHllElementBytes, len -= states_input::kHllElementBytes) {
      const uint64_t hash = states_input::load64(p);
      f([hash] { return Family::Element{hash}; });
    }
  }
  static void check(const View& v, bool) { hll_readers::check_numbers(v); }
};

struct CmsHarness {
  using Family = cms::Family;
  using View = cms::View;
  static constexpr bool kExactUnion = false;  // candidate lists depend on grouping
  static constexpr bool kTakesKinds = true;
  static bool exact_between(const View&, const View&) { return true; }

  static Status strict_parse(const Bytes& b) {
    View v;
    return cms::parse(b.data(), b.size(), cms::Validation::kCanonical, &v);
  }
  static bool strict(const Bytes& b) { return strict_parse(b).is_ok(); }
  static Bytes empty_of(const cms::Params& p) {
    Bytes out(cms::stored_size(p, 0, 0));
    cms::write_empty(p, out.data());
    return out;
  }
  static Bytes empty_like(const View& v) { return empty_of(v.params); }
  static Bytes empty_for(uint8_t params, uint8_t) {
    return empty_of(cms::Params{1u + params % 16u, 1u + params / 16u % 4u,
                                params / 64u % 3u * 2u, (params & 0x80) != 0});
  }

  // The value's text, from the input (cms::Family::TextSource).
  struct Text {
    const uint8_t* bytes;
    uint32_t len;  // before clipping
    int calls;
  };
  static Family::Text text_of(void* context) {
    auto* t = static_cast<Text*>(context);
    t->calls++;
    const bool clipped = t->len > cms::kMaxValueBytes;
    return Family::Text{t->bytes, clipped ? cms::kMaxValueBytes : t->len, clipped};
  }

  template <class F>
  static void for_each_element(const uint8_t* p, size_t len, F&& f) {
    while (len >= states_input::kCmsElementHeaderBytes) {
      const uint64_t hash = states_input::load64(p);
      const uint8_t code = p[8];
      const uint32_t text_len = std::min<uint32_t>(
          uint32_t{p[9]} | uint32_t{p[10]} << 8,
          static_cast<uint32_t>(len - states_input::kCmsElementHeaderBytes));
      // A value's text is its type's output, a C string: it ends at the
      // first zero byte, as the wrapper's strlen ends it.
      const uint8_t* chars = p + states_input::kCmsElementHeaderBytes;
      const void* zero = std::memchr(chars, 0, text_len);
      Text text{chars,
                zero ? static_cast<uint32_t>(static_cast<const uint8_t*>(zero) - chars) : text_len,
                0};
      p += states_input::kCmsElementHeaderBytes + text_len;
      len -= states_input::kCmsElementHeaderBytes + text_len;
      if (code == 0) continue;  // cms_agg skips a count of 0
      const uint64_t count = code == 255   ? cms::kMaxCount
                             : code == 254 ? cms::kMaxCount / 2 + 1
                                           : code;
      int adds = 0;
      f([&] {
        adds++;
        return Family::element(hash, count, text_of, &text);
      });
      // state::add asks for a value's text at most once per add.
      FUZZ_CHECK(text.calls <= adds);
    }
  }
  static void check(const View& v, bool canonical) { cms_readers::check_readers(v, canonical); }
};

struct BloomHarness {
  using Family = bloom::Family;
  using View = bloom::View;
  static constexpr bool kExactUnion = true;
  static constexpr bool kTakesKinds = true;
  static bool exact_between(const View&, const View&) { return true; }

  static Status strict_parse(const Bytes& b) {
    View v;
    return bloom::parse(b.data(), b.size(), bloom::Validation::kCanonical, &v);
  }
  static bool strict(const Bytes& b) { return strict_parse(b).is_ok(); }
  static Bytes empty_of(const bloom::Params& p, bool working) {
    Bytes out(working ? bloom::working_size(p.bits) : bloom::filter_size(p.bits));
    if (working) {
      bloom::write_empty(out.data(), p, bloom::Encoding::kQueued);
    } else {
      bloom::write_empty(out.data(), p);
    }
    return out;
  }
  // bloom_agg starts a large state in the working encoding; the flag lets
  // small ones take it too.
  static Bytes empty_like(const View& v, uint8_t flags) {
    return empty_of(bloom::Params{v.bits, v.hashes}, flags & states_input::kEmptyWorking);
  }
  static Bytes empty_like(const View& v) { return empty_like(v, 0); }
  static Bytes empty_for(uint8_t params, uint8_t flags) {
    return empty_of(bloom::Params{bloom::kMinBits + params % 16u * 61u, 1 + params / 16},
                    flags & states_input::kEmptyWorking);
  }
  template <class F>
  static void for_each_element(const uint8_t* p, size_t len, F&& f) {
    for (; len >= states_input::kBloomElementBytes;
         p += states_input::kBloomElementBytes, len -= states_input::kBloomElementBytes) {
      const Hash128 hash{states_input::load64(p), states_input::load64(p + 8)};
      f([hash] { return Family::Element{hash}; });
    }
  }
  static void check(const View& v, bool) { bloom_readers::check_numbers(v); }
};

struct DdsketchHarness {
  using Family = ddsketch::Family;
  using View = ddsketch::View;
  static constexpr bool kExactUnion = true;
  static constexpr bool kTakesKinds = false;  // numbers: the kind byte is always 255
  // Unions at one scale are exact; across scales a collapsed store folds
  // as a whole (ddsketch.h), so only same-scale results are compared.
  static bool exact_between(const View& a, const View& b) { return a.scale == b.scale; }

  static Status strict_parse(const Bytes& b) {
    View v;
    return ddsketch::parse(b.data(), b.size(), Validation::kCanonical, &v);
  }
  static bool strict(const Bytes& b) { return strict_parse(b).is_ok(); }
  static Bytes empty_of(int scale, uint32_t max_buckets) {
    return ddsketch_readers::empty_sketch(scale, max_buckets);
  }
  static Bytes empty_like(const View& v) { return empty_of(v.scale, v.max_buckets); }
  // Small limits, so that values collapse.
  static Bytes empty_for(uint8_t params, uint8_t) {
    return empty_of(params % (ddsketch::kMaxScale + 1), 16u << (params / 13 % 4));
  }
  template <class F>
  static void for_each_element(const uint8_t* p, size_t len, F&& f) {
    for (; len >= states_input::kDdsketchElementBytes;
         p += states_input::kDdsketchElementBytes, len -= states_input::kDdsketchElementBytes) {
      const uint64_t bits = states_input::load64(p);
      double value;
      std::memcpy(&value, &bits, 8);
      if (!std::isfinite(value)) continue;  // the wrapper raises 22023
      f([value] { return Family::Element{value}; });
    }
  }
  static void check(const View& v, bool canonical) {
    ddsketch_readers::check_readers(v, canonical);
  }
};

struct TopkHarness {
  using Family = topk::Family;
  using View = topk::View;
  // A union's counters depend on where its purges fall: no byte comparison
  // with the state that got every element itself; run() checks the result
  // against the bounds of what went in instead.
  static constexpr bool kExactUnion = false;
  static constexpr bool kTakesKinds = true;
  static bool exact_between(const View&, const View&) { return true; }

  static Status strict_parse(const Bytes& b) {
    View v;
    return topk::parse(b.data(), b.size(), Validation::kCanonical, &v);
  }
  static bool strict(const Bytes& b) { return strict_parse(b).is_ok(); }
  static Bytes empty_of(uint32_t k) { return topk_readers::empty_summary(k, 0); }
  static Bytes empty_like(const View& v) { return empty_of(v.k); }
  // Mostly small k, so that the elements purge; sometimes up to 1024.
  static Bytes empty_for(uint8_t params, uint8_t) {
    return empty_of((params & 0x80) ? 64u * (1u + params % 16u) : 1u + params % 32u);
  }

  // The value's text, from the input (topk::Family::TextSource).
  struct Text {
    const uint8_t* bytes;
    uint32_t len;  // before clipping
    int calls;
  };
  static Family::Text text_of(void* context) {
    auto* t = static_cast<Text*>(context);
    t->calls++;
    const bool clipped = t->len > topk::kMaxItemBytes;
    return Family::Text{t->bytes, clipped ? topk::kMaxItemBytes : t->len, clipped};
  }

  template <class F>
  static void for_each_element(const uint8_t* p, size_t len, F&& f) {
    while (len >= states_input::kTopkElementHeaderBytes) {
      const uint64_t hash = states_input::load64(p);
      const uint8_t code = p[8];
      const uint32_t text_len = std::min<uint32_t>(
          uint32_t{p[9]} | uint32_t{p[10]} << 8,
          static_cast<uint32_t>(len - states_input::kTopkElementHeaderBytes));
      // A value's text is its type's output, a C string: it ends at the
      // first zero byte.
      const uint8_t* chars = p + states_input::kTopkElementHeaderBytes;
      const void* zero = std::memchr(chars, 0, text_len);
      Text text{chars,
                zero ? static_cast<uint32_t>(static_cast<const uint8_t*>(zero) - chars) : text_len,
                0};
      p += states_input::kTopkElementHeaderBytes + text_len;
      len -= states_input::kTopkElementHeaderBytes + text_len;
      if (code == 0) continue;  // a weight topk_agg never passes on
      const uint64_t weight = code == 255   ? topk::kMaxTotal
                              : code == 254 ? topk::kMaxTotal / 2 + 1
                                            : code;
      int adds = 0;
      f([&] {
        adds++;
        return Family::element(hash, weight, text_of, &text);
      });
      // state::add asks for a value's text at most once per add.
      FUZZ_CHECK(text.calls <= adds);
    }
  }
  static void check(const View& v, bool canonical) { topk_readers::check_readers(v, canonical); }
};

struct ThetaHarness {
  using Family = theta::Family;
  using View = theta::View;
  // The sketch of a set is a function of the set: the same bytes whatever
  // the order of the adds and the merge tree (theta.h).
  static constexpr bool kExactUnion = true;
  static constexpr bool kTakesKinds = true;
  static bool exact_between(const View&, const View&) { return true; }

  static Status strict_parse(const Bytes& b) {
    View v;
    return theta::parse(b.data(), b.size(), Validation::kCanonical, &v);
  }
  static bool strict(const Bytes& b) { return strict_parse(b).is_ok(); }
  static Bytes empty_of(int lg_k) {
    return theta_readers::empty_sketch(lg_k, static_cast<uint8_t>(ElementKind::kNone));
  }
  static Bytes empty_like(const View& v) { return empty_of(v.lg_k); }
  // Mostly lg_k 4 to 7, so that the elements fill the table and rebuild it;
  // sometimes up to 24 (a new state is 16 slots at any lg_k).
  static Bytes empty_for(uint8_t params, uint8_t) {
    const int span = (params & 0x80) ? theta::kMaxLgK - theta::kMinLgK + 1 : 4;
    return empty_of(theta::kMinLgK + params % span);
  }
  template <class F>
  static void for_each_element(const uint8_t* p, size_t len, F&& f) {
    for (; len >= states_input::kThetaElementBytes;
         p += states_input::kThetaElementBytes, len -= states_input::kThetaElementBytes) {
      const uint64_t hash = states_input::load64(p);
      f([hash] { return Family::Element{hash}; });
    }
  }
  static void check(const View& v, bool canonical) { theta_readers::check_readers(v, canonical); }
};

struct CountingBloomHarness {
  using Family = counting_bloom::Family;
  using View = counting_bloom::View;
  // Counters are saturating sums (min(15, total) whatever the order): the
  // stored form is a function of m, k and the multiset of values added.
  static constexpr bool kExactUnion = true;
  static constexpr bool kTakesKinds = true;
  static bool exact_between(const View&, const View&) { return true; }

  static Status strict_parse(const Bytes& b) {
    View v;
    return counting_bloom::parse(b.data(), b.size(), Validation::kCanonical, &v);
  }
  static bool strict(const Bytes& b) { return strict_parse(b).is_ok(); }
  static Bytes empty_of(const counting_bloom::Params& p, bool working) {
    Bytes out(working ? counting_bloom::working_size(p.cells) : counting_bloom::filter_size(p.cells));
    if (working) {
      counting_bloom::write_empty(out.data(), p, counting_bloom::Encoding::kQueued);
    } else {
      counting_bloom::write_empty(out.data(), p);
    }
    return out;
  }
  // counting_bloom_agg starts a large state in the working encoding; the
  // flag lets small ones take it too.
  static Bytes empty_like(const View& v, uint8_t flags) {
    return empty_of(counting_bloom::Params{v.cells, v.hashes}, flags & states_input::kEmptyWorking);
  }
  static Bytes empty_like(const View& v) { return empty_like(v, 0); }
  // Few cells and up to 16 hashes, so that counters saturate.
  static Bytes empty_for(uint8_t params, uint8_t flags) {
    return empty_of(counting_bloom::Params{counting_bloom::kMinCells + params % 16u * 13u,
                                           1 + params / 16},
                    flags & states_input::kEmptyWorking);
  }
  template <class F>
  static void for_each_element(const uint8_t* p, size_t len, F&& f) {
    for (; len >= states_input::kCountingBloomElementBytes;
         p += states_input::kCountingBloomElementBytes,
         len -= states_input::kCountingBloomElementBytes) {
      const Hash128 hash{states_input::load64(p), states_input::load64(p + 8)};
      f([hash] { return Family::Element{hash}; });
    }
  }
  static void check(const View& v, bool) { counting_bloom_readers::check_numbers(v); }
};

// counting_bloom's model: m, k and every cell's counter, computed from the
// definition (bloom's positions, saturating sums), never by the core's
// writers.
struct Counters {
  uint64_t cells = 0;
  int hashes = 0;
  std::vector<uint8_t> c;
  std::vector<Hash128> values;  // the values added, each contained at the end
};

Counters counters_of(const counting_bloom::View& v) {
  Counters out{v.cells, v.hashes, std::vector<uint8_t>(v.cells), {}};
  for (uint64_t j = 0; j < v.cells; j++)
    out.c[j] = static_cast<uint8_t>((v.words[j >> 1] >> ((j & 1) * 4)) & 15u);
  return out;
}

void counters_add(Counters* m, Hash128 hash) {
  bloom::Positions positions(hash, m->cells);
  for (int i = 0; i < m->hashes; i++) {
    uint8_t& c = m->c[positions.next()];
    c = static_cast<uint8_t>(std::min(15, c + 1));
  }
}

void counters_union(Counters* a, const Counters& b) {
  FUZZ_CHECK(a->cells == b.cells && a->hashes == b.hashes);
  for (uint64_t j = 0; j < a->cells; j++)
    a->c[j] = static_cast<uint8_t>(std::min(15, a->c[j] + b.c[j]));
  a->values.insert(a->values.end(), b.values.begin(), b.values.end());
}

// The stored filter of the model.
Bytes counters_bytes(const Counters& m, uint8_t kind) {
  Bytes out(counting_bloom::filter_size(m.cells));
  counting_bloom::write_empty(out.data(), counting_bloom::Params{m.cells, m.hashes});
  for (uint64_t j = 0; j < m.cells; j++)
    out[counting_bloom::kCellsOffset + j / 2] |= static_cast<uint8_t>(m.c[j] << (4 * (j & 1)));
  out[kElementKindOffset] = kind;
  return out;
}

struct CuckooHarness {
  using Family = cuckoo::Family;
  using View = cuckoo::View;
  // A filter's bytes depend on the order of its inserts: no byte comparison
  // with the state that got every element itself; run() checks membership,
  // counts and the entries of both sides instead.
  static constexpr bool kExactUnion = false;
  static constexpr bool kTakesKinds = true;
  static bool exact_between(const View&, const View&) { return true; }

  static Status strict_parse(const Bytes& b) {
    View v;
    return cuckoo::parse(b.data(), b.size(), Validation::kCanonical, &v);
  }
  static bool strict(const Bytes& b) { return strict_parse(b).is_ok(); }
  static Bytes empty_of(const cuckoo::Params& p) {
    Bytes out(cuckoo::filter_size(p));
    cuckoo::write_empty(out.data(), p);
    return out;
  }
  // A new state is sized like the first sub-filter of the other filter.
  static Bytes empty_like(const View& v) {
    return empty_of(cuckoo::Params{v.buckets[0], v.fingerprint_bits, v.bucket_size});
  }
  // Few buckets, so that the elements fill them, relocate and grow.
  static Bytes empty_for(uint8_t params, uint8_t) {
    static constexpr int kBits[4] = {4, 8, 13, 32};
    return empty_of(cuckoo::Params{1u + params % 16u, kBits[params / 16 % 4],
                                   2 << (params / 64 % 3)});
  }

  // One operation: an add (set or multiset semantics) or a delete.
  struct Op {
    Family::Element element;
    bool remove;
  };
  template <class F>
  static void for_each_element(const uint8_t* p, size_t len, F&& f) {
    for (; len >= states_input::kCuckooElementBytes;
         p += states_input::kCuckooElementBytes, len -= states_input::kCuckooElementBytes) {
      const uint8_t op = p[0] % 4;
      const Hash128 hash{states_input::load64(p + 1), states_input::load64(p + 9)};
      f([hash, op] {
        return Op{Family::Element{hash, op != states_input::kCuckooAdd},
                  op == states_input::kCuckooDelete};
      });
    }
  }
  static Hash128 probe(uint64_t i) {
    return Hash128{0x9E3779B97F4A7C15ull * (i + 1), 0xC2B2AE3D27D4EB4Full ^ i};
  }
  static void check(const View& v, bool canonical) {
    FUZZ_CHECK(v.encoding == cuckoo::Encoding::kStored && v.used == v.size);
    if (canonical) FUZZ_CHECK(cuckoo::held(v) <= cuckoo::capacity(v));
    const double fpp = cuckoo::estimate_fpp(v);
    FUZZ_CHECK(std::isfinite(fpp) && fpp >= 0 && fpp <= 1);
    for (uint64_t i = 0; i < 4; i++) {
      const int64_t n = cuckoo::count_hash(v, probe(i));
      FUZZ_CHECK(n >= 0 && (n > 0) == cuckoo::contains_hash(v, probe(i)));
    }
  }
};

// The most bytes a cuckoo state may grow to here: each growth doubles the
// largest sub-filter, so a stream of copies of one value reaches plan_grow's
// limit (kMaxDumpableBytes) only through buffers of hundreds of MB. Past
// this the harness refuses the value itself, as plan_grow does at the limit
// (the refusal path is the same; kMaxSubfilters is reached cheaply by
// states that are unions of many small sub-filters).
constexpr size_t kCuckooGrowthBudget = size_t{1} << 20;

// What cuckoo_apply did.
enum class CuckooResult { kAdded, kPresent, kRefused, kDeleted, kAbsent };

// One operation on a cuckoo working state, as the wrapper runs it
// (cuckoo_add_element in src/pg/cuckoo/cuckoo_datum.cpp): the family's
// in-place add; when no sub-filter takes the value, the buffer must be
// exactly as before (the kick path undone), plan_grow's limit is checked
// (kOverflow: a clean refusal, nothing written) and state::add_growing grows
// the state once. A delete is cuckoo_delete's delete_hash, in place. Every
// result is checked against the counts and the copies of the value's
// fingerprint before and after; the state parses after every operation,
// also one copied from corrupt working bytes (core/cuckoo: counts are kept
// within 0..B*b). `exact_counts`: the state's counts are its slots' (made
// from valid stored values), so the count moves by exactly the one added or
// deleted.
// A deferred state (cuckoo_agg's encoding: adds queued behind a prefetch,
// made here only from input bytes) is settled first, through the mechanism,
// as the server settles one before a delete or its stored form; its queue is
// then empty, so a set-semantics add is queued (nothing else changes) and is
// checked on a settled copy: the value present, its copies up by one unless
// it was present already. Its other operations run as on any state.
bool cuckoo_settle(Bytes* s) {
  test::Arena arena;
  states::Allocator alloc{&arena};
  size_t len = s->size();
  uint8_t* out = nullptr;
  if (!state::settle<cuckoo::Family>(s->data(), &len, alloc, &out).is_ok()) return false;
  if (out != s->data()) *s = arena.take(out);
  FUZZ_CHECK(s->size() == len && cuckoo::pending_of(s->data(), s->size()) == 0);
  return true;
}

CuckooResult cuckoo_apply(Bytes* s, CuckooHarness::Op& op, bool exact_counts) {
  namespace ck = cuckoo;
  if (ck::encoding_of(s->data()) == ck::Encoding::kDeferred) {
    // Growth while settling is bounded by the queue (16 adds): at most a
    // few sub-filters; a state at its limits refuses, as plan_grow does.
    const ck::View v = states::view_of<ck::Family>(*s);
    size_t size = 0;
    if (v.pending != 0 && (!ck::plan_grow(v, &size).is_ok() || size > kCuckooGrowthBudget))
      return CuckooResult::kRefused;
    FUZZ_CHECK(cuckoo_settle(s));
    if (!op.remove && op.element.only_new) {
      const ck::View before = states::view_of<ck::Family>(*s);
      const int64_t copies_before = ck::count_hash(before, op.element.hash);
      ck::Family::Growth growth;
      FUZZ_CHECK(ck::Family::add(s->data(), op.element, &growth));  // queued
      FUZZ_CHECK(ck::pending_of(s->data(), s->size()) == 1);
      Bytes settled = *s;
      const ck::View queued = states::view_of<ck::Family>(settled);
      if (!ck::plan_grow(queued, &size).is_ok() || size > kCuckooGrowthBudget)
        return CuckooResult::kRefused;
      FUZZ_CHECK(cuckoo_settle(&settled));
      const ck::View after = states::view_of<ck::Family>(settled);
      FUZZ_CHECK(ck::contains_hash(after, op.element.hash));
      FUZZ_CHECK(ck::count_hash(after, op.element.hash) ==
                 copies_before + (copies_before > 0 ? 0 : 1));
      *s = settled;
      return copies_before > 0 ? CuckooResult::kPresent : CuckooResult::kAdded;
    }
  }
  const ck::View before = states::view_of<ck::Family>(*s);
  const Hash128 h = op.element.hash;
  const uint64_t held_before = ck::held(before);
  const int64_t copies_before = ck::count_hash(before, h);
  const bool present_before = ck::contains_hash(before, h);
  FUZZ_CHECK(present_before == (copies_before > 0));
  const Bytes copy = *s;
  CuckooResult result;
  if (op.remove) {
    // A present value is deleted, or refused when sub-filters of two sizes
    // hold its fingerprint (core/cuckoo/cuckoo.h); either refusal writes
    // nothing.
    const ck::DeleteResult r = ck::remove_hash(s->data(), h);
    result = r == ck::DeleteResult::kDeleted ? CuckooResult::kDeleted : CuckooResult::kAbsent;
    FUZZ_CHECK((r == ck::DeleteResult::kAbsent) == !present_before);
    if (result == CuckooResult::kAbsent) {
      FUZZ_CHECK(*s == copy);
      return result;
    }
  } else {
    ck::Family::Growth growth;
    if (ck::Family::add(s->data(), op.element, &growth)) {
      result = op.element.only_new && present_before ? CuckooResult::kPresent
                                                     : CuckooResult::kAdded;
      if (result == CuckooResult::kPresent) {
        FUZZ_CHECK(*s == copy);
        return result;
      }
    } else {
      FUZZ_CHECK(*s == copy);  // the kick path undone: nothing lost
      FUZZ_CHECK(!op.element.only_new || !present_before);
      size_t size = 0;
      const Status limit = ck::plan_grow(before, &size);
      if (!limit.is_ok()) {
        FUZZ_CHECK(limit.code() == StatusCode::kOverflow && limit.message()[0] != '\0');
        FUZZ_CHECK(before.subfilters >= ck::kMaxSubfilters || size == SIZE_MAX);
        return CuckooResult::kRefused;
      }
      FUZZ_CHECK(size > before.used && size <= kMaxDumpableBytes);
      if (size > kCuckooGrowthBudget) return CuckooResult::kRefused;
      test::Arena arena;
      states::Allocator alloc{&arena};
      uint8_t* out = nullptr;
      const Status grown =
          state::add_growing<ck::Family>(s->data(), s->size(), op.element, growth, alloc, &out);
      // The new sub-filter is empty and twice the largest: one growth.
      FUZZ_CHECK(grown.is_ok() && out != nullptr && alloc.calls == 1);
      *s = arena.take(out);
      FUZZ_CHECK(s->size() == size &&
                 ck::encoding_of(s->data()) == (before.encoding == ck::Encoding::kDeferred
                                                    ? ck::Encoding::kDeferred
                                                    : ck::Encoding::kSpareTail));
      // The old sub-filters as they were (none of them took the value), one
      // more in the header.
      FUZZ_CHECK(ck::subfilter_count_of(s->data()) == before.subfilters + 1);
      for (size_t i = 0; i < before.used - ck::kGuardBytes; i++)
        FUZZ_CHECK(i == 6 || i == ck::kSubfilterCountOffset || (*s)[i] == copy[i]);
      result = CuckooResult::kAdded;
    }
  }
  const ck::View after = states::view_of<ck::Family>(*s);
  const int64_t delta = result == CuckooResult::kDeleted ? -1 : 1;
  if (exact_counts) FUZZ_CHECK(ck::held(after) == held_before + static_cast<uint64_t>(delta));
  // Relocations move copies within their pair of buckets: the value's
  // copies change by exactly the one added or deleted.
  FUZZ_CHECK(ck::count_hash(after, h) == copies_before + delta);
  if (result == CuckooResult::kAdded) FUZZ_CHECK(ck::contains_hash(after, h));
  return result;
}

// A cuckoo filter's fingerprint copies by (B, bucket pair, fingerprint): a
// relocation moves a copy between the two buckets of its pair, a growth
// copies every sub-filter and a union re-inserts each copy of the other
// filter at its bucket in a sub-filter of the same B, so a key's count never
// drops but by a delete of its fingerprint.
using CuckooKey = std::tuple<uint64_t, uint64_t, uint32_t>;
using CuckooEntries = std::map<CuckooKey, uint64_t>;

CuckooEntries cuckoo_entries(const cuckoo::View& v) {
  CuckooEntries out;
  const int b = v.bucket_size, f = v.fingerprint_bits;
  for (int j = 0; j < v.subfilters; j++) {
    const uint64_t buckets = v.buckets[j];
    const uint8_t* area = cuckoo::area_of(v, j);
    for (uint64_t s = 0; s < buckets * b; s++) {
      const uint32_t fp = cuckoo::get_slot(area, s, f);
      if (fp == 0) continue;
      const uint64_t i = s / b;
      out[CuckooKey{buckets, std::min(i, cuckoo::alt_bucket(i, fp, buckets)), fp}]++;
    }
  }
  return out;
}

// What went into a cuckoo state: its entries at the start, the values added
// (or found present) and the values deleted.
struct CuckooModel {
  bool known = false;  // the start was a valid stored value or new
  CuckooEntries start;
  uint64_t held = 0;  // the start's count, plus adds, less deletes
  std::vector<Hash128> members;
  std::vector<Hash128> deleted;

  void note(const CuckooHarness::Op& op, CuckooResult r) {
    switch (r) {
      case CuckooResult::kAdded:
        held++;
        members.push_back(op.element.hash);
        break;
      case CuckooResult::kPresent:
        members.push_back(op.element.hash);
        break;
      case CuckooResult::kDeleted:
        held--;
        deleted.push_back(op.element.hash);
        break;
      default:
        break;
    }
  }

  // Every value added is contained (no false negatives), unless a delete
  // removed a copy of its fingerprint.
  void check_members(const cuckoo::View& v) const {
    if (!known) return;
    const int f = v.fingerprint_bits;
    for (const Hash128& m : members)
      if (!fingerprint_deleted(cuckoo::fingerprint_of(m, f), f))
        FUZZ_CHECK(cuckoo::contains_hash(v, m));
  }

  bool fingerprint_deleted(uint32_t fp, int f) const {
    for (const Hash128& d : deleted)
      if (cuckoo::fingerprint_of(d, f) == fp) return true;
    return false;
  }

  // The state after the operations: its count is the start's plus the
  // successful adds less the successful deletes; every value added is
  // contained (no false negatives) and every entry of the start kept,
  // unless a delete removed a copy of the same fingerprint.
  void check(const cuckoo::View& v) const {
    if (!known) return;
    FUZZ_CHECK(cuckoo::held(v) == held);
    check_members(v);
    const int f = v.fingerprint_bits;
    const CuckooEntries now = cuckoo_entries(v);
    for (const auto& [key, n] : start) {
      if (fingerprint_deleted(std::get<2>(key), f)) continue;
      const auto it = now.find(key);
      FUZZ_CHECK(it != now.end() && it->second >= n);
    }
  }
};

void start_cuckoo(CuckooModel* m, const cuckoo::View& v) {
  m->known = true;
  m->start = cuckoo_entries(v);
  m->held = cuckoo::held(v);
}

// a ∪ b (both as they were before the union) against the union: every
// entry of a kept with its count, every entry of b there at least once (set
// semantics), the count between a's and a's plus b's, a working state's
// tail zero.
// The count's upper bound needs b's counts to be its slots' (`exact`).
void check_cuckoo_union(const Bytes& a_in, const Bytes& b_in, const Bytes& u_bytes,
                        bool exact) {
  // A deferred side is settled by the merge before it reads it: compare with
  // its settled form.
  Bytes a_bytes = a_in, b_bytes = b_in;
  if (cuckoo::pending_of(a_bytes.data(), a_bytes.size()) != 0) FUZZ_CHECK(cuckoo_settle(&a_bytes));
  if (cuckoo::pending_of(b_bytes.data(), b_bytes.size()) != 0) FUZZ_CHECK(cuckoo_settle(&b_bytes));
  const cuckoo::View a = states::view_of<cuckoo::Family>(a_bytes);
  const cuckoo::View b = states::view_of<cuckoo::Family>(b_bytes);
  const cuckoo::View u = states::view_of<cuckoo::Family>(u_bytes);
  const CuckooEntries ea = cuckoo_entries(a), eb = cuckoo_entries(b), eu = cuckoo_entries(u);
  for (const auto& [key, n] : ea) {
    const auto it = eu.find(key);
    FUZZ_CHECK(it != eu.end() && it->second >= n);
  }
  for (const auto& [key, n] : eb) FUZZ_CHECK(eu.count(key) == 1);
  FUZZ_CHECK(cuckoo::held(u) >= cuckoo::held(a));
  if (exact) FUZZ_CHECK(cuckoo::held(u) <= cuckoo::held(a) + cuckoo::held(b));
  FUZZ_CHECK(u.subfilters <= a.subfilters + b.subfilters);
  for (size_t i = u.used; i < u.size; i++) FUZZ_CHECK(u_bytes[i] == 0);
}

template <class H>
Bytes empty_start(const typename H::View& other, uint8_t flags) {
  if constexpr (std::is_same_v<H, BloomHarness> || std::is_same_v<H, CountingBloomHarness>) {
    return H::empty_like(other, flags);
  } else {
    return H::empty_like(other);
  }
}

// One element into a state: state::add (cuckoo: cuckoo_apply, the
// wrapper's add with its growth limit, or a delete), and the model of what
// went in (counting_bloom: its counters; cuckoo: its counts and members).
// `canonical`: the state was made from valid stored values only.
template <class H, class E>
void add_element(Bytes* s, E& e, Counters* counts, CuckooModel* cuckoo_model, bool canonical) {
  if constexpr (std::is_same_v<H, CuckooHarness>) {
    const CuckooResult r = cuckoo_apply(s, e, canonical);
    if (cuckoo_model != nullptr) cuckoo_model->note(e, r);
  } else {
    (void)cuckoo_model;
    (void)canonical;
    states::add<typename H::Family>(s, e);
    if constexpr (std::is_same_v<H, CountingBloomHarness>) {
      if (counts != nullptr) {
        counters_add(counts, e.hash);
        counts->values.push_back(e.hash);
      }
    } else {
      (void)counts;
    }
  }
}

// --- the run -----------------------------------------------------------------

template <class H>
void run(const Input& in) {
  using Family = typename H::Family;
  using View = typename H::View;
  // topk: the Misra-Gries bounds of what goes into `state` (its start and
  // the elements it gets) and into `other` (the other sketch and the
  // elements its working copy gets), while every input is valid.
  constexpr bool kBounds = std::is_same_v<H, TopkHarness>;
  topk_readers::Expected mine, theirs;
  // theta: the sets that go into `state` and into `other` (the start's
  // lg_k, θ and hashes, then the kept hash of every element each gets),
  // while every input is valid: the result is their reference sketch.
  constexpr bool kReference = std::is_same_v<H, ThetaHarness>;
  theta_readers::Kmv my_set{}, their_set{};
  // counting_bloom: the counters of what goes into `state` and `other`
  // (the start's, then each element's k increments, saturating at 15),
  // while every input is valid: the stored result is that filter, byte for
  // byte.
  constexpr bool kCounting = std::is_same_v<H, CountingBloomHarness>;
  Counters my_counts, their_counts;
  // cuckoo: the start's entries and count, the values added and deleted,
  // for `state` and `other`, while every input is valid.
  constexpr bool kCuckoo = std::is_same_v<H, CuckooHarness>;
  CuckooModel my_cuckoo, their_cuckoo;

  // hll's elements here are identity 1 hashes: postgresql-hll's sketches
  // (identity 2) refuse them and have a target of their own (fuzz_pghll_parse).
  if constexpr (std::is_same_v<H, HllHarness>) {
    for (const Bytes* b : {&in.state, &in.other})
      if (b->size() > 4 && (*b)[4] == hll::pghll::kIdentity) return;
  }
  View other_view;
  const bool other_parses = Family::parse(in.other.data(), in.other.size(), &other_view).is_ok();
  const bool other_strict = other_parses && H::strict(in.other);

  // 1. The state, copied (owned = false); a valid stored value also taken
  // as the executor's own (owned = true).
  Bytes state;
  Bytes owned;
  bool have_owned = false;
  bool expect_canonical = true;  // every input was a valid stored value or ours
  if (states::working_copy<Family>(in.state, &state).is_ok()) {
    if (H::strict(in.state)) {
      if constexpr (kBounds) mine = topk_readers::expected_of(states::view_of<Family>(in.state));
      if constexpr (kReference) my_set = theta_readers::kmv_of(states::view_of<Family>(in.state));
      if constexpr (kCounting) my_counts = counters_of(states::view_of<Family>(in.state));
      if constexpr (kCuckoo) start_cuckoo(&my_cuckoo, states::view_of<Family>(in.state));
      owned = in.state;
      states::take_owned<Family>(&owned);
      have_owned = true;
      FUZZ_CHECK(states::stored<Family>(owned) == states::stored<Family>(state));
    } else {
      expect_canonical = false;  // a working encoding, possibly corrupt
    }
  } else {
    // A new state holds no kind of value yet, as the wrapper marks one.
    Bytes empty = other_parses ? empty_start<H>(other_view, in.flags)
                               : H::empty_for(in.params, in.flags);
    empty[kElementKindOffset] = static_cast<uint8_t>(ElementKind::kNone);
    state = states::working_copy<Family>(empty);
    if constexpr (kReference) my_set = theta_readers::kmv_of(states::view_of<Family>(empty));
    if constexpr (kCounting) my_counts = counters_of(states::view_of<Family>(empty));
    if constexpr (kCuckoo) start_cuckoo(&my_cuckoo, states::view_of<Family>(empty));
  }
  states::check_taken_in_place<Family>(&state);
  if (have_owned) states::check_taken_in_place<Family>(&owned);

  // The other sketch, or its working copy (a partial state to combine).
  Bytes other = in.other;
  const bool other_working = other_parses && (in.flags & states_input::kOtherAsWorking);
  if (other_working) other = states::working_copy<Family>(in.other);
  if constexpr (kBounds) {
    if (other_strict) theirs = topk_readers::expected_of(other_view);
  }
  if constexpr (kReference) {
    if (other_strict) their_set = theta_readers::kmv_of(other_view);
  }
  if constexpr (kCounting) {
    if (other_strict) their_counts = counters_of(other_view);
  }
  if constexpr (kCuckoo) {
    if (other_strict) start_cuckoo(&their_cuckoo, other_view);
  }
  const bool split = other_working && (in.flags & states_input::kSplitElements);
  // With split elements: a state that gets every element itself, to compare.
  bool compare_all = split && H::kExactUnion && expect_canonical && other_strict &&
                     H::exact_between(states::view_of<Family>(state), other_view);
  Bytes all = state;

  // 2. The elements, into every state that accepts their kind (the wrapper
  // checks it before each value; a refusal is an ERROR there, no value here).
  bool to_state = true, to_owned = have_owned, to_all = compare_all, to_other = split;
  if (in.kind != 0 && H::kTakesKinds) {
    const auto kind = static_cast<ElementKind>(1 + (in.kind - 1) % 15);
    to_state = states::accept_kind(&state, kind).is_ok();
    if (have_owned) FUZZ_CHECK(states::accept_kind(&owned, kind).is_ok() == to_state);
    if (compare_all) FUZZ_CHECK(states::accept_kind(&all, kind).is_ok() == to_state);
    if (split) to_other = states::accept_kind(&other, kind).is_ok();
    to_owned = have_owned && to_state;
    to_all = compare_all && to_state;
    if (!to_state || !to_other) compare_all = false;
  }
  size_t i = 0;
  H::for_each_element(in.elements, in.elements_len, [&](auto make) {
    if (split && i++ % 2 == 1) {
      if (to_other) {
        auto e = make();
        add_element<H>(&other, e, &their_counts, &their_cuckoo, other_strict);
        if constexpr (kBounds) {
          if (!e.overflowed) topk_readers::add_exact(&theirs, e.hash, e.weight);
        }
        if constexpr (kReference) their_set.hashes.push_back(theta::retained_hash(e.hash));
      }
    } else if (to_state) {
      auto e = make();
      add_element<H>(&state, e, &my_counts, &my_cuckoo, expect_canonical);
      if constexpr (kBounds) {
        if (!e.overflowed) topk_readers::add_exact(&mine, e.hash, e.weight);
      }
      if constexpr (kReference) my_set.hashes.push_back(theta::retained_hash(e.hash));
      if (to_owned) {  // the same values as `state`, from the owned start
        auto e2 = make();
        add_element<H>(&owned, e2, nullptr, nullptr, true);
      }
    }
    if (to_all) {
      auto e = make();
      add_element<H>(&all, e, nullptr, nullptr, true);
    }
  });
  if (other_working) states::check_taken_in_place<Family>(&other);
  if constexpr (kCuckoo) {
    if (expect_canonical) my_cuckoo.check(states::view_of<Family>(state));
    if (split && other_strict) their_cuckoo.check(states::view_of<Family>(other));
  }

  // 3. The union with the other sketch.
  if (other_parses) {
    const View ov = states::view_of<Family>(other);
    const Bytes before_merge = kCuckoo ? state : Bytes();
    const Status st = states::merge<Family>(&state, ov);
    if constexpr (kCuckoo) {
      if (st.is_ok()) {
        check_cuckoo_union(before_merge, other, state, expect_canonical && other_strict);
      } else if (st.code() == StatusCode::kOverflow) {
        const View a = states::view_of<Family>(before_merge);
        FUZZ_CHECK(a.subfilters + ov.subfilters > cuckoo::kMaxSubfilters ||
                   a.used + ov.used > kMaxDumpableBytes);
      }
    }
    if constexpr (kCounting) {
      if (st.is_ok() && other_strict) counters_union(&my_counts, their_counts);
    }
    if constexpr (kBounds) {
      if (st.is_ok()) mine = topk_readers::combined(mine, theirs);
    }
    if constexpr (kReference) {
      if (st.is_ok()) {
        my_set.lg_k = std::min(my_set.lg_k, their_set.lg_k);
        my_set.theta = std::min(my_set.theta, their_set.theta);
        my_set.hashes.insert(my_set.hashes.end(), their_set.hashes.begin(), their_set.hashes.end());
      }
    }
    if (!st.is_ok()) {
      if constexpr (kBounds) {
        // Another element kind, or a union past kMaxTotal (check_mergeable's
        // status).
        FUZZ_CHECK(st.code() == StatusCode::kMismatch ||
                   st.code() == topk::check_mergeable(states::view_of<Family>(state), ov).code());
      } else if constexpr (kCuckoo) {
        // Another f, b or element kind, or a union past kMaxSubfilters.
        FUZZ_CHECK(st.code() == StatusCode::kMismatch || st.code() == StatusCode::kOverflow);
      } else {
        FUZZ_CHECK(st.code() == (std::is_same_v<H, DdsketchHarness> ? StatusCode::kInvalidParameter
                                                                     : StatusCode::kMismatch));
      }
    }
    if (have_owned) FUZZ_CHECK(states::merge<Family>(&owned, ov).code() == st.code());
    if (compare_all && st.is_ok()) {
      FUZZ_CHECK(states::merge<Family>(&all, states::view_of<Family>(in.other)).is_ok());
    } else {
      compare_all = false;  // `state` holds only its half of the values
    }
    if (st.is_ok() && !other_strict) expect_canonical = false;
    if constexpr (kCuckoo) {
      // Every value either side got is in the union.
      if (st.is_ok() && expect_canonical) their_cuckoo.check_members(states::view_of<Family>(state));
    }
    states::check_taken_in_place<Family>(&state);
  }

  // 4. The stored form.
  const Bytes stored = states::stored<Family>(state);
  const View sv = states::view_of<Family>(stored);
  FUZZ_CHECK(Family::is_stored(sv));
  FUZZ_CHECK(states::stored<Family>(stored) == stored);
  H::check(sv, expect_canonical);
  if (!expect_canonical) return;
  if constexpr (kBounds) {
    topk_readers::check_within(states::view_of<Family>(state), mine);
    topk_readers::check_within(sv, mine);
  }
  if constexpr (kReference) {
    const theta_readers::Kmv expected =
        theta_readers::kmv_of(my_set.lg_k, my_set.theta, my_set.hashes);
    FUZZ_CHECK(stored == theta_readers::bytes_of(expected, stored[kElementKindOffset]));
  }
  if constexpr (kCounting) {
    FUZZ_CHECK(stored == counters_bytes(my_counts, stored[kElementKindOffset]));
    for (const Hash128& h : my_counts.values) FUZZ_CHECK(counting_bloom::contains_hash(sv, h));
  }
  if constexpr (kCuckoo) my_cuckoo.check_members(sv);
  const Status strict = H::strict_parse(stored);
  if (!strict.is_ok())
    std::fprintf(stderr, "the stored form of a state made from valid values is not valid input: %s\n",
                 strict.message());
  FUZZ_CHECK(strict.is_ok());
  if (have_owned) FUZZ_CHECK(states::stored<Family>(owned) == stored);
  if (compare_all) FUZZ_CHECK(states::stored<Family>(all) == stored);
  // The result as an INITCOND: taken as the executor's own, nothing added.
  Bytes again = stored;
  states::take_owned<Family>(&again);
  FUZZ_CHECK(states::stored<Family>(again) == stored);
}

}  // namespace
}  // namespace sketch::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sketch::fuzz;
  states_input::Input in;
  if (!states_input::decode(data, size, &in)) return 0;
  switch (in.family) {
    case states_input::kHll:
      run<HllHarness>(in);
      break;
    case states_input::kCms:
      run<CmsHarness>(in);
      break;
    case states_input::kBloom:
      run<BloomHarness>(in);
      break;
    case states_input::kDdsketch:
      run<DdsketchHarness>(in);
      break;
    case states_input::kTopk:
      run<TopkHarness>(in);
      break;
    case states_input::kTheta:
      run<ThetaHarness>(in);
      break;
    case states_input::kCountingBloom:
      run<CountingBloomHarness>(in);
      break;
    case states_input::kCuckoo:
      run<CuckooHarness>(in);
      break;
  }
  return 0;
}
