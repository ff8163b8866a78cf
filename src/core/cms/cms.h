// Count-min sketch: frequencies in fixed memory, mergeable by counter sum,
// with a bounded list of heavy-hitter candidates.
//
// d rows of w counters. Adding a value with weight c adds c to one counter
// per row; its estimate is the minimum of those d counters. Every counter a
// value maps to holds at least that value's count, so the estimate is never
// below the truth; the other values sharing a counter add noise whose
// expectation is at most N/w per row (N = total weight). By Markov's
// inequality a row overshoots by more than e·N/w with probability at most
// 1/e, and the d rows are independent, so with w = ceil(e/epsilon) and
// d = ceil(ln(1/delta)):
//
//   truth <= estimate <= truth + epsilon·N   with probability >= 1 - delta.
//
// Row positions come from the value's one 64-bit XXH3 hash by double hashing
// (Kirsch and Mitzenmacher, "Less hashing, same performance", which covers
// count-min sketches): h1 = low 32 bits, h2 = high 32 bits | 1, and
//
//   g_i = h1 + i·h2 (mod 2^32),   position_i = floor(g_i · w / 2^32).
//
// The reduction to [0, w) is Lemire's multiply-shift instead of `g_i mod w`:
// one multiply instead of a 64-bit division per row in the hot loop, and
// every position has probability 1/w within a relative w/2^32 (< 0.04 at the
// largest width, below 1e-6 at the default). For two different values the
// difference g_i(x) - g_i(y) = (h1(x) - h1(y)) + i·(h2(x) - h2(y)) is uniform
// in each row, so each row collides with probability ~1/w, as the bound needs.
//
// Conservative update (Estan and Varghese 2002), chosen when the sketch is
// built: a value's counters are raised only as far as its new estimate
// (max(counter, min + c)) instead of all by c. Each counter still holds at
// least the count of every value mapping to it, so estimates are still never
// low, and they overshoot less. Counts are 64-bit and saturate at
// kMaxCount = 2^63 - 1 (so every count is a valid SQL bigint) instead of
// wrapping.
//
// Heavy hitters. A count-min sketch cannot list its keys, so it also keeps up
// to k candidates (hash and the value's text), the values with the largest
// estimates it has seen. Adding x with new estimate e(x):
//   - x already a candidate: nothing more (its key, an estimate it once had,
//     is left stale: keys are only lower bounds anyway, see below);
//   - the list not full: x enters;
//   - otherwise x enters, evicting the candidate with the smallest estimate,
//     only if e(x) is strictly larger than that estimate. Candidate keys may
//     be stale (other values raise shared counters, and a candidate counted
//     again keeps its key), so the smallest key is
//     refreshed from the counters until the minimum is current before the
//     comparison.
// Consequence: the smallest current estimate on a full list never decreases,
// and a value missing from the list at the end has a true count no larger
// than the estimate of every candidate (each within epsilon·N of its truth
// with probability 1 - delta). Merging keeps the k best of the union of both
// lists ranked by the merged counters, so a value that was on neither input's
// list is missing from the merge even when its combined count would rank it:
// see docs/cms.md for when that happens.
//
// The value text is what the PostgreSQL layer gives when a value enters the
// list (its type's output function), clipped to kMaxValueBytes; the hash
// still identifies the value, so a clipped text only affects display.
//
// Two encodings share one header (param[0] = flags, param[1] = encoding):
//
//   stored    counters, then the candidates sorted by hash with their texts
//             and no slack: equal sketches have equal bytes. What tables,
//             output, send and the final functions hold.
//   working   the aggregate state: the same counters, plus per candidate its
//             estimate key, a min-heap over the keys, an open-addressing
//             index by hash and an arena for the texts with room to spare,
//             so adding a value costs O(d) plus O(1) expected for the index
//             and amortized O(d + log k) for the heap (each refresh of a
//             stale key is paid for by the rows that made it stale). Never stored, never accepted from
//             outside; write_stored turns it into `stored`.
//
// The byte layout of both is in docs/cms.md and cms_internal.h. Every
// function here works on caller-owned byte buffers and never allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/header.h"
#include "core/common/item_table.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::cms {

constexpr uint8_t kFormatVersion = 1;

constexpr double kDefaultEpsilon = 0.001;  // w = 2719
constexpr double kDefaultDelta = 0.01;     // d = 5
constexpr uint32_t kDefaultCandidates = 100;

