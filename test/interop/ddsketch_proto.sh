#!/usr/bin/env bash
# ddsketch_from_ddsketch_proto and ddsketch_to_ddsketch_proto against
# DataDog's own library (`make interop`): @datadog/sketches-js (from the npm
# registry, installed in test/interop/ddsketch_proto/node_modules by `npm ci`
# from the committed lock file, never globally) adds fixed-seed values to
# three sketches (its default accuracy 0.01, and ddsketch's scale 6 and 8
# accuracies) and serializes each (produce.mjs); check.sql imports each
# protobuf and checks count, min, max and quantiles against the JS sketch's
# answers, against percentile_disc over the same values and against
# ddsketch_agg, within the import's stated accuracy (and for the scale 6 and
# 8 sketches, every bucket against ddsketch_agg's: exact); it exports
# ddsketch_agg sketches, read.mjs decodes them with the JS library, and
# check_export.sql compares the JS answers with the sketches'.
#
#   bash test/cluster.sh run -- bash test/interop/ddsketch_proto.sh   (after make install)
#
# Without node/npm, or when the packages cannot be installed: SKIPPED
# (exit 0), or a failure when CI=true.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=test/interop/ddsketch_proto

label=interop-ddsketch-proto
what="DDSketch protobuf"
source test/interop/npm_packages.sh
require_node 18 "the test needs 18 or later"
npm_ci "$here"

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
[ -x "$PG_CONFIG" ] || PG_CONFIG=pg_config
psql="${PG_BIN:-$("$PG_CONFIG" --bindir)}/psql"

work=$(mktemp -d /tmp/sketch-interop-ddproto.XXXXXX)
trap '[ "${INTEROP_KEEP:-0}" = 1 ] || rm -rf "$work"' EXIT
out=$work/checks.out
: >"$out"
failed_steps=0

# step NAME COMMAND...: runs a step, a failure counted and reported.
step() {
  local name=$1
  shift
  if ! "$@" >>"$out" 2>"$work/$name.err"; then
    echo "not ok $name: exited with an error: $(tail -n 5 "$work/$name.err" | tr '\n' ' ')" >>"$out"
    failed_steps=$((failed_steps + 1))
  fi
}

# run_sql FILE VAR JSON: FILE with psql's :'VAR' holding JSON's text (too
# long for an argument) and :'work' the work folder; an ERROR is a failure.
run_sql() {
  { printf '\\set %s `cat %s`\n\\set work %s\n' "$2" "$3" "$work"; cat "$1"; } >"$work/run.sql"
  "$psql" -X -d "$db" -f "$work/run.sql" >>"$out" 2>"$work/psql.err" || true
  if grep -q 'ERROR' "$work/psql.err"; then
    echo "not ok $(basename "$1") psql: $(grep 'ERROR' "$work/psql.err" | head -n 3 | tr '\n' ' ')" >>"$out"
  fi
}

echo "$label: DataDog's JS DDSketch adds the values"
step produce node "$here/produce.mjs" "$work"

if [ -s "$work/js.json" ]; then
  echo "$label: PostgreSQL imports the protobufs and exports its own"
  db=sketch_interop_ddproto
  PGOPTIONS="-c client_min_messages=warning" "$psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
  "$psql" -X -q -d "$db" -c "CREATE EXTENSION sketch" >/dev/null
  run_sql "$here/check.sql" js "$work/js.json"
  if [ -s "$work/export.json" ]; then
    echo "$label: DataDog's JS DDSketch reads the exports"
    step read node "$here/read.mjs" "$work"
    [ -s "$work/js_read.json" ] && run_sql "$here/check_export.sql" js_read "$work/js_read.json"
  else
    echo "not ok export: check.sql wrote no export.json" >>"$out"
  fi
  "$psql" -X -q -d postgres -c "DROP DATABASE $db" >/dev/null
fi

if [ "${INTEROP_VERBOSE:-0}" = 1 ]; then cat "$out"; else grep -v '^note ' "$out" || true; fi
passed=$(grep -c '^ok ' "$out" || true)
failed=$(grep -c '^not ok ' "$out" || true)
echo "$label: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$failed_steps" -eq 0 ] && [ "$passed" -gt 0 ]
