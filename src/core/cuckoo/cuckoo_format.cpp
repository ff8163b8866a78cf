// Sizing, parsing and the empty filter.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/common/element_kind.h"
#include "core/common/filter_target.h"
#include "core/cuckoo/cuckoo.h"

namespace sketch::cuckoo {

double design_load(int bucket_size) {
  switch (bucket_size) {
    case 2: return 0.80;
    case 8: return 0.93;
    default: return 0.90;
  }
}

Status plan_size(int64_t n, double p, int64_t bucket_size, Params* out) {
  if (Status st = check_filter_target("cuckoo filter", "rate", n, p); !st.is_ok())
    return st;
  if (!valid_bucket_size(bucket_size))
    return Status::error(StatusCode::kInvalidParameter,
                         "cuckoo filter bucket size must be 2, 4 or 8, got %lld",
                         static_cast<long long>(bucket_size));
  const int b = static_cast<int>(bucket_size);
  const double exact_f = std::ceil(std::log2(2.0 * b / p) - 1e-9);
  if (exact_f > kMaxFingerprintBits)
    return Status::error(StatusCode::kInvalidParameter,
                         "a cuckoo filter at p = %g with bucket size %d needs %.0f-bit "
                         "fingerprints, above the maximum of %d (p must be at least 2b/2^32 = "
                         "%.3g)", p, b, exact_f, kMaxFingerprintBits,
                         2.0 * b / 4294967296.0);
  const int f = std::max(kMinFingerprintBits, static_cast<int>(exact_f));
  const double exact_buckets = std::ceil(static_cast<double>(n) / (b * design_load(b)));
  if (!(exact_buckets <= static_cast<double>(kMaxPlannedBuckets)))
    return Status::error(StatusCode::kInvalidParameter,
                         "a cuckoo filter for n = %lld needs %.3g buckets, more than this "
                         "function can describe", static_cast<long long>(n), exact_buckets);
  *out = Params{std::max<uint64_t>(1, static_cast<uint64_t>(exact_buckets)), f, b};
  return Status::ok();
}

Status size_for(int64_t n, double p, int64_t bucket_size, Params* out) {
  Params planned;
  Status st = plan_size(n, p, bucket_size, &planned);
  if (!st.is_ok()) return st;
  if (filter_size(planned) > kMaxDumpableBytes)
    return Status::error(StatusCode::kOverflow,
                         "a cuckoo filter for n = %lld at p = %g needs %llu bytes, above the "
                         "maximum of %zu bytes (512 MiB less 64 KiB, the largest value that can "
                         "be dumped as text)", static_cast<long long>(n), p,
                         static_cast<unsigned long long>(filter_size(planned)), kMaxDumpableBytes);
  *out = planned;
  return Status::ok();
}

namespace {

// The checks shared by parse and is_valid_structure. Fills v's chain fields;
// returns nullptr or the reason (a static string with no arguments).
const char* walk(const uint8_t* data, size_t len, View* v) {
  if (len < kFirstSubfilterOffset) return "truncated before the first sub-filter";
  const int f = data[5];
  if (f < kMinFingerprintBits || f > kMaxFingerprintBits) return "fingerprint bits outside 4..32";
  const int b = data[kBucketSizeOffset];
  if (!valid_bucket_size(b)) return "bucket size not 2, 4 or 8";
  const int s = data[kSubfilterCountOffset];
  if (s < 1 || s > kMaxSubfilters) return "sub-filter count outside 1..32";
  size_t at = kFirstSubfilterOffset;
  for (int j = 0; j < s; j++) {
    if (len - at < kSubfilterHeaderBytes) return "truncated in a sub-filter header";
    const uint64_t buckets = load_le64(data + at);
    if (buckets == 0) return "a sub-filter with 0 buckets";
    if (buckets > kMaxDumpableBytes) return "a sub-filter longer than the data";
    const uint64_t count = load_le64(data + at + 8);
    if (count > buckets * static_cast<uint64_t>(b)) return "a sub-filter count above its slots";
    const uint64_t bytes = subfilter_bytes(buckets, b, f);
    if (bytes > len - at) return "a sub-filter longer than the data";
    v->buckets[j] = buckets;
    v->offset[j] = at;
    at += bytes;
  }
  if (len - at < kGuardBytes) return "truncated before the guard";
  v->fingerprint_bits = f;
  v->bucket_size = b;
  v->subfilters = s;
  v->used = at + kGuardBytes;
  return nullptr;
}

// A deferred state's queue: kQueueBytes after the layout (exactly the rest
// of the buffer when `last`, else followed by the seen set), with a count
// and head inside its slots. nullptr or the reason.
const char* check_queue(const uint8_t* data, size_t len, size_t used, bool last,
                        uint32_t* pending) {
  if (last ? len - used != kQueueBytes : len - used < kQueueBytes)
    return "a deferred state's queue has the wrong length";
  if (!prefetch_queue::parse(data + used, pending)) return "an inconsistent queue";
  return nullptr;
}

// The distinct encoding's seen set at `used`: a header inside the buffer, a
// power-of-two capacity in range, fewer entries than slots (a probe always
// meets an empty slot or stops after `capacity` steps), and its slots.
// nullptr or the reason.
const char* check_seen(const uint8_t* data, size_t len, size_t used, uint64_t* entries,
                       uint64_t* capacity) {
  if (len - used < kSeenHeaderBytes) return "a distinct state's seen set is truncated";
  const uint64_t n = load_le64(data + used);
  const uint64_t cap = load_le64(data + used + 8);
  if (cap < kMinSeenCapacity || cap > kMaxSeenCapacity || (cap & (cap - 1)) != 0)
    return "a distinct state's seen set has an invalid capacity";
  if (n >= cap) return "a distinct state's seen set counts more entries than slots";
  if (len - used - kSeenHeaderBytes < cap * 16) return "a distinct state's seen set is truncated";
  *entries = n;
  *capacity = cap;
  return nullptr;
}

bool known_version(const uint8_t* data, size_t len) {
  return is_current_header(data, len, SketchKind::kCuckoo, kFormatVersion) ||
         is_current_header(data, len, SketchKind::kCuckoo, kOldestFormatVersion);
}

}  // namespace

bool is_valid_structure(const uint8_t* data, size_t len) {
  if (!known_version(data, len) || !valid_element_kind(data[kElementKindOffset])) return false;
  const auto encoding = static_cast<Encoding>(data[6]);
  View v;
  if (walk(data, len, &v) != nullptr) return false;
  switch (encoding) {
    case Encoding::kStored: return v.used == len;
    case Encoding::kSpareTail: return true;
    case Encoding::kDeferred: {
      uint32_t pending;
      return check_queue(data, len, v.used, true, &pending) == nullptr;
    }
    case Encoding::kDistinct: {
      uint64_t entries, capacity;
      return check_seen(data, len, v.used, &entries, &capacity) == nullptr;
    }
    case Encoding::kDistinctDeferred: {
      uint32_t pending;
      uint64_t entries, capacity;
      return check_queue(data, len, v.used, false, &pending) == nullptr &&
             check_seen(data, len, v.used + kQueueBytes, &entries, &capacity) == nullptr;
    }
  }
  return false;
}

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  Header header;
  Status st = read_header(data, len, SketchKind::kCuckoo, kFormatVersion, &header);
  // read_header accepts versions 1..kFormatVersion: both share one layout.
  if (!st.is_ok()) return st;
  const auto encoding = static_cast<Encoding>(header.param[1]);
  if ((encoding == Encoding::kSpareTail || encoding == Encoding::kDeferred ||
       encoding == Encoding::kDistinct || encoding == Encoding::kDistinctDeferred) &&
      validation == Validation::kCanonical)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cuckoo data: encoding %u is an aggregate's working state, "
                         "which is never stored", header.param[1]);
  if (encoding != Encoding::kStored && encoding != Encoding::kSpareTail &&
      encoding != Encoding::kDeferred && encoding != Encoding::kDistinct &&
      encoding != Encoding::kDistinctDeferred)
    return Status::error(StatusCode::kInvalidFormat, "invalid cuckoo data: unknown encoding %u",
                         header.param[1]);
  if (!valid_element_kind(element_kind_byte(data)))
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cuckoo data: unknown element kind %u", element_kind_byte(data));
  View v;
  const char* problem = walk(data, len, &v);
  if (problem != nullptr)
    return Status::error(StatusCode::kInvalidFormat, "invalid cuckoo data: %s (%zu bytes)",
                         problem, len);
  if (encoding == Encoding::kStored && v.used != len)
    return Status::error(StatusCode::kInvalidFormat,
                         "invalid cuckoo data: the sub-filters need %zu bytes, got %zu", v.used,
                         len);
  v.pending = 0;
  v.seen_entries = 0;
  v.seen_capacity = 0;
  if (has_queue(encoding)) {
    problem = check_queue(data, len, v.used, encoding == Encoding::kDeferred, &v.pending);
    if (problem != nullptr)
      return Status::error(StatusCode::kInvalidFormat, "invalid cuckoo data: %s", problem);
  }
  if (has_seen_set(encoding)) {
    const size_t at = v.used + (has_queue(encoding) ? kQueueBytes : 0);
    problem = check_seen(data, len, at, &v.seen_entries, &v.seen_capacity);
    if (problem != nullptr)
      return Status::error(StatusCode::kInvalidFormat, "invalid cuckoo data: %s", problem);
  }
  v.version = header.version;
  v.hash_identity = header.hash_identity;
  v.encoding = encoding;
  v.data = data;
  v.size = len;
  if (validation == Validation::kCanonical) {
    for (size_t i = 10; i < kFirstSubfilterOffset; i++)
      if (data[i] != 0)
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid cuckoo data: reserved byte %zu is not zero", i);
    for (size_t i = v.used - kGuardBytes; i < v.used; i++)
      if (data[i] != 0)
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid cuckoo data: the guard bytes are not zero");
    const int f = v.fingerprint_bits;
    const int b = v.bucket_size;
    for (int j = 0; j < v.subfilters; j++) {
      const uint8_t* area = area_of(v, j);
      const uint64_t slots = v.buckets[j] * b;
      uint64_t nonzero = 0;
      for (uint64_t s = 0; s < slots; s++) nonzero += get_slot(area, s, f) != 0;
      if (nonzero != count_of(v, j))
        return Status::error(StatusCode::kInvalidFormat,
                             "invalid cuckoo data: sub-filter %d counts %llu fingerprints but "
                             "holds %llu", j, static_cast<unsigned long long>(count_of(v, j)),
                             static_cast<unsigned long long>(nonzero));
      // Padding: the bits past the last slot up to the area's end.
      const uint64_t used_bits = slots * f;
      const uint64_t area_len = area_bytes(v.buckets[j], b, f);
      for (uint64_t bit = used_bits; bit < area_len * 8;) {
        if (bit % 8 == 0) {
          if (area[bit / 8] != 0) goto bad_padding;
          bit += 8;
        } else {
          if ((area[bit / 8] >> (bit % 8)) != 0) goto bad_padding;
          bit += 8 - bit % 8;
        }
      }
      continue;
    bad_padding:
      return Status::error(StatusCode::kInvalidFormat,
                           "invalid cuckoo data: padding bits of sub-filter %d are not zero", j);
    }
  }
  *out = v;
  return Status::ok();
}

