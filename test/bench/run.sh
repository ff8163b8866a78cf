#!/usr/bin/env bash
# SQL benchmarks of the sketch extension, side by side with the peer
# postgresql-hll, reported as ratios (docs/DESIGN.md, "Measuring").
#
#   make bench                                   (a throwaway cluster)
#   BENCH_ROWS=200000 make bench                 quick smoke test
#   bash test/cluster.sh run -- bash test/bench/run.sh
#
# Needs PGHOST/PGPORT/PGUSER of a server it may use freely: it drops and
# recreates the databases sketch_bench and peer_bench. Writes the report
# to docs/benchmarks.md (BENCH_OUT overrides) and prints it.
#
# Settings (environment):
#   BENCH_ROWS       rows of the benchmark table (default 10,000,000)
#   BENCH_RUNS       timed runs per measurement, after a warm-up (default 3)
#   BENCH_PER_HOUR   sketches per hour in the hll_union workload (default 100)
#   BENCH_OUT        report file (default docs/benchmarks.md)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=test/bench/lib.sh
source "$here/lib.sh"

BENCH_ROWS=${BENCH_ROWS:-10000000}
BENCH_PER_HOUR=${BENCH_PER_HOUR:-100}
BENCH_OUT=${BENCH_OUT:-$root/docs/benchmarks.md}
NGROUPS=100000                              # GROUP BY workload: v % 100000
HOURLY=$((720 * BENCH_PER_HOUR))           # 30 days x 24 hours x per hour

if ! [[ "$BENCH_ROWS" =~ ^[1-9][0-9]*$ ]]; then
  echo "BENCH_ROWS must be a positive integer, not '$BENCH_ROWS'" >&2
  exit 2
fi

started=$(date +%s)
load_start=$(bench_load)

# The peer is optional: without it the peer rows are left out.
have_peer=$(bench_psql postgres -A -t -c \
  "SELECT count(*) FROM pg_available_extensions WHERE name = 'hll'")

# --- Data ------------------------------------------------------------------
# The same deterministic SQL builds the table in each database (setseed,
# and random() keeps the generating query serial). v: random-looking
# non-negative bigints drawn from a domain of 0.4 x rows keys, so 10M rows
# hold ~3.7M distinct values; t: md5 of v, a 32-character text with the
# same distinct count. Both databases must hold identical rows; a
# checksum below makes sure.
domain=$((BENCH_ROWS * 2 / 5))
[ "$domain" -ge 1 ] || domain=1
make_table_sql="
SELECT setseed(0.5);
CREATE TABLE bench AS
SELECT v, md5(v::text) AS t
FROM (SELECT hashint8extended(floor(random() * $domain)::bigint, 0)
             & 9223372036854775807 AS v
      FROM generate_series(1, $BENCH_ROWS)) AS s;
-- Freeze and set hint bits now, so no timed scan pays for them.
VACUUM (FREEZE, ANALYZE) bench;"
checksum_sql="SELECT count(*) || ' ' || sum(v::numeric) || ' ' || sum(hashtext(t)::bigint) FROM bench"

make_db() {  # make_db DB EXTENSION
  local db=$1 ext=$2
  bench_log "creating database $db ($BENCH_ROWS rows, CREATE EXTENSION $ext)"
  bench_psql postgres -c "SET client_min_messages = warning" \
    -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
  bench_psql "$db" -c "CREATE EXTENSION $ext"
  bench_psql "$db" -o /dev/null <<<"$make_table_sql"
}

make_db sketch_bench sketch
if [ "$have_peer" = 1 ]; then
  make_db peer_bench hll
  sum_ours=$(bench_psql sketch_bench -A -t -c "$checksum_sql")
  sum_peer=$(bench_psql peer_bench -A -t -c "$checksum_sql")
  if [ "$sum_ours" != "$sum_peer" ]; then
    echo "bench: the two tables differ ($sum_ours vs $sum_peer)" >&2
    exit 1
  fi
else
  bench_log "postgresql-hll (extension hll) is not available: peer rows skipped"
fi

