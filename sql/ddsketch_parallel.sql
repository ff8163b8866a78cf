-- Parallel aggregation of ddsketches: partial aggregates in workers,
-- combined in the leader, must give exactly the serial sketch, byte for
-- byte (the sum is exact and the collapse rule order-independent).
--
-- What is asserted: every compared query is planned as Finalize Aggregate <-
-- Gather <- Partial Aggregate (EXPLAIN COSTS OFF), and its result equals the
-- serial plan's, byte for byte. How many workers launch is not pinned.
CREATE TABLE ddpar (g int, k int, v float8);
INSERT INTO ddpar SELECT g, g % 10, exp(((g * 2654435761) % 100000) / 7000.0) * (CASE WHEN g % 7 = 0 THEN -1 ELSE 1 END)
FROM generate_series(1, 400000) g;
ALTER TABLE ddpar SET (parallel_workers = 2);
ANALYZE ddpar;
CREATE TABLE ddparts AS SELECT g % 200 AS k, ddsketch_agg(v) AS s FROM ddpar GROUP BY 1;
ALTER TABLE ddparts SET (parallel_workers = 2);
ANALYZE ddparts;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF)
SELECT ddsketch_agg(v)::text AS parallel_v, ddsketch_agg(v, 0.001, 64)::text AS parallel_collapsed FROM ddpar;
SELECT ddsketch_agg(v)::text AS parallel_v, ddsketch_agg(v, 0.001, 64)::text AS parallel_collapsed FROM ddpar \gset

EXPLAIN (COSTS OFF)
SELECT string_agg(s::text, ',' ORDER BY k) AS parallel_groups
FROM (SELECT k, ddsketch_agg(v) AS s FROM ddpar GROUP BY k) t;
SELECT string_agg(s::text, ',' ORDER BY k) AS parallel_groups
FROM (SELECT k, ddsketch_agg(v) AS s FROM ddpar GROUP BY k) t \gset

EXPLAIN (COSTS OFF) SELECT ddsketch_union(s)::text AS parallel_union FROM ddparts;
SELECT ddsketch_union(s)::text AS parallel_union FROM ddparts \gset

-- The same queries serially.
RESET parallel_leader_participation;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT ddsketch_agg(v) FROM ddpar;
SELECT ddsketch_agg(v)::text = :'parallel_v' AS equal,
       ddsketch_agg(v, 0.001, 64)::text = :'parallel_collapsed' AS collapsed_equal,
       (ddsketch_info(ddsketch_agg(v, 0.001, 64))->>'collapsed')::boolean AS did_collapse
FROM ddpar;
SELECT string_agg(s::text, ',' ORDER BY k) = :'parallel_groups' AS groups_equal
FROM (SELECT k, ddsketch_agg(v) AS s FROM ddpar GROUP BY k) t;
SELECT ddsketch_union(s)::text = :'parallel_union' AS union_equal,
       ddsketch_union(s) = (SELECT ddsketch_agg(v) FROM ddpar) AS union_equals_direct
FROM ddparts;
DROP TABLE ddpar, ddparts;
