// ddsketch from and to exponential histograms: OpenTelemetry's OTLP JSON
// data point and Prometheus' native histogram (spans and deltas), the
// jsonb walking around core/ddsketch/ddsketch_exponential.h
// (docs/ddsketch_otel.md).
//
// Every field is looked up by name (OTLP JSON's lowerCamelCase, or the
// proto's snake_case); unknown fields (attributes, timestamps, exemplars)
// are ignored. A 64-bit integer may be a JSON number or a string holding
// one, as OTLP JSON writes them. Malformed content is ERROR 22P02 naming the
// field; values the sketch cannot take exactly are 22023, indices beyond the
// doubles' range 22003. No C++ object with a destructor lives here, so
// ereport may jump from anywhere.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/ddsketch/ddsketch_exponential.h"
#include "pg/common/json_object.h"
#include "pg/common/report.h"
#include "pg/ddsketch/ddsketch_datum.h"
#include "pg/ddsketch/ddsketch_histogram.h"

extern "C" {
#include "common/int.h"  // pg_add_s64_overflow (not included by jsonb.h from 18 on)
#include "miscadmin.h"
#include "utils/jsonb.h"

PG_FUNCTION_INFO_V1(ddsketch_from_otel);
PG_FUNCTION_INFO_V1(ddsketch_from_prometheus);
PG_FUNCTION_INFO_V1(ddsketch_to_otel);
PG_FUNCTION_INFO_V1(ddsketch_to_prometheus);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// Far more buckets than any histogram a sketch can hold (65536 buckets at
// scale 12 are 2^24 at scale 20), and few enough to allocate.
constexpr int kMaxInputBuckets = 1 << 24;

struct Reader {
  const char* function;  // for messages
};

SKETCH_NORETURN void malformed(const Reader& r, const char* field, const char* what) {
  ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                  errmsg("%s: \"%s\" %s", r.function, field, what)));
  pg_unreachable();
}

// The first of two names (camelCase, snake_case) present in the object.
JsonbValue* field(JsonbContainer* object, const char* name, const char* alternative,
                  JsonbValue* out) {
  JsonbValue* v = getKeyJsonValueFromContainer(object, name, static_cast<int>(strlen(name)), out);
  if (v == nullptr && alternative != nullptr)
    v = getKeyJsonValueFromContainer(object, alternative, static_cast<int>(strlen(alternative)),
                                     out);
  if (v != nullptr && v->type == jbvNull) return nullptr;  // null: absent
  return v;
}

// The text of a scalar number or string (NUL-terminated, palloc'd).
char* scalar_text(const Reader& r, const char* name, const JsonbValue* v) {
  if (v->type == jbvNumeric)
    return DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
  if (v->type == jbvString) return pnstrdup(v->val.string.val, v->val.string.len);
  malformed(r, name, "is not a number or a string holding one");
}

// An integer (optionally written with a zero fraction, "3.0").
int64 to_int64(const Reader& r, const char* name, const JsonbValue* v, int64 lo, int64 hi) {
  char* text = scalar_text(r, name, v);
  char* end;
  errno = 0;
  const long long n = strtoll(text, &end, 10);
  if (end == text) malformed(r, name, "is not an integer");
  if (*end == '.') {
    end++;
    while (*end == '0') end++;
  }
  if (*end != '\0') malformed(r, name, "is not an integer");
  if (errno == ERANGE || n < lo || n > hi)
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("%s: \"%s\" %s is outside %lld..%lld", r.function, name, text,
                           static_cast<long long>(lo), static_cast<long long>(hi))));
  return n;
}

uint64 to_uint64(const Reader& r, const char* name, const JsonbValue* v) {
  char* text = scalar_text(r, name, v);
  const char* p = text;
  if (*p < '0' || *p > '9') malformed(r, name, "is not an unsigned integer");
  char* end;
  errno = 0;
  const unsigned long long n = strtoull(p, &end, 10);
  if (*end == '.') {
    end++;
    while (*end == '0') end++;
  }
  if (*end != '\0') malformed(r, name, "is not an unsigned integer");
  if (errno == ERANGE)
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("%s: \"%s\" %s is above 2^64 - 1", r.function, name, text)));
  return n;
}

