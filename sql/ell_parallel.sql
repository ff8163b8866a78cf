-- Parallel aggregation of ell sketches: partial aggregates in workers,
-- combined in the leader, must give exactly the serial sketch, byte for byte
-- (ell_agg's result is the merged form in every plan: docs/ell.md).
--
-- What is asserted: every compared query is planned as Finalize Aggregate <-
-- Gather <- Partial Aggregate (EXPLAIN COSTS OFF, the plan of exactly that
-- query), and its result equals the serial plan's, byte for byte. How many
-- workers actually launch is not pinned.
CREATE TABLE epar (g int, k int, v bigint, t text);
INSERT INTO epar SELECT g, g % 10, (g * 2654435761) % 300000, 'item-' || (g % 70000)
FROM generate_series(1, 400000) g;
ALTER TABLE epar SET (parallel_workers = 2);
ANALYZE epar;
CREATE TABLE eparts AS SELECT g % 200 AS k, ell_agg(v) AS e FROM epar GROUP BY 1;
ALTER TABLE eparts SET (parallel_workers = 2);
ANALYZE eparts;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

-- Dense (p = 11, 10), and sparse (1,000 values at p = 14).
EXPLAIN (COSTS OFF)
SELECT ell_agg(v)::text AS parallel_v, ell_agg(t)::text AS parallel_t,
       ell_agg(v, 10)::text AS parallel_v10, ell_agg(v % 1000, 14)::text AS parallel_sparse FROM epar;
SELECT ell_agg(v)::text AS parallel_v, ell_agg(t)::text AS parallel_t,
       ell_agg(v, 10)::text AS parallel_v10, ell_agg(v % 1000, 14)::text AS parallel_sparse FROM epar \gset

-- Grouped: partial sketches per group, combined per group in the leader.
EXPLAIN (COSTS OFF)
SELECT string_agg(e::text, ',' ORDER BY k) AS parallel_groups
FROM (SELECT k, ell_agg(v) AS e FROM epar GROUP BY k) s;
SELECT string_agg(e::text, ',' ORDER BY k) AS parallel_groups
FROM (SELECT k, ell_agg(v) AS e FROM epar GROUP BY k) s \gset

EXPLAIN (COSTS OFF) SELECT ell_union(e)::text AS parallel_union FROM eparts;
SELECT ell_union(e)::text AS parallel_union FROM eparts \gset

-- The same queries serially.
RESET parallel_leader_participation;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT ell_agg(v) FROM epar;
SELECT ell_agg(v)::text = :'parallel_v' AS bigint_equal,
       ell_agg(t)::text = :'parallel_t' AS text_equal,
       ell_agg(v, 10)::text = :'parallel_v10' AS p10_equal,
       ell_agg(v % 1000, 14)::text = :'parallel_sparse' AS sparse_equal,
       ell_info(ell_agg(v % 1000, 14))->>'representation' AS sparse_form,
       abs(ell_cardinality(ell_agg(v)) / 300000.0 - 1) < 3 * 0.0080 AS within_3_sigma
FROM epar;
SELECT string_agg(e::text, ',' ORDER BY k) = :'parallel_groups' AS groups_equal
FROM (SELECT k, ell_agg(v) AS e FROM epar GROUP BY k) s;
SELECT ell_union(e)::text = :'parallel_union' AS union_equal,
       ell_union(e) = (SELECT ell_agg(v) FROM epar) AS union_equals_direct
FROM eparts;
-- The serial sketch of rows in another order has the same bytes too.
SELECT (SELECT ell_agg(v ORDER BY v DESC) FROM epar)::text = :'parallel_v' AS order_equal;
