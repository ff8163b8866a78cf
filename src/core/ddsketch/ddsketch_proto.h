// DataDog's DDSketch protobuf (the message sketches-go, -java, -py and -js
// write: DDSketch { IndexMapping mapping = 1; Store positiveValues = 2;
// Store negativeValues = 3; double zeroCount = 4; }) into a ddsketch, and a
// ddsketch as one (docs/ddsketch_otel.md, "DataDog's DDSketch protobuf").
//
// Which bin a key denotes. The proto gives gamma, an indexOffset o and the
// keys; the libraries read them differently. sketches-py and sketches-js:
// key = ceil(log_gamma(v)) + o, so key k holds (gamma^(k-o-1), gamma^(k-o)]
// (kCeil). sketches-go and sketches-java: index = floor(log_gamma(v) + o),
// so index i holds [gamma^(i-o), gamma^(i-o+1)) (kFloor): the ceil key
// k = i + 1 up to the bound itself. Both put a bin's representative at
// 2 gamma^(k-o) / (1 + gamma), k the ceil key. The proto does not say which
// library wrote it, so the caller does (ddsketch_from_ddsketch_proto's
// index_rule).
//
// Exact import. ddsketch bucket i at scale s holds (gamma_s^(i-1),
// gamma_s^i], gamma_s = 2^(2^-s), the kCeil rule with o = 0. When the
// mapping is logarithmic (interpolation NONE), gamma is gamma_s for some s
// in 0..20 (to 4 units in the last place) and o is an integer, ceil key k
// is bucket k - o at scale s exactly, and the exponential-histogram path
// (ddsketch_exponential.h) folds scales above max_scale exactly. The one
// difference is the bound itself under kFloor: a value v = gamma^j lies in
// the producer's bin [gamma^j, gamma^(j+1)), which becomes bucket j + 1,
// where ddsketch would have put v in bucket j; bucket j + 1's
// representative is v 2 gamma / (1 + gamma), within alpha of v.
//
// Re-bucketing. Any other gamma or a fractional offset: every bin's count
// goes to the bucket, at scale S, that holds the bin's representative. S is
// the coarsest scale with alpha_S <= alpha_f = (gamma - 1) / (gamma + 1), at
// most max_scale. Bins stay in order, so a rank falls in the bucket its bin
// went to, and a quantile is within (1 + alpha_f)(1 + alpha_S) - 1 of the
// true value (ProtoTarget::accuracy): alpha_f from the producer, alpha_S
// from the bucket. LINEAR, QUADRATIC and CUBIC interpolations put bin
// bounds where each library's approximation of log2 puts them; they are
// refused (kUnsupported).
//
// Counts are doubles in the proto: each must be a whole number in
// 0..2^64 - 1 (kInvalidFormat otherwise). A bin in both encodings of a
// store counts twice (the libraries add them); a key given twice in
// binCounts is refused (proto3 would keep the last, no producer writes it).
// Every singular field given twice is refused; unknown fields are skipped.
// Pure functions over caller-owned memory; nothing allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/status.h"
#include "core/ddsketch/ddsketch.h"
#include "core/ddsketch/ddsketch_exponential.h"

namespace sketch::ddsketch {

enum class ProtoIndexRule { kCeil, kFloor };

// What a first pass over the message finds.
struct ProtoSummary {
  double gamma = 0;
  double index_offset = 0;
  uint64_t interpolation = 0;  // 0 NONE, 1 LINEAR, 2 QUADRATIC, 3 CUBIC
  uint64_t zero_count = 0;
  size_t bins[2] = {0, 0};  // non-zero entries per store (positive, negative)
};

// Reads and checks the whole message. kInvalidFormat, naming the field, for
// bytes that are not a DDSketch message, a missing mapping, gamma not a
// finite number above 1, an offset that is not finite, an interpolation
// outside 0..3, a count that is not a whole number in 0..2^64 - 1, a
// duplicated key or singular field.
Status read_proto(const uint8_t* data, size_t size, ProtoSummary* out);

// How the bins become buckets.
struct ProtoTarget {
  ProtoIndexRule rule;
  bool exact;            // the bins are ddsketch buckets at `scale`
  int scale;             // exact: the proto's own (0..20); else S (0..max_scale)
  int64_t key_shift;     // exact: bucket = ceil key - key_shift
  double log2_gamma;     // re-bucketing: representative of ceil key k is
  double offset;         //   2^((k - offset) log2_gamma) * rep_factor
  double rep_factor;     //   (2 / (1 + gamma))
  double accuracy;       // relative error of a quantile: the target's alpha,
                         // or (1 + alpha_f)(1 + alpha_S) - 1
};

// kUnsupported for LINEAR, QUADRATIC and CUBIC; kInvalidParameter for
// max_scale outside 0..12.
Status plan_proto(const ProtoSummary& summary, ProtoIndexRule rule, int max_scale,
                  ProtoTarget* out);

// The proto's buckets as an exponential histogram at target.scale (no
// count, sum, min or max: the proto has none), its stores in `positive`
// and `negative` (room for summary.bins[0] and [1] buckets each), ascending
// and merged. kOverflow for a bin outside the doubles' range or more than
// 2^64 - 1 values in one bucket; kInvalidFormat for a key given twice.
Status proto_histogram(const uint8_t* data, size_t size, const ProtoSummary& summary,
                       const ProtoTarget& target, ExpBucket* positive, ExpBucket* negative,
                       ExpHistogram* out);

// --- ddsketch as a DDSketch protobuf --------------------------------------------

// Bytes of the message for `v`: mapping {gamma = gamma_of(scale), offset 0,
// NONE}, both stores always present (sketches-js requires them) in the
// contiguous form from the lowest to the highest non-empty index, zeroCount
// when not 0. kOverflow for a count above 2^53, which no double holds
// exactly.
Status proto_size(const View& v, size_t* size);

// Writes proto_size's bytes. The keys are ddsketch indices under kCeil:
// ddsketch_from_ddsketch_proto reads them back to the same buckets.
void write_proto(const View& v, uint8_t* dst);

}  // namespace sketch::ddsketch
