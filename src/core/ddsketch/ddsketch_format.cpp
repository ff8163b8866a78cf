// Parsing and writing both encodings: the stored form (canonical, varint
// entries, a trimmed sum) and the working form (dense windows), and the
// window operations the add and merge paths share.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "core/common/element_kind.h"
#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch {

using namespace detail;

namespace detail {

void write_ddsketch_header(uint8_t* dst, int scale, Encoding encoding) {
  // A ddsketch holds numbers, hashed by no rule: its kind is always none.
  write_header(dst,
               Header{SketchKind::kDdsketch, kFormatVersion, kHashIdentity,
                      {static_cast<uint8_t>(scale), static_cast<uint8_t>(encoding)}},
               ElementKind::kNone);
}

uint8_t* put_window(uint8_t* window, const Extent& e, uint32_t capacity) {
  // Centred on the extent (whose span the capacity holds), so that the
  // store can grow either way before the window has to move. An empty
  // store's window is placed at 0; its first value moves it.
  const int64_t offset = e.empty ? 0 : e.low - static_cast<int64_t>((capacity - e.span()) / 2);
  store_i32(window + kWinOffset, offset);
  store_le32(window + kWinCapacity, capacity);
  store_i32(window + kWinMin, 0);
  store_i32(window + kWinMax, 0);
  store_le32(window + kWinBuckets, 0);
  store_le32(window + kWinReserved, 0);
  std::fill(window + kWinHeader, window + kWinHeader + 8 * size_t{capacity}, uint8_t{0});
  return window + kWinHeader + 8 * size_t{capacity};
}

bool add_store_into(uint8_t* window, const Store& src, int shift, const Extent& e) {
  bool collapsed = false;
  const int64_t offset = load_i32(window + kWinOffset);
  const int64_t capacity = load_le32(window + kWinCapacity);
  for_each_bucket(src, [&](int32_t index, uint64_t count) {
    int64_t target = fold_index(index, shift);
    if (target < e.floor) {
      target = e.floor;
      collapsed = true;
    }
    // The window covers the extent, which covers every source bucket; the
    // check only guards against a corrupt source.
    if (target >= offset && target < offset + capacity) window_add(window, target, count);
  });
  return collapsed;
}

// Collapse: the buckets below the floor are summed into the floor (the
// values they hold are all smaller in magnitude than the floor's bucket, so
// they keep their place in the rank order: only their values are lost).
// Then, if the window does not cover the extent, the kept buckets move (a
// memmove within the slots) so that it does, centred as put_window places
// a new one.
bool prepare_window(uint8_t* window, const Extent& e) {
  if (e.empty) return false;
  uint8_t* const slots = window + kWinHeader;
  int64_t offset = load_i32(window + kWinOffset);
  const int64_t capacity = load_le32(window + kWinCapacity);
  uint32_t buckets = load_le32(window + kWinBuckets);
  int64_t low = load_i32(window + kWinMin);
  const int64_t high = load_i32(window + kWinMax);
  bool collapsed = false;
  uint64_t moved = 0;
  if (buckets > 0 && low < e.floor) {
    collapsed = true;
    const int64_t last = std::min(high, e.floor - 1);
    for (int64_t i = low; i <= last; i++) {
      uint8_t* slot = slots + 8 * (i - offset);
      const uint64_t c = load_le64(slot);
      if (c == 0) continue;
      moved += c;
      store_le64(slot, 0);
      buckets--;
    }
    // What is left lies in [floor, high]; find its lowest bucket.
    low = e.floor;
    while (buckets > 0 && low <= high && load_le64(slots + 8 * (low - offset)) == 0) low++;
    if (low > high) buckets = 0;
    store_le32(window + kWinBuckets, buckets);
    store_i32(window + kWinMin, buckets > 0 ? low : 0);
    if (buckets == 0) store_i32(window + kWinMax, 0);
  }
  if (!(offset <= e.low && e.high < offset + capacity)) {
    if (capacity < static_cast<int64_t>(e.span())) return collapsed;  // callers never ask
    const int64_t new_offset = e.low - (capacity - static_cast<int64_t>(e.span())) / 2;
    if (buckets > 0) {
      // [low, high] lies inside the extent, so inside the new window too.
      const int64_t n = high - low + 1;
      std::memmove(slots + 8 * (low - new_offset), slots + 8 * (low - offset),
                   8 * static_cast<size_t>(n));
      std::fill(slots, slots + 8 * (low - new_offset), uint8_t{0});
      std::fill(slots + 8 * (high + 1 - new_offset), slots + 8 * capacity, uint8_t{0});
    } else {
      std::fill(slots, slots + 8 * capacity, uint8_t{0});
    }
    offset = new_offset;
    store_i32(window + kWinOffset, offset);
  }
  if (moved > 0) window_add(window, e.floor, moved);
  return collapsed;
}

}  // namespace detail