namespace {

void write_cuckoo_header(uint8_t* dst, int f, Encoding encoding, uint8_t hash_identity,
                         ElementKind kind) {
  write_header(dst, Header{SketchKind::kCuckoo, kFormatVersion, hash_identity,
                           {static_cast<uint8_t>(f), static_cast<uint8_t>(encoding)}},
               kind);
}

}  // namespace

void write_empty(uint8_t* dst, const Params& params) {
  const size_t size = filter_size(params);
  std::memset(dst, 0, size);
  write_cuckoo_header(dst, params.fingerprint_bits, Encoding::kStored, kHashIdentity,
                      ElementKind::kNone);
  dst[kBucketSizeOffset] = static_cast<uint8_t>(params.bucket_size);
  dst[kSubfilterCountOffset] = 1;
  store_le64(dst + kFirstSubfilterOffset, params.buckets);
}

void write_empty_deferred(uint8_t* dst, const Params& params) {
  write_empty(dst, params);
  prefetch_queue::clear(dst + filter_size(params));
  dst[6] = static_cast<uint8_t>(Encoding::kDeferred);
}

size_t empty_distinct_size(const Params& params) {
  const size_t layout = filter_size(params);
  return layout + (has_queue(distinct_encoding_for(layout)) ? kQueueBytes : 0) +
         seen_region_bytes(kMinSeenCapacity);
}

void write_empty_distinct(uint8_t* dst, const Params& params) {
  write_empty(dst, params);
  size_t at = filter_size(params);
  const Encoding encoding = distinct_encoding_for(at);
  dst[6] = static_cast<uint8_t>(encoding);
  if (has_queue(encoding)) {
    prefetch_queue::clear(dst + at);
    at += kQueueBytes;
  }
  std::memset(dst + at, 0, seen_region_bytes(kMinSeenCapacity));
  store_le64(dst + at + 8, kMinSeenCapacity);
}

void write_stored(const View& v, uint8_t* dst) {
  std::memcpy(dst, v.data, v.used);
  dst[6] = static_cast<uint8_t>(Encoding::kStored);
}

void write_working(const View& v, uint8_t* dst) {
  std::memcpy(dst, v.data, working_size(v));
  if (!has_queue(v.encoding) && !has_seen_set(v.encoding))
    dst[6] = static_cast<uint8_t>(Encoding::kSpareTail);
}

}  // namespace sketch::cuckoo
