#!/usr/bin/env bash
# SQL benchmarks of the sketch extension, reported as ratios (docs/DESIGN.md,
# "Measuring"): hll side by side with the peer postgresql-hll; ddsketch side
# by side with the peer postgresql-15-tdigest (extension tdigest, in the same
# database: its type is named tdigest) and the exact percentile_cont; cms,
# topk, theta and bloom (which have no peer) against count(v) and the exact
# SQL answers.
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
#   BENCH_DENSE_PER_HOUR  distinct values per hourly sketch of the dense union
#                    workload (default BENCH_ROWS / 200, at most 50,000)
#   BENCH_OUT        report file (default docs/benchmarks.md)
#   BENCH_ONLY       comma-separated sections to run (default all): hll
#                    (with the peer postgresql-hll), theta, bloom (with
#                    counting_bloom and cuckoo), cms (with topk), canon,
#                    ddsketch, kll, ell (compared with hll's rows: run
#                    both); only the tables those need are built,
#                    e.g. BENCH_ONLY=kll,ddsketch BENCH_OUT=/tmp/q.md
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=test/bench/lib.sh
source "$here/lib.sh"

BENCH_ROWS=${BENCH_ROWS:-10000000}
BENCH_PER_HOUR=${BENCH_PER_HOUR:-100}
BENCH_OUT=${BENCH_OUT:-$root/docs/benchmarks.md}
NGROUPS=100000                              # GROUP BY workload: v % 100000
NGROUPS_BIG=1000000                         # and the same into 1,000,000 groups
HOURLY=$((720 * BENCH_PER_HOUR))           # 30 days x 24 hours x per hour
dense_default=$((BENCH_ROWS / 200)); [ "$dense_default" -le 50000 ] || dense_default=50000
DENSE_PER_HOUR=${BENCH_DENSE_PER_HOUR:-$((dense_default > 2 ? dense_default : 2))}

if ! [[ "$BENCH_ROWS" =~ ^[1-9][0-9]*$ ]]; then
  echo "BENCH_ROWS must be a positive integer, not '$BENCH_ROWS'" >&2
  exit 2
