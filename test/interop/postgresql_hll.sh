#!/usr/bin/env bash
# Interoperability with postgresql-hll (issue 34; `make interop`, part of
# `make test`): sketch's hash identity 2 against the installed peer
# (postgresql-15-hll, installed by test/install-deps.sh), both in one
# throwaway database (sketch in schema sketch, the peer in public).
#
#   bash test/cluster.sh run -- bash test/interop/postgresql_hll.sh   (after make install)
#
# postgresql_hll/checks.sql: over fixed seeds and every parameter set, rows
# -> hll_postgresql_hll_agg -> hll_to_postgresql_hll equals the peer's own
# hll_add_agg bytes; peer value -> import -> export gives its bytes back and
# the peer reads them (equal hll_print); unions in either system agree; the
# migration recipe runs as docs/migration.md writes it; the peer's NaN case
# gets a real estimate; every other type hashes as the peer's hll_hash_any.
# postgresql_hll/accuracy.sql: RMS error of ours vs the peer's estimate on
# the same registers (200 salts, n 10..10^7, log2m 11 and 14; regwidth 6 at
# log2m 13, where the peer answers NaN). postgresql_hll/vectors.sql: the peer's own test
# vectors (its sql/data/*.csv: MurmurHash3 of bigint and bytea, cumulative
# adds and unions), read from PGHLL_VECTORS (default
# /work/shared/interop/postgresql-hll/data; the files are not shipped here),
# reproduce their recorded bytes, unions and exact cardinalities.
#
# Every check prints "ok ..." or "not ok ..."; the last line is
# "interop postgresql-hll: N passed, M failed" and the exit status is
# non-zero on any failure. Without the peer installed the test says SKIPPED
# (exit 0), or fails when CI=true; without the vector files it runs the
# other checks and says so.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=test/interop/postgresql_hll
PG_CONFIG=${PG_CONFIG:-pg_config}
psql="${PG_BIN:-$("$PG_CONFIG" --bindir)}/psql"
vectors=${PGHLL_VECTORS:-/work/shared/interop/postgresql-hll/data}

if [ ! -f "$("$PG_CONFIG" --sharedir)/extension/hll.control" ]; then
  if [ "${CI:-}" = true ]; then
    echo "interop postgresql-hll: FAILED — postgresql-hll is not installed (CI=true)"
    exit 1
  fi
  echo "interop postgresql-hll: SKIPPED — postgresql-hll is not installed"
  exit 0
fi

db=sketch_interop_pghll
work=$(mktemp -d /tmp/sketch-pghll.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
PGOPTIONS="-c client_min_messages=warning" "$psql" -X -q -d postgres \
  -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
"$psql" -X -q -d "$db" -c "CREATE SCHEMA sketch" -c "CREATE EXTENSION sketch SCHEMA sketch" \
  -c "CREATE EXTENSION hll" >/dev/null

out="$work/out"
: >"$out"
run() {  # run <sql file>: its rows into $out; an ERROR is a failure
  if ! "$psql" -X -q -t -A -v ON_ERROR_STOP=1 -d "$db" -f "$1" >>"$out" 2>"$work/err"; then
    echo "not ok $(basename "$1"): $(grep ERROR "$work/err" | head -n 3 | tr '\n' ' ')" >>"$out"
  fi
}

run "$here/checks.sql"

if [ -f "$vectors/murmur_bigint.csv" ]; then
  load="$work/load.sql"
  {
    echo "CREATE TABLE vec_murmur_bigint (seed int, pre_hash_long bigint, post_hash_long bigint);"
    echo "CREATE TABLE vec_murmur_bytea (seed int, pre_hash_bytes bytea, post_hash_long bigint);"
    echo "CREATE TABLE vec_add (file text, ord bigserial, cardinality float8, raw_value bigint, multiset text);"
    echo "CREATE TABLE vec_union (file text, ord bigserial, cardinality float8, multiset text, union_cardinality float8, union_multiset text);"
    echo "\\copy vec_murmur_bigint FROM '$vectors/murmur_bigint.csv' WITH (FORMAT csv, HEADER)"
    echo "\\copy vec_murmur_bytea FROM '$vectors/murmur_bytea.csv' WITH (FORMAT csv, HEADER)"
    for f in "$vectors"/cumulative_add_*.csv; do
      name=$(basename "$f" .csv)
      echo "ALTER TABLE vec_add ALTER COLUMN file SET DEFAULT '$name';"
      echo "\\copy vec_add (cardinality, raw_value, multiset) FROM '$f' WITH (FORMAT csv, HEADER)"
    done
    for f in "$vectors"/cumulative_union_*.csv; do
      name=$(basename "$f" .csv)
      echo "ALTER TABLE vec_union ALTER COLUMN file SET DEFAULT '$name';"
      echo "\\copy vec_union (cardinality, multiset, union_cardinality, union_multiset) FROM '$f' WITH (FORMAT csv, HEADER)"
    done
  } >"$load"
  "$psql" -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$load" >/dev/null
  run "$here/vectors.sql"
else
  echo "interop postgresql-hll: the peer's test vectors are not at $vectors (set PGHLL_VECTORS); those checks did not run"
fi

# Accuracy on the same registers (postgresql_hll/accuracy.sql says what is
# asserted and why): accuracy_registers, built here from the core's register
# rule and packing, streams the peer's FULL bytes of PGHLL_ACCURACY_SALTS
# (default 200) salts at every n from 10 to 10^7 into a table, in COPY's
# binary format; both extensions then estimate every row.
salts=${PGHLL_ACCURACY_SALTS:-200}
accuracy_started=$(date +%s)
if ! "${CXX:-g++}" -std=c++17 -O2 -pthread -Isrc -Itest \
     "$here/accuracy_registers.cpp" src/core/hll/pghll_format.cpp \
     -o "$work/accuracy_registers" 2>"$work/err"; then
  echo "not ok accuracy: accuracy_registers did not build: $(head -n 3 "$work/err" | tr '\n' ' ')" >>"$out"
else
  "$psql" -X -q -v ON_ERROR_STOP=1 -d "$db" \
    -c "CREATE UNLOGGED TABLE pghll_accuracy (log2m int, regwidth int, n bigint, salt int, bytes bytea)" \
    -c "ALTER TABLE pghll_accuracy ALTER COLUMN bytes SET STORAGE EXTERNAL"
  if "$work/accuracy_registers" "$salts" 2 |
       "$psql" -X -q -v ON_ERROR_STOP=1 -d "$db" -c "COPY pghll_accuracy FROM STDIN (FORMAT binary)" \
         2>"$work/err"; then
    run "$here/accuracy.sql"
  else
    echo "not ok accuracy: the registers were not loaded: $(head -n 3 "$work/err" | tr '\n' ' ')" >>"$out"
  fi
  echo "accuracy: $salts salts in $(($(date +%s) - accuracy_started)) s" >>"$out"
fi

"$psql" -X -q -d postgres -c "DROP DATABASE $db" >/dev/null
cat "$out"
passed=$(grep -c '^ok ' "$out" || true)
failed=$(grep -c '^not ok ' "$out" || true)
echo "interop postgresql-hll: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
