// Parameters, parsing and validation, the stored (canonical) form, and
// reading estimates and candidates of cms sketches.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/common/hash.h"
#include "core/cms/cms.h"
#include "core/common/element_kind.h"
#include "core/cms/cms_internal.h"

namespace sketch::cms {

using namespace detail;

namespace {

constexpr double kE = 2.718281828459045235360287471352662498;

Status invalid(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid cms data: %s", what);
}

}  // namespace

namespace detail {

void write_cms_header(uint8_t* dst, uint8_t flags, Encoding encoding, ElementKind kind) {
  write_header(dst, Header{SketchKind::kCms, kFormatVersion, kHashIdentity,
                           {flags, static_cast<uint8_t>(encoding)}},
               kind);
}

}  // namespace detail

// --- parameters ------------------------------------------------------------

Params default_params() {
  return Params{2719, 5, kDefaultCandidates, false};
}

double epsilon_of(uint32_t width) { return kE / width; }
double delta_of(uint32_t depth) { return std::exp(-double(depth)); }

uint64_t error_bound(uint32_t width, uint64_t total) {
  // e·N/w is irrational for N > 0, so its floor is well defined; long double
  // keeps the 64 bits of N.
  // No estimate exceeds N, so neither does the bound.
  const long double bound = static_cast<long double>(total) * kE / width;
  if (bound >= static_cast<long double>(total)) return total;
  return static_cast<uint64_t>(std::floor(bound));
}

Status params_for_size(int64_t width, int64_t depth, bool conservative, int64_t k,
                       Params* out) {
  if (width < 1)
    return Status::error(StatusCode::kInvalidParameter,
                         "cms width must be at least 1, got %lld", static_cast<long long>(width));
  if (depth < 1 || depth > kMaxDepth)
    return Status::error(StatusCode::kInvalidParameter,
                         "cms depth must be between 1 and %u, got %lld", kMaxDepth,
                         static_cast<long long>(depth));
  if (k < 0 || k > kMaxCandidates)
    return Status::error(StatusCode::kInvalidParameter,
                         "cms candidate list size k must be between 0 and %u, got %lld",
                         kMaxCandidates, static_cast<long long>(k));
  // The largest state these parameters can grow to must fit one value.
  const uint64_t counters = width > int64_t(kMaxSketchBytes / 8 / depth)
                                ? uint64_t{kMaxSketchBytes} + 1
                                : counters_bytes(static_cast<uint32_t>(width),
                                                 static_cast<uint32_t>(depth));
  const uint64_t largest = counters + kWorkingCountersOffset +
                           (kEntrySize + 4) * uint64_t(k) +
                           4 * uint64_t{index_capacity_for(static_cast<uint32_t>(k))} +
                           max_arena_capacity(static_cast<uint32_t>(k));
  if (largest > kMaxSketchBytes)
    return Status::error(StatusCode::kInvalidParameter,
                         "a cms of width %lld and depth %lld needs more than the %zu bytes "
                         "a sketch may have (the most that can be dumped as text)",
                         static_cast<long long>(width), static_cast<long long>(depth),
                         kMaxSketchBytes);
  *out = Params{static_cast<uint32_t>(width), static_cast<uint32_t>(depth),
                static_cast<uint32_t>(k), conservative};
  return Status::ok();
}

namespace {

// ε and δ each in (0, 1): both accuracy entry points refuse the same.
Status check_accuracy(double epsilon, double delta) {
  if (!(epsilon > 0.0 && epsilon < 1.0))
    return Status::error(StatusCode::kInvalidParameter,
                         "cms epsilon must be between 0 and 1 (exclusive), got %g", epsilon);
  if (!(delta > 0.0 && delta < 1.0))
    return Status::error(StatusCode::kInvalidParameter,
                         "cms delta must be between 0 and 1 (exclusive), got %g", delta);
  return Status::ok();
}

// The counters per row and the rows ε and δ ask for (w = ⌈e/ε⌉, d =
// ⌈ln 1/δ⌉, unrounded to integers' types), refusing more rows than kMaxDepth.
Status accuracy_shape(double epsilon, double delta, double* width_out, double* depth_out) {
  const double width = std::ceil(kE / epsilon);
  const double depth = std::ceil(-std::log(delta));
  if (depth > kMaxDepth)
    return Status::error(StatusCode::kInvalidParameter,
                         "cms delta %g needs %.0f rows, more than the maximum %u (delta >= "
                         "%.2g)", delta, depth, kMaxDepth, delta_of(kMaxDepth));
  *width_out = width;
  *depth_out = depth;
  return Status::ok();
}

}  // namespace

Status params_for_accuracy(double epsilon, double delta, bool conservative, int64_t k,
                           Params* out) {
  Status st = check_accuracy(epsilon, delta);
  if (!st.is_ok()) return st;
  double width, depth;
  st = accuracy_shape(epsilon, delta, &width, &depth);
  if (!st.is_ok()) return st;
  if (width > double(kMaxSketchBytes))
    return Status::error(StatusCode::kInvalidParameter,
                         "cms epsilon %g needs %.0f counters per row, more than the %zu bytes "
                         "a sketch may have (the most that can be dumped as text)", epsilon, width, kMaxSketchBytes);
  st = params_for_size(static_cast<int64_t>(width), static_cast<int64_t>(depth), conservative, k,
                       out);
  if (!st.is_ok() && k >= 0 && k <= kMaxCandidates)
    return Status::error(StatusCode::kInvalidParameter,
                         "cms epsilon %g and delta %g need %.0f x %.0f counters, more than the "
                         "%zu bytes a sketch may have (the most that can be dumped as text)",
                         epsilon, delta, width,
                         depth, kMaxSketchBytes);
  return st;
}

Status plan_accuracy(double epsilon, double delta, int64_t k, Sizing* out) {
  Status st = check_accuracy(epsilon, delta);
  if (!st.is_ok()) return st;
  if (k < 0 || k > kMaxCandidates)
    return Status::error(StatusCode::kInvalidParameter,
                         "cms candidate list size k must be between 0 and %u, got %lld",
                         kMaxCandidates, static_cast<long long>(k));
  double width, depth;
  st = accuracy_shape(epsilon, delta, &width, &depth);
  if (!st.is_ok()) return st;
  if (width > double(uint64_t{1} << 40))
    return Status::error(StatusCode::kInvalidParameter,
                         "cms epsilon %g needs %.3g counters per row, more than this function "
                         "can describe", epsilon, width);
  out->width = static_cast<uint64_t>(width);
  out->depth = static_cast<uint32_t>(depth);
  out->bytes = kFixedBytes + 8 * out->width * out->depth;
  Params unused;
  out->fits = params_for_accuracy(epsilon, delta, false, k, &unused).is_ok();
  return Status::ok();
}

// --- sizes -----------------------------------------------------------------

size_t stored_size(const Params& p, uint32_t count, uint64_t value_bytes) {
  return stored_records_offset(p.width, p.depth) + kRecordSize * size_t{count} + value_bytes;
}

size_t working_size(const Params& p, uint32_t arena_capacity) {
  return working_layout(p.width, p.depth, p.candidates).arena + arena_capacity;
}

uint32_t initial_arena_capacity(uint32_t candidates) { return 16 * candidates; }

uint32_t working_arena_for(const View& v, uint32_t candidates) {
  const uint64_t roomy = std::min<uint64_t>(2 * v.value_bytes, max_arena_capacity(candidates));
  return static_cast<uint32_t>(std::max<uint64_t>(roomy, initial_arena_capacity(candidates)));
}

// --- parsing ---------------------------------------------------------------

namespace {

// Stored records and texts: ordering, lengths, clipping, no NUL bytes.
Status check_records(const View& v) {
  const uint8_t* records = v.data + stored_records_offset(v.params.width, v.params.depth);
  const uint8_t* texts = records + kRecordSize * size_t{v.count};
  uint32_t previous_end = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const uint8_t* r = records + kRecordSize * i;
    const uint64_t hash = load_le64(r);
    const uint32_t word = load_le32(r + 8);
    const uint32_t end = word & ~kClippedBit;
    if (i > 0 && hash <= load_le64(r - kRecordSize))
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid cms data: candidate hashes are not strictly increasing at "
                           "candidate %u", i);
    if (end < previous_end || end - previous_end > kMaxValueBytes || end > v.value_bytes)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid cms data: candidate %u has a text length outside 0..%u or "
                           "beyond the texts", i, kMaxValueBytes);
    const uint32_t len = end - previous_end;
    if ((word & kClippedBit) != 0 && len + 4 <= kMaxValueBytes)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid cms data: candidate %u is marked clipped but its text has "
                           "only %u bytes", i, len);
    if (std::memchr(texts + previous_end, 0, len) != nullptr)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid cms data: the text of candidate %u contains a zero byte", i);
    if (estimate(v, hash) == 0)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid cms data: candidate %u has estimate 0, so it was never "
                           "counted", i);
    previous_end = end;
  }
  return Status::ok();
}

