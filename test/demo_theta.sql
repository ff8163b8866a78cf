-- theta section of the demo: day-over-day retention from hourly theta
-- sketches, beside the exact answer and beside hll's inclusion-exclusion.
--
-- Included from test/demo.sql once sketch_demo.clicks(ts, visitor_id,
-- link_id) exists (~3M clicks over 30 days, the late batch of section 7
-- included, search_path set to sketch_demo and the extension's schema) and
-- clicks_hourly holds one hll of visitor_id per (hour, link). Everything it
-- creates lives in sketch_demo too. Deterministic: the sketches are
-- functions of the sets, whatever the plan. Takes a few seconds.
--
-- Retention of day d: |V(d) ∩ V(d+1)| / |V(d)|, V(d) the visitors of day d.
-- theta answers it with an intersection of two daily sketches, each the
-- union of 24 hourly ones; hll only by inclusion-exclusion,
-- |V(d)| + |V(d+1)| - |V(d) ∪ V(d+1)|, whose error is relative to the union.

\echo
\echo '== 20. Hourly theta sketches of visitor_id (k = 4,096 hashes, exact below that): one row per hour'
\echo '   CREATE TABLE visitors_theta_hourly AS'
\echo '   SELECT date_trunc(''hour'', ts) AS hour, theta_agg(visitor_id) AS visitors FROM clicks GROUP BY 1;'
CREATE TABLE visitors_theta_hourly AS
SELECT date_trunc('hour', ts) AS hour, theta_agg(visitor_id) AS visitors FROM clicks GROUP BY 1;
ALTER TABLE visitors_theta_hourly ADD PRIMARY KEY (hour);

-- A day's sketch is the union of its 24 hourly sketches: the same bytes as a
-- sketch built from the day's raw rows (the union is exact).
CREATE TABLE visitors_theta_daily AS
SELECT date_trunc('day', hour)::date AS day, theta_union(visitors) AS visitors
FROM visitors_theta_hourly GROUP BY 1;
ALTER TABLE visitors_theta_daily ADD PRIMARY KEY (day);

SELECT count(*) AS "hourly rows",
       round(avg(theta_count(visitors))) AS "visitors per hour (avg)",
       count(*) FILTER (WHERE (theta_info(visitors) ->> 'exact')::boolean) AS "exact hours (<= 4,096 visitors)",
       round(avg(pg_column_size(visitors))) AS "bytes on disk (avg)",
       max(pg_column_size(visitors)) AS "bytes on disk (max)",
       (SELECT count(*) FROM visitors_theta_daily d
        JOIN (SELECT date_trunc('day', ts)::date AS day, theta_agg(visitor_id) AS visitors
              FROM clicks GROUP BY 1) r USING (day)
        WHERE d.visitors = r.visitors) AS "days: union of 24 hours = sketch of the day's rows"
FROM visitors_theta_hourly;

\echo
\echo '== 21. Day-over-day retention: visitors of each day who came back the next day, from the daily sketches (theta: a & b with 95% bounds;'
\echo '   hll: |A| + |B| - |A u B| of the daily hll_union of clicks_hourly), beside the exact count from the raw clicks'
CREATE TABLE visitors_hll_daily AS
SELECT date_trunc('day', hour)::date AS day, hll_union(visitors) AS visitors FROM clicks_hourly GROUP BY 1;
-- Exact: the days each visitor was seen, as bits of a bigint (bit i = June 1 + i).
CREATE TABLE visitor_days AS
SELECT visitor_id, bit_or(1::bigint << (date_trunc('day', ts)::date - date '2024-06-01')) AS days
FROM clicks GROUP BY visitor_id;
CREATE TABLE retention_exact AS
SELECT date '2024-06-01' + i AS day,
       count(*) FILTER (WHERE days & (1::bigint << i) <> 0) AS visitors,
       count(*) FILTER (WHERE days & (3::bigint << i) = 3::bigint << i) AS returned
FROM visitor_days, generate_series(0, 28) i GROUP BY i;
CREATE TABLE retention AS
SELECT t.day, x.visitors AS exact_visitors, x.returned AS exact_returned,
       theta_count(t.visitors & t1.visitors) AS theta_returned, b.lower, b.upper,
       hll_intersect_cardinality(h.visitors, h1.visitors) AS hll_returned
FROM visitors_theta_daily t
JOIN visitors_theta_daily t1 ON t1.day = t.day + 1
JOIN visitors_hll_daily h ON h.day = t.day
JOIN visitors_hll_daily h1 ON h1.day = t1.day
JOIN retention_exact x ON x.day = t.day,
     theta_bounds(t.visitors & t1.visitors) b;

SELECT day, exact_visitors AS "visitors", exact_returned AS "returned (exact)",
       theta_returned AS "theta", lower AS "theta lower", upper AS "theta upper",
       CASE WHEN exact_returned BETWEEN lower AND upper THEN 'yes' ELSE 'NO' END AS "within",
       hll_returned AS "hll (incl.-excl.)",
       round(100.0 * exact_returned / exact_visitors, 1) AS "retention % (exact)",
       round(100.0 * theta_returned / exact_visitors, 1) AS "% (theta)",
       round(100.0 * hll_returned / exact_visitors, 1) AS "% (hll)"
FROM retention ORDER BY day;

\echo
\echo '== 22. Summary of the 29 overlaps, and visitors seen on each of the last 7 days (theta_intersect over 7 daily sketches: no hll equivalent)'
SELECT count(*) AS overlaps,
       round(sqrt(avg((100.0 * (theta_returned - exact_returned) / exact_returned) ^ 2)), 2) AS "theta RMS error %",
       round(sqrt(avg((100.0 * (hll_returned - exact_returned) / exact_returned) ^ 2)), 2) AS "hll RMS error %",
       count(*) FILTER (WHERE exact_returned BETWEEN lower AND upper) AS "within theta's 95% bounds",
       (SELECT round(avg(pg_column_size(visitors))) FROM visitors_theta_daily) AS "theta bytes per day",
       (SELECT round(avg(pg_column_size(visitors))) FROM visitors_hll_daily) AS "hll bytes per day"
FROM retention;

SELECT max(day) - 6 AS week_start FROM visitors_theta_daily \gset
WITH loyal AS (
  SELECT theta_intersect(visitors) AS s FROM visitors_theta_daily WHERE day >= :'week_start'
), exact AS (
  SELECT count(*) AS n FROM visitor_days
  WHERE days & (127::bigint << (:'week_start'::date - date '2024-06-01')) = 127::bigint << (:'week_start'::date - date '2024-06-01')
)
SELECT :'week_start'::date AS "from", theta_count(s) AS "every day (theta)", b.lower, b.upper,
       exact.n AS "every day (exact)"
FROM loyal, exact, theta_bounds(loyal.s) b;
