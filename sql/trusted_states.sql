-- A transition function skips the shape check of the state it handed back
-- in place on the row before (src/pg/common/trusted_state.h): sound only as
-- long as every way the executor frees or replaces a state makes it forget.
-- Each plan shape below frees states in its own way: a new group of a
-- sorted aggregate (its context reset), a hash aggregate that spills and
-- refills its table in batches, rescans of an aggregate inside a nested
-- loop, grouping sets (several aggregate contexts), moving window frames
-- (states restarted without a reset), a state that grows (replaced), a
-- DISTINCT aggregate, and an INITCOND copied for every group. The answer of
-- each is compared with the same sketches built by a plan that never reuses
-- a state: one aggregate per group over exactly that group's rows.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE ts AS
SELECT i, i % 997 AS g, (i * 7919) % 100003 AS v FROM generate_series(1, 60000) i;
ANALYZE ts;
-- The same rows with an index on the group, for the plans that read one
-- group at a time (the references, the rescans, the window's frames): each
-- reads its group's 60 rows, not all 60,000 (4,000 full scans took 45 s).
-- ts itself has no index, so that the plans over it are the shapes named.
CREATE TABLE ts_by_g AS SELECT * FROM ts;
CREATE INDEX ts_by_g_g ON ts_by_g (g, i);
ANALYZE ts_by_g;
-- The reference: each group's sketches from its own scan.
CREATE TABLE ts_ref AS
SELECT g.g,
       (SELECT hll_agg(v) FROM ts_by_g ts WHERE ts.g = g.g) AS h,
       (SELECT ddsketch_agg(v::float8) FROM ts_by_g ts WHERE ts.g = g.g) AS d,
       (SELECT bloom_agg(v, 200, 0.01) FROM ts_by_g ts WHERE ts.g = g.g) AS b,
       (SELECT theta_agg(v) FROM ts_by_g ts WHERE ts.g = g.g) AS t
FROM (SELECT DISTINCT g FROM ts) g;
-- The groups whose sketches differ from the reference, and the plan that
-- built them: the strategy of each aggregate node (Plain, Sorted, Hashed,
-- Mixed) and whether a hash table spilled to batches, so that a planner
-- choosing another shape fails the test instead of skipping what it is for.
CREATE FUNCTION ts_mismatches(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE n bigint; plan jsonb;
BEGIN
  EXECUTE format('SELECT count(*) FROM (%s) x FULL JOIN ts_ref r USING (g)
                  WHERE x.h IS DISTINCT FROM r.h OR x.d IS DISTINCT FROM r.d
                     OR x.b IS DISTINCT FROM r.b OR x.t IS DISTINCT FROM r.t', q) INTO n;
  EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF, FORMAT JSON) ' || q INTO plan;
  RETURN n || ' mismatches; aggregates: '
         || (SELECT string_agg(DISTINCT s #>> '{}', ', ')
             FROM jsonb_path_query(plan, 'strict $.**."Strategy"') s)
         || CASE WHEN (SELECT max((b #>> '{}')::int) FROM jsonb_path_query(plan, 'strict $.**."HashAgg Batches"') b) > 1
                 THEN ', spilled' ELSE '' END;
END $$;
-- Sorted: GroupAggregate over input sorted by g (a context reset per group).
SET enable_hashagg = off;
SELECT ts_mismatches('SELECT g, hll_agg(v) AS h, ddsketch_agg(v::float8) AS d,
                             bloom_agg(v, 200, 0.01) AS b, theta_agg(v) AS t
                      FROM ts GROUP BY g') AS sorted;
RESET enable_hashagg;
-- Hashed, spilling: a table far larger than work_mem, refilled in batches.
SET enable_sort = off;
SET work_mem = '64kB';
SET hash_mem_multiplier = 1;
SELECT ts_mismatches('SELECT g, hll_agg(v) AS h, ddsketch_agg(v::float8) AS d,
                             bloom_agg(v, 200, 0.01) AS b, theta_agg(v) AS t
                      FROM ts GROUP BY g') AS hashed_spilled;
RESET work_mem;
RESET hash_mem_multiplier;
RESET enable_sort;
-- Rescans: the aggregate of a correlated subquery, run once per outer row.
SELECT ts_mismatches('SELECT r.g, s.* FROM ts_ref r, LATERAL (
                        SELECT hll_agg(v) AS h, ddsketch_agg(v::float8) AS d,
                               bloom_agg(v, 200, 0.01) AS b, theta_agg(v) AS t
                        FROM ts_by_g ts WHERE ts.g = r.g) s') AS rescanned;
-- Grouping sets: a state per set, each set in its own context (sorted), or
-- hashed sets beside a sorted one.
SET enable_hashagg = off;
SELECT ts_mismatches('SELECT g, h, d, b, t FROM (
                        SELECT g, i % 2 AS half, hll_agg(v) AS h, ddsketch_agg(v::float8) AS d,
                               bloom_agg(v, 200, 0.01) AS b, theta_agg(v) AS t
                        FROM ts GROUP BY ROLLUP (g, i % 2)) x
                      WHERE half IS NULL AND g IS NOT NULL') AS rollup_sorted;
RESET enable_hashagg;
-- (the planner hashes a set only when its table fits in work_mem by the
-- aggregates' declared state sizes, about 150 kB a group here, for the
-- 61,000 groups it expects; nothing near that is allocated)
SET work_mem = '16GB';
SET enable_sort = off;
SELECT ts_mismatches('SELECT g, h, d, b, t FROM (
                        SELECT g, i % 2 AS half, hll_agg(v) AS h, ddsketch_agg(v::float8) AS d,
                               bloom_agg(v, 200, 0.01) AS b, theta_agg(v) AS t
                        FROM ts GROUP BY GROUPING SETS ((g), (i % 2), ())) x
                      WHERE g IS NOT NULL') AS grouping_sets_mixed;
RESET enable_sort;
RESET work_mem;
-- DISTINCT aggregates (their input sorted and fed at the group's end).
SELECT ts_mismatches('SELECT g, hll_agg(DISTINCT v) AS h, ddsketch_agg(v::float8) AS d,
                             bloom_agg(DISTINCT v, 200, 0.01) AS b, theta_agg(DISTINCT v) AS t
                      FROM ts GROUP BY g') AS distinct_aggregates;
-- Moving window frames: a frame's state is restarted (freed and made again)
-- without any reset; each row's answer equals the aggregate of its frame.
SELECT count(*) AS window_mismatches FROM (
  SELECT i, hll_agg(v) OVER w AS h, ddsketch_agg(v::float8) OVER w AS d
  FROM ts WHERE g = 5
  WINDOW w AS (ORDER BY i ROWS BETWEEN 3 PRECEDING AND CURRENT ROW)) x
WHERE h IS DISTINCT FROM (SELECT hll_agg(v) FROM (SELECT v FROM ts_by_g WHERE g = 5 AND i <= x.i
                                                ORDER BY i DESC LIMIT 4) f)
   OR d IS DISTINCT FROM (SELECT ddsketch_agg(v::float8) FROM (SELECT v FROM ts_by_g
                                                WHERE g = 5 AND i <= x.i ORDER BY i DESC LIMIT 4) f);
-- A state that grows on later rows (hll sparse -> dense, theta's table,
-- ddsketch's windows), in both plans: replaced states are forgotten.
SELECT hll_agg(i) = (SELECT hll_agg(i) FROM generate_series(1, 50000) i) AS grown_same,
       ddsketch_agg(i * 1.5e3::float8) = (SELECT ddsketch_agg(i * 1.5e3::float8)
                                         FROM generate_series(1, 50000) i) AS ddsketch_grown_same
FROM generate_series(1, 50000) i;
-- An INITCOND copied for every group of a sorted aggregate, each copy
-- likely at the address of the previous group's state once its context is
-- reset: every group's sketch is the union of the INITCOND's and its rows'
-- (compared as text: without our final function the result is a working
-- state, whose text output is the stored form).
SELECT hll_agg(i)::text AS hll3 FROM generate_series(1, 3) i \gset
CREATE AGGREGATE ts_h(anyelement) (sfunc = hll_agg_trans, stype = hll, initcond = :'hll3');
SET enable_hashagg = off;
SELECT count(*) AS initcond_mismatches FROM (SELECT g, ts_h(v) AS h FROM ts GROUP BY g) x
JOIN ts_ref r USING (g) WHERE x.h::text IS DISTINCT FROM hll_union(r.h, :'hll3'::hll)::text;
RESET enable_hashagg;
DROP AGGREGATE ts_h(anyelement);
DROP FUNCTION ts_mismatches(text);
DROP TABLE ts, ts_by_g, ts_ref;
