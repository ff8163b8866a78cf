// Runs every topk reader, writer and combiner over bytes that topk::parse
// accepted, for the topk fuzz targets (the topk counterpart of
// cms_readers.h and ddsketch_readers.h).
//
// parse has two modes. kCanonical is what external input goes through (text
// input, recv, bytea casts): whatever it accepts must behave like a summary
// we wrote, so the checks are strict: its stored form is itself, also
// through a working copy (by the mechanism and by write_working directly);
// every item's counter is positive and at most N, the counters add up to at
// most N, the texts lie in the summary and add up to its text bytes, the
// best-first order is a permutation sorted by counter then hash, find()
// finds every item and nothing else; a ∪ ∅ = ∅ ∪ a = a; a ∪ a doubles every
// counter, Δ and N (or is refused past kMaxTotal); a working copy, a union
// with an empty summary and the stored form at a smaller k agree and are
// valid input; unions with unrelated summaries (built by adds, of the same,
// a smaller and a larger k) are valid input both ways round, and the same
// both ways when no purge can happen; aged copies (write_scaled, several
// factors) are valid input, scale N and every counter down exactly and are
// themselves merged and purged into valid input; values added through the
// aggregate's add / text / grow loop land exactly (a held item's counter
// rises by the weight and its text is not asked for, a new one enters with
// the weight and its text, N rises, an overflow changes nothing). Every
// result is checked against the Misra-Gries bounds of what went in (see
// Expected below): no held counter above its lower bound, no upper bound
// c + Δ below what the inputs allow, nothing held that no input held.
//
// kStructure also accepts aggregate working states and stored values that
// only the structure check was applied to (our own, possibly corrupt):
// every reader, writer and combiner must still run without a memory error
// or a hang, their results must parse, and the stored form is a fixed
// point of to_stored. As in the other *_parse targets, those bytes are
// also handed to the mechanism as the executor's own state (owned = true).
//
// Every writer is given an exact-size std::vector (directly, or through
// state_ops.h's arena), so AddressSanitizer sees a write past a size the
// core computed. The core's writers leave the element kind (header byte 7)
// 0 and the mechanism carries it over (working_state.h); where a writer is
// called directly here, the kind is carried the same way.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/common/element_kind.h"
#include "core/common/hash.h"
#include "core/common/scale.h"
#include "core/topk/topk.h"
#include "core/topk/topk_family.h"
#include "core/topk/topk_internal.h"
#include "fuzz_check.h"
#include "state_ops.h"