// Counters against N. Plain update adds every weight to one counter per row,
// so each row sums to N; conservative update raises each row by at most the
// weight and at least one row by all of it, so rows sum to at most N and all
// rows together to at least N. Merges keep both (a merge with a conservative
// sketch is conservative). Once N has saturated nothing can be compared.
Status check_counters(const View& v) {
  if (v.total > kMaxCount) return invalid("the total count exceeds 2^63 - 1");
  const uint8_t* counters = counters_of(v);
  const uint32_t w = v.params.width;
  const bool saturated = v.total == kMaxCount;
  uint64_t all = 0;
  for (uint32_t i = 0; i < v.params.depth; i++) {
    uint64_t row = 0;
    for (uint32_t j = 0; j < w; j++) {
      const uint64_t c = load_le64(counters + 8 * (uint64_t{i} * w + j));
      if (c > v.total)
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid cms data: counter %u of row %u exceeds the total count",
                             j, i);
      row = saturating_add(row, c);
    }
    if (saturated) continue;
    if (!v.params.conservative && row != v.total)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid cms data: row %u sums to %llu, not to the total count %llu",
                           i, static_cast<unsigned long long>(row),
                           static_cast<unsigned long long>(v.total));
    if (v.params.conservative && row > v.total)
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid cms data: row %u sums to %llu, more than the total count "
                           "%llu", i, static_cast<unsigned long long>(row),
                           static_cast<unsigned long long>(v.total));
    all = saturating_add(all, row);
  }
  if (!saturated && v.params.conservative && all < v.total)
    return invalid("the counters of a conservative sketch sum to less than the total count");
  return Status::ok();
}

