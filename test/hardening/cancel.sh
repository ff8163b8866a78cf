#!/usr/bin/env bash
# Long sketch aggregates stop on pg_cancel_backend, serial and parallel:
#
#   bash test/cluster.sh run -- bash test/hardening/cancel.sh
#
# Each query below would run for minutes. It is started in the background,
# found in pg_stat_activity, cancelled with pg_cancel_backend, and must end
# with "canceling statement due to user request" (SQLSTATE 57014) within
# CANCEL_LIMIT_MS (default 5000) of the cancel; afterwards no backend or
# parallel worker may still be running it. (sql/statement_timeout.sql covers
# statement_timeout, which reaches the backend the same way.)
set -euo pipefail

CANCEL_LIMIT_MS=${CANCEL_LIMIT_MS:-5000}
db=cancel
dropdb --if-exists $db 2>/dev/null
createdb $db
psql -X -q -v ON_ERROR_STOP=1 -d $db <<'SQL'
CREATE EXTENSION sketch;
CREATE TABLE t AS SELECT g AS v, hll_add(hll_empty(12), g) AS h, ddsketch_add(ddsketch_empty(), g) AS d,
                          topk_add(topk_empty(64), g % 1000) AS tk, theta_add(theta_empty(), g) AS th
FROM generate_series(1, 200000) g;
VACUUM ANALYZE t;
SQL

work=$(mktemp -d /tmp/sketch-cancel.XXXXXX)
trap 'rm -rf "$work"' EXIT