namespace sketch::fuzz::topk_readers {

using namespace sketch::topk;

inline View parsed(const Bytes& bytes, Validation validation) {
  return parse_or_abort<View, Validation>(parse, bytes, validation);
}

inline uint64_t sat_add(uint64_t a, uint64_t b) { return a > ~uint64_t{0} - b ? ~uint64_t{0} : a + b; }

// Item i of a view in its own order (stored: by hash; working: insertion).
inline Item item_of(const View& v, uint32_t i) {
  return v.encoding == Encoding::kStored ? stored_item(v, i) : detail::item_at(v, i);
}

// --- building --------------------------------------------------------------

// An empty stored summary of `k` holding values of `kind`.
inline Bytes empty_summary(uint32_t k, uint8_t kind) {
  Bytes out(empty_size());
  write_empty(k, out.data());
  out[kElementKindOffset] = kind;
  return out;
}

// The stored form through state::to_stored (the final function's path).
inline Bytes stored_of(const View& v) { return states::stored<Family>(v.data, v.size); }
inline Bytes stored_of(const Bytes& b) { return stored_of(parsed(b, Validation::kStructure)); }

// The core's writers called directly, into buffers of exactly the size the
// core asks for.
inline Bytes direct_canonical(const View& v) {
  Bytes out(stored_size(v));
  write_stored(v, out.data());
  out[kElementKindOffset] = v.data[kElementKindOffset];
  return out;
}

inline Bytes direct_working(const View& v, uint32_t k) {
  FUZZ_CHECK(k >= 1 && k <= v.k);
  Bytes out(working_size(v, k));
  write_working(v, k, out.data());
  out[kElementKindOffset] = v.data[kElementKindOffset];
  FUZZ_CHECK(Family::is_working(out.data(), out.size()));
  const View w = parsed(out, Validation::kStructure);
  FUZZ_CHECK(w.encoding == Encoding::kWorking && w.k == k && w.total == v.total);
  FUZZ_CHECK(w.count <= w.capacity && w.capacity <= 2 * k);
  return out;
}

inline Bytes direct_scaled(const View& v, double factor) {
  FUZZ_CHECK(check_scale_factor(factor).is_ok());
  Bytes out(scaled_size(v, factor));
  write_scaled(v, factor, out.data());
  FUZZ_CHECK(out[kElementKindOffset] == v.data[kElementKindOffset]);  // write_scaled keeps it
  return out;
}

// The same summary of other items: every hash moved (xor), the records
// sorted again, counters, texts, N and Δ unchanged. Canonical when v is.
// A union with it holds twice the items: the stored form purges.
inline Bytes twin_of(const View& v) {
  std::vector<std::pair<uint64_t, uint32_t>> order;  // new hash, item index
  for (uint32_t i = 0; i < v.count; i++)
    order.push_back({stored_item(v, i).hash ^ 0xA5A5A5A5A5A5A5A5ull, i});
  std::sort(order.begin(), order.end());
  Bytes out(v.data, v.data + detail::kStoredRecordsOffset);
  out.resize(v.size);
  uint8_t* texts = out.data() + detail::kStoredRecordsOffset + detail::kRecordSize * size_t{v.count};
  uint32_t used = 0;
  for (uint32_t r = 0; r < v.count; r++) {
    const Item item = stored_item(v, order[r].second);
    uint8_t* rec = out.data() + detail::kStoredRecordsOffset + detail::kRecordSize * size_t{r};
    store_le64(rec, order[r].first);
    store_le64(rec + 8, item.count);
    std::memcpy(texts + used, item.text, item.len);
    used += item.len;
    store_le32(rec + 16, used | (item.clipped ? detail::kClippedBit : 0));
  }
  return out;
}

// --- the Misra-Gries bounds of what went in ---------------------------------
//
// For every item x, a summary says lower(x) <= f_x <= upper(x): a held item
// has [c, c + Δ], any other [0, Δ], and f_x <= N in any case. What a result
// made from inputs must say (topk.h): a union's truth is the sum of the
// inputs' truths, an added value's is exact, an aged one's is floor(f·f_x).
// Purges lower c by t and raise Δ by t, so a sound result holds no counter
// above the lower bound its inputs allow and no upper bound below the upper
// bound they allow; and it holds nothing its inputs did not (lower bound 0).
struct Expected {
  uint64_t total = 0;
  uint64_t other_upper = 0;  // upper bound of an item not in `items`
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> items;  // hash -> [lower, upper]
};

// The bounds a valid summary (canonical, or made by the mechanism from
// canonical inputs) states.
inline Expected expected_of(const View& v) {
  Expected e;
  e.total = v.total;
  e.other_upper = std::min(v.max_error, v.total);
  for (uint32_t i = 0; i < v.count; i++) {
    const Item item = item_of(v, i);
    if (item.count == 0) continue;
    FUZZ_CHECK(e.items.count(item.hash) == 0);  // one entry per item
    e.items[item.hash] = {item.count, std::min(sat_add(item.count, v.max_error), v.total)};
  }
  return e;
}

inline Expected combined(const Expected& a, const Expected& b) {
  Expected e;
  e.total = a.total + b.total;  // both <= kMaxTotal, refused merges are not combined
  e.other_upper = std::min(a.other_upper + b.other_upper, e.total);
  for (const auto& [hash, bounds] : a.items) {
    const auto it = b.items.find(hash);
    const auto other = it == b.items.end() ? std::make_pair(uint64_t{0}, b.other_upper) : it->second;
    e.items[hash] = {bounds.first + other.first, std::min(bounds.second + other.second, e.total)};
  }
  for (const auto& [hash, bounds] : b.items) {
    if (a.items.count(hash)) continue;
    e.items[hash] = {bounds.first, std::min(bounds.second + a.other_upper, e.total)};
  }
  return e;
}

inline void add_exact(Expected* e, uint64_t hash, uint64_t weight) {
  e->total += weight;
  auto it = e->items.find(hash);
  if (it == e->items.end()) {
    e->items[hash] = {weight, std::min(e->other_upper + weight, e->total)};
  } else {
    it->second = {it->second.first + weight, std::min(it->second.second + weight, e->total)};
  }
}

inline Expected scaled(const Expected& a, double factor) {
  const ExactFactor f(factor);
  Expected e;
  e.total = f.floor(a.total);
  e.other_upper = f.floor(a.other_upper);
  for (const auto& [hash, bounds] : a.items)
    e.items[hash] = {f.floor(bounds.first), f.floor(bounds.second)};
  return e;
}

// The result r (any encoding) is sound for inputs whose bounds are `e`.
inline void check_within(const View& r, const Expected& e) {
  FUZZ_CHECK(r.total == e.total);
  FUZZ_CHECK(r.max_error >= e.other_upper);
  for (const auto& [hash, bounds] : e.items) {
    Item item;
    const uint64_t lower = find(r, hash, &item) ? item.count : 0;
    FUZZ_CHECK(lower <= bounds.first);
    FUZZ_CHECK(sat_add(lower, r.max_error) >= bounds.second);
  }
  for (uint32_t i = 0; i < r.count; i++) {
    const Item item = item_of(r, i);
    if (item.count > 0) FUZZ_CHECK(e.items.count(item.hash) == 1);
  }
}

// Both summaries hold the same counters, N and Δ (texts aside).
inline bool same_counts(const View& a, const View& b) {
  if (a.total != b.total || a.max_error != b.max_error || a.count != b.count) return false;
  for (uint32_t i = 0; i < a.count; i++) {
    const Item x = item_of(a, i);
    Item y;
    if (!find(b, x.hash, &y) || y.count != x.count) return false;
  }
  return true;
}

// --- readers ---------------------------------------------------------------

// Hashes to probe: a few fixed ones and every held item's (and a neighbour).
inline std::vector<uint64_t> probes(const View& v) {
  std::vector<uint64_t> out = {0, 1, 0x9E3779B97F4A7C15ull, ~0ull};
  for (uint32_t i = 0; i < v.count && i < 64; i++) {
    const uint64_t h = item_of(v, i).hash;
    out.push_back(h);
    out.push_back(h + 1);
  }
  return out;
}

// Every reader (topk_items and its best-first order, topk_frequency through
// find, topk_error_bound, topk_info). For strictly parsed summaries the
// answers must make sense; for anything else they must come back without
// reading outside the summary.
inline void check_readers(const View& v, bool canonical) {
  const uint8_t* begin = v.data;
  const uint8_t* end = v.data + v.size;
  uint64_t sum = 0, text_bytes = 0, previous_hash = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const Item item = item_of(v, i);
    FUZZ_CHECK(item.len <= kMaxItemBytes);
    FUZZ_CHECK(item.text >= begin && item.text <= end &&
               static_cast<size_t>(end - item.text) >= item.len);
    if (item.len > 0) hash64(item.text, item.len);  // every byte of the text is readable
    text_bytes += item.len;
    sum = sat_add(sum, item.count);
    Item found;
    const bool held = find(v, item.hash, &found);
    if (canonical) {
      FUZZ_CHECK(item.count > 0 && item.count <= v.total);
      FUZZ_CHECK(i == 0 || item.hash > previous_hash);
      FUZZ_CHECK(held && found.hash == item.hash && found.count == item.count &&
                 found.text == item.text && found.len == item.len &&
                 found.clipped == item.clipped);
    } else if (held) {
      FUZZ_CHECK(found.hash == item.hash);
    }
    previous_hash = item.hash;
  }
  FUZZ_CHECK(text_bytes == v.text_bytes);
  for (uint64_t h : probes(v)) {
    Item found;
    if (find(v, h, &found)) {
      FUZZ_CHECK(found.hash == h && found.len <= kMaxItemBytes);
      FUZZ_CHECK(found.text >= begin && static_cast<size_t>(end - found.text) >= found.len);
    }
  }
  const uint64_t bound = error_bound(v);
  FUZZ_CHECK(bound <= v.total / (uint64_t{v.k} + 1));
  if (canonical) {
    FUZZ_CHECK(v.encoding == Encoding::kStored);
    FUZZ_CHECK(v.count <= v.k && sum <= v.total && v.max_error <= v.total);
    FUZZ_CHECK(bound == (v.total - sum) / (uint64_t{v.k} + 1));
    FUZZ_CHECK(v.size == stored_size(v.count, v.text_bytes));
  }
  if (v.encoding != Encoding::kStored) return;
  // The ranking, best first: a permutation, sorted for valid input.
  std::vector<uint32_t> order(v.count);
  best_first(v, order.data());
  std::vector<bool> seen(v.count);
  for (uint32_t i = 0; i < v.count; i++) {
    FUZZ_CHECK(order[i] < v.count && !seen[order[i]]);
    seen[order[i]] = true;
    if (canonical && i > 0) {
      const Item a = stored_item(v, order[i - 1]), b = stored_item(v, order[i]);
      FUZZ_CHECK(a.count > b.count || (a.count == b.count && a.hash < b.hash));
    }
  }
}

