// ddsketch from and to DataDog's DDSketch protobuf (the sketches-go, -java,
// -py and -js message), the bytea around core/ddsketch/ddsketch_proto.h
// (docs/ddsketch_otel.md, "DataDog's DDSketch protobuf").
//
// Malformed bytes are ERROR 22P03 naming the field; LINEAR, QUADRATIC and
// CUBIC mappings 0A000; an index_rule other than 'ceil' or 'floor' and
// max_scale, max_buckets out of range 22023; bins beyond the doubles'
// range and counts above 2^53 on export 22003.
#include <cstring>

#include "core/ddsketch/ddsketch_proto.h"
#include "pg/common/report.h"
#include "pg/ddsketch/ddsketch_datum.h"
#include "pg/ddsketch/ddsketch_histogram.h"

extern "C" {
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(ddsketch_from_ddsketch_proto);
PG_FUNCTION_INFO_V1(ddsketch_to_ddsketch_proto);
}

using namespace sketch;
using namespace sketch::pg;

namespace {

// Which bin a key denotes: 'ceil' (sketches-py, sketches-js: key k holds
// (gamma^(k-1), gamma^k]) or 'floor' (sketches-go, sketches-java: [gamma^k,
// gamma^(k+1))), offsets aside.
ddsketch::ProtoIndexRule index_rule_arg(FunctionCallInfo fcinfo, int n) {
  const char* rule = text_to_cstring(PG_GETARG_TEXT_PP(n));
  if (strcmp(rule, "ceil") == 0) return ddsketch::ProtoIndexRule::kCeil;
  if (strcmp(rule, "floor") == 0) return ddsketch::ProtoIndexRule::kFloor;
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("ddsketch_from_ddsketch_proto: index_rule must be 'ceil' (sketches-py, "
                         "sketches-js) or 'floor' (sketches-go, sketches-java), got \"%s\"",
                         rule)));
  pg_unreachable();
}

}  // namespace

// ddsketch_from_ddsketch_proto(proto bytea, index_rule text, max_scale int,
// max_buckets int)
extern "C" Datum ddsketch_from_ddsketch_proto(PG_FUNCTION_ARGS) {
  bytea* proto = PG_GETARG_BYTEA_PP(0);
  const ddsketch::ProtoIndexRule rule = index_rule_arg(fcinfo, 1);
  const int32 max_scale = PG_GETARG_INT32(2);
  const int32 max_buckets = PG_GETARG_INT32(3);
  const auto* data = reinterpret_cast<const uint8_t*>(VARDATA_ANY(proto));
  const size_t size = VARSIZE_ANY_EXHDR(proto);
  ddsketch::ProtoSummary summary;
  check(ddsketch::read_proto(data, size, &summary));
  ddsketch::ProtoTarget target;
  check(ddsketch::plan_proto(summary, rule, max_scale, &target));
  auto* positive = static_cast<ddsketch::ExpBucket*>(
      palloc_extended(sizeof(ddsketch::ExpBucket) * (summary.bins[0] + 1), MCXT_ALLOC_HUGE));
  auto* negative = static_cast<ddsketch::ExpBucket*>(
      palloc_extended(sizeof(ddsketch::ExpBucket) * (summary.bins[1] + 1), MCXT_ALLOC_HUGE));
  ddsketch::ExpHistogram h;
  check(ddsketch::proto_histogram(data, size, summary, target, positive, negative, &h));
  PG_RETURN_POINTER(ddsketch_from_histogram(h, max_scale, max_buckets));
}

// ddsketch_to_ddsketch_proto(sketch) -> bytea
extern "C" Datum ddsketch_to_ddsketch_proto(PG_FUNCTION_ARGS) {
  const ddsketch::View v = ddsketch_arg(fcinfo, 0);
  size_t size;
  check(ddsketch::proto_size(v, &size));
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + size));
  SET_VARSIZE(out, VARHDRSZ + size);
  ddsketch::write_proto(v, reinterpret_cast<uint8_t*>(VARDATA(out)));
  PG_RETURN_BYTEA_P(out);
}