namespace {

Status invalid(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// "invalid ddsketch data: " + the reason.
Status invalid(const char* fmt, ...) {
  char reason[200];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(reason, sizeof reason, fmt, args);
  va_end(args);
  return Status::error(StatusCode::kInvalidFormat, "invalid ddsketch data: %s", reason);
}

const char* store_name(bool positive) { return positive ? "positive" : "negative"; }

// One stored store at *pos: its bucket count, lowest index and entries. Both
// modes check what a reader relies on: the bytes are there, every varint
// ends within 10 bytes, the first gap is 0 and every index stays inside the
// scale's range (so that no index arithmetic overflows). kCanonical also
// checks the shortest form, counts >= 1, the span and sums the counts.
Status parse_stored_store(const uint8_t* data, size_t len, size_t* pos, int scale,
                          uint32_t max_buckets, bool canonical, bool positive, Store* out,
                          uint64_t* total) {
  const char* name = store_name(positive);
  if (len - *pos < 4) return invalid("truncated before the %s store", name);
  const uint32_t buckets = load_le32(data + *pos);
  *pos += 4;
  *out = Store{buckets, 0, 0, false, Encoding::kStored, data + *pos, 0, 0, 0};
  *total = 0;
  if (buckets == 0) return Status::ok();
  // Every entry takes two bytes at least.
  if (len - *pos < 4 || buckets > (len - *pos - 4) / 2)
    return invalid("the %s store declares %u buckets, more than its %zu bytes hold", name, buckets,
                   len - *pos);
  if (canonical && buckets > max_buckets)
    return invalid("the %s store holds %u buckets, more than max_buckets %u", name, buckets,
                   max_buckets);
  const int64_t lowest = load_i32(data + *pos);
  *pos += 4;
  const int64_t range_low = lowest_index_of(scale), range_high = highest_index_of(scale);
  if (lowest < range_low || lowest > range_high)
    return invalid(
        "the %s store's lowest index %lld is outside %lld..%lld, the buckets of scale %d", name,
        static_cast<long long>(lowest), static_cast<long long>(range_low),
        static_cast<long long>(range_high), scale);
  const uint8_t* p = data + *pos;
  const uint8_t* const end = data + len;
  const uint8_t* const start = p;
  int64_t index = lowest - 1;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < buckets; i++) {
    uint64_t values[2];
    for (int k = 0; k < 2; k++) {
      const char* what = k == 0 ? "gap" : "count";
      switch (get_varint(&p, end, &values[k])) {
        case VarintRead::kOk:
          break;
        case VarintRead::kTruncated:
          return invalid("the %s store is truncated in entry %u", name, i);
        case VarintRead::kTooLong:
          return invalid("the %s of entry %u of the %s store is not a varint of at most 64 bits",
                         what, i, name);
        case VarintRead::kOverlong:
          if (canonical)
            return invalid("the %s of entry %u of the %s store is not in its shortest form", what,
                           i, name);
          break;
      }
    }
    const uint64_t gap = values[0], count = values[1];
    if (i == 0 && gap != 0)
      return invalid("the first entry of the %s store has gap %llu, not 0", name,
                     static_cast<unsigned long long>(gap));
    // index < range_high here keeps range_high - index - 1 from going
    // negative (and, as uint64, huge) after an entry at the last bucket.
    if (index >= range_high || gap > static_cast<uint64_t>(range_high - index - 1))
      return invalid("entry %u of the %s store is past index %lld, the last bucket of scale %d", i,
                     name, static_cast<long long>(range_high), scale);
    index += static_cast<int64_t>(gap) + 1;
    if (canonical) {
      if (count == 0) return invalid("entry %u of the %s store has a count of 0", i, name);
      if (sum > UINT64_MAX - count)
        return invalid("the counts of the %s store add up to more than 2^64 - 1", name);
      sum += count;
    }
  }
  out->min_index = static_cast<int32_t>(lowest);
  out->max_index = static_cast<int32_t>(index);
  out->data = start;
  out->size = static_cast<size_t>(p - start);
  *pos += out->size;
  if (canonical && index - lowest + 1 > int64_t{max_buckets})
    return invalid("the %s store spans indices %lld..%lld, more than max_buckets %u", name,
                   static_cast<long long>(lowest), static_cast<long long>(index), max_buckets);
  *total = sum;
  return Status::ok();
}

Store working_store(const uint8_t* window) {
  return Store{load_le32(window + kWinBuckets),
               load_i32(window + kWinMin),
               load_i32(window + kWinMax),
               false,
               Encoding::kWorking,
               window + kWinHeader,
               8 * size_t{load_le32(window + kWinCapacity)},
               load_i32(window + kWinOffset),
               load_le32(window + kWinCapacity)};
}

bool negative_zero(double d) { return d == 0 && std::signbit(d); }

// What kCanonical checks beyond the encoding: that the numbers could come
// from a multiset of values (see ddsketch.h, parse).
Status check_consistency(const View& v, uint64_t positive_total, uint64_t negative_total) {
  const Store& pos = v.positive;
  const Store& neg = v.negative;
  if (v.zero_count > v.count)
    return invalid("zero_count %llu exceeds count %llu",
                   static_cast<unsigned long long>(v.zero_count),
                   static_cast<unsigned long long>(v.count));
  if (positive_total > UINT64_MAX - negative_total ||
      positive_total + negative_total > UINT64_MAX - v.zero_count ||
      positive_total + negative_total + v.zero_count != v.count)
    return invalid(
        "the bucket counts (%llu positive, %llu negative) and zero_count %llu do not "
        "add up to count %llu",
        static_cast<unsigned long long>(positive_total),
        static_cast<unsigned long long>(negative_total),
        static_cast<unsigned long long>(v.zero_count), static_cast<unsigned long long>(v.count));
  for (const double d : {v.min, v.max}) {
    if (!std::isfinite(d)) return invalid("min or max is not a finite number");
    if (negative_zero(d)) return invalid("min or max is -0 (a zero value is stored as +0)");
  }
  for (const bool positive : {true, false}) {
    const Store& s = positive ? pos : neg;
    if (s.collapsed && s.buckets == 0)
      return invalid("the %s store is marked collapsed but holds no bucket", store_name(positive));
  }
  if (v.count == 0) {
    if (v.min != 0 || v.max != 0) return invalid("an empty sketch has min and max 0");
  } else if (!(v.min <= v.max)) {
    return invalid("min %.17g exceeds max %.17g", v.min, v.max);
  }
  if ((v.max > 0) != (pos.buckets > 0))
    return invalid("max is %.17g but the positive store holds %u buckets", v.max, pos.buckets);
  if ((v.min < 0) != (neg.buckets > 0))
    return invalid("min is %.17g but the negative store holds %u buckets", v.min, neg.buckets);
  // The top bucket of a store never collapses: it holds the largest
  // magnitude, max or -min.
  if (pos.buckets > 0 && bucket_index(v.max, v.scale) != pos.max_index)
    return invalid("max %.17g belongs to bucket %d, but the positive store's highest is %d", v.max,
                   bucket_index(v.max, v.scale), pos.max_index);
  if (neg.buckets > 0 && bucket_index(-v.min, v.scale) != neg.max_index)
    return invalid("min %.17g belongs to bucket %d, but the negative store's highest is %d", v.min,
                   bucket_index(-v.min, v.scale), neg.max_index);
  // A store's lowest bucket holds its smallest magnitude, which is min (or
  // -max) when every value has the same sign: exactly its bucket, or a lower
  // one that collapsed into it.
  if (v.zero_count == 0) {
    const bool only_positive = neg.buckets == 0 && pos.buckets > 0;
    const bool only_negative = pos.buckets == 0 && neg.buckets > 0;
    if (only_positive || only_negative) {
      const Store& s = only_positive ? pos : neg;
      const double smallest = only_positive ? v.min : -v.max;
      const int32_t b = bucket_index(smallest, v.scale);
      if (s.collapsed ? b > s.min_index : b != s.min_index)
        return invalid("%s %.17g belongs to bucket %d, but the %s store's lowest is %d%s",
                       only_positive ? "min" : "max", only_positive ? v.min : v.max, b,
                       store_name(only_positive), s.min_index, s.collapsed ? " (collapsed)" : "");
    }
  }
  return Status::ok();
}

Status check_sum(const View& v) {
  const uint32_t low = v.data[kSumLowOffset];
  const uint32_t len = v.data[kSumLenOffset];
  SumWords sum;
  load_sum(v, sum);
  const SumTrim t = trim_sum(sum);
  if (t.low != low || t.len != len) return invalid("the sum's words are not trimmed");
  if (v.count == 0) {
    if (len != 0) return invalid("an empty sketch has a sum of 0");
    return Status::ok();
  }
  // Every value lies in [min, max] and min and max are among them, so the
  // sum of count values lies in [max + (count - 1) min, min + (count - 1)
  // max]: exact fixed-point bounds. It also keeps every valid sum far from
  // the words' capacity, so unions of valid sketches cannot overflow.
  SumWords lower = {}, upper = {};
  sum_add_scaled(lower, v.min, v.count - 1);
  sum_add_double(lower, v.max);
  sum_add_scaled(upper, v.max, v.count - 1);
  sum_add_double(upper, v.min);
  if (sum_compare(sum, lower) < 0 || sum_compare(sum, upper) > 0)
    return invalid("the sum %.17g is not the sum of %llu values between min %.17g and max %.17g",
                   sum_to_double(sum), static_cast<unsigned long long>(v.count), v.min, v.max);
  return Status::ok();
}

}  // namespace

