#!/usr/bin/env bash
# The memory-variance product (MVP = stored bits x mean squared relative
# error) over the true distinct count n, at p = 11..14, of ell (maximum
# likelihood and martingale), our hll, and postgresql-hll at log2m = p.
# Writes, in docs/plots/:
#
#   ell_mvp.tsv   one row per sketch, p and checkpoint: trials, mean stored
#                 bytes, bias (mean relative error), RMS relative error, MVP
#   ell_mvp.png   MVP vs n (log scale), one panel per p (gnuplot)
#
#   bash test/report/ell_mvp.sh   (starts a throwaway cluster, test/cluster.sh,
#                                  unless PGHOST or PGDATABASE is set)
#
# ell and hll come from the core by simulation: the accuracy test
# test/accuracy/ell_accuracy_test.cpp (its ELL_ACCURACY_TSV output), run
# here with fewer trials than its long mode (ELL_MVP_TRIALS, default 300,
# 200, 120, 60 at p = 11..14; about 3 minutes of CPU): each trial a stream
# of distinct splitmix64 hashes from a fixed seed, inserted for real while
# ell is sparse, then simulated exactly to n = 10^9, hll's registers from
# the same stream. It needs the CMake build of the core tests (build/core,
# which `make check` configures); the script builds the test binary there.
# The test's own assertions hold at these trial counts too (their spreads
# are from the trials; below about 30 trials its bias bound, 4 times the
# measured spread, is too noisy to hold), and a failing run stops the report.
#
# postgresql-hll (the extension named hll, when installed; in its own
# database, as both define a type named hll) is measured through SQL:
# hll_add_agg(hll_hash_bigint(v), log2m) at its defaults (regwidth 5, sparse
# and explicit representations on), stored bytes from its text form. Seed s
# streams the distinct values (s << 32) + g; each stream is cut at the
# checkpoints 10^(k/2), 10^2 .. 10^6, and the union of its chunks up to a
# checkpoint is the sketch of the first n values (so a seed's checkpoints are
# correlated, the seeds independent). ELL_MVP_PEER_SEEDS (default 100) seeds
# run to 10^5, the first ELL_MVP_PEER_SEEDS_1E6 (default 20) of them to 10^6:
# the MVP there is good to about sqrt(2/20) = 32%, at 10^5 to 14%.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${PGHOST:-}" ] && [ -z "${PGDATABASE:-}" ]; then
  exec bash "$root/test/cluster.sh" run -- bash "$root/test/report/ell_mvp.sh" "$@"
fi
out=$root/docs/plots
mkdir -p "$out"
read -r -a trials <<<"${ELL_MVP_TRIALS:-300 200 120 60}"
peer_seeds=${ELL_MVP_PEER_SEEDS:-100}
peer_seeds_1e6=${ELL_MVP_PEER_SEEDS_1E6:-20}
build=$root/build/core
start=$(date +%s)
log() { echo "ell_mvp: [$(( $(date +%s) - start ))s] $*"; }

[ -f "$build/CMakeCache.txt" ] || { echo "ell_mvp: $build is not configured: run make check first" >&2; exit 1; }
log "building accuracy_tests in $build"
cmake --build "$build" --target accuracy_tests -j2 >/dev/null
sim=$(mktemp)
sim_log=$(mktemp)
trap 'rm -f "$sim" "$sim_log"' EXIT
for i in 0 1 2 3; do
  p=$((11 + i))
  log "ell and hll by simulation: p = $p, ${trials[$i]} trials to n = 10^9"
  ELL_ACCURACY_P=$p ELL_ACCURACY_TRIALS=${trials[$i]} ELL_ACCURACY_TSV=$sim \
    "$build/accuracy_tests" --gtest_filter='Precisions/EllAccuracy.*' --gtest_brief=1 >"$sim_log" 2>&1 ||
    { cat "$sim_log" >&2; echo "ell_mvp: the accuracy test failed at p = $p" >&2; exit 1; }
done

export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning -c max_parallel_workers_per_gather=0"
db=sketch_ell_mvp
peer_db=sketch_ell_mvp_peer
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
q()  { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
qp() { psql -X -q -v ON_ERROR_STOP=1 -d "$peer_db" "$@"; }
tsv() { q -c "COPY ($2) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t')" > "$out/$1"; }
q -c "CREATE TABLE sim (p int, trials int, n bigint, dense int, bits float8, bias float8,
                        rms float8, ml_mvp float8, martingale_mvp float8, hll_mvp float8)" \
  -c "\\copy sim FROM '$sim'"
q -c "CREATE TABLE peer (p int, seed int, n bigint, bytes int, est float8)"

