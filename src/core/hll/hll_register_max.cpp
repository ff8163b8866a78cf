// Register-wise max over packed 6-bit registers: scalar, SSE2 and AVX2
// paths of one SWAR step (see hll_register_max.h).
#include "core/hll/hll_register_max.h"

#include <cstring>

#include "core/common/bytes.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sketch::hll::detail {

namespace {

// A 64-bit lane holds 8 registers (6 bytes) in its low 48 bits. kEven masks
// registers 0, 2, 4, 6 (bits 0, 12, 24, 36); shifting the lane right by 6
// brings the odd ones to the same places. Each value then has 6 free bits
// above it, and kGuard sets the lowest of them.
constexpr uint64_t kEven = 0x3Full | 0x3Full << 12 | 0x3Full << 24 | 0x3Full << 36;
constexpr uint64_t kGuard = 0x40ull | 0x40ull << 12 | 0x40ull << 24 | 0x40ull << 36;

// For values a and b in the kEven slots: (a + 64) - b keeps its guard bit
// exactly when a >= b, and never borrows from the next slot (a + 64 - b >= 1).
// ge - (ge >> 6) turns each surviving guard bit into a 6-bit mask.
inline uint64_t select_max(uint64_t a, uint64_t b) {
  const uint64_t ge = ((a | kGuard) - b) & kGuard;
  const uint64_t take_a = ge - (ge >> 6);
  return b ^ ((a ^ b) & take_a);
}

inline uint64_t max8(uint64_t x, uint64_t y) {
  return select_max(x & kEven, y & kEven) |
         select_max((x >> 6) & kEven, (y >> 6) & kEven) << 6;
}

inline uint64_t load48(const uint8_t* p) {
  return uint64_t{load_le32(p)} | uint64_t{p[4]} << 32 | uint64_t{p[5]} << 40;
}

inline void store48(uint8_t* p, uint64_t v) {
  store_le32(p, static_cast<uint32_t>(v));
  p[4] = static_cast<uint8_t>(v >> 32);
  p[5] = static_cast<uint8_t>(v >> 40);
}

// From byte `i` (a multiple of 3) to byte n: two groups per step, and a last
// odd group through the same step with zero registers above it.
void max_scalar_from(uint8_t* dst, const uint8_t* src, size_t i, size_t n) {
  for (; i + 6 <= n; i += 6) store48(dst + i, max8(load48(dst + i), load48(src + i)));
  if (i < n) {
    const auto load24 = [](const uint8_t* p) {
      return uint64_t{p[0]} | uint64_t{p[1]} << 8 | uint64_t{p[2]} << 16;
    };
    const uint64_t r = max8(load24(dst + i), load24(src + i));
    dst[i] = static_cast<uint8_t>(r);
    dst[i + 1] = static_cast<uint8_t>(r >> 8);
    dst[i + 2] = static_cast<uint8_t>(r >> 16);
  }
}

#if defined(__x86_64__)

// SSE2 is part of x86-64 itself: no dispatch needed. Two lanes of 6 bytes,
// 12 bytes per step; each step reads 14 bytes (two 8-byte loads at +0 and
// +6, the top 2 bytes of each masked off), so it runs while 14 remain.
inline __m128i select_max_128(__m128i a, __m128i b) {
  const __m128i guard = _mm_set1_epi64x(static_cast<long long>(kGuard));
  const __m128i ge = _mm_and_si128(_mm_sub_epi64(_mm_or_si128(a, guard), b), guard);
  const __m128i take_a = _mm_sub_epi64(ge, _mm_srli_epi64(ge, 6));
  return _mm_xor_si128(b, _mm_and_si128(_mm_xor_si128(a, b), take_a));
}

inline __m128i max16_128(__m128i x, __m128i y) {
  const __m128i even = _mm_set1_epi64x(static_cast<long long>(kEven));
  const __m128i lo = select_max_128(_mm_and_si128(x, even), _mm_and_si128(y, even));
  const __m128i hi = select_max_128(_mm_and_si128(_mm_srli_epi64(x, 6), even),
                                    _mm_and_si128(_mm_srli_epi64(y, 6), even));
  return _mm_or_si128(lo, _mm_slli_epi64(hi, 6));
}

inline __m128i load_two_chunks(const uint8_t* p) {
  const __m128i mask48 = _mm_set1_epi64x(0xFFFFFFFFFFFFll);
  const __m128i v = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)),
                                       _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + 6)));
  return _mm_and_si128(v, mask48);
}

