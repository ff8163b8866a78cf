#include "pg/ddsketch/ddsketch_datum.h"

#include "pg/common/call_site.h"
#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

ddsketch::Params ddsketch_params(double relative_accuracy, int64 max_buckets, const char* hint) {
  ddsketch::Params params;
  check_parameter(ddsketch::params_for(relative_accuracy, max_buckets, &params), "%s",
                  hint != nullptr ? hint
                                  : "The default, relative_accuracy 0.01 with max_buckets 2048, "
                                    "keeps every quantile within 0.54% over values spanning 2^32 "
                                    "to one.");
  return params;
}

void ddsketch_check_value(double value) {
  // Per row of ddsketch_agg: no call unless the value is refused.
  const Status st = ddsketch::check_value(value);
  if (unlikely(!st.is_ok()))
    check_parameter(st, "Filter the value out (WHERE v = v AND v <> 'Infinity' AND "
                        "v <> '-Infinity') or map it to a finite value first.");
}

void ddsketch_check_fraction(double q) {
  if (!(q >= 0.0 && q <= 1.0))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("ddsketch quantile %g is outside 0..1", q),
                    errhint("Ask for the median with 0.5 and the 99th percentile with 0.99.")));
}

bool ddsketch_weight_arg(FunctionCallInfo fcinfo, int argno, uint64* weight) {
  return weight_arg(fcinfo, argno, false, "ddsketch count",
                    "A row's count says how many times its value occurred: 0 adds nothing.",
                    weight);
}

void ddsketch_check_fits(const uint8_t* state, uint64 weight) {
  if (likely(ddsketch::fits_count(state, weight))) return;
  ereport(ERROR,
          (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
           errmsg("ddsketch count would exceed 2^64 - 1 values: %llu held, %llu more",
                  static_cast<unsigned long long>(ddsketch::count_of(state)),
                  static_cast<unsigned long long>(weight)),
           errhint("A sketch counts at most 18446744073709551615 values; check the counts.")));
}

uint8_t* ddsketch_new_state(const ddsketch::Params& params) {
  uint8_t* state = DdsketchStates::allocate(ddsketch::empty_working_size(params));
  ddsketch::write_empty_working(params, state);
  return state;
}

}  // namespace sketch::pg
