-- bloom section of the demo: a "seen before" filter over the click stream.
--
-- Included from test/demo.sql, which has created sketch_demo.clicks
-- (ts timestamptz, visitor_id bigint, link_id bigint) and set the search_path
-- to sketch_demo and the extension's schema. Everything it creates lives in
-- sketch_demo too. Deterministic: no timings, no random().

\echo
\echo '== 12. Seen before? A Bloom filter of every visitor id, sized with bloom_agg(visitor_id, n, 0.01) for the n distinct visitors'

SELECT count(DISTINCT visitor_id) AS bloom_n, max(visitor_id) AS bloom_max_id FROM clicks \gset
CREATE TABLE visitors_seen AS
SELECT bloom_agg(visitor_id, :bloom_n, 0.01) AS seen FROM clicks;
\echo '   CREATE TABLE visitors_seen AS SELECT bloom_agg(visitor_id, <distinct visitors>, 0.01) AS seen FROM clicks;'

-- The exact alternative: the distinct ids in a table with a primary key.
CREATE TABLE visitor_ids AS SELECT DISTINCT visitor_id FROM clicks;
ALTER TABLE visitor_ids ADD PRIMARY KEY (visitor_id);

-- 100,000 ids that were seen (an even pseudo-random sample) and 100,000 that
-- never were (ids above the largest one).
CREATE TABLE visitor_probes AS
SELECT visitor_id, true AS was_seen
FROM (SELECT visitor_id FROM visitor_ids ORDER BY md5(visitor_id::text) LIMIT 100000) s
UNION ALL
SELECT :bloom_max_id + g, false FROM generate_series(1, 100000) g;

SELECT s.*, f.bits, f.hashes, f.bytes AS "filter bytes"
FROM (SELECT :bloom_n AS "distinct visitors (n)", 0.01 AS "configured p") s,
     bloom_sizing(:bloom_n, 0.01) f;

\echo '   probes: visitor_id <@ seen for 100,000 seen ids and 100,000 never-seen ids'
SELECT CASE WHEN was_seen THEN 'seen before' ELSE 'never seen' END AS probes,
       count(*) AS ids,
       count(*) FILTER (WHERE visitor_id <@ (SELECT seen FROM visitors_seen)) AS "filter says maybe",
       count(*) FILTER (WHERE NOT visitor_id <@ (SELECT seen FROM visitors_seen)) AS "filter says no",
       CASE WHEN was_seen
            THEN count(*) FILTER (WHERE NOT visitor_id <@ (SELECT seen FROM visitors_seen))
                 || ' false negatives (always 0)'
            ELSE round(100.0 * count(*) FILTER (WHERE visitor_id <@ (SELECT seen FROM visitors_seen))
                       / count(*), 3) || '% false positives'
       END AS measured,
       CASE WHEN was_seen THEN ''
            ELSE '1% configured, ' || round(100 * bloom_fpp((SELECT seen FROM visitors_seen))::numeric, 3)
                 || '% from the fill'
       END AS expected
FROM visitor_probes
GROUP BY was_seen ORDER BY was_seen DESC;

\echo '   what the filter knows about itself: bloom_info(seen), and bloom_cardinality vs the exact distinct count'
SELECT (i->>'bits')::bigint AS bits, (i->>'hashes')::int AS hashes, (i->>'bits_set')::bigint AS "bits set",
       round((i->>'fill_ratio')::numeric, 4) AS fill,
       bloom_cardinality(seen) AS "visitors (from the fill)", :bloom_n AS "visitors (exact)",
       round(100.0 * (bloom_cardinality(seen) - :bloom_n) / :bloom_n, 2) AS "error %",
       round(100 * bloom_fpp(seen)::numeric, 3) AS "current fpp %"
FROM visitors_seen, LATERAL bloom_info(seen) AS i;

\echo '   size: the filter vs the exact set of ids'
SELECT pg_size_pretty(pg_column_size(seen)::bigint) AS "bloom filter",
       pg_size_pretty(8 * :bloom_n::bigint) AS "ids as 8-byte integers",
       pg_size_pretty(pg_total_relation_size('visitor_ids')) AS "table of ids + primary key",
       round(pg_total_relation_size('visitor_ids')::numeric / pg_column_size(seen), 1) AS "table / filter",
       round(8.0 * pg_column_size(seen) / :bloom_n, 2) AS "filter bits per visitor"
FROM visitors_seen;

\echo
\echo '== 13. Returning visitors on June 30: probe bloom_union of the June 1-29 daily filters (the union of filters is exact)'
-- Daily filters all sized alike, so they merge; their union is byte for byte
-- the filter of the whole period.
CREATE TABLE visitors_seen_daily AS
SELECT date_trunc('day', ts)::date AS day, bloom_agg(visitor_id, :bloom_n, 0.01) AS seen
FROM clicks GROUP BY 1;
SELECT count(*) AS "daily filters",
       bloom_union(seen) = (SELECT seen FROM visitors_seen) AS "union of the days = the month's filter"
FROM visitors_seen_daily;

WITH before AS (SELECT bloom_union(seen) AS seen FROM visitors_seen_daily WHERE day < date '2024-06-30'),
     june30 AS (SELECT DISTINCT visitor_id FROM clicks WHERE ts >= timestamptz '2024-06-30 00:00+00'),
     exact AS (SELECT DISTINCT visitor_id FROM clicks WHERE ts < timestamptz '2024-06-30 00:00+00')
SELECT count(*) AS "visitors on June 30",
       count(*) FILTER (WHERE j.visitor_id <@ b.seen) AS "seen before (filter)",
       count(*) FILTER (WHERE e.visitor_id IS NOT NULL) AS "seen before (exact)",
       count(*) FILTER (WHERE j.visitor_id <@ b.seen AND e.visitor_id IS NULL) AS "new, but filter says maybe",
       count(*) FILTER (WHERE NOT j.visitor_id <@ b.seen) AS "certainly new (filter)",
       count(*) FILTER (WHERE e.visitor_id IS NULL) AS "new (exact)"
FROM june30 j CROSS JOIN before b LEFT JOIN exact e USING (visitor_id);
