// theta encodings: parsing with validation, sizes, the stored (canonical)
// form and working copies.

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/common/element_kind.h"
#include "core/theta/theta_internal.h"

namespace sketch::theta {

using namespace detail;

namespace {

Status invalid(const char* what) {
  return Status::error(StatusCode::kInvalidFormat, "invalid theta data: %s", what);
}

// The stored hashes, at both validation levels: the length, then every
// hash, in O(count): nonzero, strictly ascending and below θ (set
// operations and merges rely on them: a zero or unordered hash once made a
// result with θ = 0, so kStructure does not skip them).
Status check_stored(const uint8_t* data, size_t len, Validation validation, const View& v) {
  if (v.count > v.k) return invalid("more hashes than k");
  if (load_le32(data + kReservedOffset) != 0) return invalid("reserved field is not 0");
  if (len != stored_size(v.count)) return invalid("length does not match the hash count");
  (void)validation;
  uint64_t previous = 0;
  for (uint32_t i = 0; i < v.count; i++) {
    const uint64_t h = hash_at(data, i);
    if (h == 0) return invalid("a zero hash");
    if (h <= previous) return invalid("hashes not strictly ascending");
    if (h >= v.theta) return invalid("a hash at or above theta");
    previous = h;
  }
  return Status::ok();
}

// A working state's table, in O(capacity): count nonzero slots, all below
// θ, each in the run of occupied slots that contains its home slot (so a
// lookup finds it and every probe ends at an empty slot).
Status check_working(const uint8_t* data, size_t len, View* v) {
  v->capacity = load_le32(data + kCapacityOffset);
  if (!is_power_of_two(v->capacity) || v->capacity < kMinCapacity ||
      v->capacity > full_capacity(v->lg_k) || len != working_bytes(v->capacity) ||
      v->count > load_limit(v->capacity, v->lg_k, v->hash_identity))
    return invalid("inconsistent working state");
  const uint32_t mask = v->capacity - 1;
  uint32_t empty = 0;
  while (empty < v->capacity && hash_at(data, empty) != 0) empty++;
  if (empty == v->capacity) return invalid("inconsistent working table");  // count too low
  uint32_t run_start = (empty + 1) & mask, held = 0;
  for (uint32_t step = 1; step <= v->capacity; step++) {
    const uint32_t pos = (empty + step) & mask;
    const uint64_t h = hash_at(data, pos);
    if (h == 0) {
      run_start = (pos + 1) & mask;
      continue;
    }
    held++;
    const uint32_t home = static_cast<uint32_t>(h) & mask;
    if (h >= v->theta || ((pos - home) & mask) > ((pos - run_start) & mask))
      return invalid("inconsistent working table");
    // Found first where it lies: no copy of it between its home and here.
    for (uint32_t at = home; at != pos; at = (at + 1) & mask)
      if (hash_at(data, at) == h) return invalid("a hash held twice");
  }
  if (held != v->count) return invalid("inconsistent working count");
  return Status::ok();
}

}  // namespace

namespace detail {

void write_theta_header(uint8_t* dst, int lg_k, Encoding encoding, ElementKind kind,
                        uint8_t identity) {
  write_header(dst, Header{SketchKind::kTheta, kFormatVersion, identity,
                           {static_cast<uint8_t>(lg_k), static_cast<uint8_t>(encoding)}},
               kind);
}

void write_working_empty(uint8_t* dst, int lg_k, uint32_t capacity, uint64_t theta,
                         ElementKind kind, uint8_t identity) {
  std::memset(dst, 0, working_bytes(capacity));
  write_theta_header(dst, lg_k, Encoding::kWorking, kind, identity);
  store_le32(dst + kCapacityOffset, capacity);
  store_le64(dst + kThetaOffset, theta);
}

namespace {

inline uint64_t at(const uint8_t* p, uint32_t i) { return load_le64(p + 8 * size_t{i}); }
inline void put(uint8_t* p, uint32_t i, uint64_t v) { store_le64(p + 8 * size_t{i}, v); }

void insertion_sort(uint8_t* p, uint32_t n) {
  for (uint32_t i = 1; i < n; i++) {
    const uint64_t v = at(p, i);
    uint32_t j = i;
    for (; j > 0 && at(p, j - 1) > v; j--) put(p, j, at(p, j - 1));
    put(p, j, v);
  }
}

// American flag sort (McIlroy, Bostic and McIlroy, "Engineering radix
// sort", 1993): the values are distributed into 256 buckets by the byte at
// `shift`, in place, by following cycles of displaced values; then each
// bucket by the next byte down. Small buckets are insertion sorted. O(n)
// per byte, at most eight levels of 3 KiB of stack, no scratch memory.
void flag_sort(uint8_t* p, uint32_t n, int shift) {
  if (n <= 32) {
    insertion_sort(p, n);
    return;
  }
  uint32_t count[256] = {}, start[256], next[256];
  for (uint32_t i = 0; i < n; i++) count[(at(p, i) >> shift) & 0xff]++;
  for (uint32_t b = 0, sum = 0; b < 256; b++) {
    start[b] = next[b] = sum;
    sum += count[b];
  }
  for (uint32_t b = 0; b < 256; b++) {
    while (next[b] < start[b] + count[b]) {
      uint64_t v = at(p, next[b]);
      uint32_t d = (v >> shift) & 0xff;
      while (d != b) {  // v belongs further on: put it there, carry what it displaces
        const uint64_t displaced = at(p, next[d]);
        put(p, next[d]++, v);
        v = displaced;
        d = (v >> shift) & 0xff;
      }
      put(p, next[b]++, v);
    }
  }
  if (shift == 0) return;
  for (uint32_t b = 0; b < 256; b++)
    if (count[b] > 1) flag_sort(p + 8 * size_t{start[b]}, count[b], shift - 8);
}

}  // namespace

void sort_hashes(uint8_t* p, uint32_t n) {
  // Bytes above the largest value's are 0 for all: start below them.
  uint64_t any = 0;
  for (uint32_t i = 0; i < n; i++) any |= at(p, i);
  int top = 0;
  while (top < 56 && (any >> (top + 8)) != 0) top += 8;
  flag_sort(p, n, top);
}

}  // namespace detail

Status check_lg_k(int64_t lg_k) {
  if (lg_k < kMinLgK || lg_k > kMaxLgK)
    return Status::error(StatusCode::kInvalidParameter,
                         "theta lg_k must be between %d and %d, got %lld", kMinLgK, kMaxLgK,
                         static_cast<long long>(lg_k));
  return Status::ok();
}

Status check_confidence(double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0))
    return std::isnan(confidence)
               ? Status::error(StatusCode::kInvalidParameter,
                               "confidence must be between 0 and 1 (exclusive), got NaN")
               : Status::error(StatusCode::kInvalidParameter,
                               "confidence must be between 0 and 1 (exclusive), got %g",
                               confidence);
  return Status::ok();
}

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  // read_header knows identity 1 only: identity 3 (DataSketches' hashes) is
  // read from a copy of the header that names identity 1, then recorded.
  Header h;
  uint8_t header[kHeaderSize];
  const uint8_t* header_bytes = data;
  if (len >= kHeaderSize && data[4] == kDatasketchesIdentity) {
    std::memcpy(header, data, kHeaderSize);
    header[4] = kHashIdentity;
    header_bytes = header;
  }
  Status st = read_header(header_bytes, len, SketchKind::kTheta, kFormatVersion, &h);
  if (!st.is_ok()) return st;
  if (len < kFixedBytes) return invalid("truncated");
  View v{};
  v.data = data;
  v.size = len;
  v.lg_k = h.param[0];
  v.encoding = static_cast<Encoding>(h.param[1]);
  v.count = load_le32(data + kCountOffset);
  v.theta = load_le64(data + kThetaOffset);
  if (v.lg_k < kMinLgK || v.lg_k > kMaxLgK) return invalid("lg_k out of range");
  v.k = k_of(v.lg_k);
  v.hash_identity = identity_of(data);
  if (!valid_kind_for(v.hash_identity, element_kind_byte(data)))
    return invalid("unknown element kind");
  if (v.theta == 0 || v.theta > kThetaExact) return invalid("theta out of range");
  if (v.encoding == Encoding::kStored) {
    st = check_stored(data, len, validation, v);
  } else if (v.encoding == Encoding::kWorking && validation == Validation::kStructure) {
    st = check_working(data, len, &v);
  } else {
    return invalid("unknown encoding");
  }
  if (!st.is_ok()) return st;
  *out = v;
  return Status::ok();
}

