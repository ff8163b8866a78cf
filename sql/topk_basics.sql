-- topk: building, reading, merging and aging summaries; every answer here
-- is exact or checked against the exact counts.
CREATE TABLE tk (g int, v int, s text);
-- Item i (0..199) appears floor(2000/(i+1)) times: a skewed stream of 11,662
-- rows over 200 items, counted exactly below.
INSERT INTO tk SELECT g, i, 'item-' || i
FROM generate_series(0, 199) i, generate_series(1, 2000 / (i + 1)) g;
CREATE TABLE tk_exact AS SELECT v, count(*) AS n FROM tk GROUP BY v;

-- While at most k distinct items were added the summary is exact: bounds
-- equal and max_error 0. Best first, ties by hash.
SELECT * FROM topk_items((SELECT topk_agg(v) FROM tk), 5);
SELECT topk_total(s), topk_max_error(s), topk_info(s) - 'bytes' AS info
FROM (SELECT topk_agg(v) AS s FROM tk) x;

-- With k = 16 over 200 items counts are purged; every item's true count
-- lies within its bounds, items not held count at most max_error, and
-- max_error stays within floor((N - sum of counts)/(k+1)).
CREATE TABLE tk16 AS SELECT topk_agg(v, 16) AS s FROM tk;
SELECT topk_total(s) AS total, topk_max_error(s) AS max_error,
       (topk_info(s)->>'error_bound')::bigint AS bound,
       topk_max_error(s) <= (topk_info(s)->>'error_bound')::bigint AS within_bound,
       (topk_info(s)->>'items')::int <= 16 AS at_most_k
FROM tk16;
SELECT count(*) AS held, bool_and(e.n BETWEEN i.lower_bound AND i.upper_bound) AS bounds_hold
FROM tk16, topk_items(s, 100, NULL::int) i JOIN tk_exact e ON e.v = i.item;
SELECT bool_and((topk_estimate(s, e.v)).upper_bound >= e.n) AS upper_bounds_hold,
       bool_and((topk_estimate(s, e.v)).lower_bound <= e.n) AS lower_bounds_hold
FROM tk16, tk_exact e;
-- Items held since before the first purge are exact: their estimate.
SELECT i.item, i.estimate, e.n FROM tk16, topk_items(s, 3, NULL::int) i JOIN tk_exact e ON e.v = i.item
ORDER BY i.estimate DESC;

-- topk_frequent: no false positives reports only items truly above
-- threshold*N; no false negatives reports every such item.
SELECT 'no_false_positives' AS guarantee,
       bool_and(e.n > 0.05 * 11662) AS all_truly_above, count(*) AS rows
FROM tk16, topk_frequent(s, 0.05, 'no_false_positives', NULL::int) f JOIN tk_exact e ON e.v = f.item;
SELECT 'no_false_negatives' AS guarantee,
       (SELECT array_agg(v ORDER BY v) FROM tk_exact WHERE n > 0.05 * 11662) <@
       array_agg(f.item) AS every_item_above_reported
FROM tk16, topk_frequent(s, 0.05, 'no_false_negatives', NULL::int) f;
SELECT count(*) FROM topk_frequent(NULL::topk, 0.1, 'no_false_positives');

-- Text items, a literal, a weighted add and the integer-weight twin.
SELECT * FROM topk_items((SELECT topk_agg(s, 4) FROM tk WHERE v < 3));
SELECT * FROM topk_estimate((SELECT topk_agg(s) FROM tk), 'item-0');
SELECT * FROM topk_items(topk_add(topk_add(topk_empty(4), 'x', 3), 'y'::text, 5::bigint));
SELECT * FROM topk_items(topk_add(topk_empty(), 7::smallint, 2), 1, NULL::bigint);
-- int and bigint are one item (one canonical encoding for integers).
SELECT * FROM topk_estimate(topk_add(topk_add(topk_empty(), 7, 1), 7::bigint, 1), 7::numeric);

-- Weighted aggregation: NULL items and NULL or zero weights are skipped.
SELECT * FROM topk_items((SELECT topk_agg_weighted(v, w) FROM (VALUES
  (1, 10), (2, 5), (1, NULL), (NULL, 100), (3, 0), (2, 1)) t(v, w)));
SELECT * FROM topk_items((SELECT topk_agg_weighted(v, w, 2) FROM (VALUES
  (1, 10), (2, 5), (3, 7), (4, 1)) t(v, w)));

-- Merging: the union of parts keeps the bounds over the whole; summaries
-- of different k merge at the smaller k.
CREATE TABLE tk_parts AS SELECT g % 7 AS part, topk_agg(v, 16) AS s FROM tk GROUP BY 1;
SELECT topk_total(u) AS total, topk_max_error(u) <= (topk_info(u)->>'error_bound')::bigint AS within_bound,
       (SELECT bool_and(e.n BETWEEN i.lower_bound AND i.upper_bound)
        FROM topk_items(u, 100, NULL::int) i JOIN tk_exact e ON e.v = i.item) AS bounds_hold,
       (SELECT bool_and(e.n <= topk_max_error(u)) FROM tk_exact e
        WHERE NOT EXISTS (SELECT 1 FROM topk_items(u, 100, NULL::int) i WHERE i.item = e.v)) AS others_below
