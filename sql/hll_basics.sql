-- hll scalar surface: building, reading, combining, hashing of element types.
SET extra_float_digits = 0;

-- Empty sketches and NULL read as 0 distinct.
SELECT hll_cardinality(hll_empty()), #hll_empty(10), hll_cardinality(NULL::hll);
SELECT hll_info(hll_empty(12));

-- Small sets are exact: the sparse form keeps 26-bit indexes.
SELECT n, hll_cardinality(hll_agg(g)) AS estimate
FROM (VALUES (1), (10), (100), (1000), (3000)) AS t(n), LATERAL generate_series(1, n) g
GROUP BY n ORDER BY n;

-- hll_add: NULL values are ignored, a NULL sketch stays NULL.
SELECT #hll_add(hll_add(hll_empty(), 'a'::text), 'b'::text) AS two,
       #hll_add(hll_add(hll_empty(), 'a'::text), 'a'::text) AS one,
       hll_add(hll_empty(), NULL::text) = hll_empty() AS null_ignored,
       hll_add(NULL::hll, 1) IS NULL AS null_sketch;

-- Adding one value equals aggregating it.
SELECT hll_add(hll_empty(), 42) = hll_agg(42) AS same;

-- Union: function, operator, NULL sides ignored, result at the smaller p.
WITH s AS (
  SELECT hll_agg(g) FILTER (WHERE g <= 600) AS a,
         hll_agg(g) FILTER (WHERE g > 400) AS b,
         hll_agg(g) AS ab
  FROM generate_series(1, 1000) g
)
SELECT #(a || b) AS union_card, (a || b) = ab AS union_is_exact, hll_union(a, b) = (b || a) AS commutes,
       (a || NULL) = a AS null_right, (NULL || b) = b AS null_left,
       hll_intersect_cardinality(a, b) AS overlap
FROM s;

SELECT hll_info(hll_agg(g, 12) || hll_agg(g, 14))->>'precision' AS folded_precision,
       (hll_agg(g, 12) || hll_agg(g, 14)) = hll_agg(g, 12) AS fold_is_exact
FROM generate_series(1, 50000) g;

-- Dense sketches: promotion, estimate within 3 standard errors, info fields.
SELECT info->>'representation' AS representation, (info->>'precision')::int AS p,
       (info->>'bytes')::int AS bytes, (info->>'standard_error')::float8 AS standard_error,
       abs((info->>'estimate')::float8 / 100000 - 1) < 3 * 0.0081 AS within_3_sigma
FROM (SELECT hll_info(hll_agg(g)) AS info FROM generate_series(1, 100000) g) s;

-- Bounds contain the estimate; the sparse lower bound is what the sketch proves.
SELECT b.lower <= #h AND #h <= b.upper AS contains_estimate,
       b.lower >= 0.97 * 100000 AND b.upper <= 1.03 * 100000 AS contains_truth
FROM (SELECT hll_agg(g) AS h FROM generate_series(1, 100000) g) s,
     LATERAL hll_cardinality_bounds(h, 0.95) b;
SELECT * FROM hll_cardinality_bounds((SELECT hll_agg(g) FROM generate_series(1, 500) g));
SELECT * FROM hll_cardinality_bounds(NULL::hll);

-- Intersection of large sets (error relative to the union).
SELECT abs(hll_intersect_cardinality(a, b) - 20000) < 3 * 0.0081 * 100000 AS within_error
FROM (SELECT hll_agg(g) FILTER (WHERE g <= 60000) AS a,
             hll_agg(g) FILTER (WHERE g > 40000) AS b
      FROM generate_series(1, 100000) g) s;
SELECT hll_intersect_cardinality(hll_agg(1), NULL), hll_intersect_cardinality(hll_empty(), hll_empty());

-- Equality.
SELECT hll_agg(g) = hll_agg(g) AS eq, hll_agg(g) <> hll_agg(g + 1) AS ne
FROM generate_series(1, 100) g;

-- Canonical hashing: values equal in SQL count once.
SELECT sketch_hash(42::int2) = sketch_hash(42::int4) AS int2_int4,
       sketch_hash(42::int4) = sketch_hash(42::int8) AS int4_int8,
       sketch_hash(-7::int2) = sketch_hash(-7::int8) AS negative,
       sketch_hash(1.0::numeric) = sketch_hash(1.00::numeric) AS numeric_scale,
       sketch_hash(42::numeric) = sketch_hash(42::bigint) AS integral_numeric,
       sketch_hash(1.5::numeric) = sketch_hash(1.50::numeric) AS fraction_scale,
       sketch_hash(1.5::numeric) <> sketch_hash(1.51::numeric) AS fraction_differs,
       sketch_hash(0.0::float8) = sketch_hash('-0'::float8) AS minus_zero,
       sketch_hash('NaN'::float8) = sketch_hash('NaN'::float4) AS nan,
       sketch_hash(1.5::float4) = sketch_hash(1.5::float8) AS float_widening,
       sketch_hash('abc'::text) = sketch_hash('abc'::varchar) AS text_varchar,
       sketch_hash('abc'::char(5)) = sketch_hash('abc'::char(3)) AS bpchar_blanks,
       sketch_hash('abc'::text) = sketch_hash('abc'::bytea) AS text_bytea;
SELECT sketch_hash(42::bigint) AS stable_hash_of_42, sketch_hash('hello'::text) AS stable_hash_of_hello;

SELECT hll_agg(g::int2) = hll_agg(g::int8) AS int2_int8,
       hll_agg(g::int4) = hll_agg(g::int8) AS int4_int8,
       hll_agg(g::numeric) = hll_agg(g::int8) AS numeric_int8,
       hll_agg(g::numeric(10,2)) = hll_agg(g::numeric) AS numeric_scale
FROM generate_series(1, 20000) g;

-- Every common element type works; distinct counts are exact at this size.
CREATE DOMAIN positive_int AS int CHECK (VALUE > 0);
CREATE TYPE pair AS (a int, b text);
SELECT #hll_agg(g::text) AS text_, #hll_agg(g::varchar) AS varchar_,
       #hll_agg(convert_to(g::text, 'UTF8')) AS bytea_,
       #hll_agg(md5(g::text)::uuid) AS uuid_, #hll_agg(g / 10.0) AS numeric_,
       #hll_agg(g::float4) AS float4_, #hll_agg(g::float8 / 3) AS float8_,
       #hll_agg(date '2024-01-01' + g) AS date_,
       #hll_agg(timestamp '2024-01-01' + g * interval '1 second') AS timestamp_,
       #hll_agg(timestamptz '2024-01-01 00:00+00' + g * interval '1 minute') AS timestamptz_,
       #hll_agg(g % 2 = 0) AS bool_, #hll_agg(g::positive_int) AS domain_,
       #hll_agg(ARRAY[g, g + 1]) AS array_, #hll_agg(ROW(g, g::text)::pair) AS composite_,
       #hll_agg(g::oid) AS oid_, #hll_agg(('{"k": ' || g || '}')::json) AS json_
FROM generate_series(1, 500) g;

-- The domain hashes like its base type.
SELECT sketch_hash(5::positive_int) = sketch_hash(5) AS domain_as_base;
