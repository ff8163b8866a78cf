#!/usr/bin/env bash
# Nothing lost under concurrent upserts:
#
#   bash test/cluster.sh run -- bash test/hardening/concurrency.sh
#
# CLIENTS pgbench clients (default 12) each run TXNS transactions (default
# 1000). Each transaction merges one value into a rollup row with
#   INSERT ... ON CONFLICT (bucket) DO UPDATE SET s = rollup.s || EXCLUDED.s
# and, in the same transaction, logs what it sent. Values come from a
# deterministic per-client sequence (client id and a per-client counter;
# each client sends each of its 300 values several times, so duplicates
# merge too) and land in a few buckets (value mod BUCKETS), so clients
# constantly contend for the same rows. Afterwards
# every rollup sketch must equal the aggregate of the log for its bucket,
# byte for byte: no update lost, none applied twice.
#
# Two rollups run side by side: hll (p = 14, stays sparse) and hll(8)
# (promoted to dense after 47 values; the p = 14 inputs are folded to 8 on
# the way in). A type added later adds its rollup column and check here.
set -euo pipefail
cd "$(dirname "$0")/../.."

CLIENTS=${CLIENTS:-12}
TXNS=${TXNS:-1000}
BUCKETS=${BUCKETS:-16}
db=concurrency
pg_bin=/usr/lib/postgresql/${PG_MAJOR:-15}/bin
pgbench=$(command -v pgbench || echo "$pg_bin/pgbench")

work=$(mktemp -d /tmp/sketch-concurrency.XXXXXX)
trap 'rm -rf "$work"' EXIT

dropdb --if-exists $db 2>/dev/null
createdb $db
psql -X -q -v ON_ERROR_STOP=1 -d $db <<'SQL'
CREATE EXTENSION sketch;
CREATE TABLE rollup_hll (bucket int PRIMARY KEY, s hll NOT NULL);
CREATE TABLE rollup_hll8 (bucket int PRIMARY KEY, s hll(8) NOT NULL);
CREATE TABLE sent (client int, n int, bucket int, value bigint, PRIMARY KEY (client, n));
SQL

cat >"$work/upsert.sql" <<SQL
\\set n :n + 1
\\set value :client_id * 1000000 + (:n % 300)
\\set bucket :value % $BUCKETS
BEGIN;
INSERT INTO rollup_hll VALUES (:bucket, hll_add(hll_empty(), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_hll.s || EXCLUDED.s;
INSERT INTO rollup_hll8 VALUES (:bucket, hll_add(hll_empty(), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_hll8.s || EXCLUDED.s;
INSERT INTO sent VALUES (:client_id, :n, :bucket, :value);
END;
SQL

start=$(date +%s%N)
"$pgbench" -n -c "$CLIENTS" -j 2 -t "$TXNS" -D n=0 -f "$work/upsert.sql" $db >"$work/pgbench.log" 2>&1 || {
  cat "$work/pgbench.log" >&2
  echo "concurrency: pgbench failed" >&2
  exit 1
}
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
grep -E 'number of (transactions actually processed|failed)|tps' "$work/pgbench.log" | sed 's/^/concurrency: pgbench: /'

result=$(psql -X -At -F ' ' -v ON_ERROR_STOP=1 -d $db <<SQL
WITH expected AS (
  SELECT bucket, hll_agg(value) AS s14, hll_agg(value, 8) AS s8,
         count(*) AS sent, count(DISTINCT value) AS distinct_values
  FROM sent GROUP BY bucket
)
SELECT (SELECT count(*) FROM sent),
       count(*),
       count(*) FILTER (WHERE r.s = e.s14),
       count(*) FILTER (WHERE r8.s = e.s8),
       count(*) FILTER (WHERE hll_cardinality(r.s) = e.distinct_values),
       count(*) FILTER (WHERE hll_info(r8.s)->>'representation' = 'dense'),
       sum(e.distinct_values)
FROM expected e
FULL JOIN rollup_hll r USING (bucket)
FULL JOIN rollup_hll8 r8 USING (bucket);
SQL
)
read -r sent buckets equal14 equal8 exact dense distinct <<<"$result"
expected_sent=$((CLIENTS * TXNS))
echo "concurrency: $CLIENTS clients x $TXNS upserts in ${elapsed_ms} ms: $sent logged, $buckets buckets, $distinct distinct values"
echo "concurrency: hll: $equal14/$buckets rollup sketches equal hll_agg of the log (cardinality exact in $exact)"
echo "concurrency: hll(8): $equal8/$buckets equal hll_agg(value, 8) of the log ($dense dense)"
dropdb $db
if [ "$sent" -ne "$expected_sent" ] || [ "$equal14" -ne "$buckets" ] || [ "$equal8" -ne "$buckets" ] \
   || [ "$buckets" -ne "$BUCKETS" ] || [ "$exact" -ne "$buckets" ]; then
  echo "concurrency: FAILED: updates were lost or duplicated" >&2
  exit 1
fi
echo "concurrency: OK"
