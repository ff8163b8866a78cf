#!/usr/bin/env bash
# kll beside ddsketch and the t-digest of postgresql-15-tdigest: the rank
# error and the value error of each quantile, one pass and unions, and the
# bytes of each sketch, over 10^6 values of fixed-seed streams. Writes, in
# docs/plots/:
#
#   kll_vs_tdigest.tsv        one row per stream, partitioning (parts: 1 =
#                             one pass, 2 / 16 / 256 = the union of that many
#                             contiguous slices, each sketched alone), sketch
#                             and q: the exact percentile_disc, the estimate,
#                             its rank error (the distance from q to the
#                             answer's true ranks [share < x, share <= x]),
#                             its relative value error, and for kll the rank
#                             bound the sketch reports (kll_rank_error)
#   kll_vs_tdigest_sizes.tsv  one row per stream: bytes of each sketch
#                             (pg_column_size, stored), one pass and the
#                             union of 256 parts, and the worst errors
#   kll_vs_tdigest.png        per stream, the worst rank error and the worst
#                             |relative error| over the four partitionings,
#                             over q; bytes per sketch (gnuplot)
#
#   bash test/report/kll_vs_tdigest.sh   (starts a throwaway cluster,
#                                         test/cluster.sh, unless PGHOST
#                                         is set)
#
# Needs the installed extension (make install) and postgresql-15-tdigest
# (test/install-deps.sh installs it). The sketches: kll_agg(v, k) for k = 100,
# 200, 800 (unions by kll_union), ddsketch_agg(v) at the default accuracy
# (α 0.54%; ddsketch_union is exact, so its unions are its one pass) and
# tdigest(v, 100) (unions by the tdigest(tdigest) aggregate). The streams
# (setseed, serial generation, so every run draws the same values, in the
# same order: the slices of a union are runs of that order):
#   uniform     U(-10^6, 10^6): signed, across zero
#   lognormal   exp(3 + 1.5 z), z standard normal (Box-Muller): latencies in ms
#   pareto1.1   1 / U^(1/1.1): Pareto, x_m = 1, shape 1.1 (infinite variance)
#   signed      ±exp(3 z), half of each sign: magnitudes 10^-4 .. 10^4
#   timestamps  2016-01-01 + 10 years · sqrt(U), to the second: sign-ups
#               growing over 10 years (kll gets timestamptz, the others the
#               epoch seconds as double precision; the relative error is
#               against the seconds since 1970)
#   duplicates  floor(37 U): 37 values, each about 27,000 times
#   sorted      1, 2, ..., n in order (each slice of a union its own range)
# Settings: KVT_ROWS (default 1000000) values per stream.
set -euo pipefail

# shellcheck source=test/report/lib.sh
source "$(dirname "$0")/lib.sh"
report_start kll_vs_tdigest "$@"
rows=${KVT_ROWS:-1000000}
report_require tdigest "postgresql-15-tdigest is not installed (bash test/install-deps.sh as root)"
db=sketch_kll_vs_tdigest
report_database "$db" sketch tdigest

log "drawing $rows values of each stream"
# z: a standard normal deviate by Box-Muller (1 - random() is in (0, 1]).
z="(sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))"
q >/dev/null <<SQL
CREATE TABLE vals (dist text, ord int, i int, v float8);
SELECT setseed(0.21);
INSERT INTO vals SELECT 'uniform', 1, g, random() * 2e6 - 1e6 FROM generate_series(1, $rows) g;
SELECT setseed(0.22);
INSERT INTO vals SELECT 'lognormal', 2, g, exp(3 + 1.5 * $z) FROM generate_series(1, $rows) g;
SELECT setseed(0.23);
INSERT INTO vals SELECT 'pareto1.1', 3, g, 1 / power(1 - random(), 1 / 1.1) FROM generate_series(1, $rows) g;
SELECT setseed(0.24);
INSERT INTO vals SELECT 'signed', 4, g, (CASE WHEN random() < 0.5 THEN -1 ELSE 1 END) * exp(3 * $z)
FROM generate_series(1, $rows) g;
SELECT setseed(0.25);
INSERT INTO vals SELECT 'timestamps', 5, g,
  extract(epoch FROM timestamptz '2016-01-01 00:00+00') + floor(sqrt(random()) * 10 * 365.25 * 86400)