// A double: a JSON number, or a string ("NaN", "Infinity" as OTLP JSON
// writes non-finite doubles; the core refuses those with 22023).
double to_double(const Reader& r, const char* name, const JsonbValue* v) {
  char* text = scalar_text(r, name, v);
  char* end;
  errno = 0;
  const double d = strtod(text, &end);
  if (end == text || *end != '\0') malformed(r, name, "is not a number");
  return d;
}

bool get_uint64(const Reader& r, JsonbContainer* o, const char* name, const char* alt,
                uint64* out) {
  JsonbValue buf;
  JsonbValue* v = field(o, name, alt, &buf);
  if (v == nullptr) return false;
  *out = to_uint64(r, name, v);
  return true;
}

bool get_double(const Reader& r, JsonbContainer* o, const char* name, const char* alt,
                double* out) {
  JsonbValue buf;
  JsonbValue* v = field(o, name, alt, &buf);
  if (v == nullptr) return false;
  *out = to_double(r, name, v);
  return true;
}

JsonbContainer* container_of(const Reader& r, const char* name, JsonbValue* v, bool array) {
  if (v->type != jbvBinary || (array ? !JsonContainerIsArray(v->val.binary.data)
                                     : !JsonContainerIsObject(v->val.binary.data)))
    malformed(r, name, array ? "is not an array" : "is not an object");
  return v->val.binary.data;
}

JsonbContainer* object_arg(FunctionCallInfo fcinfo, const Reader& r) {
  Jsonb* j = PG_GETARG_JSONB_P(0);
  if (JB_ROOT_IS_SCALAR(j) || !JB_ROOT_IS_OBJECT(j))
    ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                    errmsg("%s: the histogram is not a JSON object", r.function)));
  return &j->root;
}

int array_size(const Reader& r, const char* name, JsonbContainer* a) {
  const int n = static_cast<int>(JsonContainerSize(a));
  if (n > kMaxInputBuckets)
    ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                    errmsg("%s: \"%s\" has %d elements, more than %d", r.function, name, n,
                           kMaxInputBuckets)));
  return n;
}

// OTLP's {offset, bucketCounts}: bucket k is OTel index offset + k, which
// is ddsketch index offset + k + 1.
ddsketch::ExpStore otel_store(const Reader& r, JsonbContainer* point, const char* name) {
  JsonbValue buf;
  JsonbValue* v = field(point, name, nullptr, &buf);
  if (v == nullptr) return {nullptr, 0};
  JsonbContainer* o = container_of(r, name, v, false);
  JsonbValue obuf;
  JsonbValue* off = field(o, "offset", nullptr, &obuf);
  const int64 offset = off == nullptr ? 0 : to_int64(r, "offset", off, INT32_MIN, INT32_MAX);
  JsonbValue cbuf;
  JsonbValue* counts = field(o, "bucketCounts", "bucket_counts", &cbuf);
  if (counts == nullptr) return {nullptr, 0};
  JsonbContainer* a = container_of(r, "bucketCounts", counts, true);
  const int n = array_size(r, "bucketCounts", a);
  auto* buckets = static_cast<ddsketch::ExpBucket*>(palloc(sizeof(ddsketch::ExpBucket) * (n + 1)));
  for (int k = 0; k < n; k++) {
    if ((k & 0xffff) == 0) CHECK_FOR_INTERRUPTS();
    JsonbValue* e = getIthJsonbValueFromContainer(a, k);
    buckets[k].index = offset + k + 1;
    buckets[k].count = to_uint64(r, "bucketCounts", e);
  }
  return {buckets, static_cast<size_t>(n)};
}

