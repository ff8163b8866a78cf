// The input layout of fuzz_states, shared by the target and its seed corpus
// generator (corpus_states.cpp):
//
//   byte 0      family and flags: below 216, family byte % 3 (0 hll, 1 cms,
//               2 bloom) and flags byte / 3; 216 to 223, counting_bloom with
//               flags byte - 216; 224 to 231, cuckoo with flags byte - 224;
//               232 to 239, theta with flags byte - 232; 240 to 247,
//               ddsketch with flags byte - 240; 248 to 255, topk with flags
//               byte - 248. Every family keeps a share: the flags use 3
//               bits, so each family needs 8 values, and the first three
//               keep 72 each (their seeds use byte 0 below 24, so the ranges
//               taken from them for counting_bloom and cuckoo changed no
//               seed's or kept regression's meaning)
//   byte 1      parameters of the empty sketch to start from when the state's
//               bytes are refused and the other sketch does not parse either
//   byte 2      the elements' kind (element_kind.h): 0 adds them without
//               state::accept_kind (as the core tests do), else every state
//               accepts kind 1 + (byte - 1) % 15 before its first element
//               (ignored for ddsketch, whose values are numbers, not hashes)
//   bytes 3-6   length of the state's bytes (uint32 LE, clamped to what is left)
//   bytes 7-10  length of the other sketch's bytes (likewise)
//   then        the state's bytes, the other sketch's bytes, and the rest:
//               the elements to add, one after another
//
// Elements: hll 8 bytes (the 64-bit hash, LE); bloom 16 bytes (the 128-bit
// hash, low half first); ddsketch 8 bytes (the value's IEEE bits, LE; NaN
// and infinities are skipped, as the wrapper refuses them); cms 8 bytes of hash, one byte of count (0: skipped,
// as cms_agg skips a count of 0; 255: kMaxCount; 254: kMaxCount / 2 + 1;
// else itself), two bytes of text length (LE) and the text's bytes, clamped
// to what is left (a length above kMaxValueBytes gives a clipped text; the
// text the value gets ends at its first zero byte, like a type's output).
// topk: the same layout as cms, the count byte being the weight (0: skipped,
// as a weight topk_agg never passes on; 255: kMaxTotal; 254: kMaxTotal / 2
// + 1; else itself) and the text clipped at kMaxItemBytes. theta 8 bytes
// (the 64-bit hash, LE, as hll's). counting_bloom 16 bytes (as bloom's).
// cuckoo 17 bytes: an operation byte (op % 4: 0 and 1 add_new, the set
// semantics of cuckoo_agg and cuckoo_add_new; 2 add, one more copy as
// cuckoo_add; 3 delete, as cuckoo_delete, in the state itself) then the
// 128-bit hash, low half first.
// A trailing partial element is ignored.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace sketch::fuzz::states_input {

using Bytes = std::vector<uint8_t>;

enum Family : uint8_t {
  kHll = 0,
  kCms = 1,
  kBloom = 2,
  kDdsketch = 3,
  kTopk = 4,
  kTheta = 5,
  kCountingBloom = 6,
  kCuckoo = 7
};

// Byte 0 from 216 to 223 selects counting_bloom, from 224 to 231 cuckoo,
// from 232 to 239 theta, from 240 to 247 ddsketch, from 248 on topk; below
// 216 hll, cms and bloom (byte % 3).
constexpr uint8_t kCountingBloomBase = 216;
constexpr uint8_t kCuckooBase = 224;
constexpr uint8_t kThetaBase = 232;
constexpr uint8_t kDdsketchBase = 240;
constexpr uint8_t kTopkBase = 248;

// Flags (byte 0 / 3).
constexpr uint8_t kOtherAsWorking = 1;  // merge a working copy of the other sketch
constexpr uint8_t kSplitElements = 2;   // add every second element to that copy instead
constexpr uint8_t kEmptyWorking = 4;    // bloom, counting_bloom: start an empty state in the
                                        // working encoding (the other families ignore it)

constexpr size_t kHeaderBytes = 11;
constexpr size_t kHllElementBytes = 8;
constexpr size_t kBloomElementBytes = 16;
constexpr size_t kDdsketchElementBytes = 8;
constexpr size_t kCmsElementHeaderBytes = 11;
constexpr size_t kTopkElementHeaderBytes = 11;
constexpr size_t kThetaElementBytes = 8;
constexpr size_t kCountingBloomElementBytes = 16;
constexpr size_t kCuckooElementBytes = 17;

