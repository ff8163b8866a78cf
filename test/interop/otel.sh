#!/usr/bin/env bash
# ddsketch_from_otel against a real producer (`make interop-otel`): the
# OpenTelemetry JS SDK (@opentelemetry/sdk-metrics from the npm registry,
# installed in test/interop/otel/node_modules by `npm ci` from the
# committed lock file, never globally) records fixed-seed values into
# exponential-histogram views (record.mjs); check.sql imports each data
# point and checks that count, sum, min, max, zeroCount and every bucket
# count equal the SDK's (folded when the SDK's scale is above 12), that
# ddsketch_agg over the same raw values puts them in the same buckets,
# that quantiles lie within the sketch's relative accuracy of
# percentile_disc, and that ddsketch_to_otel reads back.
#
#   bash test/cluster.sh run -- bash test/interop/otel.sh   (after make install)
#
# The data points are written in OTLP JSON form by record.mjs from the SDK's
# in-memory data (64-bit integers as strings), not by the SDK's OTLP
# serializer, whose package needs a newer node than these machines have.
# Without node/npm, or when the packages cannot be installed: SKIPPED
# (exit 0), or a failure when CI=true.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=test/interop/otel

label=interop-otel
what=OpenTelemetry
source test/interop/npm_packages.sh
require_node 20 "the SDK needs 20.6 or later"
npm_ci "$here"

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
[ -x "$PG_CONFIG" ] || PG_CONFIG=pg_config
psql="${PG_BIN:-$("$PG_CONFIG" --bindir)}/psql"

work=$(mktemp -d /tmp/sketch-interop-otel.XXXXXX)
trap '[ "${INTEROP_KEEP:-0}" = 1 ] || rm -rf "$work"' EXIT
out=$work/checks.out
: >"$out"
failed_steps=0

echo "interop-otel: the OpenTelemetry SDK records the values"
if ! node "$here/record.mjs" "$work" >>"$out" 2>"$work/record.err"; then
  echo "not ok record.mjs: exited with an error: $(tail -n 5 "$work/record.err" | tr '\n' ' ')" >>"$out"
  failed_steps=$((failed_steps + 1))
fi

if [ -s "$work/otel.json" ]; then
  echo "interop-otel: PostgreSQL imports the data points"
  db=sketch_interop_otel
  PGOPTIONS="-c client_min_messages=warning" "$psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
  "$psql" -X -q -d "$db" -c "CREATE EXTENSION sketch" >/dev/null
  # psql's \set takes the file's text (too long for an argument).
  { printf '\\set otel `cat %s/otel.json`\n' "$work"; cat "$here/check.sql"; } >"$work/check.sql"
  "$psql" -X -d "$db" -f "$work/check.sql" >>"$out" 2>"$work/psql.err" || true
  if grep -q 'ERROR' "$work/psql.err"; then
    echo "not ok check.sql psql: $(grep 'ERROR' "$work/psql.err" | head -n 3 | tr '\n' ' ')" >>"$out"
  fi
  "$psql" -X -q -d postgres -c "DROP DATABASE $db" >/dev/null
fi

if [ "${INTEROP_VERBOSE:-0}" = 1 ]; then cat "$out"; else grep -v '^note ' "$out" || true; fi
passed=$(grep -c '^ok ' "$out" || true)
failed=$(grep -c '^not ok ' "$out" || true)
echo "interop-otel: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$failed_steps" -eq 0 ] && [ "$passed" -gt 0 ]
