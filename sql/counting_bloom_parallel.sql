-- Parallel aggregation: partial counting filters (working states for the
-- large one) in workers, combined in the leader, must give exactly the
-- serial filter, byte for byte (compared by the md5 of the text form).
--
-- What is asserted: every compared query is planned as Finalize Aggregate <-
-- Gather <- Partial Aggregate (EXPLAIN COSTS OFF), and its result equals the
-- serial plan's. How many workers launch is not pinned.
CREATE TABLE cbloom_par (g int, k int, v bigint, t text);
INSERT INTO cbloom_par SELECT g, g % 10, (g * 2654435761) % 300000, 'item-' || (g % 70000)
FROM generate_series(1, 400000) g;
ALTER TABLE cbloom_par SET (parallel_workers = 2);
ANALYZE cbloom_par;
CREATE TABLE cbloom_parts AS
  SELECT g % 200 AS k, counting_bloom_agg(v, 300000, 0.01) AS f FROM cbloom_par GROUP BY 1;
ALTER TABLE cbloom_parts SET (parallel_workers = 2);
ANALYZE cbloom_parts;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

-- v: a 1.4 MiB filter (working states); t: a small one (stored states).
EXPLAIN (COSTS OFF)
SELECT md5(counting_bloom_agg(v, 300000, 0.01)::text) AS parallel_v,
       md5(counting_bloom_agg(t, 7000, 0.01)::text) AS parallel_t FROM cbloom_par;
SELECT md5(counting_bloom_agg(v, 300000, 0.01)::text) AS parallel_v,
       md5(counting_bloom_agg(t, 7000, 0.01)::text) AS parallel_t FROM cbloom_par \gset

EXPLAIN (COSTS OFF)
SELECT md5(string_agg(f::text, ',' ORDER BY k)) AS parallel_groups
FROM (SELECT k, counting_bloom_agg(v, 30000, 0.01) AS f FROM cbloom_par GROUP BY k) s;
SELECT md5(string_agg(f::text, ',' ORDER BY k)) AS parallel_groups
FROM (SELECT k, counting_bloom_agg(v, 30000, 0.01) AS f FROM cbloom_par GROUP BY k) s \gset

EXPLAIN (COSTS OFF) SELECT md5(counting_bloom_union(f)::text) AS parallel_union FROM cbloom_parts;
SELECT md5(counting_bloom_union(f)::text) AS parallel_union FROM cbloom_parts \gset

-- The same queries serially.
RESET parallel_leader_participation;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT counting_bloom_agg(v, 300000, 0.01) FROM cbloom_par;
SELECT md5(counting_bloom_agg(v, 300000, 0.01)::text) = :'parallel_v' AS bigint_equal,
       md5(counting_bloom_agg(t, 7000, 0.01)::text) = :'parallel_t' AS text_equal,
       (counting_bloom_info(counting_bloom_agg(v, 300000, 0.01)) ->> 'counter_sum')::bigint
         = 400000 * 7 AS every_row_counted
FROM cbloom_par;
SELECT md5(string_agg(f::text, ',' ORDER BY k)) = :'parallel_groups' AS groups_equal
FROM (SELECT k, counting_bloom_agg(v, 30000, 0.01) AS f FROM cbloom_par GROUP BY k) s;
SELECT md5(counting_bloom_union(f)::text) = :'parallel_union' AS union_equal,
       counting_bloom_union(f) = (SELECT counting_bloom_agg(v, 300000, 0.01) FROM cbloom_par)
         AS union_equals_direct
FROM cbloom_parts;

DROP TABLE cbloom_par, cbloom_parts;
