// DataDog's DDSketch protobuf into and out of a ddsketch (ddsketch_proto.h).
#include "core/ddsketch/ddsketch_proto.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/common/protobuf_wire.h"
#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

using protobuf::Field;
using protobuf::Reader;
using protobuf::Wire;

namespace {

constexpr double kTwoTo64 = 18446744073709551616.0;
constexpr uint64_t kMaxExactCount = uint64_t{1} << 53;  // every count up to here is a double

// The stores' fields in DDSketch, and their names in messages.
constexpr uint32_t kStoreField[2] = {2, 3};
const char* const kStoreName[2] = {"positiveValues", "negativeValues"};

// A count: a whole number in 0..2^64 - 1.
bool to_count(double c, uint64_t* out) {
  if (!(c >= 0) || !(c < kTwoTo64) || c != std::floor(c)) return false;
  *out = static_cast<uint64_t>(c);
  return true;
}

Status bad_count(const char* store, const char* field, double c) {
  return Status::error(StatusCode::kInvalidFormat,
                       "DDSketch protobuf: %s.%s has the count %.17g, not a whole number in "
                       "0..2^64 - 1",
                       store, field, c);
}

Status bad_wire(const char* field, const Field& f, const char* want) {
  return Status::error(StatusCode::kInvalidFormat,
                       "DDSketch protobuf: %s has wire type %d, not %s", field,
                       static_cast<int>(f.wire), want);
}

Status given_twice(const char* field) {
  return Status::error(StatusCode::kInvalidFormat, "DDSketch protobuf: %s is given twice", field);
}

Status not_a_field(const char* where, const Reader& r) {
  return Status::error(StatusCode::kInvalidFormat, "DDSketch protobuf: in %s, %s", where,
                       r.error());
}

// A sint32 (zigzag in a varint of at most 32 bits).
bool to_sint32(uint64_t v, int64_t* out) {
  if (v > 0xffffffffu) return false;
  *out = protobuf::zigzag_decode(v);
  return true;
}

// What to hand back while walking a store: nothing (checking and counting
// only), its binCounts entries, or its contiguous counts.
enum class Emit { kNone, kMap, kContiguous };

struct StoreScan {
  size_t bins = 0;          // non-zero entries seen
  ExpBucket* out = nullptr;  // kMap, kContiguous: room for `bins` entries
  size_t n = 0;             // entries written to out
  int64_t offset = 0;       // contiguousBinIndexOffset (read first when emitting)
};

// One binCounts entry {sint32 key = 1; double value = 2;}.
Status read_entry(const Field& f, const char* store, int64_t* key, double* count) {
  Reader r(f.data, f.size);
  bool seen_key = false, seen_value = false;
  *key = 0;
  *count = 0;
  while (!r.at_end()) {
    Field e;
    if (!r.next(&e)) return not_a_field("a binCounts entry", r);
    if (e.number == 1) {
      if (e.wire != Wire::kVarint) return bad_wire("a binCounts key", e, "0 (a sint32)");
      if (seen_key) return given_twice("a binCounts entry's key");
      if (!to_sint32(e.value, key))
        return Status::error(StatusCode::kInvalidFormat,
                             "DDSketch protobuf: %s.binCounts has a key above 32 bits", store);
      seen_key = true;
    } else if (e.number == 2) {
      if (e.wire != Wire::kFixed64) return bad_wire("a binCounts value", e, "1 (a double)");
      if (seen_value) return given_twice("a binCounts entry's value");
      *count = protobuf::bits_to_double(e.value);
      seen_value = true;
    }
  }
  return Status::ok();
}

// Walks one Store {map<sint32, double> binCounts = 1; repeated double
// contiguousBinCounts = 2 [packed]; sint32 contiguousBinIndexOffset = 3;}.
// The contiguous counts may be packed (one or more length-delimited runs)
// or not (one fixed64 each), in any order with the other fields; the
// offset may come after them, so emitting them needs it first (sc->offset,
// from a checking pass).
Status scan_store(const uint8_t* data, size_t size, const char* store, Emit emit,
                  StoreScan* sc) {
  Reader r(data, size);
  bool seen_offset = false;
  int64_t position = 0;  // of the next contiguous count
  auto contiguous = [&](double c) -> Status {
    uint64_t count;
    if (!to_count(c, &count)) return bad_count(store, "contiguousBinCounts", c);
    if (count != 0) {
      if (emit == Emit::kContiguous) sc->out[sc->n++] = {sc->offset + position, count};
      sc->bins++;
    }
    position++;
    return Status::ok();
  };
  while (!r.at_end()) {
    Field f;
    if (!r.next(&f)) return not_a_field(store, r);
    if (f.number == 1) {
      if (f.wire != Wire::kBytes) return bad_wire("binCounts", f, "2 (a map entry)");
      int64_t key;
      double c;
      Status st = read_entry(f, store, &key, &c);
      if (!st.is_ok()) return st;
      uint64_t count;
      if (!to_count(c, &count)) return bad_count(store, "binCounts", c);
      if (count != 0) {
        if (emit == Emit::kMap) sc->out[sc->n++] = {key, count};
        sc->bins++;
      }
    } else if (f.number == 2) {
      if (f.wire == Wire::kFixed64) {
        Status st = contiguous(protobuf::bits_to_double(f.value));
        if (!st.is_ok()) return st;
      } else if (f.wire == Wire::kBytes) {
        if (f.size % 8 != 0)
          return Status::error(StatusCode::kInvalidFormat,
                               "DDSketch protobuf: %s.contiguousBinCounts has %zu bytes, not a "
                               "multiple of 8 (packed doubles)",
                               store, f.size);
        for (size_t k = 0; k < f.size; k += 8) {
          Status st = contiguous(protobuf::bits_to_double(load_le64(f.data + k)));
          if (!st.is_ok()) return st;
        }
      } else {
        return bad_wire("contiguousBinCounts", f, "1 or 2 (doubles)");
      }
    } else if (f.number == 3) {
      if (f.wire != Wire::kVarint) return bad_wire("contiguousBinIndexOffset", f, "0 (a sint32)");
      if (seen_offset) return given_twice("contiguousBinIndexOffset");
      int64_t offset;
      if (!to_sint32(f.value, &offset))
        return Status::error(StatusCode::kInvalidFormat,
                             "DDSketch protobuf: %s.contiguousBinIndexOffset is above 32 bits",
                             store);
      if (emit == Emit::kNone) sc->offset = offset;
      seen_offset = true;
    }
  }
  return Status::ok();
}

// IndexMapping {double gamma = 1; double indexOffset = 2; Interpolation
// interpolation = 3;}.
Status read_mapping(const Field& f, ProtoSummary* out) {
  Reader r(f.data, f.size);
  bool seen[4] = {false, false, false, false};
  const char* const names[4] = {"", "mapping.gamma", "mapping.indexOffset",
                                "mapping.interpolation"};
  while (!r.at_end()) {
    Field m;
    if (!r.next(&m)) return not_a_field("mapping", r);
    if (m.number < 1 || m.number > 3) continue;
    if (seen[m.number]) return given_twice(names[m.number]);
    seen[m.number] = true;
    if (m.number == 3) {
      if (m.wire != Wire::kVarint) return bad_wire(names[3], m, "0 (an enum)");
      out->interpolation = m.value;
    } else {
      if (m.wire != Wire::kFixed64) return bad_wire(names[m.number], m, "1 (a double)");
      (m.number == 1 ? out->gamma : out->index_offset) = protobuf::bits_to_double(m.value);
    }
  }
  if (!(out->gamma > 1) || !std::isfinite(out->gamma))
    return Status::error(StatusCode::kInvalidFormat,
                         "DDSketch protobuf: mapping.gamma %.17g is not a finite number above 1",
                         out->gamma);
  if (!std::isfinite(out->index_offset))
    return Status::error(StatusCode::kInvalidFormat,
                         "DDSketch protobuf: mapping.indexOffset %g is not finite",
                         out->index_offset);
  if (out->interpolation > 3)
    return Status::error(StatusCode::kInvalidFormat,
                         "DDSketch protobuf: mapping.interpolation %llu is not NONE (0), LINEAR "
                         "(1), QUADRATIC (2) or CUBIC (3)",
                         static_cast<unsigned long long>(out->interpolation));
  return Status::ok();
}

struct Slice {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// The top-level message: the summary, and where each store's bytes are.
Status read_message(const uint8_t* data, size_t size, ProtoSummary* out, Slice stores[2]) {
  *out = ProtoSummary{};
  Reader r(data, size);
  bool seen[5] = {false, false, false, false, false};
  const char* const names[5] = {"", "mapping", kStoreName[0], kStoreName[1], "zeroCount"};
  while (!r.at_end()) {
    Field f;
    if (!r.next(&f)) return not_a_field("the DDSketch message", r);
    if (f.number > 4) continue;  // a later version's field
    if (seen[f.number]) return given_twice(names[f.number]);
    seen[f.number] = true;
    if (f.number == 4) {
      if (f.wire != Wire::kFixed64) return bad_wire("zeroCount", f, "1 (a double)");
      const double c = protobuf::bits_to_double(f.value);
      if (!to_count(c, &out->zero_count))
        return Status::error(StatusCode::kInvalidFormat,
                             "DDSketch protobuf: zeroCount %.17g is not a whole number in "
                             "0..2^64 - 1",
                             c);
      continue;
    }
    if (f.wire != Wire::kBytes) return bad_wire(names[f.number], f, "2 (a message)");
    if (f.number == 1) {
      Status st = read_mapping(f, out);
      if (!st.is_ok()) return st;
      continue;
    }
    const int k = f.number == kStoreField[0] ? 0 : 1;
    StoreScan sc;
    Status st = scan_store(f.data, f.size, kStoreName[k], Emit::kNone, &sc);
    if (!st.is_ok()) return st;
    out->bins[k] = sc.bins;
    stores[k] = {f.data, f.size};
  }
  if (!seen[1])
    return Status::error(StatusCode::kInvalidFormat, "DDSketch protobuf: it has no mapping");
  return Status::ok();
}

void sort_by_index(ExpBucket* b, size_t n) {
  std::sort(b, b + n, [](const ExpBucket& x, const ExpBucket& y) { return x.index < y.index; });
}

// The target index of a proto key.
Status target_index(const ProtoTarget& t, const char* store, int64_t key, int64_t* out) {
  const int64_t k = t.rule == ProtoIndexRule::kFloor ? key + 1 : key;  // the ceil key
  if (t.exact) {
    *out = k - t.key_shift;
    return Status::ok();
  }
  const double rep =
      std::exp2((static_cast<double>(k) - t.offset) * t.log2_gamma) * t.rep_factor;
  if (!(rep > 0) || !(rep <= DBL_MAX))
    return Status::error(StatusCode::kOverflow,
                         "DDSketch protobuf: %s key %lld holds values beyond the doubles' range",
                         store, static_cast<long long>(key));
  *out = bucket_index(rep, t.scale);
  return Status::ok();
}

}  // namespace

Status read_proto(const uint8_t* data, size_t size, ProtoSummary* out) {
  Slice stores[2];
  return read_message(data, size, out, stores);
}

Status plan_proto(const ProtoSummary& s, ProtoIndexRule rule, int max_scale, ProtoTarget* out) {
  if (max_scale < kMinScale || max_scale > kMaxScale)
    return Status::error(StatusCode::kInvalidParameter, "max_scale %d is outside %d..%d",
                         max_scale, kMinScale, kMaxScale);
  if (s.interpolation != 0) {
    const char* const names[4] = {"NONE", "LINEAR", "QUADRATIC", "CUBIC"};
    return Status::error(StatusCode::kUnsupported,
                         "DDSketch protobuf: interpolation %s is not supported: its bins' bounds "
                         "follow each library's own approximation of log2; only NONE (the "
                         "logarithmic mapping) is read",
                         names[s.interpolation & 3]);
  }
  ProtoTarget t{};
  t.rule = rule;
  t.log2_gamma = std::log2(s.gamma);
  t.offset = s.index_offset;
  t.rep_factor = 2.0 / (1.0 + s.gamma);
  if (s.index_offset == std::floor(s.index_offset) && std::fabs(s.index_offset) <= 2147483648.0) {
    for (int scale = kMinScale; scale <= kOtelMaxScale; scale++) {
      const double g = gamma_of(scale);
      const double ulp = std::nextafter(g, 2 * g) - g;
      if (std::fabs(s.gamma - g) <= 4 * ulp) {
        t.exact = true;
        t.scale = scale;
        t.key_shift = static_cast<int64_t>(s.index_offset);
        t.accuracy = relative_accuracy(scale < max_scale ? scale : max_scale);
        *out = t;
        return Status::ok();
      }
    }
  }
  const double alpha = (s.gamma - 1) / (s.gamma + 1);
  int scale = kMinScale;
  while (scale < max_scale && relative_accuracy(scale) > alpha) scale++;
  t.scale = scale;
  t.accuracy = (1 + alpha) * (1 + relative_accuracy(scale)) - 1;
  *out = t;
  return Status::ok();
}

Status proto_histogram(const uint8_t* data, size_t size, const ProtoSummary& summary,
                       const ProtoTarget& target, ExpBucket* positive, ExpBucket* negative,
                       ExpHistogram* out) {
  ProtoSummary again;
  Slice stores[2];
  Status st = read_message(data, size, &again, stores);
  if (!st.is_ok()) return st;
  ExpBucket* const dst[2] = {positive, negative};
  size_t used[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    if (again.bins[k] != summary.bins[k])  // the room the caller made
      return Status::error(StatusCode::kInvalidParameter,
                           "DDSketch protobuf: the summary is not this message's");
    if (stores[k].data == nullptr || summary.bins[k] == 0) continue;
    StoreScan sc;
    st = scan_store(stores[k].data, stores[k].size, kStoreName[k], Emit::kNone, &sc);
    if (!st.is_ok()) return st;
    sc.bins = 0;
    sc.out = dst[k];
    st = scan_store(stores[k].data, stores[k].size, kStoreName[k], Emit::kMap, &sc);
    if (!st.is_ok()) return st;
    const size_t map_entries = sc.n;
    sort_by_index(dst[k], map_entries);
    for (size_t b = 1; b < map_entries; b++)
      if (dst[k][b].index == dst[k][b - 1].index)
        return Status::error(StatusCode::kInvalidFormat,
                             "DDSketch protobuf: %s.binCounts has the key %lld twice",
                             kStoreName[k], static_cast<long long>(dst[k][b].index));
    sc.bins = 0;
    st = scan_store(stores[k].data, stores[k].size, kStoreName[k], Emit::kContiguous, &sc);
    if (!st.is_ok()) return st;
    for (size_t b = 0; b < sc.n; b++) {
      st = target_index(target, kStoreName[k], dst[k][b].index, &dst[k][b].index);
      if (!st.is_ok()) return st;
    }
    sort_by_index(dst[k], sc.n);
    // Bins that share a bucket (one bin in both encodings, or several
    // foreign bins in one coarser bucket) add.
    size_t n = 0;
    for (size_t b = 0; b < sc.n; b++) {
      if (n > 0 && dst[k][n - 1].index == dst[k][b].index) {
        if (dst[k][b].count > UINT64_MAX - dst[k][n - 1].count)
          return Status::error(StatusCode::kOverflow,
                               "DDSketch protobuf: %s holds more than 2^64 - 1 values in one "
                               "bucket",
                               kStoreName[k]);
        dst[k][n - 1].count += dst[k][b].count;
      } else {
        dst[k][n++] = dst[k][b];
      }
    }
    used[k] = n;
  }
  ExpHistogram h;
  h.scale = target.scale;
  h.zero_count = again.zero_count;
  h.positive = {positive, used[0]};
  h.negative = {negative, used[1]};
  *out = h;
  return Status::ok();
}

// --- ddsketch as a DDSketch protobuf --------------------------------------------

namespace {

constexpr size_t kMappingSize = 1 + 8;  // gamma: key 0x09, a double

// The contiguous store: counts from min_index to max_index (packed), the
// offset when not 0.
size_t store_size(const Store& s) {
  if (s.buckets == 0) return 0;
  const size_t n = static_cast<size_t>(int64_t{s.max_index} - s.min_index + 1);
  size_t size = protobuf::bytes_header_size(2, 8 * n) + 8 * n;
  if (s.min_index != 0)
    size += 1 + varint_size(protobuf::zigzag_encode(s.min_index));
  return size;
}

uint8_t* put_store(uint8_t* p, uint32_t field, const Store& s) {
  p = protobuf::put_bytes_header(p, field, store_size(s));
  if (s.buckets == 0) return p;
  const size_t n = static_cast<size_t>(int64_t{s.max_index} - s.min_index + 1);
  p = protobuf::put_bytes_header(p, 2, 8 * n);
  int64_t next = s.min_index;
  for_each_bucket(s, [&](int32_t index, uint64_t count) {
    for (; next < index; next++) p = protobuf::put_double(p, 0.0);
    p = protobuf::put_double(p, static_cast<double>(count));
    next = int64_t{index} + 1;
  });
  if (s.min_index != 0) {
    p = protobuf::put_key(p, 3, Wire::kVarint);
    p = put_varint(p, protobuf::zigzag_encode(s.min_index));
  }
  return p;
}

}  // namespace

Status proto_size(const View& v, size_t* size) {
  uint64_t largest = v.zero_count;
  for (const Store* s : {&v.positive, &v.negative})
    for_each_bucket(*s, [&](int32_t, uint64_t count) { largest = std::max(largest, count); });
  if (largest > kMaxExactCount)
    return Status::error(StatusCode::kOverflow,
                         "a count of %llu is above 2^53: the DDSketch protobuf's double counts "
                         "cannot hold it exactly",
                         static_cast<unsigned long long>(largest));
  size_t n = protobuf::bytes_header_size(1, kMappingSize) + kMappingSize;
  n += protobuf::bytes_header_size(2, store_size(v.positive)) + store_size(v.positive);
  n += protobuf::bytes_header_size(3, store_size(v.negative)) + store_size(v.negative);
  if (v.zero_count != 0) n += 1 + 8;
  *size = n;
  return Status::ok();
}

void write_proto(const View& v, uint8_t* p) {
  p = protobuf::put_bytes_header(p, 1, kMappingSize);
  p = protobuf::put_key(p, 1, Wire::kFixed64);
  p = protobuf::put_double(p, gamma_of(v.scale));
  p = put_store(p, 2, v.positive);
  p = put_store(p, 3, v.negative);
  if (v.zero_count != 0) {
    p = protobuf::put_key(p, 4, Wire::kFixed64);
    protobuf::put_double(p, static_cast<double>(v.zero_count));
  }
}

}  // namespace sketch::ddsketch