// Prometheus' spans and deltas: a span is {offset, length} or [offset,
// length]; the first offset is the index of its first bucket, each later
// one the number of empty buckets after the previous span; the deltas are
// the counts, the first absolute, each later one the difference to the
// previous bucket's.
ddsketch::ExpStore prometheus_store(const Reader& r, JsonbContainer* h, const char* spans_name,
                                    const char* spans_alt, const char* deltas_name,
                                    const char* deltas_alt) {
  JsonbValue sbuf, dbuf;
  JsonbValue* sv = field(h, spans_name, spans_alt, &sbuf);
  JsonbValue* dv = field(h, deltas_name, deltas_alt, &dbuf);
  if (sv == nullptr && dv == nullptr) return {nullptr, 0};
  if (sv == nullptr) malformed(r, spans_name, "is missing but its deltas are given");
  if (dv == nullptr) malformed(r, deltas_name, "is missing but its spans are given");
  JsonbContainer* spans = container_of(r, spans_name, sv, true);
  JsonbContainer* deltas = container_of(r, deltas_name, dv, true);
  const int ns = array_size(r, spans_name, spans);
  const int nd = array_size(r, deltas_name, deltas);
  auto* buckets = static_cast<ddsketch::ExpBucket*>(palloc(sizeof(ddsketch::ExpBucket) * (nd + 1)));
  int64 index = 0;
  int used = 0;
  int64 count = 0;
  for (int s = 0; s < ns; s++) {
    JsonbValue* span = getIthJsonbValueFromContainer(spans, s);
    JsonbValue* offset_v;
    JsonbValue* length_v;
    JsonbValue obuf, lbuf;
    if (span->type == jbvBinary && JsonContainerIsArray(span->val.binary.data)) {
      JsonbContainer* pair = span->val.binary.data;
      if (JsonContainerSize(pair) != 2) malformed(r, spans_name, "has a span that is not [offset, length]");
      offset_v = getIthJsonbValueFromContainer(pair, 0);
      length_v = getIthJsonbValueFromContainer(pair, 1);
    } else if (span->type == jbvBinary && JsonContainerIsObject(span->val.binary.data)) {
      offset_v = field(span->val.binary.data, "offset", nullptr, &obuf);
      length_v = field(span->val.binary.data, "length", nullptr, &lbuf);
      if (offset_v == nullptr || length_v == nullptr)
        malformed(r, spans_name, "has a span without offset or length");
    } else {
      malformed(r, spans_name, "has a span that is neither an object nor an array");
    }
    const int64 offset = to_int64(r, "offset", offset_v, INT32_MIN, INT32_MAX);
    const int64 length = to_int64(r, "length", length_v, 0, UINT32_MAX);
    if (s > 0 && offset < 0) malformed(r, spans_name, "has a later span with a negative offset");
    index += offset;
    if (index > (int64{1} << 40) || index < -(int64{1} << 40))
      ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                      errmsg("%s: bucket index %lld is out of range", r.function,
                             static_cast<long long>(index))));
    for (int64 k = 0; k < length; k++, index++) {
      if (used == nd) malformed(r, deltas_name, "has fewer deltas than the spans' lengths add up to");
      if ((used & 0xffff) == 0) CHECK_FOR_INTERRUPTS();
      JsonbValue* d = getIthJsonbValueFromContainer(deltas, used);
      const int64 delta = to_int64(r, deltas_name, d, PG_INT64_MIN, PG_INT64_MAX);
      if (pg_add_s64_overflow(count, delta, &count) || count < 0)
        malformed(r, deltas_name, "gives a bucket a negative count");
      buckets[used].index = index;
      buckets[used].count = static_cast<uint64>(count);
      used++;
    }
  }
  if (used != nd) malformed(r, deltas_name, "has more deltas than the spans' lengths add up to");
  return {buckets, static_cast<size_t>(used)};
}