FROM generate_series(1, $rows) g;
SELECT setseed(0.26);
INSERT INTO vals SELECT 'duplicates', 6, g, floor(random() * 37) FROM generate_series(1, $rows) g;
INSERT INTO vals SELECT 'sorted', 7, g, g FROM generate_series(1, $rows) g;
ANALYZE vals;
SQL

log "sketches of each slice, one pass and 2, 16, 256 parts"
# One scan per partitioning; within a group the rows arrive in i order.
# kll of the timestamps is built from timestamptz, the path a timestamp
# column takes; the others get the epoch seconds.
part="CROSS JOIN (VALUES (1), (2), (16), (256)) AS p(parts)"
sk_cols="count(*) AS n, ddsketch_agg(v) AS dd, tdigest(v, 100) AS td"
q >/dev/null <<SQL
CREATE TABLE sk AS
SELECT dist, ord, parts, (i - 1) * parts / $rows AS part,
       kll_agg(v, 100) AS k100, kll_agg(v, 200) AS k200, kll_agg(v, 800) AS k800, $sk_cols
FROM vals $part WHERE dist <> 'timestamps' GROUP BY 1, 2, 3, 4;
INSERT INTO sk
SELECT dist, ord, parts, (i - 1) * parts / $rows AS part,
       kll_agg(to_timestamp(v), 100), kll_agg(to_timestamp(v), 200), kll_agg(to_timestamp(v), 800), $sk_cols
FROM vals $part WHERE dist = 'timestamps' GROUP BY 1, 2, 3, 4;
-- the unions of the slices (a one-row union for parts = 1)
CREATE TABLE un AS
SELECT dist, ord, parts, sum(n) AS n, kll_union(k100) AS k100, kll_union(k200) AS k200,
       kll_union(k800) AS k800, ddsketch_union(dd) AS dd, tdigest(td) AS td
FROM sk GROUP BY dist, ord, parts;
SQL