constexpr uint32_t kMaxDepth = 32;          // delta >= e^-32 ~ 1.3e-14
constexpr uint32_t kMaxCandidates = 10000;  // k
constexpr uint32_t kMaxValueBytes = 1024;   // candidate text beyond this is clipped
constexpr uint64_t kMaxCount = 0x7fffffffffffffffULL;  // counters saturate here
// Parameters are refused if the largest state they can grow to would exceed
// kMaxDumpableBytes: the stored form is never larger than the working state,
// so every sketch that can be built can also be dumped and restored as text.
constexpr size_t kMaxSketchBytes = kMaxDumpableBytes;

enum class Encoding : uint8_t { kStored = 1, kWorking = 2 };

struct Params {
  uint32_t width;       // w, counters per row
  uint32_t depth;       // d, rows
  uint32_t candidates;  // k, heavy-hitter list capacity (0 = no list)
  bool conservative;
};

// The defaults: epsilon 0.001, delta 0.01 (2719 x 5), k = 100, plain update.
Params default_params();

// w = ceil(e/epsilon), d = ceil(ln(1/delta)). kInvalidParameter unless
// 0 < epsilon < 1, 0 < delta < 1, 0 <= k <= kMaxCandidates and the sketch
// fits kMaxSketchBytes. Wide argument types so any SQL value can be checked.
Status params_for_accuracy(double epsilon, double delta, bool conservative, int64_t k,
                           Params* out);

// Width and depth directly: 1 <= depth <= kMaxDepth, width >= 1, same k and
// size limits.
Status params_for_size(int64_t width, int64_t depth, bool conservative, int64_t k,
                       Params* out);

// The size of a sketch for epsilon and delta with k candidates, also when it
// is too large to build: width and depth by the formulas above, the bytes of
// an empty stored sketch, and whether params_for_accuracy accepts it (its
// largest working state within kMaxSketchBytes). kInvalidParameter for
// epsilon or delta outside (0, 1), k outside 0..kMaxCandidates, more than
// kMaxDepth rows, or a width beyond 2^40.
struct Sizing {
  uint64_t width;
  uint32_t depth;
  uint64_t bytes;
  bool fits;
};
Status plan_accuracy(double epsilon, double delta, int64_t k, Sizing* out);

// The guarantees of a width and depth: epsilon = e/w, delta = e^-d.
double epsilon_of(uint32_t width);
double delta_of(uint32_t depth);

// floor(epsilon·N), at most N: the additive error bound of every estimate,
// holding with probability 1 - delta (epsilon = e/w). Estimates are
// integers, so the floor loses nothing.
uint64_t error_bound(uint32_t width, uint64_t total);

// A parsed, read-only look at a sketch.
struct View {
  Params params;
  Encoding encoding;
  uint32_t count;        // candidates held, <= params.candidates
  uint64_t total;        // N, the sum of all added weights (saturating)
  uint64_t value_bytes;  // sum of the candidates' text lengths
  const uint8_t* data;   // the whole sketch, header first
  size_t size;           // bytes, header included
  uint32_t arena_capacity;  // working only: text arena bytes (0 when stored)
};

// Validation (core/common/validation.h): kStructure checks the header and
// lengths in O(1), and a working state's candidate areas in O(k).
using sketch::Validation;

Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

// Bytes at the start of every sketch that hold its parameters and N.
constexpr size_t kFixedBytes = 32;

// Parameters and N from the first kFixedBytes bytes alone (structure checks
// only), so that readers of N need not fetch the counters.
Status parse_fixed(const uint8_t* data, size_t len, Params* params, uint64_t* total);

// --- sizes ----------------------------------------------------------------

size_t stored_size(const Params& params, uint32_t count, uint64_t value_bytes);
size_t working_size(const Params& params, uint32_t arena_capacity);

// Arena of a new aggregate state (16 bytes of text per candidate), and of a
// working copy of v with room to grow.
uint32_t initial_arena_capacity(uint32_t candidates);
uint32_t working_arena_for(const View& v, uint32_t candidates);

// --- building -------------------------------------------------------------

// An empty stored sketch: stored_size(params, 0, 0) bytes.
void write_empty(const Params& params, uint8_t* dst);

// An empty working state: working_size(params, arena_capacity) bytes.
void write_empty_working(const Params& params, uint32_t arena_capacity, uint8_t* dst);

