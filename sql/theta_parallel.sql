-- Parallel aggregation of theta: partial aggregates in workers, combined in
-- the leader, give the serial sketch byte for byte (a sketch is a function
-- of the set of values).
--
-- What is asserted: every compared query is planned as Finalize Aggregate <-
-- Gather <- Partial Aggregate (EXPLAIN COSTS OFF).
CREATE TABLE thpar (g int, v bigint);
INSERT INTO thpar SELECT g, (g * 2654435761) % 300000 FROM generate_series(1, 400000) g;
ALTER TABLE thpar SET (parallel_workers = 2);
ANALYZE thpar;
CREATE TABLE thparts AS SELECT g % 100 AS k, theta_agg(v) AS s FROM thpar GROUP BY 1;
ALTER TABLE thparts SET (parallel_workers = 2);
ANALYZE thparts;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF) SELECT theta_agg(v) FROM thpar;
SELECT theta_agg(v)::text AS parallel_agg, theta_agg(v, 16)::text AS parallel_agg16 FROM thpar \gset
EXPLAIN (COSTS OFF) SELECT theta_union(s), theta_intersect(s) FROM thparts;
SELECT theta_union(s)::text AS parallel_union, theta_intersect(s)::text AS parallel_intersect FROM thparts \gset

SET max_parallel_workers_per_gather = 0;
SELECT theta_agg(v)::text = :'parallel_agg' AS agg_same_bytes,
       theta_agg(v, 16)::text = :'parallel_agg16' AS agg16_same_bytes FROM thpar;
SELECT theta_union(s)::text = :'parallel_union' AS union_same_bytes,
       theta_intersect(s)::text = :'parallel_intersect' AS intersect_same_bytes FROM thparts;
