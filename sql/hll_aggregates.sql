-- hll aggregates: NULLs, zero rows, precision, rollups, windows, typmods.
SET extra_float_digits = 0;
SET TimeZone = 'UTC';

CREATE TABLE events (ts timestamptz, visitor int, page int);
INSERT INTO events
SELECT timestamptz '2024-03-01 00:00+00' + (g % (72 * 60)) * interval '1 minute',
       (g * 7919) % 40000, g % 13
FROM generate_series(1, 150000) g;
INSERT INTO events VALUES ('2024-03-01 05:00+00', NULL, 1);

-- NULLs are skipped; zero rows give NULL, read as 0 distinct.
SELECT #hll_agg(visitor) AS with_nulls, count(DISTINCT visitor) AS exact FROM events;
SELECT hll_agg(visitor) IS NULL AS is_null, #hll_agg(visitor) AS card FROM events WHERE false;
SELECT hll_union(h) IS NULL AS is_null, #hll_union(h) AS card
FROM (SELECT hll_agg(visitor) AS h FROM events WHERE false) s;
SELECT hll_agg(NULL::int) IS NULL AS all_null_input;

-- Precision argument.
SELECT (hll_info(hll_agg(visitor, 10))->>'precision')::int AS p10,
       (hll_info(hll_agg(visitor, 18))->>'precision')::int AS p18
FROM events;
SELECT hll_agg(visitor, p) FROM (VALUES (1, 10), (2, 12)) AS t(visitor, p);

-- Hourly rollup merged into days equals the direct daily aggregate, exactly.
CREATE TABLE hourly AS
SELECT date_trunc('hour', ts) AS hour, hll_agg(visitor) AS visitors
FROM events GROUP BY 1;
SELECT d.day, #d.visitors AS from_hours, #direct.visitors AS direct, d.visitors = direct.visitors AS identical,
       exact.n AS exact
FROM (SELECT date_trunc('day', hour) AS day, hll_union(visitors) AS visitors FROM hourly GROUP BY 1) d
JOIN (SELECT date_trunc('day', ts) AS day, hll_agg(visitor) AS visitors FROM events GROUP BY 1) direct USING (day)
JOIN (SELECT date_trunc('day', ts) AS day, count(DISTINCT visitor) AS n FROM events GROUP BY 1) exact USING (day)
ORDER BY day;

-- Window use: a running total equals the aggregate of every row so far.
SELECT count(*) FILTER (WHERE running = direct) AS identical_hours, count(*) AS hours
FROM (SELECT hour, hll_union(visitors) OVER (ORDER BY hour) AS running FROM hourly) w,
     LATERAL (SELECT hll_agg(visitor) AS direct FROM events
              WHERE date_trunc('hour', ts) <= w.hour) d;
SELECT count(*) FILTER (WHERE a = b) AS equal_rows, count(*) AS rows
FROM (SELECT hll_union(visitors) OVER (ORDER BY hour) AS a,
             hll_union(visitors) OVER (ORDER BY hour ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS b
      FROM hourly) s;

-- Many small groups: per-page-and-hour sketches stay sparse and small.
SELECT count(*) AS groups, max(pg_column_size(h)) AS max_bytes,
       bool_and(hll_info(h)->>'representation' = 'sparse') AS all_sparse
FROM (SELECT hll_agg(visitor) AS h FROM events GROUP BY date_trunc('hour', ts), page) s;

-- Typed columns: hll(p) lowers the precision of what is stored, exactly.
CREATE TABLE typed (id int, h hll(10));
INSERT INTO typed SELECT 1, hll_agg(visitor) FROM events;
SELECT (hll_info(h)->>'precision')::int AS p, h = (SELECT hll_agg(visitor, 10) FROM events) AS exact_fold
FROM typed;
INSERT INTO typed SELECT 2, hll_agg(visitor, 8) FROM events;
SELECT hll_agg(visitor)::hll(12) = hll_agg(visitor, 12) AS cast_folds FROM events;
SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'typed'::regclass AND attname = 'h';

-- Incremental upserts merge late data into the rollup.
CREATE TABLE rollup (day date PRIMARY KEY, visitors hll);
INSERT INTO rollup SELECT ts::date, hll_agg(visitor) FROM events WHERE visitor < 20000 GROUP BY 1;
INSERT INTO rollup SELECT ts::date, hll_agg(visitor) FROM events WHERE visitor >= 20000 GROUP BY 1
ON CONFLICT (day) DO UPDATE SET visitors = rollup.visitors || EXCLUDED.visitors;
SELECT bool_and(r.visitors = d.visitors) AS upsert_equals_direct
FROM rollup r JOIN (SELECT ts::date AS day, hll_agg(visitor) AS visitors FROM events GROUP BY 1) d USING (day);

-- hll_union over sketches of mixed precision folds to the smallest.
SELECT (hll_info(hll_union(h))->>'precision')::int AS p
FROM (SELECT hll_agg(visitor, 14) FROM events UNION ALL SELECT hll_agg(visitor, 11) FROM events
      UNION ALL SELECT NULL::hll) AS t(h);

-- Transition functions called directly (outside an aggregate) do not modify their input.
SELECT #hll_agg_trans(hll_empty(), 1) AS one, #hll_union_trans(hll_agg(1), hll_agg(2)) AS two;

-- Dense unions (the packed register max, SIMD where the CPU has it) give the
-- bytes of a direct build: 24 dense "hourly" sketches of overlapping ranges
-- at p = 10 and 14, merged by the aggregate (in place), by day-like groups
-- and pairwise with ||, each against hll_agg over all the values.
CREATE TEMP TABLE dense_hours AS
SELECT p, h, hll_agg(h * 2500 + i, p) AS s
FROM (VALUES (10), (14)) AS ps(p), generate_series(0, 23) AS h, generate_series(1, 5000) AS i
GROUP BY p, h;
CREATE TEMP TABLE dense_direct AS
SELECT p, hll_agg(v, p) AS s FROM (VALUES (10), (14)) AS ps(p), generate_series(1, 23 * 2500 + 5000) AS v
GROUP BY p;
SELECT p, count(*) FILTER (WHERE hll_info(s)->>'representation' = 'dense') AS dense_inputs,
       (SELECT hll_union(s) FROM dense_hours d WHERE d.p = h.p)::bytea
         = (SELECT s FROM dense_direct x WHERE x.p = h.p)::bytea AS union_equals_direct,
       (SELECT hll_union(u) FROM (SELECT hll_union(s) AS u FROM dense_hours d WHERE d.p = h.p
                                  GROUP BY h / 6) AS q)::bytea
         = (SELECT s FROM dense_direct x WHERE x.p = h.p)::bytea AS grouped_equals_direct,
       (SELECT a.s || b.s FROM dense_hours a, dense_hours b
        WHERE a.p = h.p AND b.p = h.p AND a.h = 0 AND b.h = 1)::bytea
         = (SELECT hll_agg(v, h.p) FROM generate_series(1, 2500 + 5000) AS v)::bytea AS pair_equals_direct
FROM dense_hours h GROUP BY p ORDER BY p;
