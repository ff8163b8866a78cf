#!/usr/bin/env bash
# Accuracy and size report: regenerates the plots in docs/plots/ (PNG, with
# the numbers behind each one as TSV next to it) from the installed
# extension. Run it through `make report`, which builds, installs and starts
# a throwaway cluster (test/cluster.sh) with PGHOST etc. exported.
#
#   hll_error.png     relative error vs true cardinality, p = 10, 14, 18,
#                     mean and ±1σ over many seeds, and postgresql-hll at
#                     log2m = 14 when installed (in its own database: both
#                     extensions define a type named hll)
#   cms_zipf.png      estimated vs true frequency on a Zipf stream, plain
#                     and conservative update, with the ε·N bound
#   bloom_fpr_k.png   measured vs predicted false-positive rate over k
#   bloom_fpr_fill.png  the same as the filter fills past its design n
#   sizes.png         bytes per sketch (pg_column_size) vs cardinality
#
# REPORT_SEEDS_SCALE=N divides the number of hll seeds by N (quick runs).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/docs/plots
mkdir -p "$out"
scale=${REPORT_SEEDS_SCALE:-1}
start=$(date +%s)
log() { echo "report: [$(( $(date +%s) - start ))s] $*"; }

if ! command -v gnuplot >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then
    log "installing gnuplot-nox"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q gnuplot-nox >/dev/null 2>&1 || { apt-get update -q && apt-get install -y -q gnuplot-nox; }
  else
    echo "report: gnuplot is missing: sudo apt-get install -y gnuplot-nox" >&2
    exit 1
  fi
fi

export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
db=sketch_report
peer_db=sketch_report_peer
have_peer=0
[ -n "$(psql -X -At -c "SELECT 1 FROM pg_available_extensions WHERE name = 'hll' AND comment ILIKE '%hyperloglog%'")" ] && have_peer=1

psql -X -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
psql -X -q -v ON_ERROR_STOP=1 -d $db -c "CREATE EXTENSION sketch"
if [ $have_peer -eq 1 ]; then
  psql -X -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $peer_db" -c "CREATE DATABASE $peer_db"
  psql -X -q -v ON_ERROR_STOP=1 -d $peer_db -c "CREATE EXTENSION hll"
else
  log "postgresql-hll is not installed: the plots leave out the peer"
fi

