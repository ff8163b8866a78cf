-- topk section of the demo: the top links of the week with deterministic
-- bounds, beside the exact ranking and beside cms_topk.
--
-- Included from test/demo.sql once sketch_demo.clicks(ts, visitor_id,
-- link_id) exists (~3M clicks over 30 days, search_path set to sketch_demo
-- and the extension's schema) and demo_cms.sql has built links_hourly (one
-- count-min sketch of link_id per hour). Everything it creates lives in
-- sketch_demo too. Takes a few seconds.
--
-- Hourly topk summaries keeping k = 200 links (of 2,000) are merged into
-- the last 7 days with topk_union. Every link's true count is certain to lie
-- within [lower_bound, upper_bound]; a link not held had at most max_error
-- clicks.

\echo
\echo '== 17. Hourly topk summaries of link_id (Misra-Gries, k = 200 of the 2,000 links): every count within deterministic bounds'
\echo '   CREATE TABLE links_topk_hourly AS'
\echo '   SELECT date_trunc(''hour'', ts) AS hour, topk_agg(link_id, 200) AS links FROM clicks GROUP BY 1;'

-- Once a summary purges (here: more than 200 links in an hour), its
-- counters depend on the order of its rows (the bounds never do). Serially
-- the order is the table's, so the output is the same on every run.
SET max_parallel_workers_per_gather = 0;
DROP TABLE IF EXISTS links_topk_hourly;
CREATE TABLE links_topk_hourly AS
SELECT date_trunc('hour', ts) AS hour, topk_agg(link_id, 200) AS links FROM clicks GROUP BY 1;
ALTER TABLE links_topk_hourly ADD PRIMARY KEY (hour);
RESET max_parallel_workers_per_gather;

SELECT count(*) AS "hourly rows",
       round(avg(pg_column_size(t.links))) AS "topk bytes on disk (avg)",
       round(avg(pg_column_size(c.links))) AS "cms bytes on disk (avg)",
       round(avg(topk_max_error(t.links)), 1) AS "max_error per hour (avg)",
       round(avg(topk_total(t.links))) AS "clicks per hour (avg)"
FROM links_topk_hourly t JOIN links_hourly c USING (hour);

-- The last 7 days of the data, whatever its dates.
SELECT date_trunc('day', max(hour)) - interval '6 days' AS week_start FROM links_topk_hourly \gset

\echo
\echo '== 18. Top 10 links of the last 7 days: 168 hourly summaries merged with topk_union, each count with the range it is certain to lie in,'
\echo '   beside the exact ranking and cms_topk of the merged count-min sketches (the sketch sides never read the raw clicks)'
CREATE TABLE week_top AS
SELECT (SELECT topk_union(links) FROM links_topk_hourly WHERE hour >= :'week_start') AS links,
       (SELECT cms_union(links) FROM links_hourly WHERE hour >= :'week_start') AS cms;
CREATE TABLE week_exact AS
SELECT link_id, count(*) AS clicks FROM clicks WHERE ts >= :'week_start' GROUP BY link_id;

WITH topk_rank AS (
  SELECT n AS rank, item AS link_id, estimate, lower_bound, upper_bound
  FROM week_top, topk_items(links, 10, NULL::bigint) WITH ORDINALITY AS t(item, estimate, lower_bound, upper_bound, n)
), cms_rank AS (
  SELECT n AS rank, value AS link_id, frequency
  FROM week_top, cms_topk(cms, 10, NULL::bigint) WITH ORDINALITY AS t(value, frequency, n)
), exact_rank AS (
  SELECT row_number() OVER (ORDER BY clicks DESC, link_id) AS rank, link_id, clicks
  FROM week_exact ORDER BY clicks DESC, link_id LIMIT 10
)
SELECT t.rank, t.link_id AS "link (topk)", t.lower_bound AS "lower", t.upper_bound AS "upper",
       t.estimate, x.clicks AS "true count",
       CASE WHEN x.clicks BETWEEN t.lower_bound AND t.upper_bound THEN 'yes' ELSE 'NO' END AS "within",
       e.link_id AS "link (exact)", c.link_id AS "link (cms_topk)", c.frequency AS "cms estimate"
FROM topk_rank t
JOIN week_exact x ON x.link_id = t.link_id
JOIN exact_rank e USING (rank) JOIN cms_rank c USING (rank)
ORDER BY t.rank;

\echo
\echo '   What the week''s summary promises, and the truth: every link within its bounds, and no link it does not hold above max_error'
WITH held AS (
  SELECT item AS link_id, lower_bound, upper_bound FROM week_top, topk_items(links, 1000, NULL::bigint)
)
SELECT topk_total(w.links) AS "N (clicks)", topk_max_error(w.links) AS max_error,
       topk_total(w.links) / 201 AS "N/(k+1)",
       (SELECT count(*) FROM held) AS "links held",
       (SELECT count(*) FROM week_exact x JOIN held h USING (link_id)
        WHERE x.clicks NOT BETWEEN h.lower_bound AND h.upper_bound) AS "held, outside bounds",
       (SELECT max(clicks) FROM week_exact x WHERE link_id NOT IN (SELECT link_id FROM held))
         AS "largest count not held",
       cms_error_bound(w.cms) AS "cms bound (99%)"
FROM week_top w;

\echo
\echo '== 19. Links above 1% of the week''s clicks: topk_frequent(week, 0.01, guarantee) under both guarantees, beside the exact answer'
WITH exact AS (
  SELECT link_id FROM week_exact WHERE clicks > 0.01 * (SELECT sum(clicks) FROM week_exact)
), no_fp AS (
  SELECT item AS link_id FROM week_top, topk_frequent(links, 0.01, 'no_false_positives', NULL::bigint)
), no_fn AS (
  SELECT item AS link_id FROM week_top, topk_frequent(links, 0.01, 'no_false_negatives', NULL::bigint)
)
SELECT 'exact (raw clicks)' AS answer, string_agg(link_id::text, ', ' ORDER BY link_id) AS links FROM exact
UNION ALL
SELECT 'no_false_positives: surely above', string_agg(link_id::text, ', ' ORDER BY link_id) FROM no_fp
UNION ALL
SELECT 'no_false_negatives: possibly above', string_agg(link_id::text, ', ' ORDER BY link_id) FROM no_fn;
