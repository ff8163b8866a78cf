-- bloom scalar surface: sizing, building, membership, combining, reading.
SET extra_float_digits = 0;

-- Sizing: m = ceil(-n ln p / ln(2)^2), k = round(m/n ln 2), bytes of the value.
SELECT n, p, s.*
FROM (VALUES (10000::bigint, 0.01::float8), (10000, 0.001), (1000000, 0.01), (100, 0.05),
             (1, 0.5), (1000000, 0.9), (1, 1e-19)) AS t(n, p),
     LATERAL bloom_sizing(n, p) s;

-- Empty filters: nothing is present, nothing counted.
SELECT bloom_info(bloom_empty(10000, 0.01));
SELECT bloom_empty_bits(64, 3) AS smallest_word, bloom_empty_bits(100, 2) AS padded;
SELECT bloom_empty(10000, 0.01) = bloom_empty_bits(95851, 7) AS same_parameters_same_filter;
SELECT bloom_cardinality(bloom_empty(1000, 0.01)) AS card, bloom_fpp(bloom_empty(1000, 0.01)) AS fpp,
       bloom_contains(bloom_empty(1000, 0.01), 1) AS contains_1;

-- bloom_add: NULL value ignored, NULL filter stays NULL; adding is idempotent.
SELECT bloom_add(bloom_empty_bits(64, 3), 42) AS one_value,
       bloom_add(bloom_empty_bits(64, 3), NULL::int) = bloom_empty_bits(64, 3) AS null_ignored,
       bloom_add(NULL::bloom, 42) IS NULL AS null_filter,
       bloom_add(bloom_add(bloom_empty_bits(1000, 4), 'a'::text), 'a'::text)
         = bloom_add(bloom_empty_bits(1000, 4), 'a'::text) AS idempotent;
SELECT bloom_add(bloom_empty(1000, 0.01), 42) = bloom_agg(42, 1000, 0.01) AS add_equals_agg;

-- Membership: function and both operators; a NULL value gives NULL, a NULL
-- filter is an empty one (false), as every reader treats a NULL sketch.
WITH f AS (SELECT bloom_add(bloom_add(bloom_empty(1000, 0.01), 'apple'::text), 'pear'::text) AS f)
SELECT bloom_contains(f, 'apple'::text) AS apple, f @> 'pear'::text AS pear, 'plum'::text <@ f AS plum,
       bloom_contains(f, NULL::text) IS NULL AS null_value, bloom_contains(NULL, 'apple'::text) = false AS null_filter,
       (NULL::text <@ f) IS NULL AS null_operator
FROM f;
-- Quoted literals resolve (the text twins), and a value of another kind is
-- refused rather than answered "not there".
SELECT bloom_contains(bloom_add(bloom_empty(100, 0.01), 'x'), 'x') AS literal,
       bloom_add(bloom_empty(100, 0.01), 'x') @> 'x'::text AS literal_operator,
       'x'::text <@ bloom_add(bloom_empty(100, 0.01), 'x') AS literal_contained,
       bloom_contains(bloom_add(bloom_empty(100, 0.01), 'x'::varchar), 'x') AS varchar_added;
SELECT bloom_contains(bloom_agg(i::bigint, 100, 0.01), '42'::text) FROM generate_series(1, 50) i;

-- No false negatives: every added value is present; absent values are
-- reported at about the configured rate (1%; the exact count is fixed by the hash).
WITH f AS (SELECT bloom_agg(g, 10000, 0.01) AS f FROM generate_series(1, 10000) g)
SELECT count(*) FILTER (WHERE g <= 10000 AND f @> g) AS present_of_10000,
       count(*) FILTER (WHERE g > 10000 AND f @> g) AS false_positives_of_100000,
       count(*) FILTER (WHERE g > 10000 AND f @> g) BETWEEN 800 AND 1200 AS near_1_percent
FROM f, generate_series(1, 110000) g;

-- Values equal in SQL are one element: integers of every width, numeric scale.
WITH f AS (SELECT bloom_agg(g::int2, 1000, 0.001) AS f FROM generate_series(1, 500) g)
SELECT bool_and(f @> g::int4) AS int4, bool_and(f @> g::int8) AS int8,
       bool_and(f @> g::numeric) AS numeric, bool_and(f @> (g::numeric(10,2))) AS numeric_scale,
       count(*) FILTER (WHERE f @> (g + 0.5)) AS fractions_present
FROM f, generate_series(1, 500) g;