// A working copy of v (either encoding) holding up to `candidates` >=
// v.count candidates, with arena_capacity >= v.value_bytes:
// working_size(v.params with that k, arena_capacity) bytes. Candidate keys
// are recomputed from the counters.
void write_working(const View& v, uint32_t candidates, uint32_t arena_capacity, uint8_t* dst);

// --- canonical form -------------------------------------------------------

size_t stored_size(const View& v);

// Writes the stored form: candidates sorted by hash, no slack.
void write_stored(const View& v, uint8_t* dst);

// --- aging ----------------------------------------------------------------

// kInvalidParameter unless 0 < factor <= 1 and the total never saturated.
Status check_scalable(const View& v, double factor);

// A stored view v with every counter and N times factor (cms_scale; see
// cms_scale.cpp for the rounding, which keeps every row's sum consistent
// with N as parse() checks), without the candidates whose estimate drops to
// 0. dst has room for v.size bytes; returns the bytes written (at most
// v.size).
size_t write_scaled(const View& v, double factor, uint8_t* dst);

// --- reading --------------------------------------------------------------

// Minimum of the value's d counters: never below its true count.
uint64_t estimate(const View& v, uint64_t hash);

// {hash, text, len, clipped}: an item of the item table
// (core/common/item_table.h); clipped when the text was cut at
// kMaxValueBytes.
using Candidate = item_table::ItemRef;

// Candidate i (0 <= i < v.count), in storage order.
Candidate candidate_at(const View& v, uint32_t i);

struct Ranked {
  uint64_t estimate;
  uint32_t index;  // for candidate_at
};

// Fills out[0 .. v.count) with every candidate, best first: estimate
// descending, then text, then hash ascending.
void rank_candidates(const View& v, Ranked* out);

// --- updating a working state ---------------------------------------------

// params_of(sketch), the parameters of a sketch already known to be valid
// (an aggregate state) read without any checks, is inline in cms_internal.h:
// the transition functions compare them on every row.


enum class AddOutcome {
  kDone,   // counted; the candidate list is up to date
  kAdmit,  // counted; the value must now enter the candidate list: call admit
};

// Adds `count` (1..kMaxCount) to the value's counters and N, and updates the
// candidate list as far as it can without the value's text. *estimate is the
// value's new estimate. A count of 0 must not be added (it is a no-op the
// caller skips, so that it cannot make a value a candidate).
AddOutcome add(uint8_t* working, uint64_t hash, uint64_t count, uint64_t* estimate);

enum class AdmitOutcome {
  kDone,
  kNeedsGrowth,  // the arena is too small: rebuild with grown_arena_capacity
                 // (write_working) and call admit again on the new buffer
};

// Puts the value that add() answered kAdmit for into the candidate list,
// evicting the smallest candidate if the list is full. len <= kMaxValueBytes.
AdmitOutcome admit(uint8_t* working, uint64_t hash, uint64_t estimate, const uint8_t* text,
                   uint32_t len, bool clipped);

// The arena capacity a working state needs for admit of a text of len bytes.
uint32_t grown_arena_capacity(const View& working, uint32_t len);

// --- merging --------------------------------------------------------------

// kMismatch, naming both parameter sets, unless width, depth and hash
// identity agree. The update mode and k may differ: summed counters are
// valid upper bounds whatever mode built them (the result is conservative
// if either input is, and keeps max(k_a, k_b) candidates).
Status check_mergeable(const View& a, const View& b);

struct MergePlan {
  bool in_place;          // a is a working state that can absorb b as it is
  uint32_t candidates;    // k of the result
  uint32_t arena_capacity;  // arena of a new working copy of a when !in_place
  size_t size;            // bytes of that copy
};

MergePlan plan_merge(const View& a, const View& b);

// a += b: counters and N summed (saturating), candidate lists united and the
// best k kept by the merged estimates (estimate descending, then hash
// ascending, so the result does not depend on the order of merges).
// `working` must be a working state satisfying plan_merge(its view, b) with
// in_place = true, and must not alias b.
void merge(uint8_t* working, const View& b);

// a ∪ b as the state mechanism merges (working_state.h): into a_buffer, a's
// working state, when plan.in_place, else into dst, a working copy of a at
// the plan's candidates and arena.
void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan, uint8_t* dst);

}  // namespace sketch::cms
