// theta: a KMV ("k minimum values") sketch of a set of distinct values, and
// the set algebra of theta sketches built on it (Bar-Yossef, Jayram, Kumar,
// Sivakumar and Trevisan, "Counting distinct elements in a data stream",
// RANDOM 2002; Beyer, Haas, Reinwald, Sismanis and Gemulla, "On synopses for
// distinct-value estimation under multiset operations", SIGMOD 2007;
// Dasgupta, Lang, Rhodes and Thaler, "A framework for estimating stream
// expression cardinalities", ICDT 2016: the theta sketches of Apache
// DataSketches).
//
// Hashes. The caller gives the 64-bit hash of a value's canonical encoding
// (core/common/hash.h; as for hll and topk, 42::int and 42::bigint agree).
// The sketch keeps h = hash >> 1, 63 bits, as DataSketches does, and reads
// it as u = h / 2^63, uniform in [0, 1). h = 0 marks an empty slot of the
// working table, so a value whose h is 0 is skipped: probability 2^-63 per
// distinct value, some 10^14 times below the error of any estimate.
//
// The sketch. With k = 2^lg_k, the sketch of a set S of distinct hashes is
//
//   |S| <= k:  θ = 2^63 ("exact mode") and every h of S;
//   |S| >  k:  θ = the (k+1)-th smallest h of S, and the k smallest;
//
// a hash is retained iff h < θ, and p = θ / 2^63 is the sampling rate. It
// is a function of S alone: equal sets give equal bytes, whatever the order
// of the adds and whatever the merge tree.
//
// Estimate: n̂ = count / p (in exact mode count itself). For a sketch of
// n = |S| > k values, p = U(k+1), the (k+1)-th smallest of n independent
// uniforms, which is Beta(k+1, n-k), so that E[1/U(k+1)] = n/k and
// E[1/U(k+1)^2] = n(n-1)/(k(k-1)); with n̂ = k / U(k+1):
//
//   E[n̂] = n,   Var[n̂] = n(n - k)/(k - 1),
//   RSE  = sqrt((n - k) / (n (k - 1)))  <=  1/sqrt(k - 1)
//
// (below 1/sqrt(k - 1) by the factor sqrt(1 - k/n) while n is a few k).
//
// Union (the family's merge): θ = min(θa, θb) and every hash of both below
// it; if more than k remain, θ = the (k+1)-th smallest of them and the k
// smallest stay. Each input holds every hash of its set below its θ, so the
// union holds every hash of A ∪ B below min(θa, θb), and at least k of them
// unless both inputs were exact: its (k+1)-th smallest is the (k+1)-th
// smallest of A ∪ B. The union of two sketches is therefore the sketch of
// the union, byte for byte, in any merge tree; sketches of different lg_k
// give the sketch of the union at the smaller k (a larger k holds every
// hash the smaller one would, and more).
//
// Intersection and difference (stored sketches, the smaller k): θ = min(θa,
// θb), below which every hash of A ∪ B is known to both inputs' readers;
// intersect keeps the hashes below θ held by both, a_not_b those of a not in
// b (trimmed, if a held more than the smaller k allows, to the k smallest,
// θ the (k+1)-th, which is the sketch of A \ B at k: every hash of A \ B
// below the old θ is there). Their results are theta sketches again:
// "every hash of some set R below θ", with any count up to k and θ <= 2^63;
// unions, intersections and estimates apply to them unchanged. count / p is
// unbiased for |R| because min(θa, θb) is a "1-good" threshold (Dasgupta et
// al.): whether a value's hash is below it is decided by comparing that hash
// with a threshold set by the other values. Given p, each value of R is
// retained with probability about p, so
//
//   Var ≈ |R| (1/p - 1),  RSE ≈ sqrt((1/p - 1) / |R|),  p ≈ k / max(|A|, |B|)
//
// (the accuracy test derives it and checks it).
//
// Bounds. With c = count retained at rate p, model c ~ Binomial(n, p) and
// solve the normal approximation (c - n·p)^2 = z^2·n·p·(1 - p) for n (the
// Wilson construction): with q = 1 - p,
//
//   p^2 n^2 - (2cp + z^2 p q) n + c^2 = 0
//   n = (c + z^2 q/2 ± z sqrt(q (c + z^2 q/4))) / p
//
// lower = max(c, the smaller root) (every retained hash is a distinct
// value), upper = the larger root; for c = 0 that is [0, z^2 q / p]. Exact
// mode: [count, count]. For a KMV sketch, c = k and p is what varies, but to
// first order the spreads agree: sqrt(q/(n p)) = sqrt((1 - p)/k) against the
// RSE above.
//
// Jaccard(a, b). With k the smaller and θ0 = min(θa, θb), the union sample
// U is the k smallest hashes of both below θ0 (all of them if fewer), which
// is a uniformly random sample of A ∪ B (the smallest m hashes of a set are
// a uniformly random m-subset of it); x = the hashes of U held by both. Then
// x is Hypergeometric(|A ∪ B|, |A ∩ B|, |U|) and J̃ = x / |U| estimates
// J = |A ∩ B| / |A ∪ B| without bias, standard error
// sqrt(J(1 - J)/|U| · (|A ∪ B| - |U|)/(|A ∪ B| - 1)). The bounds are the
// Wilson score interval of x successes in |U| trials at z; when both
// sketches are exact and U is all of A ∪ B, J̃ is J and the bounds are
// [J, J]. With U empty (both sets empty, or every hash above θ0) there is no
// estimate: `defined` is false.
//
// Sizes. k = 2^lg_k with lg_k in 4..24 (default 12, RSE 1.6%). The working
// table of 2^(lg_k+1) slots of 8 bytes is the largest state: 256 MiB + 24
// bytes at lg_k 24. lg_k 25 would need 512 MiB + 24, past kMaxDumpableBytes
// (core/common/header.h), and DataSketches' 26 a full GiB, past
// PostgreSQL's allocation limit. A stored sketch is at most 24 + 8k bytes
// (128 MiB at lg_k 24).
//
// Two encodings share one header (param[0] = lg_k, param[1] = encoding,
// byte 7 = element kind, as every family):
//
//   stored    count, θ and the retained hashes in ascending order: the
//             canonical form, what tables, output and send hold.
//   working   the aggregate state: an open-addressing table of hashes (up
//             to 2k slots) that adds in O(1) and trims itself to the k
//             smallest now and then (a radix select, O(k), once per k/2
//             retained adds). Never stored, never accepted from outside.
//
// Byte layouts are in theta_internal.h. Every function here works on
// caller-owned byte buffers and never allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/header.h"
#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::theta {

