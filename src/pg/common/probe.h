// What the membership probes of the filters share (bloom_contains,
// counting_bloom_contains, cuckoo_contains and their <@ twins
// <f>_contained): the call-site cache's first members and the two fmgr
// entry points over one probe(fcinfo, filter_arg, value_arg).
//
// A probe reads the filter where it lies; one stored out of line (TOAST) is
// detoasted once per call site and kept in fn_extra for as long as the same
// value comes back (detoast_cache.h), so probing a million rows against
// `(SELECT filter FROM t)` fetches the filter once, not a million times.
#pragma once

#include "pg/common/detoast_cache.h"
#include "pg/common/element_hash.h"
#include "pg/common/postgres_headers.h"

namespace sketch::pg {

// The start of a probe's fn_extra (fn_extra_of, zeroed on the site's first
// call): the value's hasher and the filter argument's detoasted copy. A
// family's cache derives from it and adds what it derives from the filter.
struct ProbeSite {
  ElementHasher hasher;
  DetoastCache filter;
};

}  // namespace sketch::pg

// <prefix>_contains(filter, value) and <prefix>_contained(value, filter),
// the functions of filter @> value and value <@ filter, over the family's
// `probe(fcinfo, filter_arg, value_arg)`.
#define SKETCH_MEMBERSHIP_PROBES(prefix)                                                  \
  extern "C" {                                                                          \
  PG_FUNCTION_INFO_V1(prefix##_contains);                                               \
  PG_FUNCTION_INFO_V1(prefix##_contained);                                              \
  }                                                                                     \
  extern "C" Datum prefix##_contains(PG_FUNCTION_ARGS) { return probe(fcinfo, 0, 1); }  \
  extern "C" Datum prefix##_contained(PG_FUNCTION_ARGS) { return probe(fcinfo, 1, 0); }