Status parse_stored(const uint8_t* data, size_t len, bool canonical, View* v) {
  const size_t records = stored_records_offset(v->params.width, v->params.depth);
  if (records > len)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cms data: %u x %u counters need %zu bytes, got %zu",
                         v->params.width, v->params.depth, records, len);
  if (v->count > (len - records) / kRecordSize)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cms data: %u candidates do not fit in the remaining %zu bytes",
                         v->count, len - records);
  const size_t texts = records + kRecordSize * size_t{v->count};
  const uint32_t last_end =
      v->count == 0 ? 0 : load_le32(data + texts - kRecordSize + 8) & ~kClippedBit;
  if (len - texts != last_end)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cms data: the candidate texts take %u bytes but %zu follow "
                         "the records", last_end, len - texts);
  v->value_bytes = last_end;
  if (!canonical) return Status::ok();
  Status st = check_counters(*v);
  if (!st.is_ok()) return st;
  return check_records(*v);
}

// The candidate areas of a working state: every entry in use has its text
// inside the used arena and a heap slot pointing back at it, the texts add
// up to the live bytes, and the index holds exactly the entries in use, each
// reachable from its home slot (so no two share a hash). O(k + index
// capacity): run only where a state is parsed (merges, final functions,
// growth), never per row.
Status check_working(const uint8_t* data, View* v) {
  const uint32_t k = v->params.candidates;
  const WorkingLayout l = working_layout(v->params.width, v->params.depth, k);
  const uint32_t used = load_le32(data + kArenaUsedOffset);
  const uint32_t icap = index_capacity_for(k);
  uint64_t live = 0;
  for (uint32_t id = 0; id < v->count; id++) {
    const uint8_t* e = data + l.entries + kEntrySize * id;
    const uint32_t offset = load_le32(e + kEntryOffset);
    const uint32_t len = load_le32(e + kEntryLength) & ~kClippedBit;
    const uint32_t pos = load_le32(e + kEntryHeapPos);
    if (len > kMaxValueBytes || offset > used || len > used - offset || pos >= v->count ||
        load_le32(data + l.heap + 4 * size_t{pos}) != id)
      return invalid("inconsistent working state entry");
    live += len;
  }
  if (live != v->value_bytes) return invalid("inconsistent working state text bytes");
  uint32_t filled = 0;
  for (uint32_t i = 0; i < icap; i++) {
    const uint32_t slot = load_le32(data + l.index + 4 * size_t{i});
    if (slot > v->count) return invalid("inconsistent working state index");
    filled += slot != 0;
  }
  if (filled != v->count) return invalid("inconsistent working state index");
  for (uint32_t id = 0; id < v->count; id++) {
    const uint64_t hash = load_le64(data + l.entries + kEntrySize * id + kEntryHash);
    uint32_t i = static_cast<uint32_t>(hash) & (icap - 1);
    for (;; i = (i + 1) & (icap - 1)) {
      const uint32_t slot = load_le32(data + l.index + 4 * size_t{i});
      if (slot == 0) return invalid("inconsistent working state index");
      if (load_le64(data + l.entries + kEntrySize * (slot - 1) + kEntryHash) != hash) continue;
      if (slot - 1 != id) return invalid("duplicate candidate hash in working state");
      break;
    }
  }
  return Status::ok();
}