have_peer=0
[ -n "$(psql -X -At -d postgres -c "SELECT 1 FROM pg_available_extensions WHERE name = 'hll' AND comment ILIKE '%hyperloglog%'")" ] && have_peer=1
if [ $have_peer -eq 1 ]; then
  log "postgresql-hll through SQL: $peer_seeds seeds to 10^5, $peer_seeds_1e6 of them to 10^6, log2m = 11..14"
  psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $peer_db" -c "CREATE DATABASE $peer_db"
  qp -c "CREATE EXTENSION hll" \
     -c "CREATE TABLE cp AS SELECT array_agg(round(10 ^ (k / 2.0))::bigint ORDER BY k) AS t FROM generate_series(4, 12) k" \
     -c "CREATE TABLE peer (p int, seed int, n bigint, bytes int, est float8)"
  peer_seed() {  # the SQL of one seed: every log2m in one pass
    local s=$1 n=100000
    [ "$s" -le "$peer_seeds_1e6" ] && n=1000000
    cat <<SQL
INSERT INTO peer
SELECT log2m, $s, (SELECT t FROM cp)[b + 1], (length(u::text) - 2) / 2, hll_cardinality(u)
FROM (SELECT b, hll_union_agg(h11) OVER w AS u11, hll_union_agg(h12) OVER w AS u12,
             hll_union_agg(h13) OVER w AS u13, hll_union_agg(h14) OVER w AS u14
      FROM (SELECT width_bucket(g - 1, (SELECT t FROM cp)) AS b,
                   hll_add_agg(hll_hash_bigint(($s::bigint << 32) + g), 11) AS h11,
                   hll_add_agg(hll_hash_bigint(($s::bigint << 32) + g), 12) AS h12,
                   hll_add_agg(hll_hash_bigint(($s::bigint << 32) + g), 13) AS h13,
                   hll_add_agg(hll_hash_bigint(($s::bigint << 32) + g), 14) AS h14
            FROM generate_series(1, $n) g GROUP BY 1) c
      WINDOW w AS (ORDER BY b)) r
CROSS JOIN LATERAL (VALUES (11, u11), (12, u12), (13, u13), (14, u14)) v(log2m, u);
SQL
  }
  for s in $(seq 1 "$peer_seeds"); do peer_seed "$s"; done | qp >/dev/null
  qp -c "COPY peer TO STDOUT" | q -c "COPY peer FROM STDIN"
else
  log "postgresql-hll is not installed: the plot leaves out the peer"
fi

log "tables"
tsv ell_mvp.tsv "
  SELECT sketch, p, n, trials, exact_below, round(bytes::numeric, 1) AS mean_stored_bytes,
         round(bias::numeric, 6) AS bias, round(rms::numeric, 6) AS rms_rel_err,
         round(mvp::numeric, 4) AS mvp
  FROM (SELECT 'ell ML' AS sketch, 1 AS ord, p, n, trials, (dense = 0) AS exact_below,
               bits / 8 AS bytes, bias, rms, ml_mvp AS mvp FROM sim
        UNION ALL
        SELECT 'ell martingale', 2, p, n, trials, dense = 0, bits / 8, NULL, NULL, martingale_mvp FROM sim
        UNION ALL
        SELECT 'hll', 3, p, n, trials, NULL, NULL, NULL, NULL, hll_mvp FROM sim
        UNION ALL
        SELECT 'postgresql-hll', 4, p, n, count(*), NULL, avg(bytes), avg((est - n) / n),
               sqrt(avg(((est - n) / n) ^ 2)), avg(bytes) * 8 * avg(((est - n) / n) ^ 2)
        FROM peer GROUP BY p, n) t
  ORDER BY ord, p, n"
q -At -c "SELECT p, round(max(ml_mvp)::numeric, 3), round(max(martingale_mvp)::numeric, 3),
                 round(avg(hll_mvp)::numeric, 3), min(trials)
          FROM sim WHERE dense = 1 GROUP BY p ORDER BY p" |
  while IFS='|' read -r p ml mart hll t; do
    log "p = $p ($t trials): largest ML MVP $ml, martingale $mart where dense; hll's mean $hll"
  done

if command -v gnuplot >/dev/null 2>&1; then
  log "plot"
  gnuplot -e "outdir='$out'; trials='${trials[*]}'; peer_seeds=$peer_seeds; peer_seeds_1e6=$peer_seeds_1e6; have_peer=$have_peer" \
    "$root/test/report/ell_mvp.gp"
else
  log "gnuplot is not installed (apt-get install -y gnuplot-nox): no PNG"
fi
psql -X -q -d postgres -c "DROP DATABASE $db" || true
[ $have_peer -eq 1 ] && { psql -X -q -d postgres -c "DROP DATABASE $peer_db" || true; }
log "done: $out/ell_mvp.tsv$(command -v gnuplot >/dev/null 2>&1 && echo ", $out/ell_mvp.png")"
