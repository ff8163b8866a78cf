-- sketch demo, cms section: how often was each link clicked, and which links
-- are on top? Included from test/demo.sql once sketch_demo.clicks(ts,
-- visitor_id, link_id) exists (~3M clicks over 30 days, search_path set to
-- sketch_demo and the extension's schema). Takes about 10 seconds.
--
-- Hourly count-min sketches of link_id are merged into a week (or a day) in
-- GROUP BY and compared with the exact answers from the raw clicks. Two
-- sizes: the default (epsilon 0.001, delta 0.01: 2719 x 5 counters) and a
-- small one (epsilon 0.01: 272 x 5) whose error is easier to see.

\echo
\echo '== 8. Hourly count-min sketches of link_id: the default (epsilon 0.001, delta 0.01: 2719 x 5 counters) and a small one (epsilon 0.01: 272 x 5), each with a top-100 candidate list'
\echo '   CREATE TABLE links_hourly AS'
\echo '   SELECT date_trunc(''hour'', ts) AS hour, cms_agg(link_id) AS links,'
\echo '          cms_agg(link_id, 0.01, 0.01) AS links_small, count(*) AS clicks'
\echo '   FROM clicks GROUP BY 1;'

DROP TABLE IF EXISTS links_hourly;
CREATE TABLE links_hourly AS
SELECT date_trunc('hour', ts) AS hour, cms_agg(link_id) AS links,
       cms_agg(link_id, 0.01, 0.01) AS links_small, count(*) AS clicks
FROM clicks GROUP BY 1;
ALTER TABLE links_hourly ADD PRIMARY KEY (hour);
ANALYZE links_hourly;

SELECT count(*) AS "hourly rows", sum(clicks) AS clicks,
       pg_size_pretty(pg_total_relation_size('links_hourly')) AS "table size",
       round(avg((cms_info(links)->>'bytes')::int)) AS "default: sketch bytes",
       round(avg(pg_column_size(links))) AS "compressed on disk",
       round(avg((cms_info(links_small)->>'bytes')::int)) AS "small: sketch bytes",
       round(avg(pg_column_size(links_small))) AS "compressed on disk "
FROM links_hourly;

-- The last 7 days of the data, whatever its dates.
SELECT date_trunc('day', max(hour)) - interval '6 days' AS week_start FROM links_hourly \gset

\echo
\echo '== 9. Top 10 links of the last 7 days: 168 hourly sketches merged with cms_union, then cms_topk(week, 10), beside the exact ranking'
\echo '   (the sketch side never reads the raw clicks)'
WITH week AS (
  SELECT cms_union(links) AS links FROM links_hourly WHERE hour >= :'week_start'
), sketch_top AS (
  SELECT rank, link_id, frequency
  FROM cms_topk((SELECT links FROM week), 10, NULL::bigint) WITH ORDINALITY AS t(link_id, frequency, rank)
), exact_counts AS (
  SELECT link_id, count(*) AS clicks FROM clicks WHERE ts >= :'week_start' GROUP BY link_id
), exact_top AS (
  SELECT row_number() OVER (ORDER BY clicks DESC, link_id) AS rank, link_id, clicks
  FROM exact_counts ORDER BY clicks DESC, link_id LIMIT 10
)
SELECT s.rank, s.link_id AS "link (sketch)", s.frequency AS "estimate",
       c.clicks AS "its true count", e.link_id AS "link (exact)", e.clicks AS "exact count",
       CASE WHEN s.link_id = e.link_id THEN 'yes' ELSE 'no' END AS "same link"
FROM sketch_top s JOIN exact_top e USING (rank) JOIN exact_counts c ON c.link_id = s.link_id
ORDER BY s.rank;

\echo
\echo '== 10. Clicks of a few links over the last 7 days: estimate, error bound (true count >= estimate - bound with probability 99%), exact'
WITH week AS (
  SELECT cms_union(links) AS links, cms_union(links_small) AS small
  FROM links_hourly WHERE hour >= :'week_start'
), picked(link_id) AS (
  VALUES (1::bigint), (2), (10), (100), (500), (1999)
), exact AS (
  SELECT link_id, count(*) AS clicks FROM clicks
  WHERE ts >= :'week_start' AND link_id IN (SELECT link_id FROM picked) GROUP BY link_id
)
SELECT p.link_id, coalesce(e.clicks, 0) AS exact,
       cms_frequency(w.links, p.link_id) AS "estimate",
       cms_error_bound(w.links) AS "bound",
       cms_frequency(w.small, p.link_id) AS "estimate (small)",
       cms_error_bound(w.small) AS "bound (small)",
       cms_frequency(w.small, p.link_id) - coalesce(e.clicks, 0) AS "small: over by"
FROM week w CROSS JOIN picked p LEFT JOIN exact e USING (link_id)
ORDER BY p.link_id;

\echo
\echo '== 11. Every (day, link): daily sketches merged from 24 hourly ones vs exact counts - never below the truth, and within epsilon*N'
WITH days AS (
  SELECT date_trunc('day', hour) AS day, cms_union(links) AS links, cms_union(links_small) AS small
  FROM links_hourly GROUP BY 1
), exact AS (
  SELECT date_trunc('day', ts) AS day, link_id, count(*) AS clicks FROM clicks GROUP BY 1, 2
), errors AS (
  SELECT 'default 2719 x 5' AS sketch, cms_frequency(d.links, e.link_id) - e.clicks AS over,
         cms_error_bound(d.links) AS bound
  FROM exact e JOIN days d USING (day)
  UNION ALL
  SELECT 'small 272 x 5', cms_frequency(d.small, e.link_id) - e.clicks, cms_error_bound(d.small)
  FROM exact e JOIN days d USING (day)
)
SELECT sketch, count(*) AS "(day, link) pairs",
       count(*) FILTER (WHERE over < 0) AS "below truth",
       count(*) FILTER (WHERE over > bound) AS "beyond bound",
       round(avg(over), 2) AS "mean over", max(over) AS "max over",
       round(avg(bound)) AS "mean bound (epsilon*N)"
FROM errors GROUP BY sketch ORDER BY sketch;