// --- the mechanism -----------------------------------------------------------

// a ∪ b the way the union functions do it (aggregate_state.h): a working
// copy of a (state::to_working, owned = false), then state::merge. The
// result has the smaller k; the only refusal is a union of more than
// kMaxTotal (check_mergeable's status, naming both N), as every summary
// here has a's kind or none.
inline bool united(const Bytes& a_bytes, const Bytes& b_bytes, Validation validation, Bytes* out) {
  const View a = parsed(a_bytes, validation);
  const View b = parsed(b_bytes, validation);
  Bytes state = states::working_copy<Family>(a_bytes);
  const View w = parsed(state, Validation::kStructure);
  const MergePlan plan = topk::plan_merge(w, b);
  FUZZ_CHECK(plan.k == std::min(a.k, b.k));
  const size_t before = state.size();
  const Status st = states::merge<Family>(&state, b);
  if (!st.is_ok()) {
    FUZZ_CHECK(a.total > kMaxTotal - b.total && st.code() == check_mergeable(a, b).code());
    return false;
  }
  FUZZ_CHECK(check_mergeable(a, b).is_ok());
  FUZZ_CHECK(a.total <= kMaxTotal - b.total);
  FUZZ_CHECK(state.size() == (plan.in_place ? before : plan.size));
  const View r = parsed(state, Validation::kStructure);
  FUZZ_CHECK(r.encoding == Encoding::kWorking && Family::is_working(state.data(), state.size()));
  FUZZ_CHECK(r.k == plan.k && r.total == a.total + b.total);
  // Merge results are sized by need: at most 2k slots (the mechanism may
  // have made a working copy of a first, so `plan`'s shape is not binding).
  FUZZ_CHECK(r.capacity <= 2 * plan.k && r.count <= r.capacity);
  *out = state;
  return true;
}

