-- bloom aggregates: NULLs, zero rows, parameters, rollups, windows, upserts,
-- a semi-join pre-filter, and probing a filter stored out of line.
SET extra_float_digits = 0;
SET TimeZone = 'UTC';

CREATE TABLE bloom_events (ts timestamptz, visitor int, page int);
INSERT INTO bloom_events
SELECT timestamptz '2024-03-01 00:00+00' + (g % (24 * 60)) * interval '1 minute',
       (g * 7919) % 8000, g % 13
FROM generate_series(1, 30000) g;
INSERT INTO bloom_events VALUES ('2024-03-01 05:00+00', NULL, 1);

-- NULLs are skipped; zero rows and all-NULL input give NULL.
SELECT bloom_agg(visitor, 8000, 0.01) = bloom_agg(visitor, 8000, 0.01) FILTER (WHERE visitor IS NOT NULL)
         AS nulls_skipped,
       bloom_cardinality(bloom_agg(visitor, 8000, 0.01)) AS card, count(DISTINCT visitor) AS exact
FROM bloom_events;
SELECT bloom_agg(visitor, 8000, 0.01) IS NULL AS zero_rows, bloom_union(f) IS NULL AS union_zero_rows,
       bloom_cardinality(bloom_agg(visitor, 8000, 0.01)) AS card
FROM bloom_events, LATERAL (SELECT NULL::bloom) AS n(f) WHERE false;
SELECT bloom_agg(NULL::int, 10, 0.1) IS NULL AS all_null_input,
       bloom_agg_bits(NULL::text, 64, 2) IS NULL AS all_null_bits;
SELECT bloom_union(f) IS NULL AS union_of_nulls FROM (VALUES (NULL::bloom), (NULL)) AS t(f);

-- bloom_agg(v, n, p) is bloom_agg_bits(v, m, k) with m and k from bloom_sizing.
SELECT bloom_agg(visitor, 8000, 0.01) = bloom_agg_bits(visitor, s.bits, s.hashes) AS same_filter
FROM bloom_events, bloom_sizing(8000, 0.01) s;

-- Parameters must be the same within a group, but may differ between groups.
SELECT k, bloom_info(f)->>'bits' AS bits, bloom_info(f)->>'hashes' AS hashes, bloom_cardinality(f) AS card
FROM (SELECT g % 3 AS k, bloom_agg(g, 100 * (g % 3 + 1), 0.01) AS f
      FROM generate_series(1, 300) g GROUP BY 1) s
ORDER BY k;

-- Hourly filters merged into a day equal the direct daily filter, exactly.
CREATE TABLE bloom_hourly AS
SELECT date_trunc('hour', ts) AS hour, bloom_agg(visitor, 8000, 0.01) AS visitors
FROM bloom_events GROUP BY 1;
SELECT count(*) AS hours, bloom_union(visitors) = (SELECT bloom_agg(visitor, 8000, 0.01) FROM bloom_events)
         AS union_equals_direct
FROM bloom_hourly;

-- Window use: a running union equals the filter of every row so far; a
-- running bloom_agg (working state, read-only final function) too.
SELECT count(*) FILTER (WHERE running = direct) AS identical_hours, count(*) AS hours
FROM (SELECT hour, bloom_union(visitors) OVER (ORDER BY hour) AS running FROM bloom_hourly) w,
     LATERAL (SELECT bloom_agg(visitor, 8000, 0.01) AS direct FROM bloom_events
              WHERE date_trunc('hour', ts) <= w.hour) d;
