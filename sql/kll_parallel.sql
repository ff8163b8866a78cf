-- Parallel aggregation of kll sketches: partial aggregates in workers,
-- combined in the leader. A parallel plan merges partial sketches in an
-- order of its own, so its bytes may differ from the serial sketch's
-- (docs/kll.md); what is exact must agree: the count, min, max, k and value
-- type, and every rank within the bound the sketch reports.
--
-- What is asserted: the query is planned as Finalize Aggregate <- Gather <-
-- Partial Aggregate (EXPLAIN COSTS OFF), and its result agrees with the
-- serial plan's as above. How many workers launch is not pinned.
CREATE TABLE kpar (g int, v float8, t timestamptz);
INSERT INTO kpar SELECT g, ((g::bigint * 2654435761) % 100000) / 10.0 - 5000,
                        timestamptz '2026-01-01 00:00+00' + g * interval '1 second'
FROM generate_series(1, 300000) g;
ALTER TABLE kpar SET (parallel_workers = 2);
ANALYZE kpar;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF) SELECT kll_agg(v), kll_agg(t, 64) FROM kpar;
CREATE TEMP TABLE par AS SELECT kll_agg(v) AS s, kll_agg(t, 64) AS ts FROM kpar;

RESET parallel_leader_participation;
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE ser AS SELECT kll_agg(v) AS s, kll_agg(t, 64) AS ts FROM kpar;

SELECT kll_info(par.s) - 'bytes' - 'levels' - 'retained' = kll_info(ser.s) - 'bytes' - 'levels' - 'retained' AS same_exact_parts,
       kll_info(par.ts) - 'bytes' - 'levels' - 'retained' = kll_info(ser.ts) - 'bytes' - 'levels' - 'retained' AS same_exact_parts_ts
FROM par, ser;
-- Ranks of the parallel sketch within its bound of the truth (v takes
-- 100000 values -5000.0 .. 4999.9, three rows each).
SELECT count(*) FILTER (WHERE abs(kll_rank(par.s, x) - (x + 5000.1) / 10000.0) > kll_rank_error(par.s)) AS misses
FROM par, generate_series(-4950, 4950, 100) x;
