// The traits of theta_datasketches_agg and theta_datasketches_add: theta's
// (theta_family.h) but for the stored form, which is compact() of the
// libraries' update sketch, every entry kept (theta_datasketches.h), where
// theta's own stored form keeps the k smallest. Adds and merges are
// theta's: a working state of identity 3 already rebuilds as the libraries
// do (detail::insert). Unions of stored sketches (theta_union, |) keep
// theta's traits and trim to k, as the libraries' union does.
#pragma once

#include "core/theta/theta_datasketches.h"
#include "core/theta/theta_family.h"

namespace sketch::theta::datasketches {

struct UpdateFamily : Family {
  static size_t stored_size(const View& v) { return update_stored_size(v); }
  static void write_stored(const View& v, uint8_t* dst) { write_update_stored(v, dst); }
};

static_assert(state::check_family<UpdateFamily>());

}  // namespace sketch::theta::datasketches