SELECT count(*) FILTER (WHERE running = direct) AS identical_rows, count(*) AS rows
FROM (SELECT g, bloom_agg(g, 100, 0.01) OVER (ORDER BY g ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
               AS running
      FROM generate_series(1, 60) g) w,
     LATERAL (SELECT bloom_agg(x, 100, 0.01) AS direct FROM generate_series(1, w.g) x) d;
-- A sliding frame restarts the aggregate for each row.
SELECT g, bloom_cardinality(bloom_agg(g, 100, 0.01) OVER (ORDER BY g ROWS BETWEEN 2 PRECEDING AND CURRENT ROW))
         AS last_three
FROM generate_series(1, 5) g;

-- Incremental upserts merge late data into a rollup with |.
CREATE TABLE bloom_rollup (day date PRIMARY KEY, visitors bloom);
INSERT INTO bloom_rollup SELECT ts::date, bloom_agg(visitor, 8000, 0.01) FROM bloom_events WHERE visitor < 4000 GROUP BY 1;
INSERT INTO bloom_rollup SELECT ts::date, bloom_agg(visitor, 8000, 0.01) FROM bloom_events WHERE visitor >= 4000 GROUP BY 1
ON CONFLICT (day) DO UPDATE SET visitors = bloom_rollup.visitors | EXCLUDED.visitors;
SELECT bool_and(r.visitors = d.visitors) AS upsert_equals_direct
FROM bloom_rollup r JOIN (SELECT ts::date AS day, bloom_agg(visitor, 8000, 0.01) AS visitors
                          FROM bloom_events GROUP BY 1) d USING (day);

-- Many groups: one filter per page, each holding its own ~2,300 visitors.
SELECT count(*) AS pages, min(n) AS min_visitors, max(n) AS max_visitors,
       bool_and(abs(bloom_cardinality(f) - n) <= 0.02 * n) AS within_2_percent
FROM (SELECT page, bloom_agg(visitor, 2500, 0.01) AS f, count(DISTINCT visitor) AS n
      FROM bloom_events GROUP BY page) s;

-- Transition, combine and final functions called directly return stored
-- filters and never modify their arguments.
WITH s AS (SELECT bloom_empty(100, 0.01) AS e, bloom_agg(g, 100, 0.01) AS f FROM generate_series(1, 10) g)
SELECT bloom_agg_trans(e, 1, 100, 0.01) = bloom_add(e, 1) AS trans_adds,
       bloom_agg_trans(NULL, 1, 100, 0.01) = bloom_add(e, 1) AS trans_from_null,
       bloom_agg_bits_trans(NULL, 1, 959, 7) = bloom_add(e, 1) AS bits_trans,
       bloom_union_trans(e, f) = f AS union_trans, bloom_final(f) = f AS final,
       e = bloom_empty(100, 0.01) AS input_unchanged,
       bloom_agg_trans(e, 1, 100, 0.01)::text::bloom IS NOT NULL AS stored_form
FROM s;

-- A semi-join pre-filter: probe a small filter of the wanted keys before the
-- exact check. The result is the exact join's, row for row; the filter lets
-- through the matching rows plus ~1% of the others.
CREATE TABLE bloom_orders AS SELECT g AS id, (g * 7919) % 50000 AS customer FROM generate_series(1, 200000) g;
CREATE TABLE bloom_vip AS SELECT c AS customer FROM generate_series(0, 49999, 37) c;
ANALYZE bloom_orders;
ANALYZE bloom_vip;
CREATE TEMP TABLE exact_rows AS
  SELECT o.* FROM bloom_orders o WHERE o.customer IN (SELECT customer FROM bloom_vip);
CREATE TEMP TABLE prefiltered_rows AS
  SELECT o.* FROM bloom_orders o
  WHERE o.customer <@ (SELECT bloom_agg(customer, 1352, 0.01) FROM bloom_vip)
    AND o.customer IN (SELECT customer FROM bloom_vip);
SELECT (SELECT count(*) FROM exact_rows) AS exact_rows,
       (SELECT count(*) FROM prefiltered_rows) AS prefiltered_rows,
       NOT EXISTS (SELECT * FROM exact_rows EXCEPT ALL SELECT * FROM prefiltered_rows)
         AND NOT EXISTS (SELECT * FROM prefiltered_rows EXCEPT ALL SELECT * FROM exact_rows) AS same_rows;
SELECT count(*) AS passed_filter, count(*) - (SELECT count(*) FROM exact_rows) AS false_positives,
       round(100.0 * (count(*) - (SELECT count(*) FROM exact_rows))
             / (200000 - (SELECT count(*) FROM exact_rows)), 2) AS false_positive_pct
FROM bloom_orders o WHERE o.customer <@ (SELECT bloom_agg(customer, 1352, 0.01) FROM bloom_vip);

-- Probing a filter stored out of line (23 KiB > the 2 KiB TOAST threshold):
-- the probe detoasts it once per query, not once per row.
CREATE TABLE bloom_filters (id int PRIMARY KEY, f bloom);
INSERT INTO bloom_filters SELECT 1, bloom_agg(g, 20000, 0.01) FROM generate_series(1, 20000) g;
INSERT INTO bloom_filters SELECT 2, bloom_agg(g, 20000, 0.01) FROM generate_series(20001, 40000) g;
SELECT id, pg_column_size(f) AS stored_bytes, (bloom_info(f)->>'bytes')::int AS value_bytes
FROM bloom_filters ORDER BY id;
SELECT reltoastrelid::regclass AS bloom_toast FROM pg_class WHERE relname = 'bloom_filters' \gset
SELECT count(*) AS toast_chunks FROM :bloom_toast;

SELECT pg_stat_force_next_flush();
SELECT toast_blks_read + toast_blks_hit AS toast_blocks_before
FROM pg_statio_user_tables WHERE relname = 'bloom_filters' \gset
SELECT count(*) AS passed_stored
FROM generate_series(1, 100000) g WHERE g <@ (SELECT f FROM bloom_filters WHERE id = 1);
SELECT count(*) AS passed_in_memory
FROM generate_series(1, 100000) g WHERE g <@ (SELECT bloom_agg(x, 20000, 0.01) FROM generate_series(1, 20000) x);
SELECT count(*) AS passed_function
FROM generate_series(1, 100000) g WHERE bloom_contains((SELECT f FROM bloom_filters WHERE id = 1), g);
SELECT pg_stat_force_next_flush();
SELECT toast_blks_read + toast_blks_hit - :toast_blocks_before AS toast_blocks_fetched,
       toast_blks_read + toast_blks_hit - :toast_blocks_before < 100 AS fetched_once_per_query
FROM pg_statio_user_tables WHERE relname = 'bloom_filters';

-- Different stored filters on alternating rows: the cache follows the value.
SET join_collapse_limit = 1;
SELECT b.id, count(*) FILTER (WHERE b.f @> g AND (b.id = 1) = (g <= 20000)) AS own_values_present,
       count(*) FILTER (WHERE b.f @> g AND (b.id = 1) <> (g <= 20000)) AS false_positives
FROM generate_series(1, 40000) g CROSS JOIN bloom_filters b
GROUP BY b.id ORDER BY b.id;

-- The same with compressed values, inline (STORAGE main) and out of line
-- (STORAGE extended): sparse filters compress well.
CREATE TABLE bloom_compressed (id int, storage text, f bloom);
ALTER TABLE bloom_compressed ALTER COLUMN f SET STORAGE main;
INSERT INTO bloom_compressed SELECT 1, 'main', bloom_agg(g, 20000, 0.01) FROM generate_series(1, 100) g;
INSERT INTO bloom_compressed SELECT 2, 'main', bloom_agg(g, 20000, 0.01) FROM generate_series(101, 200) g;
ALTER TABLE bloom_compressed ALTER COLUMN f SET STORAGE extended;
INSERT INTO bloom_compressed SELECT 3, 'extended', bloom_agg(g, 1000000, 0.01) FROM generate_series(201, 300) g;
INSERT INTO bloom_compressed SELECT 4, 'extended', bloom_agg(g, 1000000, 0.01) FROM generate_series(301, 400) g;
SELECT id, storage, pg_column_size(f) < (bloom_info(f)->>'bytes')::int / 4 AS compressed
FROM bloom_compressed ORDER BY id;
SELECT reltoastrelid::regclass AS compressed_toast FROM pg_class WHERE relname = 'bloom_compressed' \gset
SELECT count(DISTINCT chunk_id) AS values_out_of_line FROM :compressed_toast;
SELECT b.id, count(*) FILTER (WHERE b.f @> g AND g BETWEEN b.id * 100 - 99 AND b.id * 100) AS own_values_present,
       count(*) FILTER (WHERE b.f @> g AND g NOT BETWEEN b.id * 100 - 99 AND b.id * 100) AS false_positives
FROM generate_series(1, 400) g CROSS JOIN bloom_compressed b
GROUP BY b.id ORDER BY b.id;
RESET join_collapse_limit;

-- A distributed engine (Citus) runs the transition function on each node
-- without the final function and ships the partial state as text. A state
-- of 1 MiB or more is a working state with queued values; its text and
-- binary output are the stored form, and any reader sees its stored form.
CREATE AGGREGATE bloom_partial(anyelement, bigint, double precision) (
  SFUNC = bloom_agg_trans, STYPE = bloom, COMBINEFUNC = bloom_union_trans
);
CREATE TABLE bloom_shipped (f bloom);
INSERT INTO bloom_shipped SELECT bloom_partial(g, 1000000, 0.01)::text::bloom FROM generate_series(1, 1000) g;
\copy (SELECT bloom_partial(g, 1000000, 0.01) FROM generate_series(1, 1000) g) TO 'results/bloom_partial.bin' WITH (FORMAT binary)
\copy bloom_shipped FROM 'results/bloom_partial.bin' WITH (FORMAT binary)
SELECT count(*) AS shipped, bool_and(f = (SELECT bloom_agg(g, 1000000, 0.01) FROM generate_series(1, 1000) g))
         AS stored_form_equals_direct
FROM bloom_shipped;
SELECT (SELECT bool_and(p @> g) FROM generate_series(1, 1000, 10) g) AS all_present,
       bloom_cardinality(p) AS card, bloom_info(p)->>'bytes' AS bytes,
       (p | bloom_empty(1000000, 0.01)) = (SELECT f FROM bloom_shipped LIMIT 1) AS union_reads_it
FROM (SELECT bloom_partial(g, 1000000, 0.01) AS p FROM generate_series(1, 1000) g) s;

-- Leave nothing behind for later suites (hll_coexist drops the extension).
DROP AGGREGATE bloom_partial(anyelement, bigint, double precision);
DROP TABLE bloom_events, bloom_hourly, bloom_rollup, bloom_orders, bloom_vip, bloom_filters,
           bloom_compressed, bloom_shipped;
