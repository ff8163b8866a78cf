-- cms aggregates: NULLs, zero rows, parameters, weights, rollups, windows.
SET extra_float_digits = 0;
SET TimeZone = 'UTC';

-- 72 hours of page views: page p (1..60) is viewed with weight ~1/p.
CREATE TABLE cms_views (ts timestamptz, page int);
INSERT INTO cms_views
SELECT timestamptz '2024-03-01 00:00+00' + (g % (72 * 60)) * interval '1 minute',
       1 + floor(60 * ((g * 0.618034) % 1) ^ 2.5)::int
FROM generate_series(1, 100000) g;
INSERT INTO cms_views VALUES ('2024-03-01 05:00+00', NULL), ('2024-03-02 05:00+00', NULL);
CREATE TABLE cms_exact AS SELECT page, count(*) AS n FROM cms_views WHERE page IS NOT NULL GROUP BY page;
SELECT count(*) AS pages, sum(n) AS views, max(n) AS busiest FROM cms_exact;

-- NULLs are skipped; zero rows give NULL, which readers treat as empty.
SELECT cms_total(cms_agg(page)) AS total, count(page) AS non_null FROM cms_views;
SELECT cms_agg(page) IS NULL AS is_null, cms_total(cms_agg(page)) AS total,
       cms_frequency(cms_agg(page), 1) AS freq FROM cms_views WHERE false;
SELECT cms_union(s) IS NULL AS is_null, cms_total(cms_union(s)) AS total
FROM (SELECT cms_agg(page) AS s FROM cms_views WHERE false) t;
SELECT cms_agg(NULL::int) IS NULL AS all_null_input;

-- Every estimate of the default sketch is within its bound here (60 values
-- in 2719 x 5 counters: exact), and the top 5 are the true top 5.
WITH s AS (SELECT cms_agg(page) AS s FROM cms_views)
SELECT bool_and(cms_frequency(s, page) >= n) AS never_under,
       bool_and(cms_frequency(s, page) - n <= cms_error_bound(s)) AS within_bound,
       sum(cms_frequency(s, page) - n) AS total_overestimate
FROM cms_exact, s;
SELECT k.value::int AS page, k.frequency, e.n AS exact
FROM cms_topk((SELECT cms_agg(page) FROM cms_views), 5) k JOIN cms_exact e ON e.page = k.value::int
ORDER BY k.frequency DESC;

-- Parameters: by accuracy, by size, conservative, k.
SELECT label, (i->>'width')::int AS width, (i->>'depth')::int AS depth,
       (i->>'conservative')::bool AS conservative, (i->>'k')::int AS k,
       (i->>'candidates')::int AS candidates, (i->>'total')::int AS total
FROM (VALUES
  ('cms_agg(v)',                     (SELECT cms_info(cms_agg(page)) FROM cms_views)),
  ('cms_agg(v, 0.01, 0.05)',         (SELECT cms_info(cms_agg(page, 0.01, 0.05)) FROM cms_views)),
  ('cms_agg(v, 0.01, 0.05, true)',   (SELECT cms_info(cms_agg(page, 0.01, 0.05, true)) FROM cms_views)),
  ('cms_agg(v, 0.01, 0.05, true, 7)', (SELECT cms_info(cms_agg(page, 0.01, 0.05, true, 7)) FROM cms_views)),
  ('cms_agg_sized(v, 500, 3)',       (SELECT cms_info(cms_agg_sized(page, 500, 3)) FROM cms_views)),
  ('cms_agg_sized(v, 500, 3, true)', (SELECT cms_info(cms_agg_sized(page, 500, 3, true)) FROM cms_views)),
  ('cms_agg_sized(v, 500, 3, false, 0)', (SELECT cms_info(cms_agg_sized(page, 500, 3, false, 0)) FROM cms_views)),
  ('cms_agg_weighted(v, n)',         (SELECT cms_info(cms_agg_weighted(page, n)) FROM cms_exact)),
  ('cms_agg_weighted(v, n, 0.01, 0.05)', (SELECT cms_info(cms_agg_weighted(page, n, 0.01, 0.05)) FROM cms_exact)),
  ('cms_agg_weighted(v, n, 0.01, 0.05, true)', (SELECT cms_info(cms_agg_weighted(page, n, 0.01, 0.05, true)) FROM cms_exact)),
  ('cms_agg_weighted(v, n, 0.01, 0.05, true, 3)', (SELECT cms_info(cms_agg_weighted(page, n, 0.01, 0.05, true, 3)) FROM cms_exact)),
  ('cms_agg_weighted_sized(v, n, 500, 3)', (SELECT cms_info(cms_agg_weighted_sized(page, n, 500, 3)) FROM cms_exact)),
  ('cms_agg_weighted_sized(v, n, 500, 3, true)', (SELECT cms_info(cms_agg_weighted_sized(page, n, 500, 3, true)) FROM cms_exact)),
  ('cms_agg_weighted_sized(v, n, 500, 3, true, 2)', (SELECT cms_info(cms_agg_weighted_sized(page, n, 500, 3, true, 2)) FROM cms_exact))
) AS t(label, i);