uint64_t stored_hash(const View& v, uint32_t i) { return hash_at(v.data, i); }

size_t stored_size(uint32_t count) { return kHashesOffset + 8 * size_t{count}; }

size_t empty_size() { return stored_size(0); }

void write_empty(int lg_k, uint8_t* dst) {
  std::memset(dst, 0, empty_size());
  write_theta_header(dst, lg_k, Encoding::kStored, ElementKind::kNone, kHashIdentity);
  store_le64(dst + kThetaOffset, kThetaExact);
}

size_t new_working_size(int) { return working_bytes(kMinCapacity); }

void write_new_working(int lg_k, uint8_t* dst) {
  write_working_empty(dst, lg_k, kMinCapacity, kThetaExact, ElementKind::kNone, kHashIdentity);
}

size_t working_size(const View& v) { return working_bytes(capacity_for(v.lg_k, v.count)); }

// Every hash of v reinserted into a table with room for them all (a working
// view holds at most 3/4 of its own table, a stored one at most k), so no
// insert asks to grow or rebuilds.
void write_working(const View& v, uint8_t* dst) {
  write_working_empty(dst, v.lg_k, capacity_for(v.lg_k, v.count), v.theta,
                      element_kind_of(v.data), identity_of(v.data));
  for_each_hash(v, [dst](uint64_t h) { insert(dst, h); });
}

size_t stored_size(const View& v) { return stored_size(std::min(v.count, v.k)); }

void write_stored(const View& v, uint8_t* dst) {
  const uint32_t n = std::min(v.count, v.k);
  std::memset(dst, 0, stored_size(n));
  write_theta_header(dst, v.lg_k, Encoding::kStored, element_kind_of(v.data),
                     identity_of(v.data));
  store_le32(dst + kCountOffset, n);
  if (v.encoding == Encoding::kStored) {
    store_le64(dst + kThetaOffset, v.theta);
    std::memcpy(dst + kHashesOffset, v.data + kHashesOffset, 8 * size_t{n});
    return;
  }
  // More than k: the (k+1)-th smallest becomes θ and the k below it stay
  // (the table holds every hash of its set below its own θ, see theta.h).
  const uint64_t theta = v.count > v.k
                             ? radix_select<false>(v.capacity, v.k + 1,
                                            [&v](uint32_t i) { return hash_at(v.data, i); })
                             : v.theta;
  store_le64(dst + kThetaOffset, theta);
  uint32_t written = 0;
  for (uint32_t i = 0; i < v.capacity && written < n; i++) {
    const uint64_t h = hash_at(v.data, i);
    if (h != 0 && h < theta) set_hash(dst, written++, h);
  }
  sort_hashes(dst + kHashesOffset, written);
}

}  // namespace sketch::theta
