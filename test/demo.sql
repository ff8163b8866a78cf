-- sketch demo: an hourly rollup of a click stream with hll sketches.
--
--   make demo      (a throwaway cluster, or your server when PGHOST/PGDATABASE is set)
--   psql -v ON_ERROR_STOP=1 -X -q -f test/demo.sql
--
-- Everything lives in the schema sketch_demo, which is dropped and recreated
-- here, so this is safe to run on your own server; afterwards explore it or
-- DROP SCHEMA sketch_demo CASCADE. The data is generated with a fixed seed,
-- so the output is the same on every run. It takes well under a minute.
--
-- Note: the peer extension postgresql-hll also defines a type named hll; if
-- it is installed in the same schema, CREATE EXTENSION sketch fails. Use
-- another database (or install sketch into its own schema).

\set ON_ERROR_STOP 1
\timing off
\pset footer off
SET client_min_messages = warning;
-- date_trunc('day', timestamptz) follows the session time zone: fix it so
-- days are the same days on every server.
SET TimeZone = 'UTC';
-- The rollup groups ~860k (hour, link) pairs; give the hash aggregate room.
SET work_mem = '128MB';

CREATE EXTENSION IF NOT EXISTS sketch;

DROP SCHEMA IF EXISTS sketch_demo CASCADE;
CREATE SCHEMA sketch_demo;
-- Find the types and functions wherever the extension was installed.
SELECT quote_ident(n.nspname) AS sketch_schema
FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE e.extname = 'sketch' \gset
SELECT set_config('search_path', 'sketch_demo, ' || :'sketch_schema', false) \g /dev/null

\echo
\echo '== sketch demo: 3,000,000 clicks in June 2024, ~300k visitors, 2,000 links, rolled up per (hour, link) into hll sketches'

-- 1. The raw click stream ----------------------------------------------------
-- Traffic per day: weekends at 65%, plus 1% growth per day; 3,000,000 clicks
-- split across the 30 days by those weights.
-- Time of day: normal around 14:00 UTC (sd 4.5 h), wrapped around midnight,
-- which gives a night trough at ~02:00 and a peak in the early afternoon.
-- Popularity is a power law (inverse-transform of random()^k): link 1 gets
-- ~8% of all clicks and half the links share ~20%; low visitor ids are heavy
-- users, the tail visits a few times a month.
SELECT setseed(0.42) \g /dev/null
CREATE TABLE clicks AS
WITH days AS (
  SELECT d, (CASE WHEN extract(isodow FROM date '2024-06-01' + d) >= 6 THEN 0.65 ELSE 1.0 END)
            * (1 + 0.01 * d) AS weight
  FROM generate_series(0, 29) AS d
), per_day AS (
  SELECT d, round(3000000 * weight / sum(weight) OVER ())::int AS n FROM days
)
SELECT timestamptz '2024-06-01 00:00+00' + per_day.d * interval '1 day'
         + make_interval(secs => s - 86400 * floor(s / 86400)) AS ts,
       (1 + floor(2000 * random() ^ 3))::bigint   AS link_id,
       (1 + floor(300000 * random() ^ 2))::bigint AS visitor_id
FROM per_day,
     LATERAL (SELECT 14 * 3600 + 4.5 * 3600
                     * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS s  -- Box-Muller
              FROM generate_series(1, per_day.n)) AS t;
ANALYZE clicks;

-- 2. The hourly rollup ---------------------------------------------------------
CREATE TABLE clicks_hourly (
  hour     timestamptz,
  link_id  bigint,
  visitors hll,          -- distinct visitors of this link in this hour
  clicks   bigint,       -- plain counts still just add up
  PRIMARY KEY (hour, link_id)
);
INSERT INTO clicks_hourly
SELECT date_trunc('hour', ts), link_id, hll_agg(visitor_id), count(*)
FROM clicks GROUP BY 1, 2;
ANALYZE clicks_hourly;

\echo '   rollup: INSERT INTO clicks_hourly SELECT date_trunc(''hour'', ts), link_id, hll_agg(visitor_id), count(*) FROM clicks GROUP BY 1, 2;'
\echo

-- Kept for the summary at the end: sketch vs exact per day.
CREATE TABLE daily_check AS
SELECT s.day, s.clicks, s.estimate, e.exact
FROM (SELECT date_trunc('day', hour)::date AS day, sum(clicks) AS clicks,
             hll_cardinality(hll_union(visitors)) AS estimate
      FROM clicks_hourly GROUP BY 1) AS s
JOIN (SELECT date_trunc('day', ts)::date AS day, count(DISTINCT visitor_id) AS exact
      FROM clicks GROUP BY 1) AS e USING (day);

