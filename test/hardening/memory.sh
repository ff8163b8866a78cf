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
# Prints a Markdown table (docs/hardening.md keeps the figures). The
# in-memory plan sets work_mem to 1TB: the cms and bloom aggregates declare
# SSPACE for their default sizes (~115 KB per group), so with less the
# planner partitions a million groups up front and spills, whatever the
# real state size.
#
# N_GROUPS (default 1000000) groups of N_VALUES (default 3) values each.
# --check (make test): 200000 groups, the in-memory hash plan only, and fails
# if an aggregate's node needs more per group beyond what count(v) needs
# than its limit (the number after | in the list below): hll_agg 128 bytes
# (MAX_GROUP_BYTES; a one-to-three value sketch is an 80 byte allocation, 52
# bytes of working set plus allocator overhead), ell_agg(v) the same 128
# bytes (its first working set, 8 token slots of 4 bytes behind a 20 byte
# header, is 52 bytes too; 83 measured, as hll_agg), cms_agg_sized(v, 16, 2,
# false, 4) 1100 bytes (its 548 byte working state - 256 bytes of counters,
# 4 candidate entries, heap, index and a 64 byte text arena - in a 1 KiB
# allocator chunk), bloom_agg_bits(v, 64, 3) 128 bytes (a 28 byte filter in
# a 32 byte chunk plus its 16 byte header), ddsketch_agg(v) 6144 bytes (its
# working state is a dense window of 8-byte counts, twice the span of the
# group's bucket indexes, plus ~400 bytes of header and exact sum: a group
# k, k + N, k + 2N spans log2((k + 2N) / k) doublings, 64 buckets each, so
# 2 to 20 KB, 5.3 KB on average; ~1 GB at 200000 groups) and
# ddsketch_agg(v, 0.1, 16) 1300 bytes (windows of at most 32 slots: a 624
# byte state), topk_agg(v) 1300 bytes (a new state has 16 entry slots, their
# index and a 16-byte-per-slot text arena: 816 bytes, in a 1 KiB chunk) and
# topk_agg(v, 4) 700 bytes (8 slots: a 432 byte state), theta_agg(v) 400
# bytes (a new state is a 16-slot table of 8-byte hashes whatever lg_k: 152
# bytes, 156 with the varlena header, in a 256 byte chunk),
# counting_bloom_agg(v, 10, 0.01) 250 bytes (96 four-bit counters: a 64 byte
# filter; 167 measured) and cuckoo_agg(v, 10, 0.01) 400 bytes (3 buckets of
# 4 ten-bit fingerprints and the chain's headers: a 56 byte filter, 83
# measured in 0.2.0; since 0.3.0 also the seen set of the group's distinct
# values while the aggregate runs, 16 bytes a slot, 4 slots at first and
# doubled at 3/4 load: 8 slots, 144 bytes, for a group of three, plus the
# smaller state it outgrew; 293 measured). The node's
# memory grows in blocks of up to 8 MB, so at 200000 groups a figure is only
# good to about 40 bytes per group.
#
# topk_union(topk_add(topk_empty(), v)) is left out of the default list: a
# topk state that has merged once has all 2k entry slots (65,586 bytes at
# k = 1024), so a million groups would need 64 GB (measured at 100000
# groups: 66,754 bytes per group; MEMORY_AGGS and N_GROUPS below measure it
# on purpose). The union at k = 4 is in the list.
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
  plans=("hash, in memory|SET work_mem = '1TB'; SET enable_sort = off;")
  aggs=("count(v)" "hll_agg(v)|$MAX_GROUP_BYTES" "cms_agg_sized(v, 16, 2, false, 4)|1100"
        "bloom_agg_bits(v, 64, 3)|128" "ddsketch_agg(v)|6144" "ddsketch_agg(v, 0.1, 16)|1300"
        "topk_agg(v)|1300" "topk_agg(v, 4)|700" "theta_agg(v)|400"
        "counting_bloom_agg(v, 10, 0.01)|250" "cuckoo_agg(v, 10, 0.01)|400"
        "ell_agg(v)|$MAX_GROUP_BYTES")
else
  plans=("hash, in memory|SET work_mem = '1TB'; SET enable_sort = off;"
         "hash, work_mem = 64MB (spills)|SET work_mem = '64MB'; SET enable_sort = off;"
         "sort + group|SET enable_hashagg = off; SET work_mem = '64MB';")
  aggs=("count(v)" "hll_agg(v)" "hll_agg(v, 4)" "hll_union(hll_add(hll_empty(), v))"
        "cms_agg_sized(v, 16, 2, false, 4)" "cms_union(cms_add(cms_empty_sized(16, 2, false, 4), v))"
        "bloom_agg_bits(v, 64, 3)" "bloom_union(bloom_add(bloom_empty_bits(64, 3), v))"
        "ddsketch_agg(v)" "ddsketch_union(ddsketch_add(ddsketch_empty(), v))" "ddsketch_agg(v, 0.1, 16)"
        "topk_agg(v)" "topk_agg(v, 4)" "topk_agg_weighted(v, 2)" "topk_union(topk_add(topk_empty(4), v))"
        "theta_agg(v)" "theta_agg(v, 16)" "theta_union(theta_add(theta_empty(), v))"
        "theta_intersect(theta_add(theta_empty(), v))"
        "counting_bloom_agg(v, 10, 0.01)" "counting_bloom_union(counting_bloom_add(counting_bloom_empty(10, 0.01), v))"
        "cuckoo_agg(v, 10, 0.01)" "cuckoo_union(cuckoo_add(cuckoo_empty(10, 0.01), v))"
        "ell_agg(v)" "ell_union(ell_add(ell_empty(), v))")
fi
# MEMORY_AGGS="agg;agg;..." measures only these (count(v) is always first).
if [ -n "${MEMORY_AGGS:-}" ]; then
  IFS=';' read -r -a extra <<<"$MEMORY_AGGS"
  aggs=("count(v)" "${extra[@]}")
fi

echo "$N_GROUPS groups of $N_VALUES values ($((N_GROUPS * N_VALUES)) rows):"
echo
echo "| plan | aggregate | peak RSS (VmHWM) | VmHWM above count(v) | aggregate node memory | node memory above count(v), per group | hash batches | time |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
status=0
for plan in "${plans[@]}"; do
  label=${plan%%|*}
  settings=${plan#*|}
  for entry in "${aggs[@]}"; do
    agg=${entry%%|*}
    limit=${entry#*|}
    [ "$limit" = "$entry" ] && limit=$MAX_GROUP_BYTES
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
      if [ $check -eq 1 ] && [ "$per_bytes" -gt "$limit" ]; then
        echo "memory: $agg needs $per_bytes bytes per group beyond count(v), more than $limit" >&2
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
