-- Format stability: sketches written by earlier builds, kept in test/golden/
-- (see its README.md), must read the same in this build. Each type adds a
-- block below for each of its golden files; a golden file never changes.

-- pg_temp.rewrite(query): the text form of the sketch a query builds now,
-- with header byte 7 (the element kind, recorded since 0.2.0; 0 in the
-- version 1 sketches 0.1.0 wrote) shown as 00, or the SQLSTATE of its error.
-- The kind the build records is shown by pg_temp.kind(query).
CREATE FUNCTION pg_temp.rewrite(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  result text;
BEGIN
  EXECUTE query INTO result;
  RETURN overlay(result PLACING '00' FROM 17 FOR 2);
EXCEPTION WHEN OTHERS THEN
  RETURN 'ERROR ' || SQLSTATE;
END $$;
CREATE FUNCTION pg_temp.kind(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  result text;
BEGIN
  EXECUTE query INTO result;
  RETURN get_byte(decode(substr(result, 3), 'hex'), 7);
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END $$;

-- hll, format version 1 --------------------------------------------------------
CREATE TEMP TABLE golden_hll_v1 (label text, cardinality bigint, info jsonb, query text, sketch text);
\copy golden_hll_v1 FROM 'test/golden/hll_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS hll_v1_sketches FROM golden_hll_v1;

-- Reading (must hold for every later version): the text input accepts the
-- sketch, every accessor answers what the writing build answered, and the
-- text and binary forms round-trip byte for byte.
SELECT label,
       hll_cardinality(h) = cardinality AS cardinality_same,
       hll_info(h) - 'element_kind' = info AS info_same,  -- element_kind: since 0.2.0
       h::text = sketch AS text_same,
       (h::bytea)::hll = h AND encode(h::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       (h || h) = h AND hll_union(h, hll_empty(18)) = h AS union_same
FROM golden_hll_v1, LATERAL (SELECT sketch::hll AS h) AS s
ORDER BY label COLLATE "C";

-- The union of the golden hll sketches (but the saturated one) is at the
-- smallest precision, 4, and reads as it did in the writing build.
SELECT hll_info(hll_union(sketch::hll))->'precision' AS union_precision,
       hll_cardinality(hll_union(sketch::hll)) AS union_cardinality
FROM golden_hll_v1 WHERE label <> 'saturated_p4';

-- Writing: this build builds the same bytes from the same input. A later
-- version that changes how it writes (a new format version) changes these
-- rows to f, keeps the reading checks above at t, and adds a golden file of
-- its own format.
-- Since 0.2.0 a sketch records its element kind (byte 7), and sketches of
-- different kinds do not merge (sparse_p14_date_timestamptz: 22023).
SELECT label, pg_temp.rewrite(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.rewrite(query) LIKE 'ERROR%' THEN pg_temp.rewrite(query) END AS error
FROM golden_hll_v1 ORDER BY label COLLATE "C";

-- cms, format version 1 --------------------------------------------------------
CREATE TEMP TABLE golden_cms_v1 (label text, total bigint, info jsonb, topk jsonb, query text, sketch text);
\copy golden_cms_v1 FROM 'test/golden/cms_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS cms_v1_sketches FROM golden_cms_v1;

-- Reading: text input, every accessor (total, info, every candidate with its
-- estimate), text and binary round trips, and the identities of merging
-- (with an empty sketch of the same width and depth and no candidate list
-- nothing changes; with itself N doubles, saturating at 2^63 - 1).
SELECT label,
       cms_total(s) = total AS total_same,
       cms_info(s) - 'element_kind' = info AS info_same,  -- element_kind: since 0.2.0
       (SELECT coalesce(jsonb_agg(t), '[]') FROM cms_topk(s, 10000) t) = topk AS topk_same,
       s::text = sketch AS text_same,
       (s::bytea)::cms = s AND encode(s::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       cms_union(s, cms_empty_sized((info->>'width')::int, (info->>'depth')::int, false, 0)) = s
         AND cms_total(s || s) = least(2 * total::numeric, 9223372036854775807) AS union_same
FROM golden_cms_v1, LATERAL (SELECT sketch::cms AS s) AS s
ORDER BY label COLLATE "C";

-- Writing: this build builds the same bytes from the same input.
SELECT label, pg_temp.rewrite(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.rewrite(query) LIKE 'ERROR%' THEN pg_temp.rewrite(query) END AS error
FROM golden_cms_v1 ORDER BY label COLLATE "C";

-- bloom, format version 1 ------------------------------------------------------
CREATE TEMP TABLE golden_bloom_v1 (label text, cardinality bigint, info jsonb, members text, query text, sketch text);
\copy golden_bloom_v1 FROM 'test/golden/bloom_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS bloom_v1_sketches FROM golden_bloom_v1;

-- Reading: text input, every accessor (cardinality, info, membership of
-- 1..64), text and binary round trips, and the identities of combining
-- (f | f = f & f = f | empty = f).
SELECT label,
       bloom_cardinality(f) = cardinality AS cardinality_same,
       bloom_info(f) - 'element_kind' - 'layout' = info AS info_same,  -- element_kind, layout: since 0.2.0
       (SELECT string_agg((f @> g)::int::text, '' ORDER BY g) FROM generate_series(1, 64) g) = members
         AS members_same,
       f::text = sketch AS text_same,
       (f::bytea)::bloom = f AND encode(f::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       (f | f) = f AND (f & f) = f
         AND bloom_union(f, bloom_empty_bits((info->>'bits')::bigint, (info->>'hashes')::int)) = f
         AS union_same
FROM golden_bloom_v1, LATERAL (SELECT sketch::bloom AS f) AS s
ORDER BY label COLLATE "C";

-- Writing: this build builds the same bytes from the same input.
SELECT label, pg_temp.rewrite(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.rewrite(query) LIKE 'ERROR%' THEN pg_temp.rewrite(query) END AS error
FROM golden_bloom_v1 ORDER BY label COLLATE "C";

-- ddsketch, format version 1 ---------------------------------------------------
CREATE TEMP TABLE golden_ddsketch_v1 (label text, count bigint, sum float8, min float8, max float8,
                                      quantiles float8[], info jsonb, query text, sketch text);
\copy golden_ddsketch_v1 FROM 'test/golden/ddsketch_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS ddsketch_v1_sketches FROM golden_ddsketch_v1;

-- Reading: text input, every accessor (count, sum, min, max, the quantiles
-- 0, 0.5, 0.99 and 1, info; NULL min and max for an empty sketch), text and
-- binary round trips, and the identities of merging: with NULL or an empty
-- sketch of the same scale and bucket limit nothing changes; with itself
-- the count doubles and every quantile stays (NULL where the doubled count
-- would exceed 2^64 - 1: the union refuses it; ddsketch_count saturates at
-- 2^63 - 1).
SELECT label,
       ddsketch_count(s) = count AS count_same,
       ddsketch_sum(s) = sum AND ddsketch_min(s) IS NOT DISTINCT FROM min
         AND ddsketch_max(s) IS NOT DISTINCT FROM max AS sum_min_max_same,
       ddsketch_quantiles(s, '{0,0.5,0.99,1}') = quantiles AS quantiles_same,
       ddsketch_info(s) = info AS info_same,
       s::text = sketch AS text_same,
       (s::bytea)::ddsketch = s AND encode(s::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       ddsketch_union(s, ddsketch_empty((info->>'relative_accuracy')::float8, (info->>'max_buckets')::int)) = s
         AND (s || NULL) = s AND ddsketch_union(NULL, s) = s AS union_empty_same,
       CASE WHEN (info->>'count')::numeric * 2 <= 18446744073709551615 THEN
         ddsketch_count(s || s)::numeric = least(2 * count::numeric, 9223372036854775807)
         AND ddsketch_quantiles(s || s, '{0,0.5,0.99,1}') = quantiles END AS union_self_same
FROM golden_ddsketch_v1, LATERAL (SELECT sketch::ddsketch AS s) AS s
ORDER BY label COLLATE "C";

-- The union of the golden ddsketches is at the coarsest scale (0) and the
-- smallest bucket limit (16), and reads as it did in the writing build
-- (without max_double_both_signs, whose sum with the others is beyond
-- double precision, and count_above_2e63, whose count is saturated).
SELECT ddsketch_info(u)->'scale' AS union_scale, ddsketch_info(u)->'max_buckets' AS union_max_buckets,
       ddsketch_info(u)->'count' AS union_count, ddsketch_info(u)->'unguaranteed_ranks' AS union_unguaranteed,
       ddsketch_sum(u) AS union_sum, ddsketch_quantiles(u, '{0,0.5,0.99,1}') AS union_quantiles
FROM (SELECT ddsketch_union(sketch::ddsketch) AS u FROM golden_ddsketch_v1
      WHERE label NOT IN ('max_double_both_signs', 'count_above_2e63')) AS x;

-- Writing: this build builds the same bytes from the same input (ddsketch
-- is new in 0.2.0: byte 7 is 255, a sketch of numbers, and is compared too).
CREATE FUNCTION pg_temp.build(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  result text;
BEGIN
  EXECUTE query INTO result;
  RETURN result;
EXCEPTION WHEN OTHERS THEN
  RETURN 'ERROR ' || SQLSTATE;
END $$;
SELECT label, pg_temp.build(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.build(query) LIKE 'ERROR%' THEN pg_temp.build(query) END AS error
FROM golden_ddsketch_v1 ORDER BY label COLLATE "C";

-- topk, format version 1 -------------------------------------------------------
CREATE TEMP TABLE golden_topk_v1 (label text, total bigint, max_error bigint, info jsonb, items jsonb,
                                  query text, sketch text);
\copy golden_topk_v1 FROM 'test/golden/topk_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS topk_v1_sketches FROM golden_topk_v1;

-- Reading: text input, every accessor (total, max_error, info, every held
-- item best first with its estimate and bounds), the bounds' shape (lower
-- >= 1, estimate = upper = lower + max_error, sum of the lower bounds <= N,
-- at most k items), text and binary round trips, and the identities of
-- merging and aging: with NULL, an empty summary of the same k or of the
-- largest k nothing changes; with itself N, every count and max_error
-- double, and halving that gives the summary back byte for byte (NULL where
-- 2N would exceed 2^63 - 1: the union refuses it, below); scaling by 1
-- changes nothing.
SELECT label,
       topk_total(s) = total AND topk_max_error(s) = max_error AS total_error_same,
       topk_info(s) = info AS info_same,
       (SELECT coalesce(jsonb_agg(to_jsonb(t) - 'n' ORDER BY n), '[]')
        FROM topk_items(s) WITH ORDINALITY AS t(item, estimate, lower_bound, upper_bound, n)) = items
         AS items_same,
       (SELECT coalesce(bool_and(lower_bound >= 1 AND estimate = upper_bound
                                 AND upper_bound = lower_bound + max_error), true)
               AND coalesce(sum(lower_bound), 0) <= total
               AND count(*) <= (info->>'k')::int AND count(*) = (info->>'items')::int
        FROM topk_items(s)) AS bounds_hold,
       s::text = sketch AS text_same,
       (s::bytea)::topk = s AND encode(s::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       topk_union(s, topk_empty((info->>'k')::int)) = s AND (topk_empty(65536) || s) = s
         AND (s || NULL) = s AND topk_union(NULL, s) = s AS union_empty_same,
       CASE WHEN 2 * total::numeric <= 9223372036854775807 THEN
         topk_total(s || s) = 2 * total AND topk_max_error(s || s) = 2 * max_error
         AND topk_scale(s || s, 0.5) = s END AS union_self_same,
       topk_scale(s, 1) = s AS scale_one_same
FROM golden_topk_v1, LATERAL (SELECT sketch::topk AS s) AS s
ORDER BY label COLLATE "C";

-- Items read back as their type (topk_items with a type hint, under the
-- fixed settings) find themselves with topk_estimate: the same estimate
-- and bounds (number: as numeric, float: as float8, real_items as real).
-- Clipped texts cannot be read back (22023); a summary that holds no item
-- has nothing to read (NULL).
CREATE FUNCTION pg_temp.typed_items_same(s topk, hint text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  result boolean;
BEGIN
  EXECUTE format('SELECT bool_and((topk_estimate($1, x.item)).estimate = x.estimate
                                  AND (topk_estimate($1, x.item)).lower_bound = x.lower_bound
                                  AND (topk_estimate($1, x.item)).upper_bound = x.upper_bound)
                  FROM topk_items($1, 1000000, NULL::%s) x', hint)
    INTO result USING s;
  RETURN result::text;
EXCEPTION WHEN OTHERS THEN
  RETURN 'ERROR ' || SQLSTATE;
END $$;
SELECT label, info->>'element_kind' AS kind, hint, pg_temp.typed_items_same(sketch::topk, hint) AS typed_same
FROM golden_topk_v1,
     LATERAL (SELECT CASE WHEN label = 'real_items' THEN 'real'
                          ELSE CASE info->>'element_kind' WHEN 'number' THEN 'numeric' WHEN 'float' THEN 'float8'
                                                          ELSE info->>'element_kind' END END AS hint) AS h
WHERE info->>'element_kind' <> 'none'
ORDER BY label COLLATE "C";

-- The texts are made under fixed settings: the timestamptz, timestamp,
-- date, interval, float and bytea items read back as the same values
-- whatever this session's settings.
SET TimeZone = 'Asia/Kathmandu';
SET DateStyle = 'SQL, DMY';
SET IntervalStyle = 'iso_8601';
SET extra_float_digits = 0;
SET bytea_output = 'escape';
SELECT label, x.item, x.estimate
FROM golden_topk_v1, LATERAL topk_items(sketch::topk, 10, NULL::timestamptz) x
WHERE label = 'timestamptz_items';
SELECT label, extract(epoch FROM x.item) AS epoch, x.estimate
FROM golden_topk_v1, LATERAL topk_items(sketch::topk, 10, NULL::timestamptz) x
WHERE label = 'timestamptz_items';
SELECT label, x.item::text AS item, x.estimate
FROM golden_topk_v1, LATERAL topk_items(sketch::topk, 10, NULL::float8) x
WHERE label = 'float8_items';
SELECT label, x.item, x.estimate
FROM golden_topk_v1, LATERAL topk_items(sketch::topk, 10, NULL::interval) x
WHERE label = 'interval_items';

-- Writing under these settings: the same bytes (pg_temp.build: above).
SELECT count(*) AS sketches, count(*) FILTER (WHERE pg_temp.build(query) = sketch) AS written_same,
       string_agg(label, ', ' ORDER BY label COLLATE "C") FILTER (WHERE pg_temp.build(query) IS DISTINCT FROM sketch)
         AS written_differently
FROM golden_topk_v1;
RESET TimeZone;
RESET DateStyle;
RESET IntervalStyle;
RESET extra_float_digits;
RESET bytea_output;

-- Unions of the golden summaries of one element kind (in label order, at
-- the smallest k among them) read as they did; summaries of different
-- kinds refuse to merge (22023) and a union beyond 2^63 - 1 is refused
-- (22003).
SELECT kind, count(*) AS summaries,
       topk_info(topk_union(sketch::topk ORDER BY label COLLATE "C")) - 'bytes' - 'hash' - 'type'
         - 'format_version' AS union_info
FROM (SELECT info->>'element_kind' COLLATE "C" AS kind, label, sketch FROM golden_topk_v1
      WHERE label <> 'total_at_max') AS g
GROUP BY kind ORDER BY kind;
SELECT pg_temp.build(format('SELECT (%L::topk || %L::topk)::text', a.sketch, b.sketch)) AS number_with_text,
       pg_temp.build(format('SELECT (%L::topk || %L::topk)::text', a.sketch, a.sketch)) AS beyond_max_total,
       pg_temp.build(format('SELECT topk_add(%L::topk, 5)::text', a.sketch)) AS add_beyond_max_total
FROM golden_topk_v1 a, golden_topk_v1 b
WHERE a.label = 'total_at_max' AND b.label = 'text_words';

-- Writing: this build builds the same bytes from the same input (topk is
-- new in 0.2.0: byte 7, the element kind, is compared too).
SELECT label, pg_temp.build(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.build(query) LIKE 'ERROR%' THEN pg_temp.build(query) END AS error
FROM golden_topk_v1 ORDER BY label COLLATE "C";

-- theta, format version 1 ------------------------------------------------------
CREATE TEMP TABLE golden_theta_v1 (label text, count bigint, lower bigint, upper bigint, info jsonb,
                                   query text, sketch text);
\copy golden_theta_v1 FROM 'test/golden/theta_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS theta_v1_sketches FROM golden_theta_v1;

-- Reading: text input, every accessor (count, the 95% bounds, info), the
-- bounds' shape (lower <= count <= upper, lower >= the hashes retained, the
-- count twice for an exact sketch, the 99% interval around the 95% one),
-- text and binary round trips, and the identities of the set operations:
-- with NULL, an empty sketch of the same lg_k or of lg_k 24 the union
-- changes nothing; s || s = s & s = s and theta_diff(s, empty) = s (the
-- sketch is canonical: the same set gives the same bytes); s & empty and
-- theta_diff(s, s) retain nothing at s's θ; the Jaccard similarity of s
-- with itself is 1 (exactly, bounds too, when exact; NULL when s retains
-- nothing).
SELECT label,
       theta_count(s) = count AND (theta_bounds(s)).lower = lower AND (theta_bounds(s)).upper = upper
         AS count_bounds_same,
       theta_info(s) = info AS info_same,
       lower <= count AND count <= upper AND lower >= (info->>'retained')::bigint
         AND (NOT (info->>'exact')::bool OR (lower = count AND upper = count))
         AND (theta_bounds(s, 0.99)).lower <= lower AND (theta_bounds(s, 0.99)).upper >= upper AS bounds_hold,
       s::text = sketch AS text_same,
       (s::bytea)::theta = s AND encode(s::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       theta_union(s, theta_empty((info->>'lg_k')::int)) = s AND (theta_empty(24) || s) = s
         AND (s || NULL) = s AND theta_union(NULL, s) = s AS union_empty_same,
       (s || s) = s AND (s & s) = s AND theta_diff(s, theta_empty(24)) = s AS self_same,
       theta_info(s & theta_empty(24)) - 'bytes' - 'element_kind'
         = info - 'bytes' - 'element_kind' || '{"estimate": 0, "lower_95": 0, "retained": 0}'::jsonb
           || jsonb_build_object('upper_95', (theta_info(theta_diff(s, s))->'upper_95'))
         AND theta_diff(s, s) = s & theta_empty(24) AND theta_count(theta_diff(s, s)) = 0 AS empty_result_same,
       CASE WHEN (info->>'retained')::int = 0 THEN (theta_jaccard(s, s)).estimate IS NULL
            ELSE (theta_jaccard(s, s)).estimate = 1 AND (theta_jaccard(s, s)).upper = 1
                 AND ((theta_jaccard(s, s)).lower = 1) = (info->>'exact')::bool END AS jaccard_self
FROM golden_theta_v1, LATERAL (SELECT sketch::theta AS s) AS s
ORDER BY label COLLATE "C";

-- Hashes do not depend on the session's settings: the timestamptz, date,
-- interval, float and bytea sketches are built with the same bytes under
-- other ones (pg_temp.build: above).
SET TimeZone = 'Asia/Kathmandu';
SET DateStyle = 'SQL, DMY';
SET IntervalStyle = 'iso_8601';
SET extra_float_digits = 0;
SET bytea_output = 'escape';
SELECT count(*) AS sketches, count(*) FILTER (WHERE pg_temp.build(query) = sketch) AS written_same,
       string_agg(label, ', ' ORDER BY label COLLATE "C") FILTER (WHERE pg_temp.build(query) IS DISTINCT FROM sketch)
         AS written_differently
FROM golden_theta_v1;
RESET TimeZone;
RESET DateStyle;
RESET IntervalStyle;
RESET extra_float_digits;
RESET bytea_output;

-- Unions of the golden sketches of one element kind (at the smallest lg_k
-- among them) read as they did, in any order (canonical bytes); sketches of
-- different kinds (timestamptz, float, text) refuse to combine (22023).
SELECT kind, count(*) AS sketches,
       theta_info(theta_union(sketch::theta ORDER BY label COLLATE "C")) - 'hash' - 'type' - 'format_version'
         AS union_info,
       theta_union(sketch::theta ORDER BY label COLLATE "C") = theta_union(sketch::theta ORDER BY label DESC)
         AS any_order_same
FROM (SELECT info->>'element_kind' COLLATE "C" AS kind, label, sketch FROM golden_theta_v1) AS g
GROUP BY kind ORDER BY kind;
SELECT pg_temp.build(format('SELECT (%L::theta || %L::theta)::text', t.sketch, f.sketch)) AS timestamptz_union_float,
       pg_temp.build(format('SELECT (%L::theta & %L::theta)::text', f.sketch, x.sketch)) AS float_intersect_text,
       pg_temp.build(format('SELECT theta_diff(%L::theta, %L::theta)::text', x.sketch, t.sketch)) AS text_diff_timestamptz,
       pg_temp.build(format('SELECT theta_jaccard(%L::theta, %L::theta)::text', t.sketch, x.sketch)) AS jaccard_timestamptz_text,
       pg_temp.build(format('SELECT theta_add(%L::theta, 1.5::float8)::text', t.sketch)) AS add_float_to_timestamptz
FROM golden_theta_v1 t, golden_theta_v1 f, golden_theta_v1 x
WHERE t.label = 'timestamptz_estimated_lg8' AND f.label = 'float8_estimated_lg8' AND x.label = 'text_estimated_lg10';

-- Writing: this build builds the same bytes from the same input (theta is
-- new in 0.2.0: byte 7, the element kind, is compared too).
SELECT label, pg_temp.build(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.build(query) LIKE 'ERROR%' THEN pg_temp.build(query) END AS error
FROM golden_theta_v1 ORDER BY label COLLATE "C";

-- counting_bloom, format version 1 ---------------------------------------------
CREATE TEMP TABLE golden_counting_bloom_v1 (label text, cardinality bigint, info jsonb, members text,
                                            query text, sketch text);
\copy golden_counting_bloom_v1 FROM 'test/golden/counting_bloom_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS counting_bloom_v1_sketches FROM golden_counting_bloom_v1;

-- Reading: text input, every accessor (cardinality, info, membership of
-- 1..64), text and binary round trips; a union with NULL (no data) changes
-- nothing, and the plain filter of its non-zero cells answers membership
-- like it.
SELECT label,
       counting_bloom_cardinality(f) = cardinality AS cardinality_same,
       counting_bloom_info(f) = info AS info_same,
       coalesce(CASE WHEN get_byte(f::bytea, 7) IN (1, 255) THEN
                  (SELECT string_agg((f @> g)::int::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '')
         = coalesce(members, '') AS members_same,
       f::text = sketch AS text_same,
       (f::bytea)::counting_bloom = f AND encode(f::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       counting_bloom_union(f, NULL) = f AND counting_bloom_union(NULL, f) = f AS union_null_same,
       coalesce(CASE WHEN get_byte(f::bytea, 7) IN (1, 255) THEN
                  (SELECT string_agg((counting_bloom_to_bloom(f) @> g)::int::text, '' ORDER BY g)
                   FROM generate_series(1, 64) g) END, '') = coalesce(members, '') AS to_bloom_same
FROM golden_counting_bloom_v1, LATERAL (SELECT sketch::counting_bloom AS f) AS s
ORDER BY label COLLATE "C";

-- Writing: this build builds the same bytes from the same input.
SELECT label, pg_temp.build(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.build(query) LIKE 'ERROR%' THEN pg_temp.build(query) END AS error
FROM golden_counting_bloom_v1 ORDER BY label COLLATE "C";

-- cuckoo, format version 1 -----------------------------------------------------
CREATE TEMP TABLE golden_cuckoo_v1 (label text, cardinality bigint, info jsonb, counts text,
                                    query text, sketch text);
\copy golden_cuckoo_v1 FROM 'test/golden/cuckoo_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS cuckoo_v1_sketches FROM golden_cuckoo_v1;

-- Reading: text input, every accessor (cardinality, info, the copies of
-- 1..64 held), text and binary round trips; membership agrees with the
-- counts; a union with itself holds every copy twice (a multiset sum since
-- issue 32), answers like the filter, and stays version 1.
SELECT label,
       cuckoo_cardinality(f) = cardinality AS cardinality_same,
       cuckoo_info(f) = info AS info_same,
       coalesce(CASE WHEN get_byte(f::bytea, 7) IN (1, 255) THEN
                  (SELECT string_agg(least(cuckoo_count(f, g), 9)::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '')
         = coalesce(counts, '') AS counts_same,
       get_byte(f::bytea, 7) NOT IN (1, 255)
         OR (SELECT bool_and((f @> g) = (cuckoo_count(f, g) > 0)) FROM generate_series(1, 64) g) AS members_same,
       f::text = sketch AS text_same,
       (f::bytea)::cuckoo = f AND encode(f::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       cuckoo_cardinality(cuckoo_union(f, f)) = 2 * cuckoo_cardinality(f)
         AND cuckoo_info(cuckoo_union(f, f))->'format_version' = '1'
         AND (get_byte(f::bytea, 7) NOT IN (1, 255)
              OR (SELECT bool_and(cuckoo_union(f, f) @> g = f @> g) FROM generate_series(1, 64) g)) AS self_union_same
FROM golden_cuckoo_v1, LATERAL (SELECT sketch::cuckoo AS f) AS s
ORDER BY label COLLATE "C";

-- Writing: this build writes format version 2 from the same input (byte 3;
-- test/golden/cuckoo_v2.txt has those bytes). Past the version byte they
-- are version 1's, except where version 1's set-semantics aggregates and
-- unions kept one copy for two (a union of overlapping filters, values
-- sharing a fingerprint and bucket pair).
SELECT label, overlay(pg_temp.build(query) PLACING '01' FROM 9 FOR 2) = sketch AS written_same_but_version,
       pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.build(query) LIKE 'ERROR%' THEN pg_temp.build(query) END AS error
FROM golden_cuckoo_v1 ORDER BY label COLLATE "C";

-- cuckoo, format version 2 (issue 32: one copy per distinct value, unions add copies)
CREATE TEMP TABLE golden_cuckoo_v2 (label text, cardinality bigint, info jsonb, counts text,
                                    query text, sketch text);
\copy golden_cuckoo_v2 FROM 'test/golden/cuckoo_v2.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS cuckoo_v2_sketches FROM golden_cuckoo_v2;

-- Reading as for version 1; a union with itself holds every copy twice.
SELECT label,
       cuckoo_cardinality(f) = cardinality AS cardinality_same,
       cuckoo_info(f) = info AS info_same,
       coalesce(CASE WHEN get_byte(f::bytea, 7) IN (1, 255) THEN
                  (SELECT string_agg(least(cuckoo_count(f, g), 9)::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '')
         = coalesce(counts, '') AS counts_same,
       get_byte(f::bytea, 7) NOT IN (1, 255)
         OR (SELECT bool_and((f @> g) = (cuckoo_count(f, g) > 0)) FROM generate_series(1, 64) g) AS members_same,
       f::text = sketch AS text_same,
       (f::bytea)::cuckoo = f AND encode(f::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       cuckoo_cardinality(cuckoo_union(f, f)) = 2 * cuckoo_cardinality(f)
         AND (get_byte(f::bytea, 7) NOT IN (1, 255)
              OR (SELECT bool_and(cuckoo_union(f, f) @> g = f @> g) FROM generate_series(1, 64) g)) AS self_union_same
FROM golden_cuckoo_v2, LATERAL (SELECT sketch::cuckoo AS f) AS s
ORDER BY label COLLATE "C";

-- Writing: this build builds the same bytes from the same input.
SELECT label, pg_temp.build(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.build(query) LIKE 'ERROR%' THEN pg_temp.build(query) END AS error
FROM golden_cuckoo_v2 ORDER BY label COLLATE "C";

-- bloom's split-block (Parquet) layout, within bloom format version 1 --------
CREATE TEMP TABLE golden_bloom_split_block_v1 (label text, cardinality bigint, info jsonb, members text,
                                               parquet text, query text, sketch text);
\copy golden_bloom_split_block_v1 FROM 'test/golden/bloom_split_block_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS bloom_split_block_v1_sketches FROM golden_bloom_split_block_v1;

-- Reading: text input, every accessor (cardinality, info, membership of
-- 1..64 for integer filters), text and binary round trips, the bytes as
-- Parquet stores them (bloom_to_parquet) and back (bloom_from_parquet with
-- the filter's physical type gives the same filter), and the identities of
-- combining (f | f = f & f = f).
SELECT label,
       bloom_cardinality(f) = cardinality AS cardinality_same,
       bloom_info(f) = info AS info_same,
       coalesce(CASE WHEN coalesce(info->>'physical_type', 'INT64') IN ('INT32', 'INT64') THEN
                  (SELECT string_agg((f @> g::bigint)::int::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '')
         = coalesce(members, '') AS members_same,
       f::text = sketch AS text_same,
       (f::bytea)::bloom = f AND encode(f::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       encode(bloom_to_parquet(f), 'hex') = parquet AS parquet_same,
       bloom_from_parquet(decode(parquet, 'hex'), info->>'physical_type') = f AS from_parquet_same,
       (f | f) = f AND (f & f) = f AS union_same
FROM golden_bloom_split_block_v1, LATERAL (SELECT sketch::bloom AS f) AS s
ORDER BY label COLLATE "C";

-- Writing: this build builds the same bytes from the same input.
SELECT label, pg_temp.build(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.build(query) LIKE 'ERROR%' THEN pg_temp.build(query) END AS error
FROM golden_bloom_split_block_v1 ORDER BY label COLLATE "C";

-- kll, format version 1 --------------------------------------------------------
CREATE TEMP TABLE golden_kll_v1 (label text, count bigint, min float8, max float8, quantiles float8[],
                                 rank_error float8, info jsonb, query text, sketch text);
\copy golden_kll_v1 FROM 'test/golden/kll_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS kll_v1_sketches FROM golden_kll_v1;

-- Reading: text input, every accessor (count, min, max and the quantiles 0,
-- 0.5, 0.99 and 1 of the number sketches, the rank error, info), text and
-- binary round trips, and the identities of merging: with NULL or an empty
-- sketch of the same k nothing changes; with itself the count doubles and
-- min and max stay.
SELECT label,
       kll_count(s) = count AS count_same,
       CASE WHEN info->>'element_type' IN ('double precision', 'bigint') THEN
         kll_min(s) = min AND kll_max(s) = max
         AND kll_quantiles(s, '{0,0.5,0.99,1}') = quantiles END AS numbers_same,
       kll_rank_error(s) = rank_error AS rank_error_same,
       kll_info(s) = info AS info_same,
       s::text = sketch AS text_same,
       (s::bytea)::kll = s AND encode(s::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       kll_union(s, kll_empty((info->>'k')::int)) = s AND (s || NULL) = s
         AND kll_union(NULL, s) = s AS union_empty_same,
       CASE WHEN (info->>'n')::numeric * 2 <= 9223372036854775807 THEN
         kll_count(s || s) = 2 * count
         AND kll_info(s || s)->'min' = info->'min' AND kll_info(s || s)->'max' = info->'max' END
         AS union_self_same
FROM golden_kll_v1, LATERAL (SELECT sketch::kll AS s) AS s
ORDER BY label COLLATE "C";

-- Writing: this build builds the same bytes from the same input (kll is new
-- in 0.3.0: byte 7 is the value type, compared too).
SELECT label, pg_temp.build(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.build(query) LIKE 'ERROR%' THEN pg_temp.build(query) END AS error
FROM golden_kll_v1 ORDER BY label COLLATE "C";

-- ell, format version 1 --------------------------------------------------------
CREATE TEMP TABLE golden_ell_v1 (label text, cardinality bigint, info jsonb, hll text, query text, sketch text);
\copy golden_ell_v1 FROM 'test/golden/ell_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS ell_v1_sketches FROM golden_ell_v1;

-- Reading: text input, the estimate, info (both estimates, the estimator,
-- the never-merged flag), the cast to hll, text and binary round trips, and
-- the identities of merging: with NULL or an empty sketch of the same p
-- nothing changes; with itself the registers stay and the flag goes (an
-- empty sketch stays as it is).
SELECT label,
       ell_cardinality(e) = cardinality AS cardinality_same,
       ell_info(e) = info AS info_same,
       (e::hll)::text = hll AS hll_same,
       e::text = sketch AS text_same,
       (e::bytea)::ell = e AND encode(e::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       ell_union(e, ell_empty((info->>'precision')::int)) = e AND (e || NULL) = e
         AND ell_union(NULL, e) = e AS union_empty_same,
       CASE WHEN cardinality = 0 THEN (e || e) = e
            ELSE (e || e)::hll = e::hll AND NOT (ell_info(e || e)->>'unmerged')::boolean END AS union_self_same
FROM golden_ell_v1, LATERAL (SELECT sketch::ell AS e) AS s
ORDER BY label COLLATE "C";

-- Writing: this build builds the same bytes from the same input (ell is new
-- in 0.3.0: byte 7 is the element kind, compared too).
SELECT label, pg_temp.build(query) = sketch AS written_same, pg_temp.kind(query) AS kind,
       CASE WHEN pg_temp.build(query) LIKE 'ERROR%' THEN pg_temp.build(query) END AS error
FROM golden_ell_v1 ORDER BY label COLLATE "C";
