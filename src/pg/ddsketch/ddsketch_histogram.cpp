// A ddsketch value from an exponential histogram (ddsketch_histogram.h).
#include "pg/ddsketch/ddsketch_histogram.h"

#include "pg/common/report.h"
#include "pg/common/sketch_datum.h"

namespace sketch::pg {

struct varlena* ddsketch_from_histogram(const ddsketch::ExpHistogram& h, int32 max_scale,
                                        int32 max_buckets) {
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
  return out;
}

}  // namespace sketch::pg
