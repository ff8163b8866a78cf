// A ddsketch value from an exponential histogram the core has been handed
// (core/ddsketch/ddsketch_exponential.h): the one build step of every import
// (OTLP, Prometheus, DataDog's protobuf).
#pragma once

#include "core/ddsketch/ddsketch_exponential.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

// The stored sketch of `h` at min(h.scale, max_scale) with `max_buckets`
// per store; ERROR with the plan's SQLSTATE when the histogram cannot be
// held (ddsketch_exponential.h's plan_from_exponential).
struct varlena* ddsketch_from_histogram(const ddsketch::ExpHistogram& h, int32 max_scale,
                                        int32 max_buckets);

}  // namespace sketch::pg
