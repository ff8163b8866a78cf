#!/usr/bin/env bash
# Parquet interoperability of bloom's split-block layout (`make interop`,
# part of `make test`): sketch's filters against real Parquet code from the
# npm registry, installed in test/interop/parquet/node_modules by `npm ci`
# from the committed lock file (never globally):
#
#   DuckDB (@duckdb/node-api): the Parquet writer and reader;
#   @dsnp/parquetjs: the Node.js Parquet library, whose filter class reads
#     sketch's bytes (its own writer departs from the spec: docs/bloom_parquet.md).
#
#   bash test/cluster.sh run -- bash test/interop/parquet.sh   (after make install)
#
# 1. write_parquet.mjs: fixed-seed members and non-members per column type;
#    DuckDB writes a Parquet file of the members with a Bloom filter; the
#    filter's stored bytes (header + bitset, at the column chunk's
#    bloom_filter_offset) and DuckDB's reader's answer for every non-member
#    are left in a work folder.
# 2. roundtrip.sql, per type: bloom_from_parquet(those bytes) must contain
#    every member and answer every non-member exactly as the Parquet reader
#    did; bloom_to_parquet must give the stored bytes back; then
#    bloom_agg(v, n, p, 'split_block') over the members is exported with
#    bloom_to_parquet, with bloom_contains's answers for the non-members.
# 3. write_back.mjs: sketch's bytes replace DuckDB's filter in the file; the
#    reader must find every member and answer the non-members as PostgreSQL
#    did; @dsnp/parquetjs's filter class likewise (text, int8).
#
# Every check prints "ok ..." or "not ok ..."; an ERROR from psql counts as a
# failure; the last line is "interop: N passed, M failed" and the exit status
# is non-zero on any failure. Without node/npm, or when the packages cannot be
# installed, the test says SKIPPED (exit 0), or fails when CI=true (as
# test/citus.sh does).
#
# Environment: INTEROP_SCALE (default 1) scales the value counts (0.05 for a
# quick run); INTEROP_VERBOSE=1 also prints the notes (sizes, header bytes).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=test/interop/parquet

label=interop
what=Parquet
source test/interop/npm_packages.sh
require_node 18 "the packages need 18 or later"
npm_ci "$here"

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
[ -x "$PG_CONFIG" ] || PG_CONFIG=pg_config
psql="${PG_BIN:-$("$PG_CONFIG" --bindir)}/psql"

work=$(mktemp -d /tmp/sketch-interop.XXXXXX)
trap 'rm -rf "$work"' EXIT
out=$work/checks.out
: >"$out"
failed_steps=0

run_node() {  # run_node <script>: its lines go to the checks; a crash is a failure
  if ! node "$here/$1" "$work" >>"$out" 2>"$work/$1.err"; then
    echo "not ok $1: exited with an error: $(tail -n 5 "$work/$1.err" | tr '\n' ' ')" >>"$out"
    failed_steps=$((failed_steps + 1))
  fi
}

echo "interop: DuckDB writes the Parquet files (Parquet -> sketch)"
run_node write_parquet.mjs

echo "interop: PostgreSQL reads them and builds its own filters"
db=sketch_interop
PGOPTIONS="-c client_min_messages=warning" "$psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
"$psql" -X -q -d "$db" -c "CREATE EXTENSION sketch" >/dev/null
if [ -f "$work/all.types" ]; then
  while IFS=$'\t' read -r name pgtype phys expr; do
    members=$(wc -l <"$work/$name.members")
    sed -e "s|@T@|$name|g" -e "s|@PHYS@|$phys|g" -e "s|@EXPR@|$expr|g" -e "s|@DIR@|$work|g" \
        -e "s|@N@|$members|g" -e "s|@P@|0.05|g" "$here/roundtrip.sql" >"$work/$name.sql"
    "$psql" -X -d "$db" -f "$work/$name.sql" >>"$out" 2>"$work/psql.err" || true
    if grep -q 'ERROR' "$work/psql.err"; then
      echo "not ok $name ($pgtype) psql: $(grep 'ERROR' "$work/psql.err" | head -n 3 | tr '\n' ' ')" >>"$out"
    fi
    # Without the exported filter the Node step has nothing to read for this type.
    [ -s "$work/$name.sk.hex" ] || echo "not ok $name sketch->parquet: PostgreSQL exported no filter" >>"$out"
  done <"$work/all.types"
fi
"$psql" -X -q -d postgres -c "DROP DATABASE $db" >/dev/null

echo "interop: DuckDB and @dsnp/parquetjs read sketch's filters (sketch -> Parquet)"
run_node write_back.mjs

if [ "${INTEROP_VERBOSE:-0}" = 1 ]; then cat "$out"; else grep -v '^note ' "$out" || true; fi
passed=$(grep -c '^ok ' "$out" || true)
failed=$(grep -c '^not ok ' "$out" || true)
echo "interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$failed_steps" -eq 0 ] && [ "$passed" -gt 0 ]
