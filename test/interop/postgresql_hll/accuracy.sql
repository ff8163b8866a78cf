-- Accuracy on the same registers (docs/migration.md, "What changes in the
-- estimates"): the peer's hll_cardinality and ours on the imported value,
-- RMS relative error over :salts salts (disjoint value ranges, seed 0)
-- per n, at log2m 11 and 14 (regwidth 5, expthresh -1, sparseon 1: the
-- peer's defaults). A NaN from the peer counts as its loss (error 1).
-- Not part of make test (minutes of CPU); run by hand:
--   psql -v salts=50 -f test/interop/postgresql_hll/accuracy.sql
-- in a database with sketch (schema sketch) and postgresql-hll (public).
\set ON_ERROR_STOP 1
SET client_min_messages = error;
SET max_parallel_workers_per_gather = 0;
WITH runs AS (
  SELECT l.log2m, n.n, s.salt,
         (SELECT hll_add_agg(hll_hash_bigint(g + s.salt * 1099511627776), l.log2m, 5, -1, 1)
          FROM generate_series(1, n.n) g) AS h
  FROM (VALUES (11), (14)) l(log2m),
       (VALUES (10), (100), (1000), (3000), (5000), (8000), (20000), (40000), (70000),
               (100000), (1000000)) n(n),
       generate_series(1, :salts) s(salt)
), est AS (
  SELECT log2m, n, hll_cardinality(h) AS peer,
         sketch.hll_cardinality(sketch.hll_from_postgresql_hll(h::text)) AS ours
  FROM runs
)
SELECT log2m, n,
       round(100 * sqrt(avg(CASE WHEN peer IS NULL OR peer = 'NaN' THEN 1
                                 ELSE power(peer / n - 1, 2) END))::numeric, 3) AS peer_rms_pct,
       round(100 * sqrt(avg(power(ours::float8 / n - 1, 2)))::numeric, 3) AS ours_rms_pct,
       count(*) FILTER (WHERE peer IS NULL OR peer = 'NaN') AS peer_nan
FROM est GROUP BY log2m, n ORDER BY log2m, n;
