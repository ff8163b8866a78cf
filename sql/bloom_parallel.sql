-- Parallel aggregation: partial filters (working states) in workers, combined
-- in the leader, must give exactly the serial filter, byte for byte (compared
-- by the md5 of the text form, which is the hex of every byte).
--
-- What is asserted: every compared query is planned as Finalize Aggregate <-
-- Gather <- Partial Aggregate (EXPLAIN COSTS OFF, the plan of exactly that
-- query), and its result equals the serial plan's. How many workers actually
-- launch depends on free worker slots, so it is not pinned (EXPLAIN ANALYZE
-- would print "Workers Launched: N" and fail spuriously).
CREATE TABLE bloom_par (g int, k int, v bigint, t text);
INSERT INTO bloom_par SELECT g, g % 10, (g * 2654435761) % 300000, 'item-' || (g % 70000)
FROM generate_series(1, 400000) g;
ALTER TABLE bloom_par SET (parallel_workers = 2);
ANALYZE bloom_par;
CREATE TABLE bloom_parts AS SELECT g % 200 AS k, bloom_agg(v, 300000, 0.01) AS f FROM bloom_par GROUP BY 1;
ALTER TABLE bloom_parts SET (parallel_workers = 2);
ANALYZE bloom_parts;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF)
SELECT md5(bloom_agg(v, 300000, 0.01)::text) AS parallel_v, md5(bloom_agg(t, 70000, 0.001)::text) AS parallel_t,
       md5(bloom_agg_bits(v, 100000, 3)::text) AS parallel_bits FROM bloom_par;
SELECT md5(bloom_agg(v, 300000, 0.01)::text) AS parallel_v, md5(bloom_agg(t, 70000, 0.001)::text) AS parallel_t,
       md5(bloom_agg_bits(v, 100000, 3)::text) AS parallel_bits FROM bloom_par \gset

-- Grouped: partial filters per group, combined per group in the leader.
EXPLAIN (COSTS OFF)
SELECT md5(string_agg(f::text, ',' ORDER BY k)) AS parallel_groups
FROM (SELECT k, bloom_agg(v, 30000, 0.01) AS f FROM bloom_par GROUP BY k) s;
SELECT md5(string_agg(f::text, ',' ORDER BY k)) AS parallel_groups
FROM (SELECT k, bloom_agg(v, 30000, 0.01) AS f FROM bloom_par GROUP BY k) s \gset

EXPLAIN (COSTS OFF) SELECT md5(bloom_union(f)::text) AS parallel_union FROM bloom_parts;
SELECT md5(bloom_union(f)::text) AS parallel_union FROM bloom_parts \gset

-- The same queries serially.
RESET parallel_leader_participation;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT bloom_agg(v, 300000, 0.01) FROM bloom_par;
SELECT md5(bloom_agg(v, 300000, 0.01)::text) = :'parallel_v' AS bigint_equal,
       md5(bloom_agg(t, 70000, 0.001)::text) = :'parallel_t' AS text_equal,
       md5(bloom_agg_bits(v, 100000, 3)::text) = :'parallel_bits' AS bits_equal,
       abs(bloom_cardinality(bloom_agg(v, 300000, 0.01)) / 300000.0 - 1) < 0.02 AS within_2_percent
FROM bloom_par;
SELECT md5(string_agg(f::text, ',' ORDER BY k)) = :'parallel_groups' AS groups_equal
FROM (SELECT k, bloom_agg(v, 30000, 0.01) AS f FROM bloom_par GROUP BY k) s;
SELECT md5(bloom_union(f)::text) = :'parallel_union' AS union_equal,
       bloom_union(f) = (SELECT bloom_agg(v, 300000, 0.01) FROM bloom_par) AS union_equals_direct
FROM bloom_parts;

-- Leave nothing behind for later suites (hll_coexist drops the extension).
DROP TABLE bloom_par, bloom_parts;
