// double precision[] arguments and results of the readers that answer one
// number per element (ddsketch_quantiles, ddsketch_ranks, ddsketch_cdf, ...).
#pragma once

#include "core/common/status.h"  // before the server headers: port.h renames printf
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

// A one-dimensional (or empty) float8[] argument, deconstructed: n values
// and their NULL flags (palloc'd), and the lower bound its answer keeps.
struct Float8Array {
  int n;
  int lbound;
  Datum* elements;
  bool* nulls;
  double at(int i) const { return DatumGetFloat8(elements[i]); }
};

// Argument argno (not NULL); ERROR 2202E naming `function` and `what` ("a
// one-dimensional array of fractions") for more than one dimension.
Float8Array float8_array_arg(FunctionCallInfo fcinfo, int argno, const char* function,
                             const char* what);

// A one-dimensional float8[] of n values (NULL where nulls[i], which may be
// nullptr for none) starting at lbound; an empty array for n = 0.
Datum float8_array_result(const double* values, const bool* nulls, int n, int lbound);

}  // namespace sketch::pg