status=0
run_case() {
  local label=$1 settings=$2 query=$3
  local tag="cancel_case_$RANDOM$RANDOM"
  psql -X -q -d $db -c "$settings" -c "/* $tag */ $query" >"$work/out" 2>"$work/err" &
  local client=$!
  local pid=""
  for _ in $(seq 1 100); do
    pid=$(psql -X -At -d $db -c "SELECT pid FROM pg_stat_activity
           WHERE query LIKE '%$tag%' AND state = 'active' AND backend_type = 'client backend'
             AND pid <> pg_backend_pid()" || true)
    [ -n "$pid" ] && break
    sleep 0.1
  done
  if [ -z "$pid" ]; then
    echo "cancel: $label: query never showed up as active" >&2
    kill "$client" 2>/dev/null || true
    status=1
    return
  fi
  sleep 1   # let it get well into the aggregate
  local workers
  workers=$(psql -X -At -d $db -c "SELECT count(*) FROM pg_stat_activity WHERE leader_pid = $pid")
  local start end
  start=$(date +%s%N)
  psql -X -At -d $db -c "SELECT pg_cancel_backend($pid)" >/dev/null
  wait "$client" && rc=0 || rc=$?
  end=$(date +%s%N)
  local ms=$(((end - start) / 1000000))
  local left
  left=$(psql -X -At -d $db -c "SELECT count(*) FROM pg_stat_activity
          WHERE query LIKE '%$tag%' AND pid <> pg_backend_pid()")
  if [ $rc -ne 0 ] && grep -q 'canceling statement due to user request' "$work/err" \
     && [ "$ms" -le "$CANCEL_LIMIT_MS" ] && [ "$left" = 0 ]; then
    echo "cancel: $label: stopped $ms ms after pg_cancel_backend ($workers parallel workers)"
  else
    echo "cancel: $label: FAILED (exit $rc, $ms ms, $left still running): $(cat "$work/err")" >&2
    status=1
  fi
}

serial="SET max_parallel_workers_per_gather = 0"
parallel="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0"
# With parallel_tuple_cost 0 the planner gathers both scans of a join and
# aggregates above them in the leader; these settings give Finalize
# Aggregate over Gather over Partial Aggregate, so the cancel reaches
# workers in the middle of their transition and combine work.
partial="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET min_parallel_table_scan_size = 0; SET enable_material = off"
run_case "hll_agg, streaming 2e9 rows" "$serial" \
  "SELECT hll_cardinality(hll_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "hll_union of one-value sketches" "$serial" \
  "SELECT hll_cardinality(hll_union(hll_add(hll_empty(18), g))) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "hll_agg into 1e6 groups" "$serial" \
  "SELECT count(h) FROM (SELECT hll_agg(g) AS h FROM (SELECT generate_series(1, 2000000000) AS g) s GROUP BY g % 1000000) t"
run_case "parallel hll_agg over a join" "$parallel" \
  "SELECT hll_cardinality(hll_agg(a.v::bigint * 1000000 + b.v)) FROM t a, t b"
run_case "parallel hll_union over a join" "$parallel" \
  "SELECT hll_cardinality(hll_union(a.h || b.h)) FROM t a, t b"
run_case "cms_agg, streaming 2e9 rows" "$serial" \
  "SELECT cms_total(cms_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "cms_union of one-value sketches" "$serial" \
  "SELECT cms_total(cms_union(cms_add(cms_empty(), g))) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "cms_agg_sized into 1e6 groups" "$serial" \
  "SELECT count(c) FROM (SELECT cms_agg_sized(g, 16, 2, false, 4) AS c FROM (SELECT generate_series(1, 2000000000) AS g) s GROUP BY g % 1000000) t"
run_case "parallel cms_agg over a join" "$parallel" \
  "SELECT cms_total(cms_agg(a.v::bigint * 1000000 + b.v)) FROM t a, t b"
run_case "bloom_agg (12 MB filter), streaming 2e9 rows" "$serial" \
  "SELECT bloom_cardinality(bloom_agg(g, 10000000, 0.01)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "bloom_union of one-value filters" "$serial" \
  "SELECT bloom_cardinality(bloom_union(bloom_add(bloom_empty_bits(1000000, 7), g))) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "bloom_agg_bits into 1e6 groups" "$serial" \
  "SELECT count(f) FROM (SELECT bloom_agg_bits(g, 64, 3) AS f FROM (SELECT generate_series(1, 2000000000) AS g) s GROUP BY g % 1000000) t"
run_case "parallel bloom_agg over a join" "$parallel" \
  "SELECT bloom_cardinality(bloom_agg(a.v::bigint * 1000000 + b.v, 10000000, 0.01)) FROM t a, t b"
run_case "ddsketch_agg, streaming 2e9 rows" "$serial" \
  "SELECT ddsketch_count(ddsketch_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "ddsketch_agg at scale 12, 65536 buckets, signed e^-700..e^700 (collapsing), streaming 2e9 rows" "$serial" \
  "SELECT ddsketch_count(ddsketch_agg((g % 3 - 1) * exp(g % 1401 - 700), 0.0001, 65536)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "ddsketch_union of one-value sketches (scale 12, 65536 buckets)" "$serial" \
  "SELECT ddsketch_count(ddsketch_union(ddsketch_add(ddsketch_empty(0.0001, 65536), g))) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "ddsketch_agg(g, 0.1, 16) into 1e6 groups" "$serial" \
  "SELECT count(d) FROM (SELECT ddsketch_agg(g, 0.1, 16) AS d FROM (SELECT generate_series(1, 2000000000) AS g) s GROUP BY g % 1000000) t"
run_case "parallel ddsketch_agg over a join" "$parallel" \
  "SELECT ddsketch_count(ddsketch_agg(a.v::bigint * 1000000 + b.v)) FROM t a, t b"
run_case "parallel ddsketch_union over a join" "$parallel" \
  "SELECT ddsketch_count(ddsketch_union(a.d || b.d)) FROM t a, t b"
run_case "topk_agg over 2e9 distinct items (a purge of the 2048-entry table every 2048 rows), streaming" "$serial" \
  "SELECT topk_total(topk_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "topk_agg, k = 65536, over 2e9 items (purges of 131072 entries), streaming" "$serial" \
  "SELECT topk_total(topk_agg(g % 1000003, 65536)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "topk_agg_weighted of text items, streaming 2e9 rows" "$serial" \
  "SELECT topk_total(topk_agg_weighted('item ' || g % 100003, g % 7 + 1, 256)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "topk_union of one-item summaries (k = 65536)" "$serial" \
  "SELECT topk_total(topk_union(topk_add(topk_empty(65536), g))) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "topk_agg(g, 4) into 1e6 groups" "$serial" \
  "SELECT count(x) FROM (SELECT topk_agg(g, 4) AS x FROM (SELECT generate_series(1, 2000000000) AS g) s GROUP BY g % 1000000) t"
run_case "parallel topk_agg over a join" "$parallel" \
  "SELECT topk_total(topk_agg(a.v::bigint * 1000000 + b.v)) FROM t a, t b"
run_case "parallel topk_union over a join" "$parallel" \
  "SELECT topk_total(topk_union(a.tk || b.tk)) FROM t a, t b"
run_case "theta_agg over 2e9 distinct values (a trim of the 8192-slot table every 2048 retained), streaming" "$serial" \
  "SELECT theta_count(theta_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "theta_agg, lg_k 16, over 2e9 values (trims of 131072 slots), streaming" "$serial" \
  "SELECT theta_count(theta_agg(g::bigint * 7919, 16)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "theta_agg, lg_k 24, over 2e9 values (the table doubling up to 2^25 slots, 256 MB), streaming" "$serial" \
  "SELECT theta_count(theta_agg(g, 24)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "theta_union of one-value sketches (lg_k 16)" "$serial" \
  "SELECT theta_count(theta_union(theta_add(theta_empty(16), g))) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "theta_intersect of a 65536-hash sketch with itself, 2e9 times" "$serial" \
  "SELECT theta_count(theta_intersect(x.s)) FROM (SELECT generate_series(1, 2000000000) AS g) s,
          (SELECT theta_agg(i, 16) AS s FROM generate_series(1, 200000) i) x"
run_case "counting_bloom_agg sized for 5e7 values (240 MB of counters), streaming 2e9 rows" "$serial" \
  "SELECT counting_bloom_cardinality(counting_bloom_agg(g, 50000000, 0.01)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "counting_bloom_union of one-value filters (n = 1e6)" "$serial" \
  "SELECT counting_bloom_cardinality(counting_bloom_union(counting_bloom_add(counting_bloom_empty(1000000, 0.01), g))) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "cuckoo_agg over 2e9 distinct values from n = 1000 (the filter grows by doubling sub-filters), streaming" "$serial" \
  "SELECT cuckoo_cardinality(cuckoo_agg(g, 1000, 0.01)) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "cuckoo_union of one-value filters (n = 1e6)" "$serial" \
  "SELECT cuckoo_cardinality(cuckoo_union(cuckoo_add(cuckoo_empty(1000000, 0.01), g))) FROM (SELECT generate_series(1, 2000000000) AS g) s"
run_case "parallel cuckoo_agg over a join" "$parallel" \
  "SELECT cuckoo_cardinality(cuckoo_agg(a.v::bigint * 1000000 + b.v, 10000000, 0.01)) FROM t a, t b"
run_case "theta_agg(g, 4) into 1e6 groups" "$serial" \
  "SELECT count(x) FROM (SELECT theta_agg(g, 4) AS x FROM (SELECT generate_series(1, 2000000000) AS g) s GROUP BY g % 1000000) t"
run_case "parallel theta_agg over a join (partial aggregates)" "$partial" \
  "SELECT theta_count(theta_agg(a.v::bigint * 1000000 + b.v)) FROM t a, t b"
run_case "parallel theta_union over a join (partial aggregates)" "$partial" \
  "SELECT theta_count(theta_union(a.th || b.th)) FROM t a, t b"
run_case "parallel theta_intersect over a join (partial aggregates)" "$partial" \
  "SELECT theta_count(theta_intersect(a.th || b.th)) FROM t a, t b"
dropdb $db
[ $status -eq 0 ] && echo "cancel: OK"
exit $status
