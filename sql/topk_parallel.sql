-- Parallel aggregation of topk: partial aggregates in workers, combined in
-- the leader. While no purge happens (at most k distinct items) the result
-- is the serial summary byte for byte; with purges the merged summary may
-- differ from the serial one but keeps the guarantees, checked against the
-- exact counts.
--
-- What is asserted: every compared query is planned as Finalize Aggregate <-
-- Gather <- Partial Aggregate (EXPLAIN COSTS OFF).
CREATE TABLE tkpar (g int, v int);
INSERT INTO tkpar SELECT g, ((g * 2654435761) % 1000) * ((g * 2654435761) % 1000) / 1000
FROM generate_series(1, 400000) g;
ALTER TABLE tkpar SET (parallel_workers = 2);
ANALYZE tkpar;
CREATE TABLE tkpar_exact AS SELECT v, count(*) AS n FROM tkpar GROUP BY v;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF) SELECT topk_agg(v) FROM tkpar;
SELECT topk_agg(v)::text AS parallel_exact, topk_agg(v, 64) AS parallel_purged FROM tkpar \gset
EXPLAIN (COSTS OFF) SELECT topk_agg_weighted(v, g % 3) FROM tkpar;
SELECT topk_agg_weighted(v, g % 3)::text AS parallel_weighted FROM tkpar \gset

RESET max_parallel_workers_per_gather;
SET max_parallel_workers_per_gather = 0;
SELECT (SELECT count(*) FROM tkpar_exact) AS distinct_items,
       topk_agg(v)::text = :'parallel_exact' AS exact_same_bytes,
       topk_agg_weighted(v, g % 3)::text = :'parallel_weighted' AS weighted_same_bytes
FROM tkpar;

-- The purged parallel summary: same total, bounds hold for every item.
SELECT topk_total(s) = 400000 AS total,
       topk_max_error(s) <= (topk_info(s)->>'error_bound')::bigint AS within_bound,
       (SELECT bool_and(e.n BETWEEN i.lower_bound AND i.upper_bound)
        FROM topk_items(s, 100, NULL::int) i JOIN tkpar_exact e ON e.v = i.item) AS bounds_hold,
       (SELECT bool_and(e.n <= topk_max_error(s)) FROM tkpar_exact e
        WHERE NOT EXISTS (SELECT 1 FROM topk_items(s, 100, NULL::int) i WHERE i.item = e.v)) AS others_below
FROM (SELECT :'parallel_purged'::topk AS s) x;