// The layout of a working state in O(1): the arena and index sizes agree
// with k and the length. Enough to update the counters and candidate areas in
// place without writing outside the buffer, for working states this code made.
Status check_working_layout(const uint8_t* data, size_t len, View* v) {
  if (len < kWorkingCountersOffset) return invalid("working state truncated");
  const WorkingLayout l = working_layout(v->params.width, v->params.depth, v->params.candidates);
  const uint32_t capacity = load_le32(data + kArenaCapacityOffset);
  const uint32_t used = load_le32(data + kArenaUsedOffset);
  const uint32_t live = load_le32(data + kLiveBytesOffset);
  if (l.arena > len || len - l.arena != capacity ||
      capacity > max_arena_capacity(v->params.candidates) || used > capacity || live > used ||
      load_le32(data + kIndexCapacityOffset) != index_capacity_for(v->params.candidates) ||
      load_le32(data + kWorkingReservedOffset) != 0)
    return invalid("inconsistent working state layout");
  v->value_bytes = live;
  v->arena_capacity = capacity;
  return Status::ok();
}

Status parse_working(const uint8_t* data, size_t len, View* v) {
  Status st = check_working_layout(data, len, v);
  if (!st.is_ok()) return st;
  return check_working(data, v);
}

}  // namespace

namespace {

// The header and the fixed fields (the first kFixedBytes bytes), with their
// ranges; `v` gets everything but the encoding-specific parts.
Status parse_fixed_fields(const uint8_t* data, size_t len, bool canonical, View* v) {
  Header header;
  Status st = read_header(data, len, SketchKind::kCms, kFormatVersion, &header);
  if (!st.is_ok()) return st;
  if ((header.param[0] & ~kFlagConservative) != 0)
    return Status::error(StatusCode::kInvalidFormat, "invalid cms data: unknown flags 0x%02x",
                         header.param[0]);
  const auto encoding = static_cast<Encoding>(header.param[1]);
  if (encoding == Encoding::kWorking && canonical)
    return invalid("encoding 2 is an aggregate's working state, which is never stored");
  if (encoding != Encoding::kStored && encoding != Encoding::kWorking)
    return Status::error(StatusCode::kInvalidFormat, "invalid cms data: unknown encoding %u",
                         header.param[1]);
  if (!valid_element_kind(element_kind_byte(data)))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cms data: unknown element kind %u", element_kind_byte(data));
  if (len < kFixedBytes)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cms data: truncated (%zu bytes, the parameters need %zu)", len,
                         kFixedBytes);
  *v = View{};
  v->params.width = load_le32(data + kWidthOffset);
  v->params.depth = load_le32(data + kDepthOffset);
  v->params.candidates = load_le32(data + kCapacityOffset);
  v->params.conservative = (header.param[0] & kFlagConservative) != 0;
  v->encoding = encoding;
  v->count = load_le32(data + kCountOffset);
  v->total = load_le64(data + kTotalOffset);
  v->data = data;
  v->size = len;
  if (v->params.width < 1) return invalid("width 0");
  if (v->params.depth < 1 || v->params.depth > kMaxDepth)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cms data: depth %u outside 1..%u", v->params.depth, kMaxDepth);
  if (v->params.candidates > kMaxCandidates)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cms data: candidate capacity %u above the maximum %u",
                         v->params.candidates, kMaxCandidates);
  if (v->count > v->params.candidates)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cms data: %u candidates exceed the capacity %u", v->count,
                         v->params.candidates);
  return Status::ok();
}

}  // namespace

Status parse_fixed(const uint8_t* data, size_t len, Params* params, uint64_t* total) {
  View v;
  const Status st = parse_fixed_fields(data, len, false, &v);
  if (!st.is_ok()) return st;
  *params = v.params;
  *total = v.total;
  return Status::ok();
}

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  const bool canonical = validation == Validation::kCanonical;
  View v;
  Status st = parse_fixed_fields(data, len, canonical, &v);
  if (!st.is_ok()) return st;
  // Lengths are checked against the real length before anything is read.
  st = v.encoding == Encoding::kStored ? parse_stored(data, len, canonical, &v)
                                       : parse_working(data, len, &v);
  if (!st.is_ok()) return st;
  *out = v;
  return Status::ok();
}

