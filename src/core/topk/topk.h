// topk: the heaviest items of a stream with deterministic bounds, mergeable
// (Misra and Gries, "Finding repeated elements", 1982; weighted and merged
// as in Agarwal, Cormode, Huang, Phillips, Wei and Yi, "Mergeable
// summaries", PODS 2012).
//
// The summary keeps at most k items, each with a counter c_x, the total
// weight N and one number Δ, the maximum error. For every item x of the
// stream, with true (weighted) count f_x:
//
//   held x:      c_x <= f_x <= c_x + Δ
//   any other:   0   <= f_x <= Δ
//   and          Δ <= (N - Σ c) / (k + 1) <= N / (k + 1).
//
// How. Adding x with weight w raises c_x by w, inserting x if it is not
// held. When the table is full, a *purge* finds t, the (k+1)-th largest
// counter, subtracts t from every counter, drops the counters that reach 0
// (so at most k remain) and adds t to Δ. Why the bounds hold:
//   - c_x only grows by x's own weight and only shrinks in purges, so
//     c_x <= f_x;
//   - whatever x lost, held or not, it lost in purges, at most t each, so
//     f_x - c_x <= Σ t = Δ (an item not held has c_x = 0);
//   - each purge takes t from at least k + 1 counters (the k+1 largest are
//     all >= t), so it lowers Σ c by at least (k + 1)·t; everything Σ c ever
//     lost is N - Σ c, hence (k + 1)·Δ <= N - Σ c.
// A merge adds the counters of both summaries, adds their Δ and purges the
// same way: the three arguments hold unchanged (the lost amounts of both
// inputs add up), so merged summaries keep the bound over the combined N,
// in any merge tree. Summaries with different k merge at the smaller k.
//
// Estimates. Every purge lowers all held counters by the same t, so an item
// held since before the first purge has exactly c_x = f_x - Δ: the upper
// bound c_x + Δ is its true count. That is the estimate topk reports for a
// held item (as DataSketches' frequent items does); for an item not held
// the estimate is 0. The ranking, best first, is by c_x.
//
// The working table holds up to 2k items, so a purge runs at most once per
// k insertions of new items and the selection of t (a radix select over the
// counters, O(k)) costs O(1) per row amortized; a row of an item already
// held costs one hash probe and one add.
//
// Items. The item itself is what the SQL layer gives when it enters the
// table (its type's text output under fixed settings), clipped to
// kMaxItemBytes; its identity is the 64-bit hash of its canonical encoding
// (core/common/hash.h), so equal values of different integer types are one
// item, and a clipped text only affects display.
//
// Aging: scale() multiplies every counter and N by a factor 0 < f <= 1,
// rounding counters and N down and Δ up, so that the bounds hold for the
// scaled truth floor(f·f_x). The rounding may leave Δ a little above
// (N - Σ c)/(k + 1) (by at most 1 per aging, relative to f·Δ); the per-item
// bounds hold regardless.
//
// What depends on order: a summary that never purged is a function of the
// counts (equal inputs in any order and merge tree give equal bytes). Once
// purges happen, which items survive and Δ depend on the order of adds and
// merges; every order keeps the bounds above. A stream without heavy items
// may keep far fewer than k items (counters tied at the purge threshold all
// go), which is the guarantee at work: no item is above N/(k+1).
//
// Two encodings share one header (param[0] = 0, param[1] = encoding,
// byte 7 = element kind):
//
//   stored    the items sorted best first (c descending, then hash
//             ascending) with their texts and no slack: equal summaries
//             have equal bytes. What tables, output, send and final
//             functions hold.
//   working   the aggregate state: up to `capacity` (<= 2k) entries in
//             insertion order, an open-addressing index by hash and a text
//             arena with room to spare. Never stored, never accepted from
//             outside.
//
// Byte layouts are in topk_internal.h. Every function here works on
// caller-owned byte buffers and never allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/header.h"
#include "core/common/scale.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::topk {

constexpr uint8_t kFormatVersion = 1;

constexpr uint32_t kDefaultK = 1024;
constexpr uint32_t kMaxK = 65536;
constexpr uint32_t kMaxItemBytes = 1024;  // item text beyond this is clipped
// N, and so every counter and Δ, stays a valid SQL bigint: adds and merges
// past it are refused (kOverflow), never wrapped or saturated.
constexpr uint64_t kMaxTotal = 0x7fffffffffffffffULL;

enum class Encoding : uint8_t { kStored = 1, kWorking = 2 };