log "exact ranks and quantiles, estimates"
qs="'{0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999}'::float8[]"
# kq: a kll quantile as double precision (epoch seconds for the timestamps).
kq() { echo "CASE WHEN u.dist = 'timestamps' THEN extract(epoch FROM kll_quantile_timestamptz(u.$1, x.q))::float8
                ELSE kll_quantile(u.$1, x.q) END"; }
q >/dev/null <<SQL
-- hi: the share of the values <= v, for each distinct v
CREATE TABLE cum AS
SELECT dist, v, sum(count(*)) OVER (PARTITION BY dist ORDER BY v) / $rows::float8 AS hi
FROM vals GROUP BY dist, v;
CREATE INDEX ON cum (dist, v);
ANALYZE cum;
CREATE TABLE td_q AS
SELECT dist, parts, tdigest_percentile(td, $qs) AS tds FROM un GROUP BY dist, parts;
CREATE TABLE est AS
SELECT u.dist, u.ord, u.parts, x.q, x.exact, e.sketch, e.estimate, e.bound, u.n
FROM un u
JOIN (SELECT dist, percentile_disc($qs) WITHIN GROUP (ORDER BY v) AS ex FROM vals GROUP BY dist) ex USING (dist)
JOIN td_q t USING (dist, parts)
CROSS JOIN LATERAL unnest($qs, ex.ex, t.tds) AS x(q, exact, td)
CROSS JOIN LATERAL (VALUES
  ('kll100', $(kq k100), kll_rank_error(u.k100)),
  ('kll200', $(kq k200), kll_rank_error(u.k200)),
  ('kll800', $(kq k800), kll_rank_error(u.k800)),
  ('ddsketch', ddsketch_quantile(u.dd, x.q), NULL),
  ('tdigest', x.td, NULL)) AS e(sketch, estimate, bound);
-- the true ranks of each estimate x: [share < x, share <= x]
CREATE TABLE ranked AS
SELECT e.*,
       coalesce((SELECT c.hi FROM cum c WHERE c.dist = e.dist AND c.v < e.estimate ORDER BY c.v DESC LIMIT 1), 0) AS lo_rank,
       coalesce((SELECT c.hi FROM cum c WHERE c.dist = e.dist AND c.v <= e.estimate ORDER BY c.v DESC LIMIT 1), 0) AS hi_rank
FROM est e;
SQL

tsv kll_vs_tdigest.tsv "
  SELECT dist, parts, q, n, sketch, exact, estimate,
         round(greatest(lo_rank - q, q - hi_rank, 0)::numeric, 8) AS rank_err,
         -- 0 when exact (an exact 0 has no relative error otherwise: NULL)
         round((CASE WHEN estimate = exact THEN 0 ELSE (estimate - exact) / nullif(abs(exact), 0) END)::numeric, 8) AS rel_err,
         round(bound::numeric, 6) AS kll_bound
  FROM ranked ORDER BY ord, sketch, parts, q"
tsv kll_vs_tdigest_sizes.tsv "
  SELECT u1.dist, u1.n,
         pg_column_size(u1.k100) AS kll100_bytes, pg_column_size(u1.k200) AS kll200_bytes,
         pg_column_size(u1.k800) AS kll800_bytes, pg_column_size(u1.dd) AS ddsketch_bytes,
         pg_column_size(u1.td) AS tdigest_bytes,
         pg_column_size(u256.k100) AS kll100_union256_bytes, pg_column_size(u256.k200) AS kll200_union256_bytes,
         pg_column_size(u256.k800) AS kll800_union256_bytes, pg_column_size(u256.td) AS tdigest_union256_bytes,
         w.kll200_max_rank_err, w.ddsketch_max_rank_err, w.tdigest_max_rank_err,
         w.kll200_max_abs_rel_err, w.ddsketch_max_abs_rel_err, w.tdigest_max_abs_rel_err
  FROM un u1 JOIN un u256 ON u256.dist = u1.dist AND u256.parts = 256
  JOIN (SELECT dist,
               round(max(greatest(lo_rank - q, q - hi_rank, 0)) FILTER (WHERE sketch = 'kll200')::numeric, 6) AS kll200_max_rank_err,
               round(max(greatest(lo_rank - q, q - hi_rank, 0)) FILTER (WHERE sketch = 'ddsketch')::numeric, 6) AS ddsketch_max_rank_err,
               round(max(greatest(lo_rank - q, q - hi_rank, 0)) FILTER (WHERE sketch = 'tdigest')::numeric, 6) AS tdigest_max_rank_err,
               round(max(abs(estimate - exact) / nullif(abs(exact), 0)) FILTER (WHERE sketch = 'kll200')::numeric, 6) AS kll200_max_abs_rel_err,
               round(max(abs(estimate - exact) / nullif(abs(exact), 0)) FILTER (WHERE sketch = 'ddsketch')::numeric, 6) AS ddsketch_max_abs_rel_err,
               round(max(abs(estimate - exact) / nullif(abs(exact), 0)) FILTER (WHERE sketch = 'tdigest')::numeric, 6) AS tdigest_max_abs_rel_err
        FROM ranked GROUP BY dist) w ON w.dist = u1.dist
  WHERE u1.parts = 1 ORDER BY u1.ord"

if command -v gnuplot >/dev/null 2>&1; then
  log "plot"
  gnuplot -e "outdir='$out'" "$root/test/report/kll_vs_tdigest.gp"
else
  log "gnuplot is not installed (apt-get install -y gnuplot-nox): no PNG"
fi
psql -X -q -d postgres -c "DROP DATABASE $db" || true
log "done: $out/kll_vs_tdigest.tsv, $out/kll_vs_tdigest_sizes.tsv$(command -v gnuplot >/dev/null 2>&1 && echo ", $out/kll_vs_tdigest.png")"
