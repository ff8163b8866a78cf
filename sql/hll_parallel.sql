-- Parallel aggregation: partial aggregates in workers, combined in the leader,
-- must give exactly the serial sketch, byte for byte.
--
-- What is asserted: every compared query is planned as Finalize Aggregate <-
-- Gather <- Partial Aggregate (EXPLAIN COSTS OFF, the plan of exactly that
-- query), and its result equals the serial plan's, byte for byte. How many
-- workers actually launch depends on free worker slots, so it is not pinned
-- (EXPLAIN ANALYZE would print "Workers Launched: N" and fail spuriously).
CREATE TABLE par (g int, k int, v bigint, t text);
INSERT INTO par SELECT g, g % 10, (g * 2654435761) % 300000, 'item-' || (g % 70000)
FROM generate_series(1, 400000) g;
ALTER TABLE par SET (parallel_workers = 2);
ANALYZE par;
CREATE TABLE parts AS SELECT g % 200 AS k, hll_agg(v) AS h FROM par GROUP BY 1;
ALTER TABLE parts SET (parallel_workers = 2);
ANALYZE parts;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF)
SELECT hll_agg(v)::text AS parallel_v, hll_agg(t)::text AS parallel_t,
       hll_agg(v, 10)::text AS parallel_v10 FROM par;
SELECT hll_agg(v)::text AS parallel_v, hll_agg(t)::text AS parallel_t,
       hll_agg(v, 10)::text AS parallel_v10 FROM par \gset

-- Grouped: partial sketches per group, combined per group in the leader.
EXPLAIN (COSTS OFF)
SELECT string_agg(h::text, ',' ORDER BY k) AS parallel_groups
FROM (SELECT k, hll_agg(v) AS h FROM par GROUP BY k) s;
SELECT string_agg(h::text, ',' ORDER BY k) AS parallel_groups
FROM (SELECT k, hll_agg(v) AS h FROM par GROUP BY k) s \gset

EXPLAIN (COSTS OFF) SELECT hll_union(h)::text AS parallel_union FROM parts;
SELECT hll_union(h)::text AS parallel_union FROM parts \gset

-- The same queries serially.
RESET parallel_leader_participation;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT hll_agg(v) FROM par;
SELECT hll_agg(v)::text = :'parallel_v' AS bigint_equal,
       hll_agg(t)::text = :'parallel_t' AS text_equal,
       hll_agg(v, 10)::text = :'parallel_v10' AS p10_equal,
       abs((#hll_agg(v)) / 300000.0 - 1) < 3 * 0.0081 AS within_3_sigma
FROM par;
SELECT string_agg(h::text, ',' ORDER BY k) = :'parallel_groups' AS groups_equal
FROM (SELECT k, hll_agg(v) AS h FROM par GROUP BY k) s;
SELECT hll_union(h)::text = :'parallel_union' AS union_equal,
       hll_union(h) = (SELECT hll_agg(v) FROM par) AS union_equals_direct
FROM parts;
