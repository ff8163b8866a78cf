#!/usr/bin/env bash
# ddsketch against the t-digest of postgresql-15-tdigest: the relative error
# of each quantile, and the bytes of each sketch, over 10^6 values of fixed-
# seed distributions. Writes, in docs/plots/:
#
#   ddsketch_vs_tdigest.tsv        one row per distribution and q: the exact
#                                  percentile_disc, ddsketch_quantile at the
#                                  default accuracy (α 0.54%), tdigest_percentile
#                                  (v, 100, q), their relative errors, and
#                                  whether ddsketch guarantees that rank
#   ddsketch_vs_tdigest_sizes.tsv  one row per distribution: bytes of each
#                                  sketch (stored in a table, and raw), buckets
#                                  / centroids, the worst errors
#   ddsketch_vs_tdigest.png        |relative error| over q, one panel per
#                                  distribution (gnuplot)
#
#   bash test/report/ddsketch_vs_tdigest.sh   (starts a throwaway cluster,
#                                              test/cluster.sh, unless PGHOST
#                                              is set)
#
# Needs the installed extension (make install) and postgresql-15-tdigest
# (test/install-deps.sh installs it). The distributions (setseed, serial
# generation, so every run draws the same values):
#   lognormal   exp(3 + 1.5 z), z standard normal (Box-Muller): latencies in ms
#   pareto1.2   1 / U^(1/1.2): Pareto, x_m = 1, shape 1.2 (infinite variance)
#   bimodal     60% N(50, 5), 40% N(500, 30)
#   uniform     U(0, 1000)
#   span1e-3..1e6  10^U(-3, 6): log-uniform over 9 decades (2^30: within the
#               2048 default buckets, which cover 2^32)
#   span1e-9..1e9  10^U(-9, 9): log-uniform over 18 decades (2^60: beyond
#               them, so the lowest magnitudes collapse; ddsketch_info's
#               unguaranteed_ranks says which ranks lose the guarantee)
#   duplicates  floor(21^U): the integers 1..20, value r with probability
#               log21((r+1)/r) (a Zipf-like few values, each repeated a lot)
# Settings: DDT_ROWS (default 1000000) values per distribution.
set -euo pipefail

# shellcheck source=test/report/lib.sh
source "$(dirname "$0")/lib.sh"
report_start ddsketch_vs_tdigest "$@"
rows=${DDT_ROWS:-1000000}
report_require tdigest "postgresql-15-tdigest is not installed (bash test/install-deps.sh as root)"
db=sketch_ddsketch_vs_tdigest
report_database "$db" sketch tdigest

log "drawing $rows values of each distribution"
# z: a standard normal deviate by Box-Muller (1 - random() is in (0, 1]).
z="(sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))"
q >/dev/null <<SQL
CREATE TABLE vals (dist text, ord int, v float8);
SELECT setseed(0.11);
INSERT INTO vals SELECT 'lognormal', 1, exp(3 + 1.5 * $z) FROM generate_series(1, $rows);
SELECT setseed(0.12);
INSERT INTO vals SELECT 'pareto1.2', 2, 1 / power(1 - random(), 1 / 1.2) FROM generate_series(1, $rows);
SELECT setseed(0.13);
INSERT INTO vals SELECT 'bimodal', 3, CASE WHEN random() < 0.6 THEN 50 + 5 * $z ELSE 500 + 30 * $z END
FROM generate_series(1, $rows);
SELECT setseed(0.14);
INSERT INTO vals SELECT 'uniform', 4, random() * 1000 FROM generate_series(1, $rows);
SELECT setseed(0.15);
INSERT INTO vals SELECT 'span1e-3..1e6', 5, power(10, random() * 9 - 3) FROM generate_series(1, $rows);
SELECT setseed(0.16);
INSERT INTO vals SELECT 'span1e-9..1e9', 6, power(10, random() * 18 - 9) FROM generate_series(1, $rows);
SELECT setseed(0.17);
INSERT INTO vals SELECT 'duplicates', 7, floor(power(21, random())) FROM generate_series(1, $rows);
ANALYZE vals;
SQL