FROM (SELECT topk_union(s) AS u FROM tk_parts) x;
SELECT topk_info(topk_agg(v, 64) || topk_agg(v, 8))->>'k' AS k FROM tk;
SELECT topk_union(NULL::topk, topk_empty(3)) = topk_empty(3) AS null_side_ignored,
       topk_union(NULL::topk, NULL::topk) IS NULL AS both_null;
SELECT topk_union(s) IS NULL AS no_rows FROM tk_parts WHERE false;

-- Equality is identity of the stored form, independent of input order
-- while nothing is purged; GROUP BY and DISTINCT hash it.
SELECT (SELECT topk_agg(v ORDER BY g, v) FROM tk) = (SELECT topk_agg(v ORDER BY g DESC, v DESC) FROM tk) AS same;
SELECT count(*) FROM (SELECT DISTINCT s FROM (SELECT topk_agg(v % 3) s FROM tk GROUP BY g % 5) x) y;

-- Aging: counts and total times the factor, rounded down; max_error up.
SELECT * FROM topk_items(topk_scale((SELECT topk_agg(v) FROM tk WHERE v < 3), 0.5));
SELECT topk_total(topk_scale(s, 0.5)), topk_max_error(topk_scale(s, 0.5)), topk_max_error(s) FROM tk16;
SELECT topk_scale((SELECT topk_agg(v) FROM tk), 1) = (SELECT topk_agg(v) FROM tk) AS factor_one_is_identity;
SELECT cms_total(cms_scale(cms_agg(v), 0.5)) AS total, cms_frequency(cms_scale(cms_agg(v), 0.5), 0) AS f0
FROM tk;
-- Aged cms values are valid values: they read back through text and bytea
-- (rows still add up to the total), for plain and conservative update.
SELECT c::text::cms = c AS text_round_trip, c::bytea::cms = c AS bytea_round_trip,
       cms_total(c) AS total, (SELECT count(*) FROM cms_topk(c, 100)) AS candidates
FROM (SELECT cms_scale(cms_agg(x), 0.5) AS c FROM (VALUES ('a'), ('a'), ('a'), ('b'), ('b'), ('c')) v(x)) s;
SELECT c::text::cms = c AS conservative_round_trip, cms_total(c) AS total
FROM (SELECT cms_scale(cms_agg(v, 0.01, 0.01, true), 0.3) AS c FROM tk) s;

-- Sizing: k for a largest error of epsilon*N.
SELECT * FROM topk_sizing(0.01);
SELECT * FROM topk_sizing(0.00001, 16);

-- Window use: a running summary per row.
SELECT g, (SELECT string_agg(item || ':' || estimate, ' ') FROM topk_items(s)) AS running
FROM (SELECT g, topk_agg(g % 2) OVER (ORDER BY g) AS s FROM generate_series(1, 4) g) w;

-- NULLs: NULL summaries read as empty, a NULL item gives NULL.
SELECT topk_total(NULL), topk_max_error(NULL), (topk_estimate(NULL::topk, 1)).*, topk_estimate(topk_empty(), NULL::int) IS NULL AS null_item;
SELECT count(*) FROM topk_items(NULL);
SELECT topk_add(NULL, 1) IS NULL AS null_summary, topk_add(topk_empty(2), NULL::int) = topk_empty(2) AS null_item_unchanged;
SELECT topk_agg(v) IS NULL AS no_rows FROM tk WHERE false;

-- Text round trip and the bytea casts.
SELECT s::text::topk = s AS text_round_trip, s::bytea::topk = s AS bytea_round_trip FROM tk16;

-- Item texts are what the type's output function prints (integers, text
-- and varchar are written directly, without calling it; the rest through
-- it under fixed settings); a text longer than 1 KiB is clipped.
CREATE DOMAIN tk_small AS smallint;
SELECT item FROM topk_items((SELECT topk_agg(v) FROM unnest(ARRAY[-9223372036854775808, -1, 0, 9223372036854775807]::bigint[]) v)) ORDER BY item::numeric;
SELECT item FROM topk_items(topk_add(topk_add(topk_empty(), (-32768)::tk_small), 42)) ORDER BY item;
SELECT item FROM topk_items(topk_add(topk_add(topk_empty(), 'a b '::varchar), 'x'::text)) ORDER BY item;
SELECT item FROM topk_items(topk_add(topk_add(topk_empty(), 1.50::numeric), 2.5::numeric)) ORDER BY item;
SELECT item FROM topk_items(topk_add(topk_empty(), '2026-12-01 12:00:00+05'::timestamptz));
SELECT octet_length(item) FROM topk_items(topk_add(topk_empty(), repeat('ab', 600)));