size_t max_sse2_to(uint8_t* dst, const uint8_t* src, size_t i, size_t n) {
  for (; i + 14 <= n; i += 12) {
    const __m128i r = max16_128(load_two_chunks(dst + i), load_two_chunks(src + i));
    // Lane 1's 6 bytes move down next to lane 0's: bytes 0..11 of out.
    const __m128i out = _mm_or_si128(
        _mm_move_epi64(r), _mm_srli_si128(_mm_unpackhi_epi64(_mm_setzero_si128(), r), 2));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(dst + i), out);
    const uint32_t tail = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(out, 8)));
    std::memcpy(dst + i + 8, &tail, 4);
  }
  return i;
}

// AVX2: four lanes, 24 bytes per step. Two 16-byte loads at +0 and +12 fill
// the two 128-bit halves; one in-half byte shuffle spreads each half's 12
// bytes into two 6-byte lanes. Each step reads 28 bytes.
__attribute__((target("avx2"))) inline __m256i load_four_chunks(const uint8_t* p) {
  const __m256i spread = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, -1, -1, 6, 7, 8, 9, 10, 11, -1, -1,
                                          0, 1, 2, 3, 4, 5, -1, -1, 6, 7, 8, 9, 10, 11, -1, -1);
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 12));
  return _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), spread);
}

__attribute__((target("avx2"))) inline __m256i select_max_256(__m256i a, __m256i b) {
  const __m256i guard = _mm256_set1_epi64x(static_cast<long long>(kGuard));
  const __m256i ge = _mm256_and_si256(_mm256_sub_epi64(_mm256_or_si256(a, guard), b), guard);
  const __m256i take_a = _mm256_sub_epi64(ge, _mm256_srli_epi64(ge, 6));
  return _mm256_xor_si256(b, _mm256_and_si256(_mm256_xor_si256(a, b), take_a));
}

__attribute__((target("avx2"))) size_t max_avx2_to(uint8_t* dst, const uint8_t* src, size_t i,
                                                   size_t n) {
  const __m256i even = _mm256_set1_epi64x(static_cast<long long>(kEven));
  // Back from lanes to packed bytes: each half's 12 bytes to its dwords
  // 0..2, then the two halves' dwords side by side: 24 bytes in a row.
  const __m256i gather = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1,
                                          0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1);
  const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  for (; i + 28 <= n; i += 24) {
    const __m256i x = load_four_chunks(dst + i);
    const __m256i y = load_four_chunks(src + i);
    const __m256i lo = select_max_256(_mm256_and_si256(x, even), _mm256_and_si256(y, even));
    const __m256i hi = select_max_256(_mm256_and_si256(_mm256_srli_epi64(x, 6), even),
                                      _mm256_and_si256(_mm256_srli_epi64(y, 6), even));
    const __m256i r = _mm256_or_si256(lo, _mm256_slli_epi64(hi, 6));
    const __m256i out = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(r, gather), join);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm256_castsi256_si128(out));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(dst + i + 16), _mm256_extracti128_si256(out, 1));
  }
  return i;
}

bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

#endif  // __x86_64__

MaxPath detect_best_path() {
#if defined(__x86_64__)
  return cpu_has_avx2() ? MaxPath::kAvx2 : MaxPath::kSse2;
#else
  return MaxPath::kScalar;
#endif
}

}  // namespace

const char* max_path_name(MaxPath path) {
  switch (path) {
    case MaxPath::kScalar: return "scalar";
    case MaxPath::kSse2: return "sse2";
    case MaxPath::kAvx2: return "avx2";
  }
  return "unknown";
}

bool max_path_available(MaxPath path) {
  switch (path) {
    case MaxPath::kScalar: return true;
#if defined(__x86_64__)
    case MaxPath::kSse2: return true;
    case MaxPath::kAvx2: return cpu_has_avx2();
#else
    default: return false;
#endif
  }
  return false;
}

MaxPath best_max_path() {
  static const MaxPath path = detect_best_path();
  return path;
}

void max_packed_registers_with(MaxPath path, uint8_t* dst, const uint8_t* src, size_t groups) {
  const size_t n = 3 * groups;
  size_t i = 0;
#if defined(__x86_64__)
  // Each wider path leaves the bytes it cannot read safely (its step reads
  // a few bytes past the ones it writes) to the next narrower one.
  if (path == MaxPath::kAvx2) i = max_avx2_to(dst, src, i, n);
  if (path != MaxPath::kScalar) i = max_sse2_to(dst, src, i, n);
#else
  (void)path;
#endif
  max_scalar_from(dst, src, i, n);
}

void max_packed_registers(uint8_t* dst, const uint8_t* src, size_t groups) {
  max_packed_registers_with(best_max_path(), dst, src, groups);
}

}  // namespace sketch::hll::detail