-- The same parameters by size or by accuracy build the same sketch, and an
-- aggregate equals cms_add onto the matching empty sketch.
SELECT cms_agg_sized(page, 272, 3) = cms_agg(page, 0.01, 0.05) AS sized_equals_accuracy,
       cms_agg_sized(page, 272, 3, true, 5) = cms_agg(page, 0.01, 0.05, true, 5) AS with_options
FROM cms_views;

-- Weighted: pre-counted rows give the same sketch as the raw rows (all 60
-- values fit the candidate list, so even the bytes agree). NULL values and
-- NULL or zero counts are skipped.
SELECT (SELECT cms_agg_weighted(page, n) FROM cms_exact) = (SELECT cms_agg(page) FROM cms_views) AS weighted_equals_raw;
-- Conservative update of a weight n is not n single updates (other values
-- come in between), but it never underestimates either.
WITH s AS (SELECT cms_agg_weighted(page, n, 0.01, 0.05, true) AS s FROM cms_exact)
SELECT bool_and(cms_frequency(s, page) >= n) AS conservative_never_under FROM cms_exact, s;
SELECT cms_total(cms_agg_weighted(v, n)) AS total, cms_frequency(cms_agg_weighted(v, n), 'a'::text) AS a,
       (SELECT count(*) FROM cms_topk(cms_agg_weighted(v, n), 10)) AS candidates
FROM (VALUES ('a', 5), ('b', NULL), (NULL, 7), ('c', 0), ('a', 2)) AS t(v, n);
SELECT cms_agg_weighted(v, n) IS NULL AS nothing_counted
FROM (VALUES ('b', NULL::bigint), ('c', 0)) AS t(v, n);

-- Hourly sketches merged into days equal the direct daily aggregate, byte
-- for byte (60 pages fit the candidate list), and match the exact counts.
CREATE TABLE cms_hourly AS
SELECT date_trunc('hour', ts) AS hour, cms_agg(page) AS pages, count(page) AS views
FROM cms_views GROUP BY 1;
SELECT d.day, cms_total(d.pages) AS total, d.pages = direct.pages AS identical,
       cms_frequency(d.pages, 1) AS page_1, cms_exact.n AS page_1_exact
FROM (SELECT date_trunc('day', hour) AS day, cms_union(pages) AS pages FROM cms_hourly GROUP BY 1) d
JOIN (SELECT date_trunc('day', ts) AS day, cms_agg(page) AS pages FROM cms_views GROUP BY 1) direct USING (day)
JOIN (SELECT date_trunc('day', ts) AS day, count(*) AS n FROM cms_views WHERE page = 1 GROUP BY 1) cms_exact USING (day)
ORDER BY day;

-- With more distinct values than candidates the lists of a rollup and of the
-- direct aggregate may differ, but the counters are the same and the heavy
-- hitters agree.
CREATE TABLE cms_clicks AS
SELECT g AS id, timestamptz '2024-03-01 00:00+00' + (g % 1440) * interval '1 minute' AS ts,
       floor(20000 * ((g * 0.7548776662) % 1) ^ 4)::int AS link
FROM generate_series(1, 200000) g;
CREATE TABLE cms_clicks_hourly AS
SELECT date_trunc('hour', ts) AS hour, cms_agg(link) AS links FROM cms_clicks GROUP BY 1;
WITH rollup AS (SELECT cms_union(links) AS s FROM cms_clicks_hourly),
     direct AS (SELECT cms_agg(link) AS s FROM cms_clicks),
     exact AS (SELECT link, count(*) AS n FROM cms_clicks GROUP BY link)
SELECT count(*) AS links, bool_and(cms_frequency(r.s, link) = cms_frequency(d.s, link)) AS same_counters,
       bool_and(cms_frequency(r.s, link) >= n) AS never_under,
       max(cms_frequency(r.s, link) - n) AS max_overestimate, min(cms_error_bound(r.s)) AS bound,
       min(cms_total(r.s)) AS total
