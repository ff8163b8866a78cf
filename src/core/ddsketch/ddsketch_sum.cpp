// The exact sum: a 2176-bit two's complement integer in units of 2^-1074.
//
// Floating-point addition is not associative ((1e308 + 1) - 1e308 is 0, not
// 1), so a sum kept as a double would depend on the order of the rows and on
// how partial aggregates were grouped, and so would the sketch's bytes. Every
// finite double is m * 2^(e - 1074) for an integer mantissa m < 2^53 and a
// shift e in 0..2045 (denormals: e = 0), so adding a double is adding m << e
// to a wide integer: exact, hence associative and commutative, and a union
// over any partition of the rows gives the same words as one pass.
#include <cmath>

#include "core/ddsketch/ddsketch_internal.h"

namespace sketch::ddsketch::detail {

namespace {

constexpr uint64_t kMantissaMask = (uint64_t{1} << 52) - 1;

// A finite double as sign, mantissa and bit position in units of 2^-1074;
// false for zeros (and for non-finite values, which never get here).
struct Decomposed {
  bool negative;
  uint64_t mantissa;  // < 2^53
  int position;       // 0..2045
};

bool decompose(double v, Decomposed* out) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  const int exponent_field = static_cast<int>(bits >> 52 & 0x7ff);
  uint64_t mantissa = bits & kMantissaMask;
  if (exponent_field == 0x7ff) return false;
  if (exponent_field == 0) {
    if (mantissa == 0) return false;
    *out = Decomposed{(bits >> 63) != 0, mantissa, 0};  // denormal: m * 2^-1074
  } else {
    // Normal: (2^52 + m) * 2^(field - 1075) = (2^52 + m) << (field - 1) units.
    *out = Decomposed{(bits >> 63) != 0, mantissa | (uint64_t{1} << 52), exponent_field - 1};
  }
  return true;
}

// Two accessors over the same arithmetic: a native array (unions, answers)
// and little-endian words in a buffer (a working state's sum, every row).
struct NativeWords {
  uint64_t* w;
  uint64_t get(int k) const { return w[k]; }
  void set(int k, uint64_t v) const { w[k] = v; }
};

struct LeWords {
  uint8_t* p;
  uint64_t get(int k) const { return load_le64(p + 8 * k); }
  void set(int k, uint64_t v) const { store_le64(p + 8 * k, v); }
};

// words += (or -=) the up to 192-bit value parts[0..2] shifted left by
// `word` whole words. A carry (borrow) runs on until it stops; past the top
// word it is dropped (mod 2^2176, never reached: see ddsketch_internal.h).
template <class Words>
void add_parts(const Words& words, int word, const uint64_t parts[3], bool subtract) {
  uint64_t carry = 0;
  int k = word;
  for (int i = 0; i < 3 && k < kSumWords; i++, k++) {
    const uint64_t old = words.get(k);
    const uint64_t add = parts[i];
    if (!subtract) {
      const uint64_t s = old + add;
      const uint64_t c1 = s < old;
      const uint64_t t = s + carry;
      const uint64_t c2 = t < s;
      words.set(k, t);
      carry = c1 | c2;
    } else {
      const uint64_t d = old - add;
      const uint64_t b1 = old < add;
      const uint64_t t = d - carry;
      const uint64_t b2 = d < carry;
      words.set(k, t);
      carry = b1 | b2;
    }
  }
  for (; carry != 0 && k < kSumWords; k++) {
    const uint64_t old = words.get(k);
    if (!subtract) {
      words.set(k, old + 1);
      carry = old == UINT64_MAX;
    } else {
      words.set(k, old - 1);
      carry = old == 0;
    }
  }
}

// The 128-bit value (high, low) placed at bit `position`: three words from
// word position / 64 on.
void shifted(uint64_t high, uint64_t low, int position, uint64_t parts[3]) {
  const int bit = position % 64;
  if (bit == 0) {
    parts[0] = low;
    parts[1] = high;
    parts[2] = 0;
  } else {
    parts[0] = low << bit;
    parts[1] = low >> (64 - bit) | high << bit;
    parts[2] = high >> (64 - bit);
  }
}

// a * b as (high, low), without a 128-bit type.
void multiply(uint64_t a, uint64_t b, uint64_t* high, uint64_t* low) {
  const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
  const uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
  const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const uint64_t middle = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  *low = (middle << 32) | (p00 & 0xffffffffu);
  *high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
}

// One double: its mantissa spans two words at most (position <= 2045, so
// word + 1 <= 32), then a carry or borrow runs on while it lasts. The
// per-row path of every aggregate.
template <class Words>
void add_double(const Words& words, double v) {
  Decomposed d;
  if (!decompose(v, &d)) return;
  const int word = d.position / 64, bit = d.position % 64;
  const uint64_t low = d.mantissa << bit;
  const uint64_t high = bit == 0 ? 0 : d.mantissa >> (64 - bit);  // < 2^53
  uint64_t old = words.get(word);
  uint64_t carry;
  if (!d.negative) {
    words.set(word, old + low);
    carry = old + low < old;
    old = words.get(word + 1);
    words.set(word + 1, old + (high + carry));
    carry = old + (high + carry) < old;
    for (int k = word + 2; carry != 0 && k < kSumWords; k++) {
      old = words.get(k);
      words.set(k, old + 1);
      carry = old == UINT64_MAX;
    }
  } else {
    words.set(word, old - low);
    carry = old < low;
    old = words.get(word + 1);
    words.set(word + 1, old - (high + carry));
    carry = old < high + carry;
    for (int k = word + 2; carry != 0 && k < kSumWords; k++) {
      old = words.get(k);
      words.set(k, old - 1);
      carry = old == 0;
    }
  }
}

// Bit `bit` of the (non-negative) integer.
bool bit_at(const uint64_t* w, int bit) { return (w[bit / 64] >> (bit % 64) & 1) != 0; }

// Any bit below `bit`.
bool any_below(const uint64_t* w, int bit) {
  for (int k = 0; k < bit / 64; k++)
    if (w[k] != 0) return true;
  return bit % 64 != 0 && (w[bit / 64] & ((uint64_t{1} << (bit % 64)) - 1)) != 0;
}

// The 53 bits from bit `bit` up.
uint64_t bits_from(const uint64_t* w, int bit) {
  const int k = bit / 64, shift = bit % 64;
  uint64_t v = w[k] >> shift;
  if (shift != 0 && k + 1 < kSumWords) v |= w[k + 1] << (64 - shift);
  return v & ((uint64_t{1} << 53) - 1);
}

// v * times: the 53-bit mantissa times a 64-bit factor is a 117-bit
// product, placed at the value's bit position (<= 2045: bit 2162 at most).
template <class Words>
void add_scaled(const Words& words, double v, uint64_t times) {
  Decomposed d;
  if (times == 0 || !decompose(v, &d)) return;
  uint64_t high, low;
  multiply(d.mantissa, times, &high, &low);  // < 2^117
  uint64_t parts[3];
  shifted(high, low, d.position, parts);
  add_parts(words, d.position / 64, parts, d.negative);
}

}  // namespace