log "sketches, exact quantiles, estimates"
qs="'{0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999}'::float8[]"
q >/dev/null <<SQL
-- the sketches as a table stores them (pg_column_size: after TOAST compression)
CREATE TABLE sk AS
SELECT dist, ord, count(*) AS n, count(DISTINCT v) AS distinct_values,
       ddsketch_agg(v) AS dd, tdigest(v, 100) AS td
FROM vals GROUP BY dist, ord;
-- exact (percentile_disc: the value of rank ceil(q n)), ddsketch from its
-- sketch, tdigest by its aggregate over the values at compression 100
CREATE TABLE est AS
SELECT e.dist, e.ord, x.q, x.exact, ddsketch_quantile(sk.dd, x.q) AS dd, x.td, sk.n,
       ddsketch_info(sk.dd) -> 'unguaranteed_ranks' AS ung
FROM (SELECT dist, ord, percentile_disc($qs) WITHIN GROUP (ORDER BY v) AS ex
      FROM vals GROUP BY dist, ord) e
JOIN (SELECT dist, tdigest_percentile(v, 100, $qs) AS tds FROM vals GROUP BY dist) tdq USING (dist)
JOIN sk USING (dist)
CROSS JOIN LATERAL unnest($qs, e.ex, tdq.tds) AS x(q, exact, td);
SQL

tsv ddsketch_vs_tdigest.tsv "
  SELECT dist, q, n, exact,
         dd AS ddsketch, round(((dd - exact) / abs(exact))::numeric, 8) AS ddsketch_rel_err,
         (jsonb_typeof(ung) IS DISTINCT FROM 'array'
          OR ceil(q * n) NOT BETWEEN (ung ->> 0)::bigint AND (ung ->> 1)::bigint) AS ddsketch_guaranteed,
         td AS tdigest, round(((td - exact) / abs(exact))::numeric, 8) AS tdigest_rel_err
  FROM est ORDER BY ord, q"
tsv ddsketch_vs_tdigest_sizes.tsv "
  SELECT sk.dist, sk.n, sk.distinct_values,
         pg_column_size(dd) AS ddsketch_bytes_stored, octet_length(dd::bytea) AS ddsketch_bytes_raw,
         (ddsketch_info(dd) ->> 'positive_buckets')::int + (ddsketch_info(dd) ->> 'negative_buckets')::int AS ddsketch_buckets,
         ddsketch_info(dd) -> 'unguaranteed_ranks' AS ddsketch_unguaranteed_ranks,
         pg_column_size(td) AS tdigest_bytes_stored, octet_length(tdigest_send(td)) AS tdigest_bytes_raw,
         (tdigest_json(td) ->> 'centroids')::int AS tdigest_centroids,
         e.dd_max_abs_rel_err, e.td_max_abs_rel_err
  FROM sk JOIN (SELECT dist, round(max(abs(dd - exact) / abs(exact))::numeric, 8) AS dd_max_abs_rel_err,
                       round(max(abs(td - exact) / abs(exact))::numeric, 8) AS td_max_abs_rel_err
                FROM est GROUP BY dist) e USING (dist)
  ORDER BY sk.ord"

if command -v gnuplot >/dev/null 2>&1; then
  log "plot"
  gnuplot -e "outdir='$out'" "$root/test/report/ddsketch_vs_tdigest.gp"
else
  log "gnuplot is not installed (apt-get install -y gnuplot-nox): no PNG"
fi
psql -X -q -d postgres -c "DROP DATABASE $db" || true
log "done: $out/ddsketch_vs_tdigest.tsv, $out/ddsketch_vs_tdigest_sizes.tsv$(command -v gnuplot >/dev/null 2>&1 && echo ", $out/ddsketch_vs_tdigest.png")"
