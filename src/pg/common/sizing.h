// What the sizing functions of every family share (bloom_sizing,
// cms_sizing, hll_sizing in src/pg/<family>/<family>_sizing.cpp): each
// answers before anything is built, for any valid parameters, also when the
// sketch would be too large to build or to dump (`fits` says which), so that
// a user sizing a billion-value filter learns how large it is and that it
// must be sharded.
#pragma once

#include "core/common/status.h"
#include "pg/common/postgres_headers.h"
#include "pg/common/report.h"      // check_parameter
#include "pg/common/result_row.h"  // the sizing functions answer one row
