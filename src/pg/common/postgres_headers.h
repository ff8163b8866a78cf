// The one place the PostgreSQL C headers are pulled into C++.
//
// They are C headers without extern "C" guards, so every wrapper includes
// them through here. Nothing in src/core may include this file.
#pragma once

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/uuid.h"
}

#include "pg/common/pg_compat.h"