// kInvalidParameter unless 1 <= k <= kMaxK.
Status check_k(int64_t k);

// A parsed, read-only look at a summary.
struct View {
  uint32_t k;
  Encoding encoding;
  uint32_t count;       // items held
  uint64_t total;       // N
  uint64_t max_error;   // Δ
  uint64_t text_bytes;  // stored: sum of the item texts' lengths
  const uint8_t* data;  // the whole summary, header first
  size_t size;
  // working only
  uint32_t capacity;        // entry slots, <= 2k
  uint32_t arena_capacity;  // text arena bytes
};

// Validation (core/common/validation.h). kCanonical: a stored summary, every
// record in order, counters positive, Σ c <= N, Δ <= N, texts within bounds.
// kStructure: header and lengths in O(1); a working state's entries and
// index too, in O(capacity), so nothing a reader follows leaves the buffer.
Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

// One held item. `text` points into the summary.
struct Item {
  uint64_t hash;
  uint64_t count;  // c_x, the lower bound
  const uint8_t* text;
  uint32_t len;
  bool clipped;
};

// Item i of a stored view, best first (i < v.count).
Item stored_item(const View& v, uint32_t i);

// The indexes of a stored view's items best first: counter descending, then
// hash ascending. `order` holds v.count entries.
void best_first(const View& v, uint32_t* order);

// The held item with this hash, if any (any encoding).
bool find(const View& v, uint64_t hash, Item* out);

// floor((N - Σ c) / (k + 1)): the bound Δ never exceeds in a summary built
// by adds and merges.
uint64_t error_bound(const View& v);

// --- sizes and building ---------------------------------------------------

size_t stored_size(uint32_t count, uint64_t text_bytes);
size_t empty_size();
void write_empty(uint32_t k, uint8_t* dst);

// A new aggregate state: a few entry slots and a small arena; it grows.
size_t new_working_size(uint32_t k);
void write_new_working(uint32_t k, uint8_t* dst);

// A working copy of v (either encoding) that holds at most k <= v.k items
// (purging down to k when v holds more) with room to add.
size_t working_size(const View& v, uint32_t k);
void write_working(const View& v, uint32_t k, uint8_t* dst);

// The stored form of any view: purged down to k items, sorted best first.
size_t stored_size(const View& v);
void write_stored(const View& v, uint8_t* dst);

// --- adding and merging (working states) ----------------------------------

// What an add needs when the state cannot take the item in place.
enum class AddOutcome : uint8_t {
  kDone,
  kOverflow,    // N + weight > kMaxTotal: nothing was changed
  kNeedsText,   // the item is new: call again with its text
  kNeedsRoom,   // the entries or the arena are full: grow, then call again
};

// Adds `weight` (>= 1) to the item with `hash`. A new item's text is asked
// for (kNeedsText) only when it enters the table; pass text == nullptr
// until then. On kNeedsRoom, `room_text` is the text length to make room for.
AddOutcome add(uint8_t* state, uint64_t hash, uint64_t weight, const uint8_t* text,
               uint32_t text_len, bool clipped);

// A copy of the state with room for one more entry and `text_len` more
// text bytes.
size_t grown_size(const View& v, uint32_t text_len);
void grow(const View& v, uint32_t text_len, uint8_t* dst);

// kOverflow (naming both N) if the union's N would exceed kMaxTotal.
Status check_mergeable(const View& a, const View& b);

struct MergePlan {
  bool in_place;
  uint32_t k;               // min(a.k, b.k)
  uint32_t capacity;        // entry slots of the result, when not in place
  size_t size;              // when not in place
};

// In place when a is a working state of the merged k with room for b's
// entries (or all 2k slots) and texts; otherwise a new state with a slot
// for every item of both (at most 2k).
MergePlan plan_merge(const View& a, const View& b);

// a ∪ b into a's buffer (in place) or into dst (plan.size bytes).
void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan, uint8_t* dst);

// --- aging ----------------------------------------------------------------

// kInvalidParameter unless 0 < factor <= 1 (NaN refused): the check every
// aging family shares (core/common/scale.h).
using sketch::check_scale_factor;

// The stored summary of a stored view v with
// every counter and N multiplied by factor and rounded down, Δ rounded up
// (at most the new N); items whose counter reaches 0 are dropped.
size_t scaled_size(const View& v, double factor);
void write_scaled(const View& v, double factor, uint8_t* dst);

}  // namespace sketch::topk