# Rollup-like tables for the union workload: 720 "hours" x BENCH_PER_HOUR
# sketches, each over the rows with v % HOURLY = its slot; hour = slot /
# BENCH_PER_HOUR, day = hour / 24. The peer's sketches use log2m = 14, the
# same precision as ours.
bench_log "building $HOURLY hourly sketches per database"
bench_psql sketch_bench -o /dev/null <<SQL
CREATE TABLE hourly AS
SELECT g / $BENCH_PER_HOUR AS hour, g % $BENCH_PER_HOUR AS k, hll_agg(v) AS s
FROM (SELECT v, v % $HOURLY AS g FROM bench) AS b GROUP BY g;
VACUUM ANALYZE hourly;
SQL
if [ "$have_peer" = 1 ]; then
  bench_psql peer_bench -o /dev/null <<SQL
CREATE TABLE hourly AS
SELECT g / $BENCH_PER_HOUR AS hour, g % $BENCH_PER_HOUR AS k,
       hll_add_agg(hll_hash_bigint(v), 14) AS s
FROM (SELECT v, v % $HOURLY AS g FROM bench) AS b GROUP BY g;
VACUUM ANALYZE hourly;
SQL
fi
size_sql="SELECT pg_size_pretty(pg_total_relation_size('bench')) || ' table, ' ||
  pg_size_pretty(pg_total_relation_size('hourly')) || ' for ' || count(*) || ' hourly sketches'
  FROM hourly"
size_ours=$(bench_psql sketch_bench -A -t -c "$size_sql")
size_peer=$([ "$have_peer" = 1 ] && bench_psql peer_bench -A -t -c "$size_sql" || echo "–")

# --- Workloads ---------------------------------------------------------------
# Peer workloads are named as the peer of ours (the table divides ours by
# theirs). The peer runs at its default precision (log2m = 11, 2.3%
# standard error), and at log2m = 14 (0.81%, the same as our default): the
# fair comparison, and the one the "ratio to peer" column uses.
if [ "$have_peer" = 1 ]; then
  peer_v=peer_v14 peer_t=peer_t14 peer_grp=peer_grp peer_uni=peer_uni
else
  peer_v="" peer_t="" peer_grp="" peer_uni=""
fi

floor_sql="SELECT count(v) FROM bench"
bench_set_floor sketch_bench "$floor_sql"
bench_set_floor peer_bench "$floor_sql"

bench_run floor sketch_bench "count(v) — the floor" "$floor_sql"
bench_run exact sketch_bench "count(DISTINCT v) — exact" \
  "SELECT count(DISTINCT v) FROM bench"
bench_run hll_v sketch_bench "**sketch: hll_agg(v)** (p 14)" \
  "SELECT hll_cardinality(hll_agg(v)) FROM bench" "$peer_v"
bench_run hll_t sketch_bench "**sketch: hll_agg(t)** (p 14)" \
  "SELECT hll_cardinality(hll_agg(t)) FROM bench" "$peer_t"

if [ "$have_peer" = 1 ]; then
  bench_run peer_floor peer_bench "peer db: count(v) — its floor" "$floor_sql"
  bench_run peer_v14 peer_bench "peer: hll_add_agg(hll_hash_bigint(v), 14)" \
    "SELECT hll_cardinality(hll_add_agg(hll_hash_bigint(v), 14)) FROM bench"
  bench_run peer_t14 peer_bench "peer: hll_add_agg(hll_hash_text(t), 14)" \
    "SELECT hll_cardinality(hll_add_agg(hll_hash_text(t), 14)) FROM bench"
  bench_run peer_v11 peer_bench "peer: hll_add_agg(hll_hash_bigint(v)) (default log2m 11)" \
    "SELECT hll_cardinality(hll_add_agg(hll_hash_bigint(v))) FROM bench"
  bench_run peer_t11 peer_bench "peer: hll_add_agg(hll_hash_text(t)) (default log2m 11)" \
    "SELECT hll_cardinality(hll_add_agg(hll_hash_text(t))) FROM bench"
fi

# GROUP BY: a rollup into NGROUPS groups, each group's sketch read once so
# that no planner shortcut can skip building it. The count(v) and exact
# rows are the same rollup without sketches.
group_from="FROM (SELECT v % $NGROUPS AS g, v FROM bench) AS b GROUP BY g"
bench_run grp_floor sketch_bench "GROUP BY $NGROUPS groups: count(v)" \
  "SELECT sum(c) FROM (SELECT count(v) AS c $group_from) AS s"