\echo '== 1. Daily distinct visitors: each day''s hourly sketches (24 hours x all links) merged with hll_union(visitors) GROUP BY day, vs exact count(DISTINCT)'
SELECT day, clicks, estimate AS "visitors (sketch)", exact AS "visitors (exact)",
       round(100.0 * (estimate - exact) / exact, 2) AS "error %"
FROM daily_check ORDER BY day;

\echo '== 2. Weekly distinct visitors (weeks start on Monday; the first and last weeks are partial) - never sum daily uniques, merge the sketches'
SELECT s.week, s.days, s.estimate AS "visitors (sketch)", e.exact AS "visitors (exact)",
       d.sum_of_daily AS "sum of daily (wrong)",
       round(100.0 * (s.estimate - e.exact) / e.exact, 2) AS "error %"
FROM (SELECT date_trunc('week', hour)::date AS week,
             count(DISTINCT date_trunc('day', hour)) AS days,
             hll_cardinality(hll_union(visitors)) AS estimate
      FROM clicks_hourly GROUP BY 1) AS s
JOIN (SELECT date_trunc('week', ts)::date AS week, count(DISTINCT visitor_id) AS exact
      FROM clicks GROUP BY 1) AS e USING (week)
JOIN (SELECT date_trunc('week', day)::date AS week, sum(exact) AS sum_of_daily
      FROM daily_check GROUP BY 1) AS d USING (week)
ORDER BY week;

\echo '== 3. Running total of distinct visitors since June 1: hll_union(visitors) OVER (ORDER BY day) over per-day sketches, vs exact (from each visitor''s first day)'
WITH per_day AS (
  SELECT date_trunc('day', hour)::date AS day, hll_union(visitors) AS visitors
  FROM clicks_hourly GROUP BY 1
), running AS (
  SELECT day, hll_cardinality(hll_union(visitors) OVER (ORDER BY day)) AS estimate
  FROM per_day
), first_seen AS (
  SELECT date_trunc('day', first_ts)::date AS day, count(*) AS new_visitors
  FROM (SELECT visitor_id, min(ts) AS first_ts FROM clicks GROUP BY visitor_id) AS v
  GROUP BY 1
), exact AS (
  SELECT day, new_visitors, sum(new_visitors) OVER (ORDER BY day) AS exact FROM first_seen
)
SELECT day, new_visitors AS "new (exact)", estimate AS "so far (sketch)", exact AS "so far (exact)",
       round(100.0 * (estimate - exact) / exact, 2) AS "error %"
FROM running JOIN exact USING (day) ORDER BY day;

\echo '== 4. Top 10 links by distinct visitors in June: hll_union(visitors) GROUP BY link_id over the rollup, vs exact'
WITH top AS (
  SELECT link_id, sum(clicks) AS clicks, hll_cardinality(hll_union(visitors)) AS estimate
  FROM clicks_hourly GROUP BY link_id ORDER BY estimate DESC, link_id LIMIT 10
), exact AS (
  SELECT link_id, count(DISTINCT visitor_id) AS exact
  FROM clicks WHERE link_id IN (SELECT link_id FROM top) GROUP BY link_id
)
SELECT link_id, clicks, estimate AS "visitors (sketch)", exact AS "visitors (exact)",
       round(100.0 * (estimate - exact) / exact, 2) AS "error %"
FROM top JOIN exact USING (link_id) ORDER BY estimate DESC, link_id;

\echo '== 5. Storage: raw clicks vs the hourly rollup (and a daily rollup merged from it); sizes include indexes and TOAST'
-- A coarser rollup is just another merge of the hourly sketches.
CREATE TABLE clicks_daily AS
SELECT date_trunc('day', hour)::date AS day, link_id, hll_union(visitors) AS visitors, sum(clicks) AS clicks
FROM clicks_hourly GROUP BY 1, 2;
ALTER TABLE clicks_daily ADD PRIMARY KEY (day, link_id);
WITH t(name, rel, n) AS (
  VALUES ('clicks (raw, no index)',       'clicks'::regclass,        (SELECT count(*) FROM clicks)),
         ('clicks_hourly (hour, link)',   'clicks_hourly'::regclass, (SELECT count(*) FROM clicks_hourly)),
         ('clicks_daily (day, link)',     'clicks_daily'::regclass,  (SELECT count(*) FROM clicks_daily))
)
SELECT name AS "table", n AS "rows", pg_size_pretty(pg_total_relation_size(rel)) AS size,
       round(pg_total_relation_size(rel)::numeric / n) AS "bytes/row",
       round(pg_total_relation_size('clicks')::numeric / pg_total_relation_size(rel), 1) AS "raw/size"
FROM t;
SELECT round(avg(clicks), 2) AS "clicks per hourly row",
       round(avg(pg_column_size(visitors))) AS "avg sketch bytes",
       max(pg_column_size(visitors)) AS "max sketch bytes",
       count(*) FILTER (WHERE hll_info(visitors)->>'representation' = 'dense') AS "dense sketches"