inline Bytes united(const Bytes& a_bytes, const Bytes& b_bytes, Validation validation) {
  Bytes out;
  FUZZ_CHECK(united(a_bytes, b_bytes, validation, &out));
  return out;
}

// One value to add: its hash, weight and text (as the wrapper gives it: at
// most kMaxItemBytes, clipped when longer).
struct Value {
  uint64_t hash;
  uint64_t weight;
  std::string text;
};

struct Source {
  const std::string* text;
  int calls;
};

inline Family::Text text_of(void* context) {
  auto* s = static_cast<Source*>(context);
  s->calls++;
  const bool clipped = s->text->size() > kMaxItemBytes;
  return Family::Text{reinterpret_cast<const uint8_t*>(s->text->data()),
                      clipped ? kMaxItemBytes : static_cast<uint32_t>(s->text->size()), clipped};
}

// A few values for a seed: new ones (one with a text longer than
// kMaxItemBytes), one the summary may already hold (`held`, when non-zero),
// weights 1 to a few thousand, and last one whose weight passes kMaxTotal
// unless the summary is nearly empty.
inline std::vector<Value> values_for(uint64_t seed, uint64_t held) {
  std::vector<Value> out;
  for (uint64_t i = 0; i < 5; i++) {
    const uint64_t hash = (seed + i) * 0x9E3779B97F4A7C15ull ^ 0x5bd1e995u;
    out.push_back(Value{hash, 1 + (seed >> (4 * i)) % 3000,
                        i == 2 ? std::string(kMaxItemBytes + 77, 'x') : "value " + std::to_string(i)});
  }
  if (held != 0) out.push_back(Value{held, 3, "held"});
  out.push_back(Value{out[0].hash, 2, "again"});
  out.push_back(Value{seed ^ 0xfeedfacecafebeefull, kMaxTotal - 5, "huge"});
  return out;
}

