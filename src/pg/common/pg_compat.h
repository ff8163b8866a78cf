// The differences between the PostgreSQL majors the module builds against
// (15, 16, 17 and 18), in one place: wrappers include this (through
// postgres_headers.h) instead of testing PG_VERSION_NUM themselves.
//
// Reviewed for 16-18 (docs/versions.md has the list and what was checked):
// fmgr, the aggregate API (AggCheckCallContext, AggGetAggref), detoasting,
// the type cache's hash support, collations (only get_collation_isdeterministic
// and the collation's own hash function are used, never pg_locale_t), GUC
// nest levels (NewGUCNestLevel/AtEOXact_GUC), syscache lookups, jsonb
// building, varlena macros. Of these only the no-return attribute changed.
#pragma once

#if PG_VERSION_NUM < 150000 || PG_VERSION_NUM >= 190000
#error "sketch builds against PostgreSQL 15, 16, 17 and 18 (docs/versions.md)"
#endif

// PostgreSQL 18 removed pg_attribute_noreturn() (a GCC attribute placed after
// the return type) in favour of pg_noreturn (C11 _Noreturn, placed first);
// C++ has its own spelling that every major accepts.
#define SKETCH_NORETURN [[noreturn]]