// The fields both forms have, read in this order: the scale (OTLP's
// "scale", Prometheus' "schema": `scale_name`, required), the zero count and
// threshold, count and sum.
ddsketch::ExpHistogram shared_fields(const Reader& r, JsonbContainer* o, const char* scale_name) {
  ddsketch::ExpHistogram h;
  JsonbValue buf;
  JsonbValue* scale = field(o, scale_name, nullptr, &buf);
  if (scale == nullptr) malformed(r, scale_name, "is missing");
  h.scale = static_cast<int>(to_int64(r, scale_name, scale, INT32_MIN, INT32_MAX));
  get_uint64(r, o, "zeroCount", "zero_count", &h.zero_count);
  get_double(r, o, "zeroThreshold", "zero_threshold", &h.zero_threshold);
  h.has_count = get_uint64(r, o, "count", nullptr, &h.count);
  h.has_sum = get_double(r, o, "sum", nullptr, &h.sum);
  return h;
}

Datum build(FunctionCallInfo fcinfo, const ddsketch::ExpHistogram& h) {
  PG_RETURN_POINTER(ddsketch_from_histogram(h, PG_GETARG_INT32(1), PG_GETARG_INT32(2)));
}

}  // namespace

// ddsketch_from_otel(data_point jsonb, max_scale int, max_buckets int)
extern "C" Datum ddsketch_from_otel(PG_FUNCTION_ARGS) {
  const Reader r{"ddsketch_from_otel"};
  JsonbContainer* point = object_arg(fcinfo, r);
  ddsketch::ExpHistogram h = shared_fields(r, point, "scale");
  h.has_min = get_double(r, point, "min", nullptr, &h.min);
  h.has_max = get_double(r, point, "max", nullptr, &h.max);
  h.positive = otel_store(r, point, "positive");
  h.negative = otel_store(r, point, "negative");
  return build(fcinfo, h);
}

// ddsketch_from_prometheus(histogram jsonb, max_scale int, max_buckets int)
extern "C" Datum ddsketch_from_prometheus(PG_FUNCTION_ARGS) {
  const Reader r{"ddsketch_from_prometheus"};
  JsonbContainer* hist = object_arg(fcinfo, r);
  ddsketch::ExpHistogram h = shared_fields(r, hist, "schema");
  h.positive = prometheus_store(r, hist, "positiveSpans", "positive_spans", "positiveDeltas",
                                "positive_deltas");
  h.negative = prometheus_store(r, hist, "negativeSpans", "negative_spans", "negativeDeltas",
                                "negative_deltas");
  return build(fcinfo, h);
}

// --- ddsketch_to_otel ----------------------------------------------------------

namespace {

// 64-bit integers as strings, as OTLP JSON writes them.
const char* u64_text(uint64 n) { return psprintf("%llu", static_cast<unsigned long long>(n)); }

// {"offset": OTel index of the lowest bucket, "bucketCounts": dense counts
// from there to the highest}.
void put_store(JsonObject* json, const char* key, const ddsketch::Store& s) {
  json->begin_object(key);
  json->integer("offset", ddsketch::otel_index(s.min_index));
  json->begin_array("bucketCounts");
  int64 next = s.min_index;
  ddsketch::for_each_bucket(s, [&](int32_t index, uint64_t count) {
    for (; next < index; next++) json->element_string("0");
    json->element_string(u64_text(count));
    next = int64{index} + 1;
  });
  json->end_array();
  json->end_object();
}

}  // namespace

// ddsketch_to_otel(sketch) -> jsonb: an OTLP JSON exponential-histogram
// data point (without timestamps or attributes) at the sketch's scale.
// Numbers as the shortest decimals that read back as the same doubles.
extern "C" Datum ddsketch_to_otel(PG_FUNCTION_ARGS) {
  const ddsketch::View v = ddsketch_arg(fcinfo, 0);
  JsonObject json;
  json.integer("scale", v.scale);
  json.string("count", u64_text(v.count));
  json.string("zeroCount", u64_text(v.zero_count));
  json.number("zeroThreshold", 0, Digits::kShortest);
  if (v.count > 0) {
    // A sum beyond the double range (possible only past 1e308) is left
    // out: OTLP's sum is optional.
    const double sum = ddsketch::sum(v);
    if (std::isfinite(sum)) json.number("sum", sum, Digits::kShortest);
    json.number("min", v.min, Digits::kShortest);
    json.number("max", v.max, Digits::kShortest);
  }
  if (v.positive.buckets > 0) put_store(&json, "positive", v.positive);
  if (v.negative.buckets > 0) put_store(&json, "negative", v.negative);
  return json.finish();
}