// --- building --------------------------------------------------------------

void write_empty(const Params& p, uint8_t* dst) {
  write_cms_header(dst, p.conservative ? kFlagConservative : 0, Encoding::kStored,
                   ElementKind::kNone);
  store_le32(dst + kWidthOffset, p.width);
  store_le32(dst + kDepthOffset, p.depth);
  store_le32(dst + kCapacityOffset, p.candidates);
  store_le32(dst + kCountOffset, 0);
  store_le64(dst + kTotalOffset, 0);
  std::memset(dst + kStoredCountersOffset, 0, counters_bytes(p.width, p.depth));
}

// --- canonical form --------------------------------------------------------

size_t stored_size(const View& v) {
  return v.encoding == Encoding::kStored ? v.size
                                         : stored_size(v.params, v.count, v.value_bytes);
}

void write_stored(const View& v, uint8_t* dst) {
  if (v.encoding == Encoding::kStored) {
    std::memcpy(dst, v.data, v.size);
    return;
  }
  write_cms_header(dst, flags_of(v.data), Encoding::kStored, element_kind_of(v.data));
  std::memcpy(dst + kWidthOffset, v.data + kWidthOffset, kStoredCountersOffset - kWidthOffset);
  const uint64_t counters = counters_bytes(v.params.width, v.params.depth);
  std::memcpy(dst + kStoredCountersOffset, v.data + kWorkingCountersOffset, counters);

  // Records first hold (hash, entry id), then are sorted by hash with the
  // texts in their order.
  uint8_t* records = dst + stored_records_offset(v.params.width, v.params.depth);
  const WorkingLayout l = working_layout(v.params.width, v.params.depth, v.params.candidates);
  const uint8_t* entries = v.data + l.entries;
  for (uint32_t id = 0; id < v.count; id++)
    item_table::begin_record(records, kRecordSize, id,
                             item_table::entry_hash(entries + kEntrySize * id), id);
  item_table::finish_stored(records, v.count, kRecordSize, false, [&](uint32_t id) {
    return item_table::entry_item(entries + kEntrySize * id, v.data + l.arena);
  });
}

// --- reading ---------------------------------------------------------------

uint64_t estimate(const View& v, uint64_t hash) {
  return estimate_at(counters_of(v), v.params.width, v.params.depth, hash);
}

Candidate candidate_at(const View& v, uint32_t i) {
  // kCanonical checked that the ends rise by at most kMaxValueBytes and stay
  // within the texts; kStructure did not (O(1)), so the item table reads a
  // corrupt value clamped to a range inside the texts, never past them.
  if (v.encoding == Encoding::kStored) return item_table::stored_item(stored_list(v), i);
  const WorkingLayout l = working_layout(v.params.width, v.params.depth, v.params.candidates);
  return item_table::entry_item(v.data + l.entries + kEntrySize * i, v.data + l.arena);
}

void rank_candidates(const View& v, Ranked* out) {
  for (uint32_t i = 0; i < v.count; i++) out[i] = Ranked{estimate(v, candidate_at(v, i).hash), i};
  std::sort(out, out + v.count, [&](const Ranked& a, const Ranked& b) {
    if (a.estimate != b.estimate) return a.estimate > b.estimate;
    const Candidate ca = candidate_at(v, a.index);
    const Candidate cb = candidate_at(v, b.index);
    const int cmp = std::memcmp(ca.text, cb.text, std::min(ca.len, cb.len));
    if (cmp != 0) return cmp < 0;
    if (ca.len != cb.len) return ca.len < cb.len;
    return ca.hash < cb.hash;
  });
}

// --- merging ---------------------------------------------------------------

Status check_mergeable(const View& a, const View& b) {
  // Both hash identities were checked against this build's by parse, so
  // they agree; they are named so the message shows every parameter that
  // must match.
  if (a.params.width == b.params.width && a.params.depth == b.params.depth) return Status::ok();
  return Status::error(StatusCode::kMismatch,
                       "cannot merge cms sketches with different parameters: width %u, depth "
                       "%u, hash identity %u and width %u, depth %u, hash identity %u",
                       a.params.width, a.params.depth, a.data[4], b.params.width,
                       b.params.depth, b.data[4]);
}

}  // namespace sketch::cms