constexpr uint8_t kFormatVersion = 1;

constexpr int kMinLgK = 4;
constexpr int kMaxLgK = 24;
constexpr int kDefaultLgK = 12;

// θ of exact mode, 2^63: every 63-bit hash is below it.
constexpr uint64_t kThetaExact = uint64_t{1} << 63;

enum class Encoding : uint8_t { kStored = 1, kWorking = 2 };

// The 63 bits the sketch keeps of a 64-bit element hash.
inline uint64_t retained_hash(uint64_t hash) { return hash >> 1; }

// kInvalidParameter unless kMinLgK <= lg_k <= kMaxLgK.
Status check_lg_k(int64_t lg_k);

// kInvalidParameter unless 0 < confidence < 1 (NaN refused).
Status check_confidence(double confidence);

// A parsed, read-only look at a sketch.
struct View {
  int lg_k;
  uint32_t k;  // 2^lg_k
  Encoding encoding;
  uint32_t count;  // hashes held (stored: <= k; working: <= 3/4 of capacity, or 15/16
                   // of a full table of identity 3: detail::load_limit)
  uint64_t theta;  // in (0, 2^63]
  const uint8_t* data;  // the whole sketch, header first
  size_t size;
  uint32_t capacity;  // working only: table slots, a power of two
  // header byte 4: kHashIdentity (XXH3, this extension's hashing) or
  // kDatasketchesIdentity (Apache DataSketches' hashes, imported by
  // theta_from_datasketches: theta_datasketches.h)
  uint8_t hash_identity;
};

// Validation (core/common/validation.h). Both: header, lg_k in range, a
// known element kind (never kUnknown: no theta sketch predates kinds),
// θ in (0, 2^63]; a stored sketch's count <= k, its length, and its hashes
// strictly ascending, nonzero and below θ, in O(count) in both validations
// (set operations and merges rely on them: a zero or unordered hash once
// made a result with θ = 0). kCanonical accepts stored sketches only;
// kStructure also working states: fixed fields and, in O(capacity), the
// table: count matches the nonzero slots, all below θ, each reachable from
// its home slot and held once, so that every probe ends at an empty slot
// inside the buffer and writers write what the sizes say.
Status parse(const uint8_t* data, size_t len, Validation validation, View* out);