-- Every common element type works, through both operators.
CREATE DOMAIN bloom_positive AS int CHECK (VALUE > 0);
CREATE TYPE bloom_pair AS (a int, b text);
WITH v AS (SELECT g FROM generate_series(1, 300) g)
SELECT (SELECT bool_and(f @> g::text) FROM (SELECT bloom_agg(g::text, 300, 0.01) f FROM v) s, v) AS text_,
       (SELECT bool_and(g::varchar <@ f) FROM (SELECT bloom_agg(g::varchar, 300, 0.01) f FROM v) s, v) AS varchar_,
       (SELECT bool_and(f @> md5(g::text)::uuid) FROM (SELECT bloom_agg(md5(g::text)::uuid, 300, 0.01) f FROM v) s, v) AS uuid_,
       (SELECT bool_and(f @> g::float8 / 3) FROM (SELECT bloom_agg(g::float8 / 3, 300, 0.01) f FROM v) s, v) AS float8_,
       (SELECT bool_and(f @> date '2024-01-01' + g) FROM (SELECT bloom_agg(date '2024-01-01' + g, 300, 0.01) f FROM v) s, v) AS date_,
       (SELECT bool_and(f @> timestamptz '2024-01-01 00:00+00' + g * interval '1 min') FROM
          (SELECT bloom_agg(timestamptz '2024-01-01 00:00+00' + g * interval '1 min', 300, 0.01) f FROM v) s, v) AS timestamptz_,
       (SELECT bool_and(f @> g::bloom_positive) FROM (SELECT bloom_agg(g::bloom_positive, 300, 0.01) f FROM v) s, v) AS domain_,
       (SELECT bool_and(f @> ARRAY[g, g + 1]) FROM (SELECT bloom_agg(ARRAY[g, g + 1], 300, 0.01) f FROM v) s, v) AS array_,
       (SELECT bool_and(f @> ROW(g, g::text)::bloom_pair) FROM (SELECT bloom_agg(ROW(g, g::text)::bloom_pair, 300, 0.01) f FROM v) s, v) AS composite_,
       (SELECT bool_and(f @> ('{"k": ' || g || '}')::jsonb) FROM (SELECT bloom_agg(('{"k": ' || g || '}')::jsonb, 300, 0.01) f FROM v) s, v) AS jsonb_;
-- The domain hashes like its base type.
SELECT bloom_add(bloom_empty(100, 0.01), 5::bloom_positive) = bloom_add(bloom_empty(100, 0.01), 5) AS domain_as_base;

-- Union: function and operator, exactly the filter of the union; NULL sides ignored.
WITH s AS (
  SELECT bloom_agg(g, 2000, 0.01) FILTER (WHERE g <= 600) AS a,
         bloom_agg(g, 2000, 0.01) FILTER (WHERE g > 400) AS b,
         bloom_agg(g, 2000, 0.01) AS ab
  FROM generate_series(1, 1000) g
)
SELECT (a | b) = ab AS union_is_exact, bloom_union(a, b) = (b | a) AS commutes,
       (a | NULL) = a AS null_right, (NULL | b) = b AS null_left,
       bloom_union(NULL::bloom, NULL::bloom) IS NULL AS both_null,
       bloom_cardinality(a | b) AS union_card
FROM s;

-- Intersection: every common value stays present; approximate, so more bits
-- than the filter of the intersection, never fewer; NULL gives NULL.
WITH s AS (
  SELECT bloom_agg(g, 2000, 0.01) FILTER (WHERE g <= 600) AS a,
         bloom_agg(g, 2000, 0.01) FILTER (WHERE g > 400) AS b,
         bloom_agg(g, 2000, 0.01) FILTER (WHERE g > 400 AND g <= 600) AS exact
  FROM generate_series(1, 1000) g
)
SELECT (SELECT bool_and((a & b) @> g) FROM generate_series(401, 600) g) AS common_present,
       bloom_intersect(a, b) = (b & a) AS commutes,
       ((a & b) | exact) = (a & b) AS contains_exact_filter,
       (bloom_info(a & b)->>'bits_set')::int >= (bloom_info(exact)->>'bits_set')::int AS at_least_exact_bits,
       bloom_cardinality(exact) AS exact_card, bloom_cardinality(a & b) AS intersect_card,
       (a & NULL) IS NULL AS null_side
FROM s;

-- Estimates from the fill: within 2% below capacity; the fpp grows past it.
SELECT n, bloom_cardinality(f) AS estimate, abs(bloom_cardinality(f) - n) <= 0.02 * n AS within_2_percent,
       round(bloom_fpp(f)::numeric, 4) AS fpp
FROM (SELECT n, (SELECT bloom_agg(g, 10000, 0.01) FROM generate_series(1, n) g) AS f
      FROM (VALUES (1), (10), (100), (1000), (5000), (10000), (30000)) AS t(n)) s
ORDER BY n;
SELECT bloom_cardinality(NULL::bloom) AS null_card, bloom_fpp(NULL::bloom) AS null_fpp;

-- A full filter: finite cardinality, fpp 1, everything "present".
WITH f AS (SELECT bloom_agg(g, 1, 0.5) AS f FROM generate_series(1, 1000) g)
SELECT bloom_info(f), f @> -1 AS everything_present FROM f;

-- bloom_info of a filter at capacity.
SELECT bloom_info(bloom_agg(g, 1000, 0.01)) FROM generate_series(1, 1000) g;

-- Equality.
SELECT bloom_agg(g, 100, 0.01) = bloom_agg(g, 100, 0.01) AS eq,
       bloom_agg(g, 100, 0.01) <> bloom_agg(g + 1, 100, 0.01) AS ne,
       bloom_empty(100, 0.01) <> bloom_empty(100, 0.02) AS different_parameters
FROM generate_series(1, 100) g;

-- Leave nothing behind for later suites (hll_coexist drops the extension).
DROP TYPE bloom_pair;
DROP DOMAIN bloom_positive;