fi
BENCH_ONLY=${BENCH_ONLY:-}
bench_sections="hll theta bloom cms canon ddsketch kll ell"
for section in ${BENCH_ONLY//,/ }; do
  if [[ " $bench_sections " != *" $section "* ]]; then
    echo "BENCH_ONLY: no section '$section' (sections: $bench_sections)" >&2
    exit 2
  fi
done
# bench_want SECTION: whether this run measures it.
bench_want() { [ -z "$BENCH_ONLY" ] || [[ ",$BENCH_ONLY," == *",$1,"* ]]; }
# The tables several sections share: bench (hll, theta, bloom, ell; canon
# is built from it) and lat (ddsketch, kll).
need_bench=0 need_lat=0
for section in hll theta bloom canon ell; do bench_want $section && need_bench=1; done
for section in ddsketch kll; do bench_want $section && need_lat=1; done

started=$(date +%s)
load_start=$(bench_load)

# The peer is optional: without it (or without the hll section) the peer
# rows are left out.
have_peer=0
if bench_want hll; then
  have_peer=$(bench_psql postgres -A -t -c \
    "SELECT count(*) FROM pg_available_extensions WHERE name = 'hll'")
fi

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
  [ "$need_bench" = 0 ] || bench_psql "$db" -o /dev/null <<<"$make_table_sql"
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
elif bench_want hll; then
  bench_log "postgresql-hll (extension hll) is not available: peer rows skipped"
fi

# The dense union workload (hll's and ell's): 720 hourly sketches of
# DENSE_PER_HOUR distinct values each (hll at p = 14 is dense from ~3,000
# on: 12 KiB, stored in TOAST uncompressed; ell at p = 11 from 1,792 on: 7 KiB),
# hour h over v = h * stride + 1 .. h * stride + DENSE_PER_HOUR, stride =
# DENSE_PER_HOUR / 2, so neighbouring hours share half their values. Built
# from generate_series, not from bench: what is timed is the union of stored
# dense sketches, and every hour must reach the dense form.
dense_stride=$((DENSE_PER_HOUR / 2))
dense_from="generate_series(0, 719) AS h, generate_series(1, $DENSE_PER_HOUR) AS i"
# Exact distinct counts: the whole month, and the sum over days of each day's.
dense_exact_all=$((719 * dense_stride + DENSE_PER_HOUR))
dense_exact_day=$((30 * (23 * dense_stride + DENSE_PER_HOUR)))
# Its floor: a CPU loop as short as the unions (see the union rows).
dense_floor_sql="SELECT count(*) FROM generate_series(1, 150000)"

if bench_want hll; then  # --- hll data: hourly, hourly_dense
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
bench_log "building 720 hourly sketches of $DENSE_PER_HOUR distinct values per database"
bench_psql sketch_bench -o /dev/null <<SQL
CREATE TABLE hourly_dense AS
SELECT h AS hour, hll_agg(h * $dense_stride + i) AS s FROM $dense_from GROUP BY h;
VACUUM ANALYZE hourly_dense;
SQL
if [ "$have_peer" = 1 ]; then
  bench_psql peer_bench -o /dev/null <<SQL
CREATE TABLE hourly_dense AS
SELECT h AS hour, hll_add_agg(hll_hash_bigint(h * $dense_stride + i), 14) AS s
FROM $dense_from GROUP BY h;
VACUUM ANALYZE hourly_dense;
SQL
fi
dense_size_sql="SELECT pg_size_pretty(pg_total_relation_size('hourly_dense')) || ' for 720 hourly sketches of $DENSE_PER_HOUR distinct values ('
  || round(avg(pg_column_size(s))) || ' bytes each)' FROM hourly_dense"
dense_ours=$(bench_psql sketch_bench -A -t -c "$dense_size_sql")
dense_peer=$([ "$have_peer" = 1 ] && bench_psql peer_bench -A -t -c "$dense_size_sql" || echo "–")

size_sql="SELECT pg_size_pretty(pg_total_relation_size('bench')) || ' table, ' ||
  pg_size_pretty(pg_total_relation_size('hourly')) || ' for ' || count(*) || ' hourly sketches'
  FROM hourly"
size_ours=$(bench_psql sketch_bench -A -t -c "$size_sql")
size_peer=$([ "$have_peer" = 1 ] && bench_psql peer_bench -A -t -c "$size_sql" || echo "–")
fi  # hll data

if bench_want ell; then  # --- ell data: hourly_dense_ell
# The same 720 hours as hourly_dense, as ell sketches at the default p = 11
# (0.80% standard error, hll's p = 14 is 0.81%).
bench_log "building 720 hourly ell sketches of $DENSE_PER_HOUR distinct values"
bench_psql sketch_bench -o /dev/null <<SQL
CREATE TABLE hourly_dense_ell AS
SELECT h AS hour, ell_agg(h * $dense_stride + i) AS s FROM $dense_from GROUP BY h;
VACUUM ANALYZE hourly_dense_ell;
SQL
ell_info=$(bench_psql sketch_bench -A -t -c "SELECT pg_size_pretty(pg_total_relation_size('hourly_dense_ell'))
  || ' for 720 hourly ell sketches of $DENSE_PER_HOUR distinct values (p 11, ' || round(avg(pg_column_size(s)))
  || ' bytes each, ' || count(*) FILTER (WHERE ell_info(s)->>'representation' = 'dense') || ' dense)' FROM hourly_dense_ell")
fi  # ell data

if bench_want theta; then  # --- theta data
# theta data: two stored sketches at the default lg_k 12 for the
# intersection workload, a of the v with v % 3 <> 0 and b of those with
# v % 3 <> 1 (v is a hash, so each is ~2/3 of the distinct values and they
# share half of each: J = 1/3); full (4,096 hashes each, 32 KiB, kept in
# TOAST like any stored sketch of that size) as soon as each set holds more
# than 4,096 values, i.e. above ~10,000 rows. Built once, untimed; the exact
# size of the intersection, count(DISTINCT v) WHERE v % 3 = 2, is what the
# intersection estimates.
bench_log "building the two theta sketches of the intersection workload"
bench_psql sketch_bench -o /dev/null <<SQL
CREATE TABLE theta_pair AS
SELECT (SELECT theta_agg(v) FROM bench WHERE v % 3 <> 0) AS a,
       (SELECT theta_agg(v) FROM bench WHERE v % 3 <> 1) AS b;
VACUUM ANALYZE theta_pair;
SQL
theta_both_exact=$(bench_psql sketch_bench -A -t -c "SELECT count(DISTINCT v) FROM bench WHERE v % 3 = 2")
theta_info=$(bench_psql sketch_bench -A -t -c "
  SELECT 'table theta_pair of two sketches theta_agg(v) at lg_k 12, a over v % 3 <> 0 and b over v % 3 <> 1: '
         || (theta_info(a)->>'retained') || ' and ' || (theta_info(b)->>'retained') || ' hashes, '
         || pg_size_pretty(pg_column_size(a)::bigint) || ' and ' || pg_size_pretty(pg_column_size(b)::bigint)
         || ' stored; a ∩ b holds $theta_both_exact distinct v'
  FROM theta_pair")
fi  # theta data

if bench_want cms; then  # --- cms and topk data
# cms data. Frequencies and a top 10 only mean something on skewed data (in
# bench every value occurs ~2.7 times, and a top 10 would be noise, see
# docs/cms.md), so the cms workloads get their own table, zipf, of
# BENCH_ROWS rows whose v follows a power law: v = floor(exp(U * ln K)) is
# log-uniform on [1, K), so value r occurs with probability
# ln(1 + 1/r) / ln K ~ 1 / (r ln K): Zipf's law with exponent 1, the top
# value ~5% of the rows. K = rows / 10 gives ~1M distinct values at 10M
# rows. hour = row number % 24 deals the rows into 24 "hours" alike, for a
# day of hourly sketches (docs/cms.md's rollup), built here at the defaults
# (epsilon 0.001, delta 0.01, k 100), outside the timing. month_hour = row
# number % 720 deals them into the 720 hours of 30 days alike, for topk's
# month of hourly summaries (topk_agg(v) at the default k = 1024), built
# outside the timing too (the column costs no space: a row of a bigint and
# two smallints pads to the same 40 bytes as one of a bigint and one
# smallint, and it draws no random number, so v is what it was). Both
# workloads (cms and topk) read the same table against its own count(v).
# Deterministic like bench (setseed, serial generation); only our database
# needs it, the peer has no frequency sketch.
zipf_domain=$((BENCH_ROWS / 10))
[ "$zipf_domain" -ge 2 ] || zipf_domain=2
bench_log "building the zipf table, its 24 hourly cms sketches and 720 hourly topk summaries"
bench_psql sketch_bench -o /dev/null <<SQL
SELECT setseed(0.25);
CREATE TABLE zipf AS
SELECT floor(exp(random() * ln($zipf_domain)))::bigint AS v, (g % 24)::smallint AS hour,
       (g % 720)::smallint AS month_hour
FROM generate_series(0, $BENCH_ROWS - 1) AS g;
VACUUM (FREEZE, ANALYZE) zipf;
CREATE TABLE cms_hourly AS SELECT hour, cms_agg(v) AS s FROM zipf GROUP BY hour;
VACUUM ANALYZE cms_hourly;
CREATE TABLE topk_hourly AS SELECT month_hour AS hour, topk_agg(v) AS s FROM zipf GROUP BY month_hour;
VACUUM ANALYZE topk_hourly;
SQL
# For the header: how skewed the table came out.
zipf_info=$(bench_psql sketch_bench -A -t -c "
  SELECT pg_size_pretty(pg_total_relation_size('zipf')) || ' table, '
         || count(*) || ' distinct values, the most frequent ' || max(c)
         || ' times (' || round(100.0 * max(c) / sum(c), 1) || '% of the rows); '
         || (SELECT pg_size_pretty(pg_total_relation_size('cms_hourly')) || ' for '
                    || count(*) || ' hourly sketches' FROM cms_hourly)
  FROM (SELECT v, count(*) AS c FROM zipf GROUP BY v) AS f")
# topk's side: the hourly summaries' size and how far their union's bounds
# reach (max_error against its bound N/(k+1)), read once, untimed.
topk_info=$(bench_psql sketch_bench -A -t -c "
  SELECT pg_size_pretty(pg_total_relation_size('topk_hourly')) || ' for ' || count(*)
         || ' hourly topk_agg(v) summaries (' || round(avg(pg_column_size(s))) || ' bytes per summary); their union: max_error '
         || (SELECT topk_max_error(u) || ' (N/(k+1) = ' || topk_total(u) / 1025 || ')'
             FROM (SELECT topk_union(s) AS u FROM topk_hourly) AS x)
  FROM topk_hourly")
fi  # cms and topk data

if bench_want bloom; then  # --- bloom, counting_bloom and cuckoo data
# bloom data, over bench's v. bloom_agg is sized for the exact distinct
# count, computed once here. The probe set is half of the distinct values,
# those with an even v (v is a hash, so its low bit is a fair coin): once in
# a table with a primary key, what the exact EXISTS looks up, and once as a
# filter sized for it at p = 0.01 (stored, so the probe reads it from TOAST
# like a real one). Probing every row of bench then asks about ~50% present
# and ~50% absent rows; every absent row the filter lets through is a false
# positive.
bench_log "building the bloom probe set and its filter"
bloom_n=$(bench_psql sketch_bench -A -t -c "SELECT count(DISTINCT v) FROM bench")
bench_psql sketch_bench -o /dev/null <<SQL
CREATE TABLE bloom_subset AS SELECT DISTINCT v FROM bench WHERE v % 2 = 0;
ALTER TABLE bloom_subset ADD PRIMARY KEY (v);
VACUUM (FREEZE, ANALYZE) bloom_subset;
SQL
bloom_subset_n=$(bench_psql sketch_bench -A -t -c "SELECT count(*) FROM bloom_subset")
bench_psql sketch_bench -o /dev/null <<SQL
CREATE TABLE bloom_filter AS
SELECT bloom_agg(v, $bloom_subset_n, 0.01) AS f FROM bloom_subset;
VACUUM ANALYZE bloom_filter;
CREATE TABLE bloom_split_filter AS
SELECT bloom_agg(v, $bloom_subset_n, 0.01, 'split_block') AS f FROM bloom_subset;
VACUUM ANALYZE bloom_split_filter;
CREATE TABLE counting_bloom_filter AS
SELECT counting_bloom_agg(v, $bloom_subset_n, 0.01) AS f FROM bloom_subset;
VACUUM ANALYZE counting_bloom_filter;
CREATE TABLE cuckoo_filter AS
SELECT cuckoo_agg(v, $bloom_subset_n, 0.01) AS f FROM bloom_subset;
VACUUM ANALYZE cuckoo_filter;
SQL
bloom_info=$(bench_psql sketch_bench -A -t -c "
  SELECT 'bloom_agg sized for n = ' || $bloom_n || ' (count(DISTINCT v)) at p = 0.01: '
         || (SELECT pg_size_pretty(bytes) || ', ' || hashes || ' hashes'
             FROM bloom_sizing($bloom_n, 0.01))
         || '; probe set: the ' || $bloom_subset_n || ' distinct even v, '
         || pg_size_pretty(pg_total_relation_size('bloom_subset')) || ' as a table with its primary key, '
         || pg_size_pretty((bloom_info(f)->>'bytes')::bigint) || ' as a filter (p = 0.01, bloom_fpp '
         || round((bloom_fpp(f) * 100)::numeric, 2) || '%)'
  FROM bloom_filter")
filters_info=$(bench_psql sketch_bench -A -t -c "
  SELECT 'the same probe set as a counting_bloom filter (p = 0.01): '
         || (SELECT pg_size_pretty((counting_bloom_info(f)->>'bytes')::bigint) FROM counting_bloom_filter)
         || '; as a cuckoo filter (p = 0.01, buckets of 4): '
         || (SELECT pg_size_pretty((cuckoo_info(f)->>'bytes')::bigint) || ', ' || (cuckoo_info(f)->>'fingerprint_bits')
                    || '-bit fingerprints, load ' || round((cuckoo_info(f)->>'load')::numeric, 3)
                    || ', cuckoo_fpp ' || round((cuckoo_fpp(f) * 100)::numeric, 2) || '%'
             FROM cuckoo_filter)")
fi  # bloom data

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

if [ "$need_bench" = 1 ]; then
bench_run floor sketch_bench "count(v) — the floor" "$floor_sql"
bench_run exact sketch_bench "count(DISTINCT v) — exact" \
  "SELECT count(DISTINCT v) FROM bench"
fi
if bench_want hll; then
bench_run hll_v sketch_bench "**sketch: hll_agg(v)** (p 14)" \
  "SELECT hll_cardinality(hll_agg(v)) FROM bench" "$peer_v"
bench_run hll_t sketch_bench "**sketch: hll_agg(t)** (p 14)" \
  "SELECT hll_cardinality(hll_agg(t)) FROM bench" "$peer_t"
fi  # hll
if bench_want ell; then
bench_run ell_v sketch_bench "**ell: ell_agg(v)** (p 11: 0.80%, as hll's p 14)" \
  "SELECT ell_cardinality(ell_agg(v)) FROM bench"
bench_run ell_t sketch_bench "**ell: ell_agg(t)** (p 11)" \
  "SELECT ell_cardinality(ell_agg(t)) FROM bench"
fi  # ell
# theta_agg at the default lg_k 12 (k = 4,096 hashes, 1.6% standard error,
# twice hll's 0.81% at p 14): no peer, postgresql-hll has no KMV sketch.
if bench_want theta; then
bench_run theta_v sketch_bench "**theta: theta_agg(v)** (lg_k 12)" \
  "SELECT theta_count(theta_agg(v)) FROM bench"
fi
if bench_want hll; then

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

# The same rollup into NGROUPS_BIG groups (about 10 rows each at 10M rows):
# tiny per-group states, where the hash table's memory and spills decide.
group_from_big="FROM (SELECT v % $NGROUPS_BIG AS g, v FROM bench) AS b GROUP BY g"
if [ "$have_peer" = 1 ]; then peer_grp_big=peer_grp_big; else peer_grp_big=""; fi
bench_run grp_big_floor sketch_bench "GROUP BY $NGROUPS_BIG groups: count(v)" \
  "SELECT sum(c) FROM (SELECT count(v) AS c $group_from_big) AS s"
bench_run grp_big_hll sketch_bench "**GROUP BY $NGROUPS_BIG groups: hll_agg(v)**" \
  "SELECT sum(hll_cardinality(h)) FROM (SELECT hll_agg(v) AS h $group_from_big) AS s" "$peer_grp_big"
if [ "$have_peer" = 1 ]; then
  bench_run peer_grp_big peer_bench "GROUP BY $NGROUPS_BIG groups: peer hll_add_agg(…, 14)" \
    "SELECT sum(hll_cardinality(h)) FROM (SELECT hll_add_agg(hll_hash_bigint(v), 14) AS h $group_from_big) AS s"
fi

# Union: merge each day's 24 x BENCH_PER_HOUR hourly sketches, 30 days.
union_from="FROM hourly GROUP BY hour / 24"
bench_run uni_hll sketch_bench "**union of $HOURLY hourly sketches GROUP BY day: hll_union**" \
  "SELECT sum(c) FROM (SELECT hll_cardinality(hll_union(s)) AS c $union_from) AS d" "$peer_uni"
if [ "$have_peer" = 1 ]; then
  bench_run peer_uni peer_bench "union of $HOURLY hourly sketches GROUP BY day: peer hll_union_agg" \
    "SELECT sum(c) FROM (SELECT hll_cardinality(hll_union_agg(s)) AS c $union_from) AS d"
fi

# Dense union: 720 stored dense hourly sketches merged into one, and by day
# (30 groups of 24): a register max over 12 KiB per sketch (SIMD, see
# docs/hll.md) after detoasting it. These take ~10-70 ms, so count(v) over
# bench (~1 s) is a poor pair for them: their floor is a CPU loop of similar
# length, the same query in both databases, so the ratio to the peer is still
# unbiased. A row reading (detoasting) the 720 sketches without merging them
# shows how much of the union is the read.
bench_set_floor sketch_bench "$dense_floor_sql"
bench_set_floor peer_bench "$dense_floor_sql"
if [ "$have_peer" = 1 ]; then peer_dense=peer_dense peer_dense_day=peer_dense_day
else peer_dense="" peer_dense_day=""; fi
bench_run dense_read sketch_bench "hourly_dense: read the 720 sketches (get_byte(s::bytea, 0))" \
  "SELECT sum(get_byte(s::bytea, 0)) FROM hourly_dense"
bench_run uni_dense sketch_bench "**union of 720 dense hourly sketches: hll_union**" \
  "SELECT hll_cardinality(hll_union(s)) FROM hourly_dense" "$peer_dense"
bench_run uni_dense_day sketch_bench "**union of 720 dense hourly sketches GROUP BY day: hll_union**" \
  "SELECT sum(c) FROM (SELECT hll_cardinality(hll_union(s)) AS c FROM hourly_dense GROUP BY hour / 24) AS d" \
  "$peer_dense_day"
if [ "$have_peer" = 1 ]; then
  bench_run peer_dense peer_bench "union of 720 dense hourly sketches: peer hll_union_agg" \
    "SELECT hll_cardinality(hll_union_agg(s)) FROM hourly_dense"
  bench_run peer_dense_day peer_bench "union of 720 dense hourly sketches GROUP BY day: peer hll_union_agg" \
    "SELECT sum(c) FROM (SELECT hll_cardinality(hll_union_agg(s)) AS c FROM hourly_dense GROUP BY hour / 24) AS d"
fi
bench_set_floor sketch_bench "$floor_sql"
bench_set_floor peer_bench "$floor_sql"
fi  # hll
if bench_want ell; then
bench_set_floor sketch_bench "$dense_floor_sql"
bench_run ell_uni_dense sketch_bench "**union of 720 dense hourly sketches: ell_union** (p 11)" \
  "SELECT ell_cardinality(ell_union(s)) FROM hourly_dense_ell"
bench_run ell_uni_dense_day sketch_bench "**union of 720 dense hourly sketches GROUP BY day: ell_union** (p 11)" \
  "SELECT sum(c) FROM (SELECT ell_cardinality(ell_union(s)) AS c FROM hourly_dense_ell GROUP BY hour / 24) AS d"
bench_set_floor sketch_bench "$floor_sql"
fi  # ell

# --- theta: intersecting two stored sketches ----------------------------------
# The intersection of theta_pair's two 4,096-entry sketches, 1,000 times in
# one query (a nested loop over generate_series: each row detoasts both
# stored sketches and intersects them), so its ms are µs per intersection.
# Against its own floor: the same loop reading both sketches (theta_count of
# each, which detoasts them too) without intersecting. Then the floor is
# count(v) over bench again.
if bench_want theta; then
theta_loop="FROM theta_pair, generate_series(1, 1000) AS g"
theta_floor_sql="SELECT max(theta_count(a) + theta_count(b)) $theta_loop"
bench_set_floor sketch_bench "$theta_floor_sql"
bench_run theta_floor sketch_bench "theta_pair: theta_count(a) + theta_count(b), 1,000 times — its floor" "$theta_floor_sql"
bench_run theta_int sketch_bench "**theta: intersection of two 4,096-entry sketches (a & b), 1,000 times** (ms = µs per intersection)" \
  "SELECT max(theta_count(a & b)) $theta_loop"
bench_set_floor sketch_bench "$floor_sql"
fi  # theta

# --- bloom (issue 4) ---------------------------------------------------------
# On bench, against its count(v) floor. The peer has no Bloom filter (nor
# does postgresql-15-tdigest, which is a quantile sketch): no peer column.
# bloom_agg's result is the filter's distinct-count estimate from its fill,
# so it is checked against count(DISTINCT v) like the hll rows.
if bench_want bloom; then
bench_run bloom_agg sketch_bench "**bloom: bloom_agg(v, $bloom_n, 0.01)**" \
  "SELECT bloom_cardinality(bloom_agg(v, $bloom_n, 0.01)) FROM bench"
# Probing: how many rows of bench may hold a value of the probe set. The
# filter is a scalar subquery (an InitPlan, run once), as docs/bloom.md
# shows it; the exact answer is an EXISTS against the set's primary key
# (the planner picks how: index lookups or a hash semi-join).
bench_run bloom_probe sketch_bench "**bloom: count(*) WHERE bloom_contains(filter of half the values, v)**" \
  "SELECT count(*) FROM bench WHERE bloom_contains((SELECT f FROM bloom_filter), v)"
# The split-block layout (Parquet's filter): one block per value, so one
# cache line per add and probe instead of k; same n and p, same probe set.
bench_run bloom_split_agg sketch_bench "**bloom: bloom_agg(v, $bloom_n, 0.01, 'split_block')**" \
  "SELECT bloom_cardinality(bloom_agg(v, $bloom_n, 0.01, 'split_block')) FROM bench"
bench_run bloom_split_probe sketch_bench "**bloom: count(*) WHERE bloom_contains(split-block filter of half the values, v)**" \
  "SELECT count(*) FROM bench WHERE bloom_contains((SELECT f FROM bloom_split_filter), v)"
bench_run bloom_exists sketch_bench "the same, exact: count(*) WHERE EXISTS (… bloom_subset s WHERE s.v = b.v), primary key" \
  "SELECT count(*) FROM bench b WHERE EXISTS (SELECT 1 FROM bloom_subset s WHERE s.v = b.v)"

# --- counting_bloom and cuckoo (issue 14): membership with deletes ---------------
# The same n and p as bloom_agg and the same probe set, so that each row
# reads beside bloom's (the issue: counting_bloom within 1.3 x bloom's time;
# cuckoo_agg <= 1.6 x and its probes <= 2.0 x count(v)). The aggregates'
# results are their distinct-count estimates (counting_bloom from its
# non-zero cells like bloom; cuckoo the fingerprints it holds).
bench_run cbloom_agg sketch_bench "**counting_bloom: counting_bloom_agg(v, $bloom_n, 0.01)**" \
  "SELECT counting_bloom_cardinality(counting_bloom_agg(v, $bloom_n, 0.01)) FROM bench"
bench_run cuckoo_agg sketch_bench "**cuckoo: cuckoo_agg(v, $bloom_n, 0.01)**" \
  "SELECT cuckoo_cardinality(cuckoo_agg(v, $bloom_n, 0.01)) FROM bench"
bench_run cbloom_probe sketch_bench "**counting_bloom: count(*) WHERE counting_bloom_contains(filter of half the values, v)**" \
  "SELECT count(*) FROM bench WHERE counting_bloom_contains((SELECT f FROM counting_bloom_filter), v)"
bench_run cuckoo_probe sketch_bench "**cuckoo: count(*) WHERE cuckoo_contains(filter of half the values, v)**" \
  "SELECT count(*) FROM bench WHERE cuckoo_contains((SELECT f FROM cuckoo_filter), v)"
fi  # bloom

# --- cms (issue 3) -----------------------------------------------------------
# On the skewed zipf table, so from here on the floor is count(v) over zipf.
if bench_want cms; then
zipf_floor_sql="SELECT count(v) FROM zipf"
bench_set_floor sketch_bench "$zipf_floor_sql"
bench_run zipf_floor sketch_bench "zipf table: count(v) — its floor" "$zipf_floor_sql"
# cms_agg at the defaults. Its result, read back from the sketch, is the
# estimated frequency of its top candidate, to compare with the exact
# frequencies' maximum; reading it costs nothing next to the aggregate.
bench_run cms_agg sketch_bench "**cms: cms_agg(v)** (ε 0.001, δ 0.01, k 100)" \
  "SELECT t.frequency FROM (SELECT cms_agg(v) AS s FROM zipf) AS a, cms_topk(a.s, 1) AS t"
# topk_agg at the default k = 1024 (every count within N/1025), then its top
# 10, best first, as text: against the exact top 10 below.
bench_run topk_agg sketch_bench "**topk: topk_agg(v)** (k 1024), then its top 10" \
  "SELECT string_agg(t.item, ' ' ORDER BY t.n)
   FROM (SELECT topk_agg(v) AS s FROM zipf) AS a,
        topk_items(a.s, 10) WITH ORDINALITY AS t(item, estimate, lower_bound, upper_bound, n)"
# The exact frequencies, all of them (max(c) only makes the planner compute
# every group while returning one row).
bench_run cms_exact sketch_bench "exact frequencies: SELECT v, count(*) … GROUP BY v (their max)" \
  "SELECT max(c) FROM (SELECT v, count(*) AS c FROM zipf GROUP BY v) AS f"
# The day's top 10 from the 24 hourly sketches (merged by cms_union), and
# exactly from the raw rows. Both return the values best first, as text.
bench_run cms_topk sketch_bench "**cms: cms_topk(cms_union of 24 hourly sketches, 10)**" \
  "SELECT string_agg(t.value, ' ' ORDER BY t.n)
   FROM cms_topk((SELECT cms_union(s) FROM cms_hourly), 10) WITH ORDINALITY AS t(value, frequency, n)"
# The month's top 10 from its 720 hourly topk summaries (topk_union).
bench_run topk_uni sketch_bench "**topk: union of 720 hourly summaries (topk_union), then the top 10**" \
  "SELECT string_agg(t.item, ' ' ORDER BY t.n)
   FROM (SELECT topk_union(s) AS s FROM topk_hourly) AS a,
        topk_items(a.s, 10) WITH ORDINALITY AS t(item, estimate, lower_bound, upper_bound, n)"
bench_run cms_top_exact sketch_bench "exact top 10: GROUP BY v ORDER BY count(*) DESC LIMIT 10" \
  "SELECT string_agg(v::text, ' ' ORDER BY c DESC, v)
   FROM (SELECT v, count(*) AS c FROM zipf GROUP BY v ORDER BY count(*) DESC, v LIMIT 10) AS top"
fi  # cms

# --- Values equal in SQL, hashed equal (issue 17) -------------------------------
# What the slower canonical forms cost: citext is hashed through its hash
# operator class (it lowercases every value), interval by its normalized
# span, text under a nondeterministic ICU collation by the collation's hash
# (an ICU sort key per value). Table canon holds bench's t as text, as citext
# and under the collation, and an interval from v, against its own count(t).
if bench_want canon; then
bench_log "building the canon table (citext, interval, ICU collation)"
bench_psql sketch_bench -o /dev/null <<SQL
CREATE EXTENSION IF NOT EXISTS citext;
CREATE COLLATION IF NOT EXISTS case_insensitive
  (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE canon AS
SELECT t, t::citext AS c, t COLLATE case_insensitive AS ci,
       make_interval(secs => (v % 1000000)::double precision) AS i
FROM bench;
VACUUM (FREEZE, ANALYZE) canon;
SQL
canon_floor_sql="SELECT count(t) FROM canon"
bench_set_floor sketch_bench "$canon_floor_sql"
bench_run canon_floor sketch_bench "canon table: count(t) — its floor" "$canon_floor_sql"
bench_run canon_text sketch_bench "**hll_agg(t)**, text: its bytes" \
  "SELECT hll_cardinality(hll_agg(t)) FROM canon"
bench_run canon_citext sketch_bench "**hll_agg(c)**, citext: its hash operator class (lowercases)" \
  "SELECT hll_cardinality(hll_agg(c)) FROM canon"
bench_run canon_collated sketch_bench "**hll_agg(ci)**, text under a nondeterministic ICU collation" \
  "SELECT hll_cardinality(hll_agg(ci)) FROM canon"
bench_run canon_interval sketch_bench "**hll_agg(i)**, interval: its normalized span" \
  "SELECT hll_cardinality(hll_agg(i)) FROM canon"
fi  # canon

# --- ddsketch and kll (quantiles) ------------------------------------------------
# Table lat: BENCH_ROWS latency-like values, log-normal: v = exp(3 + 1.5 z)
# milliseconds, z a standard normal deviate (Box-Muller from two random()
# calls), so the median is ~20 ms, p99 ~660 ms and the values span ~10^-2 ..
# 10^5 ms; hour = row % 720 deals the rows into 720 "hours" (30 days) alike.
# Deterministic like bench (setseed, serial generation). The peer, the
# t-digest of postgresql-15-tdigest at compression 100 (its usual setting),
# lives in the same database when installed. The timed exact answer is
# percentile_cont(0.99) (one sort); the reference for the errors, p50, p95
# and p99 by percentile_disc (the rank ddsketch answers for; with this many
# distinct values it is within a hair of percentile_cont, both shown in the
# header), is computed once, untimed. The hourly sketches for the union
# workloads (ddsketch at the default relative accuracy 0.01, kll at the
# default k 200, tdigest(v, 100)) are built untimed too. kll (issue 26) runs
# on the same table against the same peer: its quantiles' guarantee is a
# rank error (1.33% at k 200), not a relative one.
if [ "$need_lat" = 1 ]; then
have_tdigest=$(bench_psql postgres -A -t -c \
  "SELECT count(*) FROM pg_available_extensions WHERE name = 'tdigest'")
bench_log "building the lat table and its 720 hourly sketches$([ "$have_tdigest" = 1 ] && echo " and t-digests")"
bench_psql sketch_bench -o /dev/null <<SQL
SELECT setseed(0.75);
CREATE TABLE lat AS
SELECT exp(3 + 1.5 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())) AS v,
       (g % 720)::smallint AS hour
FROM generate_series(0, $BENCH_ROWS - 1) AS g;
VACUUM (FREEZE, ANALYZE) lat;
SQL
if bench_want ddsketch; then
  bench_psql sketch_bench -o /dev/null <<SQL
CREATE TABLE dd_hourly AS SELECT hour, ddsketch_agg(v) AS s FROM lat GROUP BY hour;
VACUUM ANALYZE dd_hourly;
SQL
fi
if bench_want kll; then
  bench_psql sketch_bench -o /dev/null <<SQL
CREATE TABLE kll_hourly AS SELECT hour, kll_agg(v) AS s FROM lat GROUP BY hour;
VACUUM ANALYZE kll_hourly;
SQL
fi
if [ "$have_tdigest" = 1 ]; then
  bench_psql sketch_bench -o /dev/null <<SQL
CREATE EXTENSION IF NOT EXISTS tdigest;
CREATE TABLE td_hourly AS SELECT hour, tdigest(v, 100) AS s FROM lat GROUP BY hour;
VACUUM ANALYZE td_hourly;
SQL
else
  bench_log "postgresql-15-tdigest (extension tdigest) is not available: its rows skipped"
fi
lat_quantiles="'{0.5, 0.95, 0.99}'"
lat_exact=$(bench_psql sketch_bench -A -t -c "
  SELECT percentile_disc($lat_quantiles::float8[]) WITHIN GROUP (ORDER BY v) FROM lat")
lat_exact_cont=$(bench_psql sketch_bench -A -t -c "
  SELECT percentile_cont($lat_quantiles::float8[]) WITHIN GROUP (ORDER BY v) FROM lat")
hourly_size() {  # hourly_size TABLE: its size and the mean size of a sketch
  bench_psql sketch_bench -A -t -c "
    SELECT pg_size_pretty(pg_total_relation_size('$1')) || ' (' || round(avg(pg_column_size(s))) || ' bytes per sketch)'
    FROM $1"
}
lat_info=$(bench_psql sketch_bench -A -t -c "
  SELECT pg_size_pretty(pg_total_relation_size('lat')) || ' table, v from '
         || round(min(v)::numeric, 4) || ' to ' || round(max(v)::numeric, 1) || ' ms'
  FROM lat")
lat_info="$lat_info; exact p50, p95, p99: percentile_disc $(bench_fmt_quantiles "$lat_exact"), percentile_cont $(bench_fmt_quantiles "$lat_exact_cont"); 720 hourly sketches:"
bench_want ddsketch && lat_info="$lat_info ddsketch_agg(v) $(hourly_size dd_hourly),"
bench_want kll && lat_info="$lat_info kll_agg(v) $(hourly_size kll_hourly),"
if [ "$have_tdigest" = 1 ]; then lat_info="$lat_info tdigest(v, 100) $(hourly_size td_hourly)"; fi
lat_info=${lat_info%,}

lat_floor_sql="SELECT count(v) FROM lat"
bench_set_floor sketch_bench "$lat_floor_sql"
bench_run lat_floor sketch_bench "lat table: count(v) — its floor" "$lat_floor_sql"
bench_run lat_exact sketch_bench "exact p99: percentile_cont(0.99) WITHIN GROUP (ORDER BY v)" \
  "SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY v) FROM lat"
# The rows of one job, for each quantile sketch this run measures and the
# peer: JOB agg (the aggregate over lat) or uni (the union of the 720 hourly
# sketches), each then p50/p95/p99.
lat_job() {  # lat_job JOB DDSKETCH_LABEL SQL KLL_LABEL SQL TDIGEST_LABEL SQL
  local job=$1 peer=""
  [ "$have_tdigest" = 1 ] && peer=td_$job
  if bench_want ddsketch; then bench_run "dd_$job" sketch_bench "$2" "$3" "$peer"; fi
  if bench_want kll; then bench_run "kll_$job" sketch_bench "$4" "$5" "$peer"; fi
  if [ -n "$peer" ]; then bench_run "$peer" sketch_bench "$6" "$7"; fi
}
lat_job agg \
  "**ddsketch: ddsketch_agg(v)**, then p50/p95/p99 (α 0.54%)" \
  "SELECT ddsketch_quantiles(ddsketch_agg(v), $lat_quantiles) FROM lat" \
  "**kll: kll_agg(v)**, then p50/p95/p99 (k 200: rank error 1.33%)" \
  "SELECT kll_quantiles(kll_agg(v), $lat_quantiles) FROM lat" \
  "peer: tdigest(v, 100), then p50/p95/p99 (tdigest_percentile)" \
  "SELECT tdigest_percentile(d, $lat_quantiles::float8[]) FROM (SELECT tdigest(v, 100) AS d FROM lat) AS a"
# Union: the quantiles of the whole month from its 720 hourly sketches.
lat_job uni \
  "**ddsketch: union of 720 hourly sketches (ddsketch_union), then p50/p95/p99**" \
  "SELECT ddsketch_quantiles(ddsketch_union(s), $lat_quantiles) FROM dd_hourly" \
  "**kll: union of 720 hourly sketches (kll_union), then p50/p95/p99**" \
  "SELECT kll_quantiles(kll_union(s), $lat_quantiles) FROM kll_hourly" \
  "peer: union of 720 hourly t-digests, tdigest_percentile(s, …) over them" \
  "SELECT tdigest_percentile(s, $lat_quantiles::float8[]) FROM td_hourly"
BENCH_FMT[lat_exact]="%.3f"
for key in dd_agg kll_agg td_agg dd_uni kll_uni td_uni; do
  BENCH_FMT[$key]="quantiles:p50,p95,p99"
  BENCH_ERROR[$key]=$(bench_quantile_errors "${BENCH_RESULT[$key]:-}" "$lat_exact" p50,p95,p99)
done
BENCH_ERROR[lat_exact]=$(bench_quantile_errors "{${BENCH_RESULT[lat_exact]:-}}" \
  "{$(awk -F, '{ gsub(/[{}]/, ""); print $3 }' <<<"$lat_exact")}" "p99 vs percentile_disc")
fi  # ddsketch and kll

# Every distinct-count result estimates the same number: v falls in exactly
# one group, one day, so per-group and per-day distinct counts add up to
# count(DISTINCT v). bloom_agg's fill-based estimate is one too.
for key in exact peer_v11 peer_t11 peer_v14 peer_t14 hll_v hll_t theta_v \
           grp_exact peer_grp grp_hll peer_grp_big grp_big_hll peer_uni uni_hll bloom_agg cbloom_agg \
           cuckoo_agg ell_v ell_t; do
  BENCH_ESTIMATES[$key]=exact
done
# The dense union rows estimate their own exact counts (see hourly_dense).
BENCH_RESULT[dense_exact_all]=${dense_exact_all:-} BENCH_RESULT[dense_exact_day]=${dense_exact_day:-}
for key in uni_dense peer_dense ell_uni_dense; do BENCH_ESTIMATES[$key]=dense_exact_all; done
for key in uni_dense_day peer_dense_day ell_uni_dense_day; do BENCH_ESTIMATES[$key]=dense_exact_day; done
# The intersection estimates the exact count of v in both a and b.
BENCH_RESULT[theta_int_exact]=${theta_both_exact:-}
BENCH_ESTIMATES[theta_int]=theta_int_exact
# µs per call of a workload that makes 1,000 calls: its ms, to 1 decimal.
bench_us_per() {
  if [ -n "${1:-}" ]; then awk -v ms="$1" 'BEGIN { printf "%.1f\n", ms }'; else echo "–"; fi
}
BENCH_ESTIMATES[cms_agg]=cms_exact

# The bloom probe's excess over the exact EXISTS is its false positives
# (a filter has no false negatives, so a negative difference is a bug),
# as a share of the rows whose value is not in the set, next to p.
bloom_errors() {  # bloom_errors [PROBE KEY]: bloom_probe unless named
  local found=${BENCH_RESULT[${1:-bloom_probe}]:-} exact=${BENCH_RESULT[bloom_exists]:-}
  if [ -z "$found" ] || [ -z "$exact" ]; then echo "–"; return; fi
  awk -v f="$found" -v x="$exact" -v rows="$BENCH_ROWS" 'BEGIN {
    absent = rows - x; share = 0; note = ""
    if (absent > 0) share = 100 * (f - x) / absent
    if (f < x) note = " — FEWER THAN EXACT: false negatives"
    printf "%+d false positives (%.2f%% of the %d rows not in the set; p = 1%%)%s\n",
      f - x, share, absent, note }'
}
# Whether a top-10 list (cms_topk's, topk's) holds the same values as the
# exact one, and in the same order.
topk_agreement() {  # topk_agreement KEY
  local ours=${BENCH_RESULT[$1]:-} exact=${BENCH_RESULT[cms_top_exact]:-} shared
  if [ -z "$ours" ] || [ -z "$exact" ]; then echo "–"; return; fi
  if [ "$ours" = "$exact" ]; then echo "same top-10 set, same order"; return; fi
  shared=$(comm -12 <(tr ' ' '\n' <<<"$ours" | sort) <(tr ' ' '\n' <<<"$exact" | sort) | wc -l)
  if [ "$shared" -eq 10 ]; then echo "same top-10 set, other order"
  else echo "top-10 sets differ: $shared of 10 shared"; fi
}
BENCH_ERROR[bloom_probe]=$(bloom_errors)
BENCH_ERROR[cbloom_probe]=$(bloom_errors cbloom_probe)
BENCH_ERROR[cuckoo_probe]=$(bloom_errors cuckoo_probe)
for key in cms_topk topk_agg topk_uni; do
  BENCH_ERROR[$key]=$(topk_agreement "$key")
done

# --- Report ----------------------------------------------------------------
elapsed=$(( $(date +%s) - started ))
pg_version=$(bench_psql postgres -A -t -c "SELECT version()")
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
rows_fmt=$(printf "%'d" "$BENCH_ROWS" 2>/dev/null || echo "$BENCH_ROWS")
# The header's lines on the data, and the targets, of the sections this run
# measured (BENCH_ONLY).
data_lines=()
if bench_want hll; then
  data_lines+=("- table: $rows_fmt rows of (v bigint, t text = md5(v::text)); $size_ours$([ "$have_peer" = 1 ] && echo "; peer: $size_peer")"
               "- dense union: table hourly_dense, $dense_ours$([ "$have_peer" = 1 ] && echo "; peer: $dense_peer")")
elif [ "$need_bench" = 1 ]; then
  data_lines+=("- table: $rows_fmt rows of (v bigint, t text = md5(v::text))")
fi
bench_want ell && data_lines+=("- ell: table hourly_dense_ell, $ell_info")
bench_want theta && data_lines+=("- theta: $theta_info; their intersection (a & b): $(bench_us_per "${BENCH_MS_SERIAL[theta_int]:-}") µs serial, of which $(bench_us_per "${BENCH_MS_SERIAL[theta_floor]:-}") µs reading the two stored sketches")
bench_want cms && data_lines+=("- cms and topk: table zipf, $rows_fmt rows of (v bigint = floor(exp(random() · ln $zipf_domain)), a power law, hour smallint = row % 24, month_hour smallint = row % 720); $zipf_info; $topk_info")
bench_want bloom && data_lines+=("- bloom: $bloom_info" "- counting_bloom and cuckoo: $filters_info")
[ "$need_lat" = 0 ] || data_lines+=("- $(bench_want ddsketch && echo ddsketch)$(bench_want ddsketch && bench_want kll && echo " and ")$(bench_want kll && echo kll): table lat, $rows_fmt rows of (v float8 = exp(3 + 1.5 z) ms, z standard normal, hour smallint = row % 720); $lat_info")
target_lines=()
bench_want cms && target_lines+=("- \`cms_agg(v)\` ≤ 1.5 (issue 3): $(bench_ratio "${BENCH_MS_SERIAL[cms_agg]}" "${BENCH_FLOOR_MS_SERIAL[cms_agg]}")")
bench_want bloom && target_lines+=(
  "- \`bloom_agg(v, n, 0.01)\` ≤ 1.2 (issue 4): $(bench_ratio "${BENCH_MS_SERIAL[bloom_agg]}" "${BENCH_FLOOR_MS_SERIAL[bloom_agg]}")"
  "- \`cuckoo_agg(v, n, 0.01)\` ≤ 1.6 (issue 14): $(bench_ratio "${BENCH_MS_SERIAL[cuckoo_agg]}" "${BENCH_FLOOR_MS_SERIAL[cuckoo_agg]}"); its probes ≤ 2.0: $(bench_ratio "${BENCH_MS_SERIAL[cuckoo_probe]}" "${BENCH_FLOOR_MS_SERIAL[cuckoo_probe]}")")
bench_want hll && target_lines+=("- dense \`hll_union\` of 720 hourly sketches ≤ 0.5 × postgresql-hll's time (issue 15; through the paired floors): all in one $(bench_ratio_paired "${BENCH_MS_SERIAL[uni_dense]}" "${BENCH_FLOOR_MS_SERIAL[uni_dense]}" "${BENCH_MS_SERIAL[peer_dense]:-}" "${BENCH_FLOOR_MS_SERIAL[peer_dense]:-}"), by day $(bench_ratio_paired "${BENCH_MS_SERIAL[uni_dense_day]}" "${BENCH_FLOOR_MS_SERIAL[uni_dense_day]}" "${BENCH_MS_SERIAL[peer_dense_day]:-}" "${BENCH_FLOOR_MS_SERIAL[peer_dense_day]:-}")")
bench_want bloom && target_lines+=("- counting_bloom within 1.3 × bloom's time (issue 14; through the paired floors): aggregate $(bench_ratio_paired "${BENCH_MS_SERIAL[cbloom_agg]}" "${BENCH_FLOOR_MS_SERIAL[cbloom_agg]}" "${BENCH_MS_SERIAL[bloom_agg]}" "${BENCH_FLOOR_MS_SERIAL[bloom_agg]}"), probes $(bench_ratio_paired "${BENCH_MS_SERIAL[cbloom_probe]}" "${BENCH_FLOOR_MS_SERIAL[cbloom_probe]}" "${BENCH_MS_SERIAL[bloom_probe]}" "${BENCH_FLOOR_MS_SERIAL[bloom_probe]}")")
bench_want kll && target_lines+=("- \`kll_agg(v)\` ≤ 1.5 (issue 26): $(bench_ratio "${BENCH_MS_SERIAL[kll_agg]}" "${BENCH_FLOOR_MS_SERIAL[kll_agg]}"), and ≤ 0.5 × \`tdigest(v, 100)\`'s time (through the paired floors): $(bench_ratio_paired "${BENCH_MS_SERIAL[kll_agg]}" "${BENCH_FLOOR_MS_SERIAL[kll_agg]}" "${BENCH_MS_SERIAL[td_agg]:-}" "${BENCH_FLOOR_MS_SERIAL[td_agg]:-}"); the union of 720 hourly sketches, then p50/p95/p99, ≤ 20 ms: $(bench_fmt_ms "${BENCH_MS_SERIAL[kll_uni]}") ms serial")
bench_want ell && target_lines+=("- \`ell_agg(v)\` within 1.2 × \`hll_agg(v)\`'s time (issue 27; through the paired floors): $(bench_ratio_paired "${BENCH_MS_SERIAL[ell_v]}" "${BENCH_FLOOR_MS_SERIAL[ell_v]}" "${BENCH_MS_SERIAL[hll_v]:-}" "${BENCH_FLOOR_MS_SERIAL[hll_v]:-}") (text: $(bench_ratio_paired "${BENCH_MS_SERIAL[ell_t]}" "${BENCH_FLOOR_MS_SERIAL[ell_t]}" "${BENCH_MS_SERIAL[hll_t]:-}" "${BENCH_FLOOR_MS_SERIAL[hll_t]:-}")); the union of 720 dense hourly sketches ≤ \`hll_union\`'s time over the same rows: $(bench_ratio_paired "${BENCH_MS_SERIAL[ell_uni_dense]}" "${BENCH_FLOOR_MS_SERIAL[ell_uni_dense]}" "${BENCH_MS_SERIAL[uni_dense]:-}" "${BENCH_FLOOR_MS_SERIAL[uni_dense]:-}") × (by day $(bench_ratio_paired "${BENCH_MS_SERIAL[ell_uni_dense_day]}" "${BENCH_FLOOR_MS_SERIAL[ell_uni_dense_day]}" "${BENCH_MS_SERIAL[uni_dense_day]:-}" "${BENCH_FLOOR_MS_SERIAL[uni_dense_day]:-}") ×)")
report=$(cat <<EOF
# Benchmarks

Generated by \`make bench\` (test/bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC').

- machine: $(nproc) cores (${cpu:-unknown CPU}), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM
- server: $pg_version
$(printf '%s\n' "${data_lines[@]}")
- each time: median of $BENCH_RUNS runs after one warm-up, psql \`\\timing\` (client-side, planning included), alternating with as many runs of \`count(v)\`
- serial: \`max_parallel_workers_per_gather = 0\`; parallel: \`= 2\`, \`parallel_setup_cost = parallel_tuple_cost = 0\`
- load average (1/5/15 min) at start: $load_start, at end: $(bench_load); whole run: ${elapsed}s

Ratios are what carry over between machines. "ratio to count(v)": a
workload's time divided by \`count(v)\` over the same table in the same
database and mode (the cost of just scanning the column), where the
count(v) runs alternate with the workload's runs in one session, so
background load cancels out. "ratio to peer": our ratio to count(v)
divided by the peer's for the same job at the same precision
(postgresql-hll at log2m = 14; for ddsketch and kll,
postgresql-15-tdigest's t-digest at compression 100); below 1 means ours is faster; neither peer
has a count-min sketch, a heavy-hitters summary, a KMV (theta) sketch or
a Bloom filter, so the cms, topk, theta and bloom rows have none. The cms
and topk rows run on the skewed zipf table, against its own count(v), the
ddsketch and kll rows on the lat table, against its own, the theta
intersection against the same 1,000-row loop reading its two sketches,
and the dense union rows against \`count(*)\` over
\`generate_series(1, 150000)\` (a CPU loop as short as they are, the
same in both databases).
Bold rows are this extension.

$(bench_report_times)

Targets (serial ratio to count(v), stated for 10M rows), and this run's:
$(printf '%s\n' "${target_lines[@]}")

What each workload returned (the distinct counts, bloom_agg's and
theta_agg's included, all estimate \`count(DISTINCT v)\`; the theta
intersection, the distinct v in both of its sets; cms_agg's result is its
top value's estimated frequency, against the exact maximum frequency; the top 10s,
cms's and topk's, are values best first, against the exact top 10; the
bloom probe's excess over the exact EXISTS is its false positives; the
quantiles' errors are relative to percentile_disc)
and the plans of the warm-up runs (EXPLAIN ANALYZE: aggregate nodes
top-down, workers launched, disk spill):

$(bench_report_plans)
EOF
)
# Two sections of the report are written by hand and kept as they are by a
# new report: "## Distributed (Citus)", from what test/citus.sh prints (it
# needs a Citus cluster, which this script does not start), and "## Figures
# formerly in code comments" (measurements of past commits, cited by the
# comments that used to hold them).
kept=""
if [ -f "$BENCH_OUT" ]; then
  kept=$(awk '/^## / { on = ($0 ~ /^## (Distributed \(Citus\)|Figures formerly in code comments)/) } on' "$BENCH_OUT")
fi
mkdir -p "$(dirname "$BENCH_OUT")"
printf '%s\n' "$report" >"$BENCH_OUT"
if [ -n "$kept" ]; then
  printf '\n%s\n' "$kept" >>"$BENCH_OUT"
fi
printf '%s\n' "$report"
bench_log "wrote $BENCH_OUT in ${elapsed}s"
