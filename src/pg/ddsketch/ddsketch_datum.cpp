#include "pg/ddsketch/ddsketch_datum.h"

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

ddsketch::View ddsketch_view(const struct varlena* v) {
  const SketchBytes b = bytes_of(v);
  ddsketch::View view;
  check(ddsketch::parse(b.data, b.len, Validation::kStructure, &view));
  return view;
}

ddsketch::View ddsketch_arg(FunctionCallInfo fcinfo, int n) {
  return ddsketch_view(PG_DETOAST_DATUM(PG_GETARG_DATUM(n)));
}

ddsketch::Params ddsketch_params(double relative_accuracy, int64 max_buckets) {
  ddsketch::Params params;
  const Status st = ddsketch::params_for(relative_accuracy, max_buckets, &params);
  if (!st.is_ok())
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", st.message()),
                    errhint("The default, relative_accuracy 0.01 with max_buckets 2048, keeps "
                            "every quantile within 0.54%% over values spanning 2^32 to one.")));
  return params;
}

void ddsketch_check_value(double value) {
  const Status st = ddsketch::check_value(value);
  if (!st.is_ok())
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", st.message()),
                    errhint("Filter the value out (WHERE v = v AND v <> 'Infinity' AND "
                            "v <> '-Infinity') or map it to a finite value first.")));
}

uint8_t* ddsketch_new_state(const ddsketch::Params& params) {
  uint8_t* state = DdsketchStates::allocate(ddsketch::empty_working_size(params));
  ddsketch::write_empty_working(params, state);
  return state;
}

}  // namespace sketch::pg