FROM exact, rollup r, direct d;
SELECT (SELECT array_agg(value ORDER BY frequency DESC, value) FROM cms_topk((SELECT cms_union(links) FROM cms_clicks_hourly), 10))
     = (SELECT array_agg(link::text ORDER BY n DESC, link::text)
        FROM (SELECT link, count(*) AS n FROM cms_clicks GROUP BY link ORDER BY n DESC, link LIMIT 10) t) AS rollup_top10_exact,
       (SELECT array_agg(value ORDER BY frequency DESC, value) FROM cms_topk((SELECT cms_agg(link) FROM cms_clicks), 10))
     = (SELECT array_agg(value ORDER BY frequency DESC, value) FROM cms_topk((SELECT cms_union(links) FROM cms_clicks_hourly), 10)) AS same_top10;

-- Window use: a running merge equals the aggregate of every hour so far.
SELECT count(*) FILTER (WHERE running = direct) AS identical_hours, count(*) AS hours,
       bool_and(cms_total(running) = so_far) AS totals_match
FROM (SELECT hour, cms_union(pages) OVER (ORDER BY hour) AS running,
             sum(views) OVER (ORDER BY hour) AS so_far FROM cms_hourly) w,
     LATERAL (SELECT cms_agg(page) AS direct FROM cms_views WHERE date_trunc('hour', ts) <= w.hour) d;
SELECT count(*) FILTER (WHERE a = b) AS equal_rows, count(*) AS rows
FROM (SELECT cms_union(pages) OVER (ORDER BY hour) AS a,
             cms_union(pages) OVER (ORDER BY hour ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS b
      FROM cms_hourly) s;
-- Sliding window: the last 3 hours, each frame aggregated afresh.
SELECT DISTINCT hour, cms_total(cms_agg(page) OVER w) AS last_3_hours
FROM (SELECT date_trunc('hour', ts) AS hour, page FROM cms_views WHERE ts < '2024-03-01 06:00+00') v
WINDOW w AS (ORDER BY hour RANGE BETWEEN interval '2 hours' PRECEDING AND CURRENT ROW)
ORDER BY hour;

-- Many small groups of small sketches: (0.05, 0.1) is 55 x 3 counters, k = 5.
SELECT count(*) AS groups, min(pg_column_size(s)) AS min_bytes, max(pg_column_size(s)) AS max_bytes
FROM (SELECT page, cms_agg(date_trunc('hour', ts), 0.05, 0.1, false, 5) AS s FROM cms_views GROUP BY page) t;

-- Incremental upserts merge late data into the rollup.
CREATE TABLE cms_rollup (day date PRIMARY KEY, pages cms);
INSERT INTO cms_rollup SELECT ts::date, cms_agg(page) FROM cms_views WHERE page < 10 GROUP BY 1;
INSERT INTO cms_rollup SELECT ts::date, cms_agg(page) FROM cms_views WHERE page >= 10 GROUP BY 1
ON CONFLICT (day) DO UPDATE SET pages = cms_rollup.pages || EXCLUDED.pages;
SELECT bool_and(r.pages = d.pages) AS upsert_equals_direct
FROM cms_rollup r JOIN (SELECT ts::date AS day, cms_agg(page) AS pages FROM cms_views GROUP BY 1) d USING (day);

-- Transition functions called directly (outside an aggregate) do not modify
-- their input and return the stored form.
CREATE TABLE cms_base AS SELECT cms_agg(g) AS s FROM generate_series(1, 3) g;
SELECT cms_total(cms_agg_trans(s, 9)) AS added, cms_total(s) AS unchanged,
       cms_total(cms_union_trans(s, s)) AS doubled,
       cms_total(cms_agg_weighted_trans(s, 9, 10::bigint)) AS weighted,
       cms_total(cms_agg_sized_trans(cms_empty_sized(10, 2), 1, 10, 2)) AS sized,
       cms_total(cms_final(s)) AS final
FROM cms_base;
SELECT cms_info(cms_union_trans(NULL, s)) = cms_info(s) AS from_null FROM cms_base;

-- Leave nothing behind for later suites (hll_coexist drops the extension).
DROP TABLE cms_views, cms_exact, cms_hourly, cms_clicks, cms_clicks_hourly, cms_rollup, cms_base;