// --- ddsketch_to_prometheus ------------------------------------------------------

namespace {

// Prometheus' finest schema; a finer sketch is folded to it (exactly).
constexpr int kPrometheusMaxSchema = 8;

// A store as Prometheus' spans and deltas: one span per run of non-empty
// buckets (the first offset the index of its first bucket, each later one
// the empty buckets since the previous span), the deltas the counts, the
// first absolute, each later one the difference to the previous bucket's
// (across spans), as ddsketch_from_prometheus reads them. Counts beyond
// 2^63 - 1 have no Prometheus delta: 22003.
void put_spans_and_deltas(JsonObject* json, const char* spans_key, const char* deltas_key,
                          const ddsketch::Store& s) {
  ddsketch::for_each_bucket(s, [&](int32_t, uint64_t count) {
    if (count > static_cast<uint64>(PG_INT64_MAX))
      ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                      errmsg("ddsketch_to_prometheus: a bucket count of %llu is beyond the "
                             "int64 deltas of a Prometheus histogram",
                             static_cast<unsigned long long>(count))));
  });
  json->begin_array(spans_key);
  bool first_span = true;
  int64 previous_end = 0;  // one past the last index of the previous span
  int64 run_start = 0, run_length = 0;
  auto close_run = [&] {
    if (run_length == 0) return;
    json->begin_element_array();
    json->element_integer(first_span ? run_start : run_start - previous_end);
    json->element_integer(run_length);
    json->end_array();
    previous_end = run_start + run_length;
    first_span = false;
  };
  ddsketch::for_each_bucket(s, [&](int32_t index, uint64_t) {
    if (run_length > 0 && index == run_start + run_length) {
      run_length++;
      return;
    }
    close_run();
    run_start = index;
    run_length = 1;
  });
  close_run();
  json->end_array();
  json->begin_array(deltas_key);
  int64 last = 0;
  ddsketch::for_each_bucket(s, [&](int32_t, uint64_t count) {
    json->element_integer(static_cast<int64>(count) - last);
    last = static_cast<int64>(count);
  });
  json->end_array();
}

}  // namespace

// ddsketch_to_prometheus(sketch) -> jsonb: a Prometheus native histogram in
// the JSON form ddsketch_from_prometheus reads (schema, zero_threshold 0,
// zero_count, count, sum, positive/negative spans and deltas) at
// min(scale, 8). Prometheus has no min or max: ddsketch_from_prometheus
// reads them back as their buckets' representatives.
extern "C" Datum ddsketch_to_prometheus(PG_FUNCTION_ARGS) {
  ddsketch::View v = ddsketch_arg(fcinfo, 0);
  if (v.scale > kPrometheusMaxSchema) {
    uint8_t* folded = ddsketch_new_state(ddsketch::Params{kPrometheusMaxSchema, v.max_buckets});
    folded = DdsketchStates::merge(folded, v);
    v = ddsketch_view(DdsketchStates::datum_of(folded));
  }
  JsonObject json;
  json.integer("schema", v.scale);
  json.number("zero_threshold", 0, Digits::kShortest);
  json.integer("zero_count", v.zero_count);
  json.integer("count", v.count);
  if (v.count > 0) {
    const double sum = ddsketch::sum(v);
    if (std::isfinite(sum)) json.number("sum", sum, Digits::kShortest);
  }
  if (v.positive.buckets > 0)
    put_spans_and_deltas(&json, "positive_spans", "positive_deltas", v.positive);
  if (v.negative.buckets > 0)
    put_spans_and_deltas(&json, "negative_spans", "negative_deltas", v.negative);
  return json.finish();
}