FROM clicks_hourly;

\echo '== 6. Summary: |error| of the 30 daily counts vs the expected standard error 1.04/sqrt(2^14) = 0.81% at p = 14'
SELECT count(*) AS days,
       round(max(abs(100.0 * (estimate - exact) / exact)), 2) AS "max |error| %",
       round(avg(abs(100.0 * (estimate - exact) / exact)), 2) AS "mean |error| %",
       round(sqrt(avg((100.0 * (estimate - exact) / exact) ^ 2)), 2) AS "RMS error %",
       round((100 * 1.04 / sqrt(2 ^ 14))::numeric, 2) AS "expected std error %",
       count(*) FILTER (WHERE abs(estimate - exact) <= 2 * 0.0081 * exact) AS "days within 2 std errors"
FROM daily_check;

-- 7. Late data: merge a batch into existing rows ---------------------------------
\echo '== 7. Late-arriving data: a delayed log batch (40,000 clicks on June 28-30, 5,000 of them from new visitors) merged in place'
\echo '   INSERT INTO clicks_hourly'
\echo '   SELECT date_trunc(''hour'', ts), link_id, hll_agg(visitor_id), count(*) FROM late_clicks GROUP BY 1, 2'
\echo '   ON CONFLICT (hour, link_id) DO UPDATE'
\echo '     SET visitors = clicks_hourly.visitors || EXCLUDED.visitors,  -- union of sketches'
\echo '         clicks   = clicks_hourly.clicks + EXCLUDED.clicks;'

SELECT setseed(0.7) \g /dev/null
CREATE TABLE late_clicks AS
SELECT timestamptz '2024-06-28 00:00+00' + random() * interval '3 days' AS ts,
       (1 + floor(2000 * random() ^ 3))::bigint AS link_id,
       CASE WHEN i <= 5000 THEN 300000 + i                            -- new visitors
            ELSE (1 + floor(300000 * random() ^ 2))::bigint END AS visitor_id
FROM generate_series(1, 40000) AS i;

CREATE TABLE before_late AS
SELECT (SELECT hll_cardinality(hll_union(visitors)) FROM clicks_hourly) AS estimate,
       (SELECT count(DISTINCT visitor_id) FROM clicks) AS exact;

-- The raw table gets the batch too, so the exact answers below include it.
INSERT INTO clicks SELECT * FROM late_clicks;

-- xmax = 0 tells a freshly inserted row from one the upsert updated.
WITH upsert AS (
  INSERT INTO clicks_hourly
  SELECT date_trunc('hour', ts), link_id, hll_agg(visitor_id), count(*)
  FROM late_clicks GROUP BY 1, 2
  ON CONFLICT (hour, link_id) DO UPDATE
    SET visitors = clicks_hourly.visitors || EXCLUDED.visitors,
        clicks   = clicks_hourly.clicks + EXCLUDED.clicks
  RETURNING (xmax = 0) AS inserted
)
SELECT count(*) FILTER (WHERE NOT inserted) AS "rows merged", count(*) FILTER (WHERE inserted) AS "rows added"
FROM upsert;

SELECT 'June, before' AS scope, estimate AS "visitors (sketch)", exact AS "visitors (exact)",
       round(100.0 * (estimate - exact) / exact, 2) AS "error %"
FROM before_late
UNION ALL
SELECT 'June, after', s.estimate, e.exact, round(100.0 * (s.estimate - e.exact) / e.exact, 2)
FROM (SELECT hll_cardinality(hll_union(visitors)) AS estimate FROM clicks_hourly) AS s,
     (SELECT count(DISTINCT visitor_id) AS exact FROM clicks) AS e
UNION ALL
SELECT * FROM (
  SELECT to_char(s.day, '"day "YYYY-MM-DD", after"'), s.estimate, e.exact,
         round(100.0 * (s.estimate - e.exact) / e.exact, 2)
  FROM (SELECT date_trunc('day', hour)::date AS day, hll_cardinality(hll_union(visitors)) AS estimate
        FROM clicks_hourly WHERE hour >= '2024-06-28' GROUP BY 1) AS s
  JOIN (SELECT date_trunc('day', ts)::date AS day, count(DISTINCT visitor_id) AS exact
        FROM clicks WHERE ts >= '2024-06-28' GROUP BY 1) AS e USING (day)
  ORDER BY s.day
) AS late_days;

-- The other sketch types add their sections, in files of their own.
\ir demo_cms.sql
\ir demo_bloom.sql
\ir demo_ddsketch.sql
\ir demo_topk.sql
\ir demo_theta.sql
\ir demo_filters.sql

\echo
\echo 'Done. The tables stay in schema sketch_demo; DROP SCHEMA sketch_demo CASCADE removes them.'