// Adds the values through state::add, checking each lands exactly: a held
// item rises by the weight without its text being asked for, a new one
// enters with its weight and its text (asked for once), N rises by the
// weight; a value that would pass kMaxTotal changes nothing. `expected`,
// when given, takes every value that was added.
inline void add_values(Bytes* state, const std::vector<Value>& values, bool exact,
                       Expected* expected = nullptr) {
  for (const Value& value : values) {
    const View before = parsed(*state, Validation::kStructure);
    Item old;
    const bool was_held = find(before, value.hash, &old) && old.count > 0;
    const uint64_t old_count = was_held ? old.count : 0;
    const uint64_t old_total = before.total;
    const Bytes copy = *state;
    Source source{&value.text, 0};
    Family::Element e = Family::element(value.hash, value.weight, text_of, &source);
    states::add<Family>(state, e);
    FUZZ_CHECK(source.calls <= 1);
    const View after = parsed(*state, Validation::kStructure);
    if (e.overflowed) {
      FUZZ_CHECK(old_total > kMaxTotal - value.weight);
      FUZZ_CHECK(*state == copy);
      continue;
    }
    FUZZ_CHECK(after.total == old_total + value.weight);
    if (expected) add_exact(expected, value.hash, value.weight);
    if (!exact) continue;
    if (was_held) FUZZ_CHECK(source.calls == 0);
    Item now;
    FUZZ_CHECK(find(after, value.hash, &now));
    FUZZ_CHECK(now.count == old_count + value.weight);
    if (!was_held) {
      FUZZ_CHECK(source.calls == 1);
      const Family::Text t = text_of(&source);
      FUZZ_CHECK(now.len == t.len && now.clipped == t.clipped);
      FUZZ_CHECK(std::memcmp(now.text, t.bytes, t.len) == 0);
    }
  }
}

// A small valid summary of `k` sharing nothing with the input by
// construction, built by adds through the mechanism: n items with weights
// from the seed (more than k, so that its own build purges).
inline Bytes other_summary(uint32_t k, uint8_t kind, uint64_t seed, uint32_t n) {
  Bytes state = states::working_copy<Family>(empty_summary(k, kind));
  std::vector<Value> values;
  for (uint32_t i = 0; i < n; i++)
    values.push_back(Value{(seed + i) * 0xC2B2AE3D27D4EB4Full + 17, 1 + (seed + 7 * i) % 50,
                           "other " + std::to_string(i)});
  add_values(&state, values, true);
  const Bytes stored = stored_of(state);
  const View v = parsed(stored, Validation::kCanonical);
  // Built by adds: Δ within the bound a summary's adds and merges keep.
  FUZZ_CHECK(v.max_error <= error_bound(v));
  return stored;
}

// --- the checks ----------------------------------------------------------

// Stored results of valid inputs must be valid input again, and sound. The
// view points into `stored`.
inline View check_valid_result(const Bytes& stored, const Expected& e) {
  const View r = parsed(stored, Validation::kCanonical);
  check_readers(r, true);
  check_within(r, e);
  FUZZ_CHECK(stored_of(r) == stored);
  return r;
}

// A summary (canonical, or derived from canonical input by the core) at a
// smaller k: a direct working copy, a union with an empty summary of that
// k, and their stored forms agree and are valid.
inline void check_smaller_k(const Bytes& input, const View& v, const Expected& e, uint32_t k) {
  const Bytes w = direct_working(v, k);
  const View wv = parsed(w, Validation::kStructure);
  check_readers(wv, false);
  check_within(wv, e);
  if (v.count <= 2 * k) FUZZ_CHECK(wv.count == v.count && wv.max_error == v.max_error);
  else FUZZ_CHECK(wv.count <= k);
  const Bytes stored = stored_of(wv);
  const View sv = check_valid_result(stored, e);
  FUZZ_CHECK(sv.k == k && sv.count <= k);
  const Bytes via_union =
      stored_of(united(input, empty_summary(k, input[kElementKindOffset]), Validation::kCanonical));
  FUZZ_CHECK(same_counts(parsed(via_union, Validation::kCanonical), sv));
}