Status parse(const uint8_t* data, size_t len, Validation validation, View* out) {
  Header header;
  Status st = read_header(data, len, SketchKind::kDdsketch, kFormatVersion, &header);
  if (!st.is_ok()) return st;
  const bool canonical = validation == Validation::kCanonical;
  const int scale = static_cast<int8_t>(header.param[0]);
  if (scale < kMinScale || scale > kMaxScale)
    return invalid("scale %d outside %d..%d", scale, kMinScale, kMaxScale);
  const auto encoding = static_cast<Encoding>(header.param[1]);
  if (encoding == Encoding::kWorking && canonical)
    return invalid("encoding 2 is an aggregate's working state, which is never stored");
  if (encoding != Encoding::kStored && encoding != Encoding::kWorking)
    return invalid("unknown encoding %u", header.param[1]);
  if (element_kind_byte(data) != kElementKindNone)
    return invalid("element kind byte %u, not 255 (a ddsketch holds numbers)", element_kind_byte(data));

  View v{};
  v.scale = scale;
  v.encoding = encoding;
  v.data = data;
  v.size = len;
  if (encoding == Encoding::kWorking) {
    const char* problem = working_layout_problem(data, len);
    if (problem != nullptr) return invalid("%s", problem);
  } else if (len < kSumWordsOffset) {
    return invalid("truncated: %zu bytes, the fixed fields need %zu", len, kSumWordsOffset);
  }
  v.max_buckets = load_le32(data + kMaxBucketsOffset);
  if (v.max_buckets < kMinBuckets || v.max_buckets > kMaxBuckets)
    return invalid("max_buckets %u outside %u..%u", v.max_buckets, kMinBuckets, kMaxBuckets);
  const uint8_t flags = data[kFlagsOffset];
  if ((flags & ~kKnownFlags) != 0) return invalid("unknown flags 0x%02x", flags);
  if (data[kReservedOffset] != 0 || data[kReservedOffset + 1] != 0 ||
      data[kReservedOffset + 2] != 0)
    return invalid("reserved bytes 13-15 are not 0");
  v.count = load_le64(data + kCountOffset);
  v.zero_count = load_le64(data + kZeroCountOffset);
  v.min = load_double(data + kMinOffset);
  v.max = load_double(data + kMaxOffset);

  if (encoding == Encoding::kWorking) {
    v.positive = working_store(data + kWorkingStoresOffset);
    v.negative = working_store(negative_window(const_cast<uint8_t*>(data)));
  } else {
    const uint32_t low = data[kSumLowOffset];
    const uint32_t words = data[kSumLenOffset];
    if (low >= kSumWords || words > kSumWords - low)
      return invalid("the sum's words %u..%u are outside 0..%d", low, low + words - 1,
                     kSumWords - 1);
    if (words == 0 && low != 0) return invalid("a sum of 0 words starts at word %u, not 0", low);
    size_t pos = kSumWordsOffset + 8 * size_t{words};
    if (pos > len) return invalid("truncated in the sum (%zu bytes)", len);
    uint64_t positive_total, negative_total;
    st = parse_stored_store(data, len, &pos, scale, v.max_buckets, canonical, true, &v.positive,
                            &positive_total);
    if (!st.is_ok()) return st;
    st = parse_stored_store(data, len, &pos, scale, v.max_buckets, canonical, false, &v.negative,
                            &negative_total);
    if (!st.is_ok()) return st;
    if (pos != len) return invalid("%zu bytes after the negative store", len - pos);
    v.positive.collapsed = (flags & kFlagPositiveCollapsed) != 0;
    v.negative.collapsed = (flags & kFlagNegativeCollapsed) != 0;
    if (canonical) {
      st = check_consistency(v, positive_total, negative_total);
      if (!st.is_ok()) return st;
      st = check_sum(v);
      if (!st.is_ok()) return st;
    }
  }
  v.positive.collapsed = (flags & kFlagPositiveCollapsed) != 0;
  v.negative.collapsed = (flags & kFlagNegativeCollapsed) != 0;
  *out = v;
  return Status::ok();
}

