-- ddsketch section of the demo: latency percentiles from hourly sketches.
--
-- Included from test/demo.sql, which has created sketch_demo.clicks
-- (ts timestamptz, visitor_id bigint, link_id bigint) and set the search_path
-- to sketch_demo and the extension's schema. Everything it creates lives in
-- sketch_demo too. Deterministic: no timings, no random().

\echo
\echo '== 14. Which percentile? The time each click took to serve (log-normal, slower for popular links), one ddsketch per hour'

-- A made-up serving time per click, in milliseconds: log-normal around 40 ms
-- with a heavy right tail, from a hash of the click's columns.
CREATE TABLE click_latency AS
SELECT ts, link_id,
       exp(3.7 + 0.02 * ln(link_id) + 0.8 * sqrt(-2 * ln((abs(hashint8extended(visitor_id * 2001 + link_id, 1)) % 1000000 + 0.5) / 1e6))
                 * cos(2 * pi() * (abs(hashint8extended(visitor_id * 2001 + link_id, 2)) % 1000000) / 1e6)) AS ms
FROM clicks;
CREATE TABLE latency_hourly AS
SELECT date_trunc('hour', ts) AS hour, ddsketch_agg(ms) AS ms FROM click_latency GROUP BY 1;
\echo '   CREATE TABLE latency_hourly AS SELECT date_trunc(''hour'', ts) AS hour, ddsketch_agg(ms) AS ms FROM click_latency GROUP BY 1;'

SELECT count(*) AS "hourly sketches", pg_size_pretty(sum(pg_column_size(ms))) AS "their size",
       pg_size_pretty(pg_total_relation_size('click_latency')) AS "raw latencies"
FROM latency_hourly;

\echo
\echo '== 15. The last 7 days: p50, p95, p99 and p99.9 from 168 hourly sketches merged with ddsketch_union, beside percentile_disc over the raw rows (every estimate within 0.54%)'
WITH week AS (
  SELECT ddsketch_union(ms) AS s FROM latency_hourly WHERE hour >= timestamptz '2024-06-24 00:00+00'
), exact AS (
  SELECT percentile_disc(ARRAY[0.5, 0.95, 0.99, 0.999]) WITHIN GROUP (ORDER BY ms) AS e
  FROM click_latency WHERE ts >= timestamptz '2024-06-24 00:00+00'
)
SELECT q AS quantile, round(ddsketch_quantile(s, q)::numeric, 2) AS "from sketches (ms)",
       round(e[i]::numeric, 2) AS "exact (ms)",
       round((100 * abs(ddsketch_quantile(s, q) - e[i]) / e[i])::numeric, 3) AS "error %"
FROM week, exact, unnest(ARRAY[0.5, 0.95, 0.99, 0.999]) WITH ORDINALITY AS u(q, i);

\echo
\echo '== 16. Daily p99 merged from 24 hourly sketches, never from averaging hourly p99s (which is wrong): the first 5 days'
WITH daily AS (
  SELECT date_trunc('day', hour) AS day, ddsketch_union(ms) AS s,
         avg(ddsketch_quantile(ms, 0.99)) AS averaged
  FROM latency_hourly GROUP BY 1
), exact AS (
  SELECT date_trunc('day', ts) AS day, percentile_disc(0.99) WITHIN GROUP (ORDER BY ms) AS p99
  FROM click_latency GROUP BY 1
)
SELECT d.day::date, ddsketch_count(d.s) AS clicks, round(ddsketch_quantile(d.s, 0.99)::numeric, 2) AS "p99 merged",
       round(e.p99::numeric, 2) AS "p99 exact", round(d.averaged::numeric, 2) AS "average of hourly p99s"
FROM daily d JOIN exact e USING (day) ORDER BY 1 LIMIT 5;
