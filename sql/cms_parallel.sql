-- Parallel aggregation: partial aggregates in workers, combined in the leader.
-- The counters are always those of the serial sketch; the candidate lists
-- too when every value fits (here: t has 500 distinct values, k = 1000), and
-- then the whole sketch is the serial one, byte for byte.
--
-- What is asserted: every compared query is planned as Finalize Aggregate <-
-- Gather <- Partial Aggregate (EXPLAIN COSTS OFF, the plan of exactly that
-- query), and its result equals the serial plan's. How many workers actually
-- launch depends on free worker slots, so it is not pinned (EXPLAIN ANALYZE
-- would print "Workers Launched: N" and fail spuriously).
CREATE TABLE cms_par (g int, k int, v bigint, t text);
INSERT INTO cms_par SELECT g, g % 10, floor(30000 * ((g * 0.7548776662) % 1) ^ 3)::bigint,
                       'item-' || (g % 500)
FROM generate_series(1, 400000) g;
ALTER TABLE cms_par SET (parallel_workers = 2);
ANALYZE cms_par;
CREATE TABLE cms_parts AS SELECT g % 200 AS k, cms_agg(v) AS s FROM cms_par GROUP BY 1;
ALTER TABLE cms_parts SET (parallel_workers = 2);
ANALYZE cms_parts;
CREATE TABLE cms_par_exact AS SELECT v, count(*) AS n FROM cms_par GROUP BY v;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF)
SELECT cms_agg(t, 0.001, 0.01, false, 1000)::text AS parallel_t,
       cms_agg(v, 0.01, 0.01, true)::text AS parallel_v_conservative,
       cms_agg_weighted(t, k::bigint, 0.001, 0.01, false, 1000)::text AS parallel_weighted FROM cms_par;
SELECT cms_agg(t, 0.001, 0.01, false, 1000)::text AS parallel_t,
       cms_agg(v, 0.01, 0.01, true)::text AS parallel_v_conservative,
       cms_agg_weighted(t, k::bigint, 0.001, 0.01, false, 1000)::text AS parallel_weighted FROM cms_par \gset
EXPLAIN (COSTS OFF) CREATE TABLE cms_parallel_v AS SELECT cms_agg(v) AS s FROM cms_par;
CREATE TABLE cms_parallel_v AS SELECT cms_agg(v) AS s FROM cms_par;

-- Grouped: partial sketches per group, combined per group in the leader.
EXPLAIN (COSTS OFF)
SELECT string_agg(s::text, ',' ORDER BY k) AS parallel_groups
FROM (SELECT k, cms_agg(t, 0.01, 0.01) AS s FROM cms_par GROUP BY k) s;
SELECT string_agg(s::text, ',' ORDER BY k) AS parallel_groups
FROM (SELECT k, cms_agg(t, 0.01, 0.01) AS s FROM cms_par GROUP BY k) s \gset

EXPLAIN (COSTS OFF) CREATE TABLE cms_parallel_union AS SELECT cms_union(s) AS s FROM cms_parts;
CREATE TABLE cms_parallel_union AS SELECT cms_union(s) AS s FROM cms_parts;

-- The same queries serially.
RESET parallel_leader_participation;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT cms_agg(v) FROM cms_par;
SELECT cms_agg(t, 0.001, 0.01, false, 1000)::text = :'parallel_t' AS text_equal,
       cms_agg_weighted(t, k::bigint, 0.001, 0.01, false, 1000)::text = :'parallel_weighted' AS weighted_equal
FROM cms_par;
SELECT string_agg(s::text, ',' ORDER BY k) = :'parallel_groups' AS groups_equal
FROM (SELECT k, cms_agg(t, 0.01, 0.01) AS s FROM cms_par GROUP BY k) s;

-- 30,000 distinct bigints: more than k = 100, so compare counters (every
-- value's estimate), totals and the top 10.
WITH serial AS (SELECT cms_agg(v) AS s, cms_agg(v, 0.01, 0.01, true) AS c FROM cms_par)
SELECT count(*) AS values,
       bool_and(cms_frequency(p.s, e.v) = cms_frequency(serial.s, e.v)) AS same_counters,
       bool_and(cms_frequency(:'parallel_v_conservative'::cms, e.v) >= e.n) AS conservative_never_under,
       min(cms_total(p.s)) = min(cms_total(serial.s)) AS same_total,
       bool_and(cms_frequency(p.s, e.v) >= e.n) AS never_under
FROM cms_par_exact e, serial, cms_parallel_v p;
SELECT (SELECT array_agg(value ORDER BY frequency DESC, value) FROM cms_topk((SELECT s FROM cms_parallel_v), 10))
     = (SELECT array_agg(value ORDER BY frequency DESC, value) FROM cms_topk((SELECT cms_agg(v) FROM cms_par), 10)) AS same_top10,
       (SELECT array_agg(value ORDER BY frequency DESC, value) FROM cms_topk((SELECT cms_agg(v) FROM cms_par), 10))
     = (SELECT array_agg(v::text ORDER BY n DESC, v::text) FROM (SELECT * FROM cms_par_exact ORDER BY n DESC, v LIMIT 10) t) AS exact_top10;
SELECT (SELECT cms_total(s) FROM cms_parallel_union) = (SELECT cms_total(cms_union(s)) FROM cms_parts) AS union_total_equal,
       (SELECT bool_and(cms_frequency(u.s, e.v) = cms_frequency(d.s, e.v))
        FROM cms_par_exact e, cms_parallel_union u, cms_parallel_v d) AS union_counters_equal_direct;

-- Leave nothing behind for later suites (hll_coexist drops the extension).
DROP TABLE cms_par, cms_parts, cms_par_exact, cms_parallel_v, cms_parallel_union;