// Strict checks for stored bytes derived from canonical input (the input
// itself or an aged copy), whose bounds are `e`.
inline void exercise_valid(const Bytes& input, const Expected& e, uint64_t seed, bool deep) {
  const View v = parsed(input, Validation::kCanonical);
  const uint8_t kind = input[kElementKindOffset];
  check_readers(v, true);
  check_within(v, e);

  // The stored form of a stored form is itself, by the mechanism and by
  // the writer; also through a working copy of either origin.
  FUZZ_CHECK(stored_of(v) == input);
  FUZZ_CHECK(direct_canonical(v) == input);
  const Bytes working = states::working_copy<Family>(input);
  const Bytes direct = direct_working(v, v.k);
  FUZZ_CHECK(direct == working);  // Family::write_working is write_working at v.k
  const View wv = parsed(working, Validation::kStructure);
  check_readers(wv, false);
  FUZZ_CHECK(wv.count == v.count && wv.max_error == v.max_error && same_counts(wv, v));
  FUZZ_CHECK(stored_of(working) == input);
  FUZZ_CHECK(direct_canonical(wv) == input);

  // a ∪ ∅ = ∅ ∪ a = a, for an empty summary of the input's kind or none.
  for (uint8_t empty_kind : {kind, static_cast<uint8_t>(ElementKind::kNone)}) {
    const Bytes empty = empty_summary(v.k, empty_kind);
    FUZZ_CHECK(stored_of(united(input, empty, Validation::kCanonical)) == input);
    const Bytes reverse = stored_of(united(empty, input, Validation::kCanonical));
    FUZZ_CHECK(reverse == input);
  }

  // a ∪ a: the same items, every counter, Δ and N doubled; refused past
  // kMaxTotal.
  Bytes twice;
  if (united(input, input, Validation::kCanonical, &twice)) {
    const Bytes stored = stored_of(twice);
    const View d = check_valid_result(stored, combined(e, e));
    FUZZ_CHECK(d.count == v.count && d.max_error == 2 * v.max_error && d.total == 2 * v.total);
    for (uint32_t i = 0; i < v.count; i++) {
      const Item x = stored_item(v, i), y = stored_item(d, i);
      FUZZ_CHECK(x.hash == y.hash && y.count == 2 * x.count && x.len == y.len);
    }
  } else {
    FUZZ_CHECK(v.total > kMaxTotal - v.total);
  }

  // a ∪ twin(a): the same counters over other items; past k items, the
  // stored form purges. Valid and sound (both ways round).
  const Bytes twin = twin_of(v);
  const View tv = parsed(twin, Validation::kCanonical);
  const Expected with_twin = combined(e, expected_of(tv));
  for (int order = 0; order < 2; order++) {
    Bytes r;
    if (!united(order == 0 ? input : twin, order == 0 ? twin : input, Validation::kCanonical, &r))
      break;
    check_within(parsed(r, Validation::kStructure), with_twin);
    check_valid_result(stored_of(r), with_twin);
  }

  // Smaller k: a working copy at k' (purged when v holds more than 2k'),
  // ∪ ∅ of k', and the stored forms at k'.
  for (uint32_t k : {1u, v.k / 2, v.k - 1}) {
    if (k < 1 || k >= v.k) continue;
    check_smaller_k(input, v, e, k);
    if (!deep) break;
  }

  // Unions with unrelated summaries built by adds, of the same k, a
  // smaller and a larger one, both ways round: valid input, sound; the same
  // counters both ways when no purge can happen.
  const uint32_t ks[] = {v.k, 1, std::min(kMaxK, v.k + 3), 2};
  for (uint32_t k : ks) {
    const Bytes other = other_summary(k, kind, seed + k, k == 1 ? 3 : 6);
    const View ov = parsed(other, Validation::kCanonical);
    const Expected both = combined(e, expected_of(ov));
    Bytes ab, ba;
    if (!united(input, other, Validation::kCanonical, &ab)) {
      FUZZ_CHECK(!united(other, input, Validation::kCanonical, &ba));
      continue;
    }
    FUZZ_CHECK(united(other, input, Validation::kCanonical, &ba));
    check_within(parsed(ab, Validation::kStructure), both);
    check_within(parsed(ba, Validation::kStructure), both);
    const Bytes ab_stored = stored_of(ab), ba_stored = stored_of(ba);
    const View abv = check_valid_result(ab_stored, both);
    const View bav = check_valid_result(ba_stored, both);
    if (uint64_t{v.count} + ov.count <= 2 * uint64_t{std::min(v.k, ov.k)})
      FUZZ_CHECK(same_counts(abv, bav));
    if (!deep) break;
  }

  // Used as an aggregate state: values added through the add / text / grow
  // loop, each landing exactly; the stored result is valid and sound.
  Bytes state = working;
  Expected with_values = e;
  const uint64_t held = v.count > 0 ? stored_item(v, static_cast<uint32_t>(seed % v.count)).hash : 0;
  add_values(&state, values_for(seed, held), true, &with_values);
  states::check_taken_in_place<Family>(&state);
  check_valid_result(stored_of(state), with_values);
}