void sum_add_double(SumWords words, double v) { add_double(NativeWords{words}, v); }

void sum_add_double_le(uint8_t* words_le, double v) { add_double(LeWords{words_le}, v); }

void sum_add_scaled(SumWords words, double v, uint64_t times) {
  add_scaled(NativeWords{words}, v, times);
}

void sum_add_scaled_le(uint8_t* words_le, double v, uint64_t times) {
  add_scaled(LeWords{words_le}, v, times);
}

void sum_add(SumWords a, const SumWords b) {
  uint64_t carry = 0;
  for (int k = 0; k < kSumWords; k++) {
    const uint64_t s = a[k] + b[k];
    const uint64_t c1 = s < a[k];
    a[k] = s + carry;
    carry = c1 | (a[k] < s);
  }
}

int sum_compare(const SumWords a, const SumWords b) {
  const auto top_a = static_cast<int64_t>(a[kSumWords - 1]);
  const auto top_b = static_cast<int64_t>(b[kSumWords - 1]);
  if (top_a != top_b) return top_a < top_b ? -1 : 1;
  for (int k = kSumWords - 2; k >= 0; k--)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

// Round to nearest, ties to even, by hand: the magnitude's top 53 bits, the
// bit below them (round) and whether anything below that is set (sticky).
// Below 2^53 units the value is itself a double (a denormal or a small
// normal); above, the result is normal, and ldexp only scales it (or
// overflows to infinity past the double range).
double sum_to_double(const SumWords words) {
  uint64_t m[kSumWords];
  const bool negative = (words[kSumWords - 1] >> 63) != 0;
  uint64_t carry = 1;
  for (int k = 0; k < kSumWords; k++) {
    // Two's complement negation: invert, add one. -2^2175 stays 2^2175 as an
    // unsigned magnitude, which is what it is.
    m[k] = negative ? ~words[k] + carry : words[k];
    if (negative) carry = carry && m[k] == 0;
  }
  int top = kSumWords - 1;
  while (top >= 0 && m[top] == 0) top--;
  if (top < 0) return 0.0;
  const int high_bit = top * 64 + 63 - __builtin_clzll(m[top]);
  double magnitude;
  if (high_bit < 53) {
    magnitude = std::ldexp(static_cast<double>(m[0]), -1074);
  } else {
    int low_bit = high_bit - 52;
    uint64_t mantissa = bits_from(m, low_bit);
    const bool round = bit_at(m, low_bit - 1);
    const bool sticky = any_below(m, low_bit - 1);
    if (round && (sticky || (mantissa & 1) != 0)) {
      mantissa++;
      if (mantissa == uint64_t{1} << 53) {
        mantissa >>= 1;
        low_bit++;
      }
    }
    magnitude = std::ldexp(static_cast<double>(mantissa), low_bit - 1074);
  }
  return negative ? -magnitude : magnitude;
}

void load_sum(const View& v, SumWords out) {
  if (v.encoding == Encoding::kWorking) {
    for (int k = 0; k < kSumWords; k++) out[k] = load_le64(v.data + kSumOffset + 8 * k);
    return;
  }
  for (int k = 0; k < kSumWords; k++) out[k] = 0;
  const uint32_t low = v.data[kSumLowOffset];
  const uint32_t len = v.data[kSumLenOffset];
  // parse() checked low + len <= kSumWords and the length.
  for (uint32_t i = 0; i < len && low + i < kSumWords; i++)
    out[low + i] = load_le64(v.data + kSumWordsOffset + 8 * i);
  if (len > 0 && (out[low + len - 1] >> 63) != 0)
    for (uint32_t k = low + len; k < kSumWords; k++) out[k] = UINT64_MAX;
}

SumTrim trim_sum(const SumWords words) {
  int low = 0;
  while (low < kSumWords && words[low] == 0) low++;
  if (low == kSumWords) return SumTrim{0, 0};
  int high = kSumWords - 1;
  // A word that only repeats the sign of the one below it is implied.
  while (high > low && words[high] == ((words[high - 1] >> 63) != 0 ? UINT64_MAX : 0)) high--;
  return SumTrim{static_cast<uint32_t>(low), static_cast<uint32_t>(high - low + 1)};
}

uint8_t* put_stored_sum(uint8_t* dst, const SumWords words) {
  const SumTrim t = trim_sum(words);
  dst[0] = static_cast<uint8_t>(t.low);
  dst[1] = static_cast<uint8_t>(t.len);
  uint8_t* p = dst + 2;
  for (uint32_t i = 0; i < t.len; i++, p += 8) store_le64(p, words[t.low + i]);
  return p;
}

void put_working_sum(uint8_t* dst_words_le, const SumWords words) {
  for (int k = 0; k < kSumWords; k++) store_le64(dst_words_le + 8 * k, words[k]);
}

}  // namespace sketch::ddsketch::detail