// --- empty sketches ------------------------------------------------------------

size_t empty_size() { return kSumWordsOffset + 4 + 4; }

void write_empty(const Params& params, uint8_t* dst) {
  write_ddsketch_header(dst, params.scale, Encoding::kStored);
  std::fill(dst + kHeaderSize, dst + empty_size(), uint8_t{0});
  store_le32(dst + kMaxBucketsOffset, params.max_buckets);
}

size_t empty_working_size(const Params&) { return working_bytes(kMinSlots, 0); }

void write_empty_working(const Params& params, uint8_t* dst) {
  write_ddsketch_header(dst, params.scale, Encoding::kWorking);
  std::fill(dst + kHeaderSize, dst + kWorkingStoresOffset, uint8_t{0});
  store_le32(dst + kMaxBucketsOffset, params.max_buckets);
  const Extent none{true, 0, 0, 0};
  uint8_t* p = put_window(dst + kWorkingStoresOffset, none, kMinSlots);
  put_window(p, none, 0);
}

// --- the stored form -------------------------------------------------------------

namespace {

// Bytes of a store's stored form, from its non-empty buckets.
size_t stored_store_size(const Store& s) {
  size_t size = 4;
  bool first = true;
  int64_t previous = 0;
  for_each_bucket(s, [&](int32_t index, uint64_t count) {
    if (first) size += 4;
    size +=
        varint_size(first ? 0 : static_cast<uint64_t>(index - previous - 1)) + varint_size(count);
    first = false;
    previous = index;
  });
  return size;
}

uint8_t* put_stored_store(uint8_t* p, const Store& s) {
  uint8_t* const count_at = p;
  p += 4;
  uint32_t buckets = 0;
  int64_t previous = 0;
  for_each_bucket(s, [&](int32_t index, uint64_t count) {
    if (buckets == 0) {
      store_i32(p, index);
      p += 4;
    }
    p = put_varint(p, buckets == 0 ? 0 : static_cast<uint64_t>(index - previous - 1));
    p = put_varint(p, count);
    buckets++;
    previous = index;
  });
  store_le32(count_at, buckets);
  return p;
}

}  // namespace