// kMismatch, naming both, unless a and b may be combined (unions, set
// operations, Jaccard): the same hash identity (hashes of one value under
// two hash functions never meet, so a result would be silently wrong) and
// element kinds that combine (element_kind.h).
Status check_combinable(const View& a, const View& b);

// Hash i of a stored view, ascending (i < v.count).
uint64_t stored_hash(const View& v, uint32_t i);

// --- sizes and building ---------------------------------------------------

size_t stored_size(uint32_t count);
size_t empty_size();
// An empty stored sketch (exact mode, no hashes), holding no kind of value
// yet (ElementKind::kNone, as every family's new sketch).
void write_empty(int lg_k, uint8_t* dst);

// A new aggregate state: a 16-slot table; it grows.
size_t new_working_size(int lg_k);
void write_new_working(int lg_k, uint8_t* dst);

// A working copy of any view at its own lg_k, with room to add.
size_t working_size(const View& v);
void write_working(const View& v, uint8_t* dst);

// The stored (canonical) form of any view: trimmed to the k smallest
// (θ the (k+1)-th) when it holds more, hashes sorted in place (a radix
// sort without scratch memory).
size_t stored_size(const View& v);
void write_stored(const View& v, uint8_t* dst);

// --- adding and merging (working states) ----------------------------------

enum class AddOutcome : uint8_t {
  kDone,
  kNeedsGrowth,  // the table is at its load limit below its full size
};

// Adds the element with this 64-bit hash (h = hash >> 1 is kept if h < θ,
// nonzero and new). A table at its full size (2k slots) that reaches its
// load limit (3/4) trims itself to the k smallest in place instead.
AddOutcome add(uint8_t* state, uint64_t hash);

// A copy of a working state with twice the slots.
size_t grown_size(const View& v);
void grow(const View& v, uint8_t* dst);

struct MergePlan {
  bool in_place;
  int lg_k;           // min(a.lg_k, b.lg_k)
  uint32_t capacity;  // table slots of the result
  size_t size;        // bytes of the result when not in place
};

// Any two theta sketches merge (at the smaller lg_k). In place when a is a
// working state of that lg_k whose table is at its full size or has room
// for b's hashes.
MergePlan plan_merge(const View& a, const View& b);

// a ∪ b into a's buffer (in place) or into dst (plan.size bytes).
void merge(uint8_t* a_buffer, const View& a, const View& b, const MergePlan& plan, uint8_t* dst);

// --- set operations (stored views) ----------------------------------------
//
// Each result is a stored sketch at min(a.lg_k, b.lg_k) with θ = min(θa, θb)
// (or lower, when trimmed to k), written after its size is asked: O(na + nb),
// merges of the sorted hash arrays. The result holds the inputs' combined
// element kind; the caller refuses mismatched kinds before (an in-place
// write overwrites a's header).
// The inputs must be stored views (every SQL value is).

// a ∪ b, the same bytes as the union through working states.
size_t merged_size(const View& a, const View& b);
void write_merged(const View& a, const View& b, uint8_t* dst);

// a ∩ b. dst may be a's bytes (or b's): the result is never longer, and
// each hash is written at or before where it is read.
size_t intersect_size(const View& a, const View& b);
void write_intersect(const View& a, const View& b, uint8_t* dst);

// a \ b. dst may be a's bytes, as for write_intersect.
size_t a_not_b_size(const View& a, const View& b);
void write_a_not_b(const View& a, const View& b, uint8_t* dst);

// --- estimates ------------------------------------------------------------

// count / p; count in exact mode (any view).
double estimate(const View& v);

struct Bounds {
  double lower;
  double upper;
};

// The interval of the header comment at the given confidence
// (0 < confidence < 1, see check_confidence); [count, count] in exact mode.
Bounds bounds(const View& v, double confidence);

// The same for `count` hashes retained below θ at z standard deviations.
Bounds count_bounds(uint64_t count, uint64_t theta, double z);

struct Similarity {
  bool defined;      // false when the union sample is empty
  bool exact;        // both exact, the sample is the whole union
  uint32_t sample;   // |U|
  uint32_t shared;   // x, the hashes of U held by both
  double estimate;   // x / |U|
  double lower;      // Wilson score interval (or the estimate when exact)
  double upper;
};

// Jaccard similarity |A ∩ B| / |A ∪ B| of two stored views.
Similarity jaccard(const View& a, const View& b, double confidence);

// The Wilson score interval of x successes in m >= 1 trials at z.
Bounds wilson_interval(uint32_t x, uint32_t m, double z);

}  // namespace sketch::theta