// cuckoo's operation byte (op % 4).
enum CuckooOp : uint8_t { kCuckooAddNew = 0, kCuckooAdd = 2, kCuckooDelete = 3 };

struct Input {
  Family family;
  uint8_t flags;
  uint8_t params;
  uint8_t kind;
  Bytes state;
  Bytes other;
  const uint8_t* elements;
  size_t elements_len;
};

inline uint32_t load32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

inline uint64_t load64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

inline bool decode(const uint8_t* data, size_t size, Input* out) {
  if (size < kHeaderBytes) return false;
  if (data[0] >= kTopkBase) {
    out->family = kTopk;
    out->flags = static_cast<uint8_t>(data[0] - kTopkBase);
  } else if (data[0] >= kDdsketchBase) {
    out->family = kDdsketch;
    out->flags = static_cast<uint8_t>(data[0] - kDdsketchBase);
  } else if (data[0] >= kThetaBase) {
    out->family = kTheta;
    out->flags = static_cast<uint8_t>(data[0] - kThetaBase);
  } else if (data[0] >= kCuckooBase) {
    out->family = kCuckoo;
    out->flags = static_cast<uint8_t>(data[0] - kCuckooBase);
  } else if (data[0] >= kCountingBloomBase) {
    out->family = kCountingBloom;
    out->flags = static_cast<uint8_t>(data[0] - kCountingBloomBase);
  } else {
    out->family = static_cast<Family>(data[0] % 3);
    out->flags = static_cast<uint8_t>(data[0] / 3);
  }
  out->params = data[1];
  out->kind = data[2];
  size_t at = kHeaderBytes;
  const size_t state_len = std::min<size_t>(load32(data + 3), size - at);
  out->state.assign(data + at, data + at + state_len);
  at += state_len;
  const size_t other_len = std::min<size_t>(load32(data + 7), size - at);
  out->other.assign(data + at, data + at + other_len);
  at += other_len;
  out->elements = data + at;
  out->elements_len = size - at;
  return true;
}

// --- writing inputs (the seed corpus) ---------------------------------------

inline void put32(Bytes* out, uint32_t v) {
  for (int i = 0; i < 4; i++) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

inline void put64(Bytes* out, uint64_t v) {
  for (int i = 0; i < 8; i++) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

inline Bytes encode(Family family, uint8_t flags, uint8_t params, uint8_t kind,
                    const Bytes& state, const Bytes& other, const Bytes& elements) {
  Bytes out;
  out.push_back(static_cast<uint8_t>(family == kTopk            ? kTopkBase + flags
                                     : family == kDdsketch      ? kDdsketchBase + flags
                                     : family == kTheta         ? kThetaBase + flags
                                     : family == kCuckoo        ? kCuckooBase + flags
                                     : family == kCountingBloom ? kCountingBloomBase + flags
                                                                : family + 3 * flags));
  out.push_back(params);
  out.push_back(kind);
  put32(&out, static_cast<uint32_t>(state.size()));
  put32(&out, static_cast<uint32_t>(other.size()));
  out.insert(out.end(), state.begin(), state.end());
  out.insert(out.end(), other.begin(), other.end());
  out.insert(out.end(), elements.begin(), elements.end());
  return out;
}

inline void put_hll_element(Bytes* out, uint64_t hash) { put64(out, hash); }

inline void put_theta_element(Bytes* out, uint64_t hash) { put64(out, hash); }

inline void put_ddsketch_element(Bytes* out, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  put64(out, bits);
}

inline void put_bloom_element(Bytes* out, uint64_t low, uint64_t high) {
  put64(out, low);
  put64(out, high);
}

inline void put_counting_bloom_element(Bytes* out, uint64_t low, uint64_t high) {
  put64(out, low);
  put64(out, high);
}

inline void put_cuckoo_element(Bytes* out, CuckooOp op, uint64_t low, uint64_t high) {
  out->push_back(op);
  put64(out, low);
  put64(out, high);
}

inline void put_cms_element(Bytes* out, uint64_t hash, uint8_t count_code,
                            const std::string& text) {
  put64(out, hash);
  out->push_back(count_code);
  out->push_back(static_cast<uint8_t>(text.size()));
  out->push_back(static_cast<uint8_t>(text.size() >> 8));
  out->insert(out->end(), text.begin(), text.end());
}

// topk: hash, weight code (see above), text.
inline void put_topk_element(Bytes* out, uint64_t hash, uint8_t weight_code,
                             const std::string& text) {
  put_cms_element(out, hash, weight_code, text);
}

}  // namespace sketch::fuzz::states_input