size_t stored_size(const View& v) {
  SumWords sum;
  load_sum(v, sum);
  return kSumWordsOffset + 8 * size_t{trim_sum(sum).len} + stored_store_size(v.positive) +
         stored_store_size(v.negative);
}

void write_stored(const View& v, uint8_t* dst) {
  write_ddsketch_header(dst, v.scale, Encoding::kStored);
  store_le32(dst + kMaxBucketsOffset, v.max_buckets);
  dst[kFlagsOffset] = static_cast<uint8_t>((v.positive.collapsed ? kFlagPositiveCollapsed : 0) |
                                           (v.negative.collapsed ? kFlagNegativeCollapsed : 0));
  dst[kReservedOffset] = dst[kReservedOffset + 1] = dst[kReservedOffset + 2] = 0;
  std::memcpy(dst + kCountOffset, v.data + kCountOffset, kSumOffset - kCountOffset);
  SumWords sum;
  load_sum(v, sum);
  uint8_t* p = put_stored_sum(dst + kSumOffset, sum);
  p = put_stored_store(p, v.positive);
  put_stored_store(p, v.negative);
}

// --- working copies ----------------------------------------------------------------

namespace detail {

void write_working_with(const View& v, const Extent& pos, const Extent& neg,
                        uint32_t positive_capacity, uint32_t negative_capacity, uint8_t* dst) {
  write_ddsketch_header(dst, v.scale, Encoding::kWorking);
  store_le32(dst + kMaxBucketsOffset, v.max_buckets);
  dst[kReservedOffset] = dst[kReservedOffset + 1] = dst[kReservedOffset + 2] = 0;
  std::memcpy(dst + kCountOffset, v.data + kCountOffset, kSumOffset - kCountOffset);
  SumWords sum;
  load_sum(v, sum);
  put_working_sum(dst + kSumOffset, sum);
  uint8_t* pw = dst + kWorkingStoresOffset;
  uint8_t* nw = put_window(pw, pos, positive_capacity);
  put_window(nw, neg, negative_capacity);
  const bool pos_collapsed = add_store_into(pw, v.positive, 0, pos) || v.positive.collapsed;
  const bool neg_collapsed = add_store_into(nw, v.negative, 0, neg) || v.negative.collapsed;
  dst[kFlagsOffset] = static_cast<uint8_t>((pos_collapsed ? kFlagPositiveCollapsed : 0) |
                                           (neg_collapsed ? kFlagNegativeCollapsed : 0));
}

Extent extent_of(const Store& s, uint32_t max_buckets) {
  ExtentBuilder b;
  b.include_store(s, 0);
  return b.finish(max_buckets);
}

}  // namespace detail

size_t working_size(const View& v) {
  return working_bytes(capacity_for(extent_of(v.positive, v.max_buckets), true, v.max_buckets),
                       capacity_for(extent_of(v.negative, v.max_buckets), false, v.max_buckets));
}

void write_working(const View& v, uint8_t* dst) {
  const Extent pos = extent_of(v.positive, v.max_buckets);
  const Extent neg = extent_of(v.negative, v.max_buckets);
  write_working_with(v, pos, neg, capacity_for(pos, true, v.max_buckets),
                     capacity_for(neg, false, v.max_buckets), dst);
}

}  // namespace sketch::ddsketch