bench_run grp_exact sketch_bench "GROUP BY $NGROUPS groups: count(DISTINCT v)" \
  "SELECT sum(c) FROM (SELECT count(DISTINCT v) AS c $group_from) AS s"
bench_run grp_hll sketch_bench "**GROUP BY $NGROUPS groups: hll_agg(v)**" \
  "SELECT sum(hll_cardinality(h)) FROM (SELECT hll_agg(v) AS h $group_from) AS s" "$peer_grp"
if [ "$have_peer" = 1 ]; then
  bench_run peer_grp peer_bench "GROUP BY $NGROUPS groups: peer hll_add_agg(…, 14)" \
    "SELECT sum(hll_cardinality(h)) FROM (SELECT hll_add_agg(hll_hash_bigint(v), 14) AS h $group_from) AS s"
fi

# Union: merge each day's 24 x BENCH_PER_HOUR hourly sketches, 30 days.
union_from="FROM hourly GROUP BY hour / 24"
bench_run uni_hll sketch_bench "**union of $HOURLY hourly sketches GROUP BY day: hll_union**" \
  "SELECT sum(c) FROM (SELECT hll_cardinality(hll_union(s)) AS c $union_from) AS d" "$peer_uni"
if [ "$have_peer" = 1 ]; then
  bench_run peer_uni peer_bench "union of $HOURLY hourly sketches GROUP BY day: peer hll_union_agg" \
    "SELECT sum(c) FROM (SELECT hll_cardinality(hll_union_agg(s)) AS c $union_from) AS d"
fi

# Every distinct-count result estimates the same number: v falls in exactly
# one group, one day, so per-group and per-day distinct counts add up to
# count(DISTINCT v).
for key in exact peer_v11 peer_t11 peer_v14 peer_t14 hll_v hll_t \
           grp_exact peer_grp grp_hll peer_uni uni_hll; do
  BENCH_ESTIMATES[$key]=1
done

# --- Report ----------------------------------------------------------------
elapsed=$(( $(date +%s) - started ))
pg_version=$(bench_psql postgres -A -t -c "SELECT version()")
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
report=$(cat <<EOF
# Benchmarks

Generated by \`make bench\` (test/bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC').

- machine: $(nproc) cores (${cpu:-unknown CPU}), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM
- server: $pg_version
- table: $(printf "%'d" "$BENCH_ROWS" 2>/dev/null || echo "$BENCH_ROWS") rows of (v bigint, t text = md5(v::text)); $size_ours$([ "$have_peer" = 1 ] && echo "; peer: $size_peer")
- each time: median of $BENCH_RUNS runs after one warm-up, psql \`\\timing\` (client-side, planning included), alternating with as many runs of \`count(v)\`
- serial: \`max_parallel_workers_per_gather = 0\`; parallel: \`= 2\`, \`parallel_setup_cost = parallel_tuple_cost = 0\`
- load average (1/5/15 min) at start: $load_start, at end: $(bench_load); whole run: ${elapsed}s

Ratios are what carry over between machines. "ratio to count(v)": a
workload's time divided by \`count(v)\` over the same table in the same
database and mode (the cost of just scanning the column), where the
count(v) runs alternate with the workload's runs in one session, so
background load cancels out. "ratio to peer": our ratio to count(v)
divided by the peer's for the same job at the same precision
(postgresql-hll at log2m = 14); below 1 means ours is faster. Bold rows
are this extension.

$(bench_report_times)

What each workload returned (the distinct counts all estimate
\`count(DISTINCT v)\`) and the plans of the warm-up runs
(EXPLAIN ANALYZE: aggregate nodes top-down, workers launched, disk spill):

$(bench_report_plans exact)
EOF
)
mkdir -p "$(dirname "$BENCH_OUT")"
printf '%s\n' "$report" >"$BENCH_OUT"
printf '%s\n' "$report"
bench_log "wrote $BENCH_OUT in ${elapsed}s"