q()  { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
qp() { psql -X -q -v ON_ERROR_STOP=1 -d "$peer_db" "$@"; }
# tsv <file> <query>: the query's rows as tab-separated values with a header
tsv() { q -c "COPY ($2) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t')" > "$out/$1"; }

# ---------------------------------------------------------------------------
# hll: relative error vs true cardinality.
#
# Each seed s is one stream of distinct values (s << 32) + g, g = 1, 2, ...
# (the extension hashes them; the peer gets hll_hash_bigint). The stream is
# cut into chunks ending at the checkpoints n = round(10^(k/5)), 10 .. 10^7;
# one pass aggregates every chunk, and the union of chunks 0..i (a window
# aggregate) is the sketch of the first n values. A seed's estimates at
# successive checkpoints are therefore correlated, the seeds independent.
# Seeds 1..S7 run to 10^7, the next ones to 10^6, the rest to 10^5.
S7=$(( 20 / scale )); S6=$(( 100 / scale )); S5=$(( 500 / scale ))
[ $S7 -ge 2 ] || S7=2; [ $S6 -ge $S7 ] || S6=$S7; [ $S5 -ge $S6 ] || S5=$S6
cps="(SELECT array_agg(c ORDER BY c) FROM (SELECT DISTINCT round(10^(k/5.0))::bigint AS c FROM generate_series(5, 35) k) x)"
maxn() { if [ "$1" -le $S7 ]; then echo 10000000; elif [ "$1" -le $S6 ]; then echo 1000000; else echo 100000; fi; }

ours_seed() {  # SQL for one seed of ours
  local s=$1 n; n=$(maxn "$1")
  cat <<SQL
INSERT INTO hll_est
SELECT 'sketch', p, $s, (SELECT t FROM cp)[b + 1], est
FROM (SELECT b, # hll_union(h10) OVER w AS e10, # hll_union(h14) OVER w AS e14, # hll_union(h18) OVER w AS e18
      FROM (SELECT width_bucket(g - 1, (SELECT t FROM cp)) AS b,
                   hll_agg(($s::bigint << 32) + g, 10) AS h10,
                   hll_agg(($s::bigint << 32) + g, 14) AS h14,
                   hll_agg(($s::bigint << 32) + g, 18) AS h18
            FROM generate_series(1, $n) g GROUP BY 1) c
      WINDOW w AS (ORDER BY b)) r
CROSS JOIN LATERAL (VALUES (10, e10), (14, e14), (18, e18)) v(p, est);
SQL
}
peer_seed() {
  local s=$1 n; n=$(maxn "$1")
  cat <<SQL
INSERT INTO hll_est
SELECT 'postgresql-hll', 14, $s, (SELECT t FROM cp)[b + 1],
       hll_cardinality(hll_union_agg(h) OVER (ORDER BY b))
FROM (SELECT width_bucket(g - 1, (SELECT t FROM cp)) AS b,
             hll_add_agg(hll_hash_bigint(($s::bigint << 32) + g), 14) AS h
      FROM generate_series(1, $n) g GROUP BY 1) c;
SQL
}
hll_tables="CREATE TABLE IF NOT EXISTS hll_est (impl text, p int, seed int, n bigint, est float8);
            CREATE TABLE IF NOT EXISTS cp AS SELECT $cps AS t;"
q -c "$hll_tables"
[ $have_peer -eq 1 ] && qp -c "$hll_tables"

run_seeds() {  # run_seeds <generator> <psql function>: two sessions, odd and even seeds
  local gen=$1 fn=$2 pids=() part
  for part in 0 1; do
    ( for s in $(seq 1 $S5); do if [ $(( s % 2 )) -eq $part ]; then $gen "$s"; fi; done | $fn >/dev/null ) &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
}
log "hll accuracy: $S5 seeds to 1e5, $S6 to 1e6, $S7 to 1e7, p = 10, 14, 18"
run_seeds ours_seed q
if [ $have_peer -eq 1 ]; then
  log "hll accuracy of postgresql-hll (log2m 14)"
  run_seeds peer_seed qp
  # bring the peer's estimates over to the main database
  qp -c "COPY hll_est TO STDOUT" | q -c "COPY hll_est FROM STDIN"
fi
tsv hll_error.tsv "
  SELECT impl, p, n, count(*) AS seeds,
         round(avg((est - n) / n)::numeric, 6) AS mean_rel_err,
         round(coalesce(stddev_samp((est - n) / n), 0)::numeric, 6) AS sd_rel_err,
         round(sqrt(avg(((est - n) / n) ^ 2))::numeric, 6) AS rms_rel_err,
         round((1.04 / sqrt(2 ^ p))::numeric, 6) AS theory_1_04_sqrt_m
  FROM hll_est GROUP BY impl, p, n ORDER BY impl DESC, p, n"

# ---------------------------------------------------------------------------
# cms: a Zipf stream, 200,000 events over 50,000 keys, key r with weight 1/r.
# Counts are the expected ones, rounded (keys whose count rounds to 0 do not
# occur), and the events come in a random order; plain and conservative
# sketches at the defaults (epsilon 0.001, delta 0.01: 2719 x 5).
log "cms on a Zipf stream"
q >/dev/null <<'SQL'
SELECT setseed(0.42);
CREATE TABLE zipf_key AS
  SELECT r AS key, round(200000 / (h.h * r))::bigint AS true_count
  FROM generate_series(1, 50000) r,
       (SELECT sum(1.0 / i) AS h FROM generate_series(1, 50000) i) h;
DELETE FROM zipf_key WHERE true_count = 0;
CREATE TABLE zipf_event AS
  SELECT k.key FROM zipf_key k, generate_series(1, k.true_count) ORDER BY random();
CREATE TABLE zipf_sketch AS
  SELECT cms_agg(key) AS plain, cms_agg(key, 0.001, 0.01, true) AS cons FROM zipf_event;
CREATE TABLE zipf_est AS
  SELECT k.key, k.true_count, cms_frequency(s.plain, k.key) AS plain,
         cms_frequency(s.cons, k.key) AS cons, cms_error_bound(s.plain) AS bound
  FROM zipf_key k, zipf_sketch s;
SQL
tsv cms_zipf.tsv "
  SELECT true_count, count(*) AS keys,
         round(avg(plain), 2) AS plain_mean, max(plain) AS plain_max,
         round(avg(cons), 2) AS cons_mean, max(cons) AS cons_max,
         min(bound) AS eps_n, max(true_count) + min(bound) AS true_plus_eps_n
  FROM zipf_est GROUP BY true_count ORDER BY true_count"
tsv cms_zipf_summary.tsv "
  SELECT (SELECT cms_total(plain) FROM zipf_sketch) AS events, count(*) AS keys,
         (SELECT (cms_info(plain)->>'width') || ' x ' || (cms_info(plain)->>'depth') FROM zipf_sketch) AS counters,
         min(bound) AS eps_n,
         round(avg(plain - true_count), 2) AS plain_mean_over, max(plain - true_count) AS plain_max_over,
         count(*) FILTER (WHERE plain - true_count > bound) AS plain_beyond_bound,
         round(avg(cons - true_count), 2) AS cons_mean_over, max(cons - true_count) AS cons_max_over,
         count(*) FILTER (WHERE cons - true_count > bound) AS cons_beyond_bound,
         count(*) FILTER (WHERE least(plain, cons) < true_count) AS below_truth
  FROM zipf_est"

# ---------------------------------------------------------------------------
# bloom: false-positive rate over k (n = 10,000 values, m = 100,000 bits), on
# 5 independent sets, each probed with 200,000 values never added; and over
# the fill of a filter designed for n = 10,000 at p = 0.01.
log "bloom false-positive rates"
q -c "CREATE TABLE bloom_k AS
  SELECT k, s, bloom_agg_bits((s::bigint << 32) + g, 100000, k) AS f
  FROM generate_series(1, 14) k, generate_series(1, 5) s, generate_series(1, 10000) g
  GROUP BY k, s"
tsv bloom_fpr_k.tsv "
  SELECT k, 10000 AS n, 100000 AS m, sum(probes) AS probes, sum(hits) AS false_positives,
         round(sum(hits) / sum(probes), 7) AS measured,
         round(greatest(0, sum(hits) / sum(probes) - 2 * sqrt(sum(hits) / sum(probes) * (1 - sum(hits) / sum(probes)) / sum(probes))), 7) AS measured_lo95,
         round(sum(hits) / sum(probes) + 2 * sqrt(sum(hits) / sum(probes) * (1 - sum(hits) / sum(probes)) / sum(probes)), 7) AS measured_hi95,
         round(((1 - exp(-k * 10000.0 / 100000)) ^ k)::numeric, 7) AS predicted,
         round(avg(bloom_fpp(f))::numeric, 7) AS fpp_from_fill
  FROM (SELECT k, f, 200000::numeric AS probes,
               (SELECT count(*) FROM generate_series(1, 200000) g
                WHERE f @> ((s::bigint << 32) + 1000000 + g)) AS hits
        FROM bloom_k) t
  GROUP BY k ORDER BY k"

q -c "CREATE TABLE bloom_fill AS
  SELECT s, (b + 1) * 2500 AS n,
         bloom_union(f) OVER (PARTITION BY s ORDER BY b) AS f
  FROM (SELECT s, (g - 1) / 2500 AS b,
               bloom_agg((s::bigint << 32) + g, 10000, 0.01) AS f
        FROM generate_series(1, 5) s, generate_series(1, 40000) g GROUP BY 1, 2) c"
tsv bloom_fpr_fill.tsv "
  SELECT n, n / 10000.0 AS fill_vs_design, m, k, sum(probes) AS probes, sum(hits) AS false_positives,
         round(sum(hits) / sum(probes), 7) AS measured,
         round(greatest(0, sum(hits) / sum(probes) - 2 * sqrt(sum(hits) / sum(probes) * (1 - sum(hits) / sum(probes)) / sum(probes))), 7) AS measured_lo95,
         round(sum(hits) / sum(probes) + 2 * sqrt(sum(hits) / sum(probes) * (1 - sum(hits) / sum(probes)) / sum(probes)), 7) AS measured_hi95,
         round(((1 - exp(-k * n::float8 / m)) ^ k)::numeric, 7) AS predicted,
         round(avg(bloom_fpp(f))::numeric, 7) AS fpp_from_fill,
         round(avg(bloom_cardinality(f))) AS cardinality_from_fill
  FROM (SELECT n, f, (bloom_info(f)->>'bits')::bigint AS m, (bloom_info(f)->>'hashes')::int AS k,
               200000::numeric AS probes,
               (SELECT count(*) FROM generate_series(1, 200000) g
                WHERE f @> ((s::bigint << 32) + 1000000 + g)) AS hits
        FROM bloom_fill) t
  GROUP BY n, m, k ORDER BY n"

# ---------------------------------------------------------------------------
# sizes: pg_column_size of each sketch as stored in a table (after TOAST
# compression, which only cms's mostly-zero counters benefit from), over the
# distinct values 1..n, n = 1, 2, 5, 10, ... 10^7.
log "sizes"
sizes_cp="SELECT DISTINCT (d * 10 ^ e)::bigint AS n FROM unnest(ARRAY[1, 2, 5]) d, generate_series(0, 7) e WHERE d * 10 ^ e <= 1e7"
q -c "CREATE TABLE size_cp AS $sizes_cp" \
  -c "CREATE TABLE size_arr AS SELECT array_agg(n ORDER BY n) AS t FROM size_cp" -c "
CREATE TABLE size_sketch AS
SELECT n, # hll_union(h10) OVER w AS hll10_est,
       hll_union(h10) OVER w AS hll10, hll_union(h14) OVER w AS hll14, hll_union(h18) OVER w AS hll18,
       cms_union(c) OVER w AS cms, bloom_union(b) OVER w AS bloom
FROM (SELECT (SELECT t FROM size_arr)[width_bucket(g - 1, (SELECT t FROM size_arr)) + 1] AS n,
             hll_agg(g, 10) AS h10, hll_agg(g, 14) AS h14, hll_agg(g, 18) AS h18,
             cms_agg(g) AS c, bloom_agg(g, 1000000, 0.01) AS b
      FROM generate_series(1, 10000000) g GROUP BY 1) c
WINDOW w AS (ORDER BY n)"
if [ $have_peer -eq 1 ]; then
  qp -c "CREATE TABLE size_cp AS $sizes_cp" \
     -c "CREATE TABLE size_arr AS SELECT array_agg(n ORDER BY n) AS t FROM size_cp" -c "
  CREATE TABLE size_sketch AS
  SELECT n, hll_union_agg(h) OVER (ORDER BY n) AS peer14
  FROM (SELECT (SELECT t FROM size_arr)[width_bucket(g - 1, (SELECT t FROM size_arr)) + 1] AS n,
               hll_add_agg(hll_hash_bigint(g), 14) AS h
        FROM generate_series(1, 10000000) g GROUP BY 1) c"
  qp -c "COPY (SELECT n, pg_column_size(peer14) FROM size_sketch) TO STDOUT" \
    | q -c "CREATE TABLE size_peer (n bigint, bytes int)" -c "COPY size_peer FROM STDIN"
else
  q -c "CREATE TABLE size_peer (n bigint, bytes int)"
fi
tsv sizes.tsv "
  SELECT n, pg_column_size(hll10) AS hll_p10, pg_column_size(hll14) AS hll_p14,
         pg_column_size(hll18) AS hll_p18, hll_info(hll14) ->> 'representation' AS hll_p14_form,
         p.bytes AS peer_hll_log2m14,
         pg_column_size(cms) AS cms_default_stored, octet_length(cms::bytea) AS cms_default_uncompressed,
         pg_column_size(bloom) AS bloom_1e6_1pct,
         pg_column_size(bloom_empty(n, 0.01)) AS bloom_sized_for_n_1pct
  FROM size_sketch s LEFT JOIN size_peer p USING (n)
  ORDER BY n"

# ---------------------------------------------------------------------------
log "plots"
S="$S5 seeds for n ≤ 10^5, $S6 up to 10^6, $S7 up to 10^7"
gp() { gnuplot -e "set datafile separator '\t'; outdir='$out'; seeds='$S'; have_peer=$have_peer" "$root/test/report/$1"; }
gp hll_error.gp
gp cms_zipf.gp
gp bloom.gp
gp sizes.gp

psql -X -q -c "DROP DATABASE $db" || true
[ $have_peer -eq 1 ] && { psql -X -q -c "DROP DATABASE $peer_db" || true; }
log "done: $(ls "$out" | tr '\n' ' ')"