// Strict checks for bytes that parse(kCanonical) accepted.
inline void exercise_canonical(const Bytes& input) {
  const View v = parsed(input, Validation::kCanonical);
  FUZZ_CHECK(v.size == input.size() && v.encoding == Encoding::kStored);
  FUZZ_CHECK(!Family::is_working(input.data(), input.size()));
  parsed(input, Validation::kStructure);  // our own values pass the weaker check too
  const uint64_t seed = hash64(input.data(), input.size());
  const Expected e = expected_of(v);
  exercise_valid(input, e, seed, true);

  // Aged copies: N and every counter scaled down exactly (floor), Δ up
  // (ceil, at most the new N), items at 0 dropped; valid input that
  // merges and purges into valid input. A factor of 1 changes nothing.
  FUZZ_CHECK(direct_scaled(v, 1.0) == input);
  // Factors that bring the counters near 1, where rounding matters most:
  // 1 / the largest counter, half that, 1.5 / N; and one from the seed.
  uint64_t largest = 0;
  for (uint32_t i = 0; i < v.count; i++) largest = std::max(largest, stored_item(v, i).count);
  std::vector<double> factors = {0.5, 0.3, 1e-3, static_cast<double>(1 + seed % 1000) / 1001.0,
                                 0x1p-70};
  for (double f : {largest > 0 ? 1.0 / static_cast<double>(largest) : 1.0,
                   largest > 1 ? 0.5 / static_cast<double>(largest) : 1.0,
                   v.total > 1 ? 1.5 / static_cast<double>(v.total) : 1.0})
    if (f < 1.0 && check_scale_factor(f).is_ok()) factors.push_back(f);
  for (double f : factors) {
    const Bytes aged = direct_scaled(v, f);
    const View av = parsed(aged, Validation::kCanonical);
    const ExactFactor x(f);
    FUZZ_CHECK(av.k == v.k && av.total == x.floor(v.total));
    uint64_t scaled_sum = 0;
    for (uint32_t i = 0; i < v.count; i++) scaled_sum += x.floor(stored_item(v, i).count);
    // Δ rounded up, at most what the scaled total leaves beside the counters.
    FUZZ_CHECK(av.max_error == std::min(x.ceil(v.max_error), av.total - scaled_sum));
    uint32_t kept = 0;
    for (uint32_t i = 0; i < v.count; i++) {
      const Item item = stored_item(v, i);
      Item now;
      const bool held = find(av, item.hash, &now);
      FUZZ_CHECK(held == (x.floor(item.count) > 0));
      if (!held) continue;
      kept++;
      FUZZ_CHECK(now.count == x.floor(item.count) && now.len == item.len &&
                 now.clipped == item.clipped && std::memcmp(now.text, item.text, item.len) == 0);
    }
    FUZZ_CHECK(kept == av.count);
    exercise_valid(aged, scaled(e, f), seed ^ kept, false);
  }
  for (double bad : {0.0, -0.5, 1.0000000000000002, 2.0, std::nan(""), double{INFINITY}, -double{INFINITY}})
    FUZZ_CHECK(check_scale_factor(bad).code() == StatusCode::kInvalidParameter);
}

