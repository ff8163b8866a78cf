#!/usr/bin/env bash
# Peak backend memory of GROUP BY into many groups of small sketches,
# measured against count(v) in the same query shape:
#
#   bash test/cluster.sh run -- bash test/hardening/memory.sh [--check]
#
# For each aggregate and each plan shape, a fresh backend runs
#   SELECT count(a) FROM (SELECT k, <aggregate> AS a FROM ev GROUP BY k) s
# (count(a) uses every group's aggregate value, so the planner cannot drop
# it), then reads its own VmHWM (peak resident set, which includes the
# shared buffers the scan touched) from /proc/self/status through
# pg_read_file in the same session. A second run of the same query under
# EXPLAIN ANALYZE gives the aggregate node's own memory. Serial plans only
# (max_parallel_workers_per_gather = 0): workers' memory is not the leader's.
# Prints a Markdown table (docs/hardening.md keeps the figures).
#
# N_GROUPS (default 1000000) groups of N_VALUES (default 3) values each.
# --check (make test): 200000 groups, the in-memory hash plan only, and fails
# if hll_agg's aggregate node needs more than MAX_GROUP_BYTES (default 128)
# per group beyond what count(v) needs: a one-to-three value sketch is an 80
# byte allocation (52 bytes of working set plus allocator overhead).
set -euo pipefail

check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  N_GROUPS=${N_GROUPS:-200000}
fi
N_GROUPS=${N_GROUPS:-1000000}
N_VALUES=${N_VALUES:-3}
MAX_GROUP_BYTES=${MAX_GROUP_BYTES:-128}
db=memory
dropdb --if-exists $db 2>/dev/null
createdb $db
psql -X -q -v ON_ERROR_STOP=1 -d $db <<SQL
CREATE EXTENSION sketch;
CREATE TABLE ev AS
  SELECT g % $N_GROUPS AS k, g AS v FROM generate_series(1, $N_GROUPS * $N_VALUES) g;
VACUUM ANALYZE ev;
SQL

# measure <settings> <aggregate>: prints "peak_kib|node_kib|batches|ms"
measure() {
  local settings=$1 agg=$2
  local q="SELECT count(a) FROM (SELECT k, $agg AS a FROM ev GROUP BY k) s"
  local out
  out=$(psql -X -q -At -v ON_ERROR_STOP=1 -d $db <<SQL
SET max_parallel_workers_per_gather = 0;
$settings
\\timing on
$q;
\\timing off
SELECT (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\\s+(\\d+)'))[1];
SQL
)
  local ms peak plan node batches
  ms=$(sed -n 's/^Time: \([0-9]*\).*/\1/p' <<<"$out" | head -n 1)
  peak=$(tail -n 1 <<<"$out")
  plan=$(psql -X -q -At -v ON_ERROR_STOP=1 -d $db <<SQL
SET max_parallel_workers_per_gather = 0;
$settings
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $q;
SQL
)
  node=$(grep -oE 'Memory Usage: [0-9]+kB' <<<"$plan" | head -n 1 | grep -oE '[0-9]+' || echo 0)
  batches=$(grep -oE 'Batches: [0-9]+' <<<"$plan" | head -n 1 | grep -oE '[0-9]+' || echo -)
  echo "$peak|$node|$batches|$ms"
}

if [ $check -eq 1 ]; then
  plans=("hash, in memory|SET work_mem = '4GB'; SET enable_sort = off;")
  aggs=("count(v)" "hll_agg(v)")
else
  plans=("hash, in memory|SET work_mem = '4GB'; SET enable_sort = off;"
         "hash, work_mem = 64MB (spills)|SET work_mem = '64MB'; SET enable_sort = off;"
         "sort + group|SET enable_hashagg = off; SET work_mem = '64MB';")
  aggs=("count(v)" "hll_agg(v)" "hll_agg(v, 4)" "hll_union(hll_add(hll_empty(), v))")
fi

echo "$N_GROUPS groups of $N_VALUES values ($((N_GROUPS * N_VALUES)) rows):"
echo
echo "| plan | aggregate | peak RSS (VmHWM) | VmHWM above count(v) | aggregate node memory | node memory above count(v), per group | hash batches | time |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
status=0
for plan in "${plans[@]}"; do
  label=${plan%%|*}
  settings=${plan#*|}
  for agg in "${aggs[@]}"; do
    IFS='|' read -r peak node batches ms <<<"$(measure "$settings" "$agg")"
    if [ "$agg" = "count(v)" ]; then
      base_peak=$peak
      base_node=$node
      above="—"
      per="—"
    else
      above="$(((peak - base_peak) / 1024)) MiB"
      per_bytes=$(((node - base_node) * 1024 / N_GROUPS))
      per="$per_bytes B"
      if [ $check -eq 1 ] && [ "$per_bytes" -gt "$MAX_GROUP_BYTES" ]; then
        echo "memory: $agg needs $per_bytes bytes per group beyond count(v), more than $MAX_GROUP_BYTES" >&2
        status=1
      fi
    fi
    node_col="—"
    [ "$node" != 0 ] && node_col="$((node / 1024)) MiB"
    echo "| $label | \`$agg\` | $((peak / 1024)) MiB | $above | $node_col | $per | $batches | $ms ms |"
  done
done
dropdb $db
exit $status
