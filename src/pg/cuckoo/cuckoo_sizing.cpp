// cuckoo_sizing: how large a cuckoo filter gets, answered before it is built
// (pg/common/sizing.h).
#include "core/cuckoo/cuckoo.h"
#include "pg/common/sizing.h"

extern "C" {
PG_FUNCTION_INFO_V1(cuckoo_sizing);
}

using namespace sketch;
using namespace sketch::pg;

// cuckoo_sizing(n, p, bucket_size) -> (buckets, fingerprint_bits, bytes,
// bits_per_member, fits)
extern "C" Datum cuckoo_sizing(PG_FUNCTION_ARGS) {
  cuckoo::Params params;
  const int64 n = PG_GETARG_INT64(0);
  check_parameter(
      cuckoo::plan_size(n, PG_GETARG_FLOAT8(1), PG_GETARG_INT32(2), &params),
      "Size a filter by n >= 1, the number of values it should hold, 0 < p < 1, the "
      "false-positive rate wanted at that size (at least 2b/2^32), and a bucket size of 2, 4 "
      "or 8.");
  const uint64 bytes = cuckoo::filter_size(params);
  Datum values[5] = {Int64GetDatum(static_cast<int64>(params.buckets)),
                     Int32GetDatum(params.fingerprint_bits),
                     Int64GetDatum(static_cast<int64>(bytes + VARHDRSZ)),
                     Float8GetDatum(8.0 * static_cast<double>(bytes) / static_cast<double>(n)),
                     BoolGetDatum(bytes <= kMaxDumpableBytes)};
  return result_row(fcinfo, "cuckoo_sizing", values, 5);
}
