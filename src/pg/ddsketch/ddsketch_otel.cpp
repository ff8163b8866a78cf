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
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"
#include "pg/ddsketch/ddsketch_datum.h"

extern "C" {
#include "common/int.h"  // pg_add_s64_overflow (not included by jsonb.h from 18 on)
#include "miscadmin.h"
#include "utils/jsonb.h"

PG_FUNCTION_INFO_V1(ddsketch_from_otel);
PG_FUNCTION_INFO_V1(ddsketch_from_prometheus);
PG_FUNCTION_INFO_V1(ddsketch_to_otel);
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

Datum build(FunctionCallInfo fcinfo, const ddsketch::ExpHistogram& h) {
  const int32 max_scale = PG_GETARG_INT32(1);
  const int32 max_buckets = PG_GETARG_INT32(2);
  ddsketch::ExpPlan plan;
  check(ddsketch::plan_from_exponential(h, max_scale, max_buckets, &plan));
  struct varlena* out = new_sketch(plan.size);
  ddsketch::write_from_exponential(h, plan, payload(out));
  // Our own output: the strict parse must accept it (a bug otherwise).
  ddsketch::View v;
  const Status st = ddsketch::parse(payload(out), plan.size, Validation::kCanonical, &v);
  if (!st.is_ok())
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                    errmsg("ddsketch from a histogram: the result is invalid: %s", st.message())));
  PG_RETURN_POINTER(out);
}

}  // namespace

// ddsketch_from_otel(data_point jsonb, max_scale int, max_buckets int)
extern "C" Datum ddsketch_from_otel(PG_FUNCTION_ARGS) {
  const Reader r{"ddsketch_from_otel"};
  JsonbContainer* point = object_arg(fcinfo, r);
  ddsketch::ExpHistogram h;
  JsonbValue buf;
  JsonbValue* scale = field(point, "scale", nullptr, &buf);
  if (scale == nullptr) malformed(r, "scale", "is missing");
  h.scale = static_cast<int>(to_int64(r, "scale", scale, INT32_MIN, INT32_MAX));
  get_uint64(r, point, "zeroCount", "zero_count", &h.zero_count);
  get_double(r, point, "zeroThreshold", "zero_threshold", &h.zero_threshold);
  h.has_count = get_uint64(r, point, "count", nullptr, &h.count);
  h.has_sum = get_double(r, point, "sum", nullptr, &h.sum);
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
  ddsketch::ExpHistogram h;
  JsonbValue buf;
  JsonbValue* schema = field(hist, "schema", nullptr, &buf);
  if (schema == nullptr) malformed(r, "schema", "is missing");
  h.scale = static_cast<int>(to_int64(r, "schema", schema, INT32_MIN, INT32_MAX));
  get_uint64(r, hist, "zeroCount", "zero_count", &h.zero_count);
  get_double(r, hist, "zeroThreshold", "zero_threshold", &h.zero_threshold);
  h.has_count = get_uint64(r, hist, "count", nullptr, &h.count);
  h.has_sum = get_double(r, hist, "sum", nullptr, &h.sum);
  h.positive = prometheus_store(r, hist, "positiveSpans", "positive_spans", "positiveDeltas",
                                "positive_deltas");
  h.negative = prometheus_store(r, hist, "negativeSpans", "negative_spans", "negativeDeltas",
                                "negative_deltas");
  return build(fcinfo, h);
}

// --- ddsketch_to_otel ----------------------------------------------------------

namespace {

void push_key(JsonbParseState** st, const char* name) {
  JsonbValue k;
  k.type = jbvString;
  k.val.string.val = const_cast<char*>(name);
  k.val.string.len = static_cast<int>(strlen(name));
  pushJsonbValue(st, WJB_KEY, &k);
}

JsonbValue numeric_of(const char* text) {
  JsonbValue v;
  v.type = jbvNumeric;
  v.val.numeric = DatumGetNumeric(DirectFunctionCall3(
      numeric_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
  return v;
}

JsonbValue string_of(const char* text) {
  JsonbValue v;
  v.type = jbvString;
  v.val.string.val = const_cast<char*>(text);
  v.val.string.len = static_cast<int>(strlen(text));
  return v;
}

// The shortest decimal that reads back as the same double.
const char* shortest(double d) {
  char* buf = static_cast<char*>(palloc(40));
  for (int n = 1; n <= 17; n++) {
    snprintf(buf, 40, "%.*g", n, d);
    if (strtod(buf, nullptr) == d) break;
  }
  return buf;
}

void push_number(JsonbParseState** st, const char* key, double d) {
  push_key(st, key);
  JsonbValue v = numeric_of(shortest(d));
  pushJsonbValue(st, WJB_VALUE, &v);
}

// 64-bit integers as strings, as OTLP JSON writes them.
void push_u64_string(JsonbParseState** st, JsonbIteratorToken token, const char* key, uint64 n) {
  if (key != nullptr) push_key(st, key);
  JsonbValue v = string_of(psprintf("%llu", static_cast<unsigned long long>(n)));
  pushJsonbValue(st, token, &v);
}

void push_store(JsonbParseState** st, const char* key, const ddsketch::Store& s) {
  push_key(st, key);
  pushJsonbValue(st, WJB_BEGIN_OBJECT, nullptr);
  push_key(st, "offset");
  JsonbValue off = numeric_of(psprintf("%lld", static_cast<long long>(
                                                   ddsketch::otel_index(s.min_index))));
  pushJsonbValue(st, WJB_VALUE, &off);
  push_key(st, "bucketCounts");
  pushJsonbValue(st, WJB_BEGIN_ARRAY, nullptr);
  int64 next = s.min_index;
  JsonbParseState** state = st;
  ddsketch::for_each_bucket(s, [&](int32_t index, uint64_t count) {
    for (; next < index; next++) push_u64_string(state, WJB_ELEM, nullptr, 0);
    push_u64_string(state, WJB_ELEM, nullptr, count);
    next = int64{index} + 1;
  });
  pushJsonbValue(st, WJB_END_ARRAY, nullptr);
  pushJsonbValue(st, WJB_END_OBJECT, nullptr);
}

}  // namespace

// ddsketch_to_otel(sketch) -> jsonb: an OTLP JSON exponential-histogram
// data point (without timestamps or attributes) at the sketch's scale.
extern "C" Datum ddsketch_to_otel(PG_FUNCTION_ARGS) {
  const ddsketch::View v = ddsketch_arg(fcinfo, 0);
  JsonbParseState* st = nullptr;
  pushJsonbValue(&st, WJB_BEGIN_OBJECT, nullptr);
  push_key(&st, "scale");
  JsonbValue scale = numeric_of(psprintf("%d", v.scale));
  pushJsonbValue(&st, WJB_VALUE, &scale);
  push_u64_string(&st, WJB_VALUE, "count", v.count);
  push_u64_string(&st, WJB_VALUE, "zeroCount", v.zero_count);
  push_number(&st, "zeroThreshold", 0);
  if (v.count > 0) {
    // A sum beyond the double range (possible only past 1e308) is left
    // out: OTLP's sum is optional.
    const double sum = ddsketch::sum(v);
    if (std::isfinite(sum)) push_number(&st, "sum", sum);
    push_number(&st, "min", v.min);
    push_number(&st, "max", v.max);
  }
  if (v.positive.buckets > 0) push_store(&st, "positive", v.positive);
  if (v.negative.buckets > 0) push_store(&st, "negative", v.negative);
  JsonbValue* object = pushJsonbValue(&st, WJB_END_OBJECT, nullptr);
  PG_RETURN_JSONB_P(JsonbValueToJsonb(object));
}