// The bytes as the executor's own state (state::to_working, owned = true):
// a working state is updated in place by state::merge and state::add. In
// the server only states this code made are ever owned, but a corrupt one
// must not take it down.
inline void exercise_as_own_state(const Bytes& input, uint64_t seed) {
  const View v = parsed(input, Validation::kStructure);
  const uint8_t kind = input[kElementKindOffset];
  Bytes merged = input;
  states::take_owned<Family>(&merged);
  const Bytes other = other_summary(v.k, kind, seed, 5);
  const View other_view = parsed(other, Validation::kStructure);
  const Status st = states::merge<Family>(&merged, other_view);
  FUZZ_CHECK(st.is_ok() || st.code() == check_mergeable(v, other_view).code());
  check_readers(parsed(merged, Validation::kStructure), false);
  check_readers(parsed(stored_of(merged), Validation::kStructure), false);
  Bytes added = input;
  states::take_owned<Family>(&added);
  add_values(&added, values_for(seed, v.count > 0 ? item_of(v, 0).hash : 0), false);
  check_readers(parsed(added, Validation::kStructure), false);
  check_readers(parsed(stored_of(added), Validation::kStructure), false);
}

// Lenient checks for bytes that only parse(kStructure) accepted: every
// reader, writer and combiner runs to completion without a memory error,
// and what it makes parses.
inline void exercise_structure(const Bytes& input) {
  const View v = parsed(input, Validation::kStructure);
  FUZZ_CHECK(v.size == input.size());
  FUZZ_CHECK(Family::is_working(input.data(), input.size()) == (v.encoding == Encoding::kWorking));
  const uint8_t kind = input[kElementKindOffset];
  const uint64_t seed = hash64(input.data(), input.size());
  check_readers(v, false);
  (void)error_bound(v);

  // The stored form: what the writer makes, parses, and is a fixed point.
  const Bytes stored = stored_of(v);
  FUZZ_CHECK(stored.size() == stored_size(v));
  FUZZ_CHECK(direct_canonical(v) == stored);
  const View sv = parsed(stored, Validation::kStructure);
  FUZZ_CHECK(sv.encoding == Encoding::kStored && sv.k == v.k && sv.total == v.total);
  FUZZ_CHECK(sv.count <= v.k && sv.count <= v.count);  // purged down to k, nothing new
  check_readers(sv, false);
  FUZZ_CHECK(stored_of(sv) == stored);

  // Working copies at k and smaller k, by the mechanism and directly.
  const Bytes working = states::working_copy<Family>(input);
  FUZZ_CHECK(direct_working(v, v.k) == working);
  check_readers(parsed(working, Validation::kStructure), false);
  for (uint32_t k : {1u, v.k / 2}) {
    if (k < 1 || k >= v.k) continue;
    const Bytes w = direct_working(v, k);
    check_readers(parsed(w, Validation::kStructure), false);
    check_readers(parsed(stored_of(w), Validation::kStructure), false);
  }

  // Aged copies of a stored value.
  if (v.encoding == Encoding::kStored) {
    for (double f : {1.0, 0.5, 1e-3}) {
      const Bytes aged = direct_scaled(v, f);
      const View av = parsed(aged, Validation::kStructure);
      check_readers(av, false);
      check_readers(parsed(stored_of(av), Validation::kStructure), false);
    }
  }

  // Unions with itself, empty summaries and an unrelated one, both ways.
  const Bytes others[] = {
      input,
      empty_summary(v.k, kind),
      empty_summary(1, kind),
      other_summary(v.k, kind, seed, 5),
      other_summary(2, kind, seed + 1, 4),
  };
  for (const Bytes& other : others) {
    for (int order = 0; order < 2; order++) {
      Bytes r;
      if (!united(order == 0 ? input : other, order == 0 ? other : input, Validation::kStructure,
                  &r))
        continue;
      const View rv = parsed(r, Validation::kStructure);
      check_readers(rv, false);
      const Bytes rs = stored_of(rv);
      check_readers(parsed(rs, Validation::kStructure), false);
      FUZZ_CHECK(stored_of(rs) == rs);
    }
  }

  // Values added to a working copy.
  Bytes state = working;
  add_values(&state, values_for(seed, v.count > 0 ? item_of(v, 0).hash : 0), false);
  states::check_taken_in_place<Family>(&state);
  check_readers(parsed(stored_of(state), Validation::kStructure), false);
  exercise_as_own_state(input, seed);
}

// Parses in both modes and runs the matching readers.
inline void exercise(const uint8_t* data, size_t size) {
  exercise_both_modes<View, Validation>(parse, Validation::kCanonical, Validation::kStructure, data,
                                        size, exercise_canonical, exercise_structure);
}

}  // namespace sketch::fuzz::topk_readers
