-- bloom's split-block layout: Parquet's split-block Bloom filter, values
-- hashed by their Parquet physical type, and the Parquet bytes of a filter.
SET extra_float_digits = 0;
CREATE FUNCTION pg_temp.attempt(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- Sizing: a power-of-two bitset of 256-bit blocks whose formula fpp is at
-- most p (8 hashes: one bit per 32-bit word of a block); classic is the
-- two-argument sizing.
SELECT n, p, s.*, s.bits / 256 AS blocks, (s.bits & (s.bits - 1)) = 0 AS power_of_two
FROM (VALUES (1::bigint, 0.5::float8), (1000, 0.01), (10000, 0.01), (10000, 0.001),
             (1000000, 0.01), (100000000, 0.01), (10000000000, 0.01)) AS t(n, p),
     LATERAL bloom_sizing(n, p, 'split_block') s;
SELECT bloom_sizing(10000, 0.01, 'classic') = bloom_sizing(10000, 0.01) AS classic_same;

-- Layout names: only 'classic' and 'split_block'.
SELECT bloom_empty(100, 0.01, 'classic') = bloom_empty(100, 0.01) AS classic_default;
SELECT pg_temp.attempt($q$SELECT bloom_empty(100, 0.01, 'split')$q$);
SELECT pg_temp.attempt($q$SELECT bloom_sizing(100, 0.01, 'Split_Block')$q$);
SELECT pg_temp.attempt($q$SELECT bloom_agg(g, 100, 0.01, 'blocked') FROM generate_series(1, 3) g$q$);
SELECT pg_temp.attempt($q$SELECT bloom_agg(g, 100, 0.01, NULL) FROM generate_series(1, 3) g$q$);
SELECT pg_temp.attempt($q$SELECT bloom_empty(100000000000, 0.0001, 'split_block')$q$);

-- An empty split-block filter: 8 hashes, no physical type yet.
SELECT bloom_info(bloom_empty(1000, 0.01, 'split_block'));
SELECT bloom_to_parquet(bloom_empty(1, 0.5, 'split_block')) AS one_block_parquet;

-- Exact bytes of small filters (any change to hashing or layout shows
-- here): one block and one value of each physical type.
SELECT 'int4 42' AS v, bloom_to_parquet(bloom_add(bloom_empty(1, 0.5, 'split_block'), 42)) AS parquet
UNION ALL SELECT 'int8 42', bloom_to_parquet(bloom_add(bloom_empty(1, 0.5, 'split_block'), 42::bigint))
UNION ALL SELECT 'text hello', bloom_to_parquet(bloom_add(bloom_empty(1, 0.5, 'split_block'), 'hello'::text))
UNION ALL SELECT 'float8 1.5', bloom_to_parquet(bloom_add(bloom_empty(1, 0.5, 'split_block'), 1.5::float8))
UNION ALL SELECT 'float4 1.5', bloom_to_parquet(bloom_add(bloom_empty(1, 0.5, 'split_block'), 1.5::real))
UNION ALL SELECT 'date 1970-01-02', bloom_to_parquet(bloom_add(bloom_empty(1, 0.5, 'split_block'), date '1970-01-02'))
UNION ALL SELECT 'uuid', bloom_to_parquet(bloom_add(bloom_empty(1, 0.5, 'split_block'), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid));

-- Physical types: what SQL values map to, and that equal PLAIN encodings
-- give equal filters (date '1970-01-02' is INT32 1, as is the integer 1;
-- timestamp '1970-01-01 00:00:01' is INT64 1000000).
SELECT bloom_add(bloom_empty(100, 0.01, 'split_block'), date '1970-01-02')
       = bloom_add(bloom_empty(100, 0.01, 'split_block'), 1) AS date_is_int32_days,
       bloom_add(bloom_empty(100, 0.01, 'split_block'), timestamp '1970-01-01 00:00:01')
       = bloom_add(bloom_empty(100, 0.01, 'split_block'), 1000000::bigint) AS timestamp_is_int64_micros,
       bloom_add(bloom_empty(100, 0.01, 'split_block'), timestamptz '1970-01-01 00:00:01+00')
       = bloom_add(bloom_empty(100, 0.01, 'split_block'), 1000000::bigint) AS timestamptz_is_int64_micros,
       bloom_add(bloom_empty(100, 0.01, 'split_block'), 'abc'::bytea)
       = bloom_add(bloom_empty(100, 0.01, 'split_block'), 'abc'::text) AS bytea_is_text,
       bloom_add(bloom_empty(100, 0.01, 'split_block'), 7::smallint)
       = bloom_add(bloom_empty(100, 0.01, 'split_block'), 7) AS smallint_is_int32,
       bloom_add(bloom_empty(100, 0.01, 'split_block'), 'ab '::char(5))
       = bloom_add(bloom_empty(100, 0.01, 'split_block'), 'ab'::text) AS bpchar_without_blanks;
SELECT (SELECT bloom_info(bloom_agg(g::smallint, 100, 0.01, 'split_block'))->>'physical_type' FROM generate_series(1, 3) g) AS smallint,
       (SELECT bloom_info(bloom_agg(g, 100, 0.01, 'split_block'))->>'physical_type' FROM generate_series(1, 3) g) AS integer,
       (SELECT bloom_info(bloom_agg(g::bigint, 100, 0.01, 'split_block'))->>'physical_type' FROM generate_series(1, 3) g) AS bigint,
       (SELECT bloom_info(bloom_agg(g::real, 100, 0.01, 'split_block'))->>'physical_type' FROM generate_series(1, 3) g) AS real,
       (SELECT bloom_info(bloom_agg(g::float8, 100, 0.01, 'split_block'))->>'physical_type' FROM generate_series(1, 3) g) AS float8,
       (SELECT bloom_info(bloom_agg(g::text, 100, 0.01, 'split_block'))->>'physical_type' FROM generate_series(1, 3) g) AS text,
       (SELECT bloom_info(bloom_agg(md5(g::text)::uuid, 100, 0.01, 'split_block'))->>'physical_type' FROM generate_series(1, 3) g) AS uuid,
       (SELECT bloom_info(bloom_agg(date '2024-01-01' + g, 100, 0.01, 'split_block'))->>'physical_type' FROM generate_series(1, 3) g) AS date,
       (SELECT bloom_info(bloom_agg(now() + g * interval '1 s', 100, 0.01, 'split_block'))->>'physical_type' FROM generate_series(1, 3) g) AS timestamptz;

-- Types without a Parquet physical type are refused (0A000); so are
-- infinite dates and timestamps (22008).
SELECT pg_temp.attempt($q$SELECT bloom_agg(g::numeric, 100, 0.01, 'split_block') FROM generate_series(1, 3) g$q$);
SELECT pg_temp.attempt($q$SELECT bloom_agg(g * interval '1 day', 100, 0.01, 'split_block') FROM generate_series(1, 3) g$q$);
SELECT pg_temp.attempt($q$SELECT bloom_add(bloom_empty(100, 0.01, 'split_block'), true)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_add(bloom_empty(100, 0.01, 'split_block'), 'infinity'::date)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_add(bloom_empty(100, 0.01, 'split_block'), '-infinity'::timestamptz)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_contains(bloom_empty(100, 0.01, 'split_block'), 1.5)$q$);

-- Members are always present; probes convert between integer widths and
-- between float widths, since users type literals.
CREATE TEMP TABLE sb AS
SELECT bloom_agg(g::bigint, 10000, 0.01, 'split_block') AS f64,
       bloom_agg(g, 10000, 0.01, 'split_block') AS f32,
       bloom_agg(g::text, 10000, 0.01, 'split_block') AS ftext,
       bloom_agg(g / 4.0::float8, 10000, 0.01, 'split_block') AS fdouble,
       bloom_agg(g / 4.0::real, 10000, 0.01, 'split_block') AS ffloat
FROM generate_series(1, 10000) g;
SELECT count(*) FILTER (WHERE bloom_contains(f64, g::bigint)) AS int8_in_int64,
       count(*) FILTER (WHERE bloom_contains(f64, g)) AS int4_in_int64,
       count(*) FILTER (WHERE f64 @> g::smallint) AS int2_in_int64,
       count(*) FILTER (WHERE bloom_contains(f32, g)) AS int4_in_int32,
       count(*) FILTER (WHERE g::bigint <@ f32) AS int8_in_int32,
       count(*) FILTER (WHERE bloom_contains(ftext, g::text)) AS text_in_byte_array,
       count(*) FILTER (WHERE bloom_contains(ftext, g::varchar)) AS varchar_in_byte_array,
       count(*) FILTER (WHERE bloom_contains(fdouble, g / 4.0::float8)) AS double_in_double,
       count(*) FILTER (WHERE bloom_contains(fdouble, (g / 4.0)::real)) AS real_in_double,
       count(*) FILTER (WHERE bloom_contains(ffloat, (g / 4.0)::real)) AS real_in_float,
       count(*) FILTER (WHERE bloom_contains(ffloat, (g / 4.0)::float8)) AS double_in_float
FROM sb, generate_series(1, 10000) g;
-- A literal probes a BYTE_ARRAY filter as text; a bigint beyond int32 and a
-- double that is no float are never in the column.
SELECT bloom_contains(ftext, '42') AS literal, bloom_contains(f32, 5000000000::bigint) AS beyond_int32,
       bloom_contains(ffloat, 0.1::float8) AS not_a_float
FROM sb;
-- Non-members: false positives near the formula's rate at this size.
-- 10000 values in 131072 bits (13.1 bits per value): the formula's fpp is
-- 0.00354; 100000 non-members should give 354 +- 57 (3 sigma).
SELECT (SELECT count(*) FROM sb, generate_series(10001, 110000) g WHERE bloom_contains(f64, g::bigint))
         BETWEEN 297 AND 411 AS fp_near_formula,
       abs(bloom_cardinality(f64) - 10000) < 300 AS cardinality_close,
       abs(bloom_fpp(f64) - 0.00354) < 0.0006 AS fpp_estimate_near_formula
FROM sb;
SELECT pg_temp.attempt($q$SELECT bloom_contains(f64, 'x'::text) FROM sb$q$);
SELECT pg_temp.attempt($q$SELECT bloom_contains(ftext, 1) FROM sb$q$);
SELECT pg_temp.attempt($q$SELECT bloom_add(f32, 5000000000::bigint) FROM sb$q$);
SELECT pg_temp.attempt($q$SELECT bloom_contains(f32, date '2024-01-01') IS NOT NULL AS date_probes_int32 FROM sb$q$);
SELECT pg_temp.attempt($q$SELECT bloom_contains(f64, timestamp '2024-01-01') FROM sb$q$);

-- info: layout, blocks and physical type.
SELECT bloom_info(f64) - 'fpp' - 'cardinality' - 'bits_set' - 'fill_ratio' AS info FROM sb;
SELECT bloom_info(f32)->>'layout' AS layout, (SELECT bloom_info(bloom_agg(1, 10, 0.1))->>'layout') AS classic FROM sb;

-- Union is bit OR of equal layout and size; anything else is refused.
SELECT bloom_union(a, b) = bloom_agg(g::bigint, 10000, 0.01, 'split_block') AS union_is_or
FROM (SELECT bloom_agg(g::bigint, 10000, 0.01, 'split_block') FILTER (WHERE g % 2 = 0) AS a,
             bloom_agg(g::bigint, 10000, 0.01, 'split_block') FILTER (WHERE g % 2 = 1) AS b
      FROM generate_series(1, 10000) g) t, generate_series(1, 10000) g
GROUP BY a, b;
SELECT (a | b) = bloom_union(a, b) AS operator_same,
       (a & b) @> 2::bigint AS intersect_keeps_none_lost
FROM (SELECT bloom_agg(g::bigint, 100, 0.01, 'split_block') AS a,
             bloom_agg(g::bigint + 1, 100, 0.01, 'split_block') AS b
      FROM generate_series(1, 100) g) t;
SELECT pg_temp.attempt($q$SELECT bloom_union(bloom_empty(100, 0.01, 'split_block'), bloom_empty(100, 0.01))$q$);
SELECT pg_temp.attempt($q$SELECT bloom_union(bloom_empty(100, 0.01, 'split_block'), bloom_empty(100000, 0.01, 'split_block'))$q$);
SELECT pg_temp.attempt($q$SELECT bloom_union(f32, f64) FROM sb$q$);
SELECT pg_temp.attempt($q$SELECT bloom_union(x) FROM (VALUES (bloom_empty(100, 0.01, 'split_block')), (bloom_empty(100, 0.01))) v(x)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_agg(g, 100, 0.01, CASE WHEN g < 3 THEN 'split_block' ELSE 'classic' END) FROM generate_series(1, 5) g$q$);

-- Parquet bytes: the compact BloomFilterHeader, then the bitset; read back
-- with or without the physical type.
SELECT substr(bloom_to_parquet(f64), 1, 17) AS header, length(bloom_to_parquet(f64)) AS bytes,
       bloom_info(f64)->'bits' AS bits,
       bloom_from_parquet(bloom_to_parquet(f64), 'INT64') = f64 AS round_trip,
       bloom_from_parquet(bloom_to_parquet(f64), 'int64') = f64 AS type_any_case,
       bloom_info(bloom_from_parquet(bloom_to_parquet(f64)))->>'physical_type' IS NULL AS untyped,
       bloom_contains(bloom_from_parquet(bloom_to_parquet(f64)), 77::bigint) AS untyped_probe,
       bloom_from_parquet(NULL) IS NULL AS null_data
FROM sb;
-- Text input and output keep the layout and type.
SELECT f64::text::bloom = f64 AS text_round_trip, f64::bytea::bloom = f64 AS bytea_round_trip FROM sb;
SELECT pg_temp.attempt($q$SELECT bloom_to_parquet(bloom_empty(100, 0.01))$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet(bloom_to_parquet(f64), 'BOOLEAN') FROM sb$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet('\x'::bytea)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet('\x15401c1c00001c1c00001c1c000000'::bytea)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet('\x15401c1c00001c1c00001c1c000000'::bytea || '\x00'::bytea)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet(('\x15401c1c00001c1c00001c1c000000' || repeat('00', 33))::bytea)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet(('\x15411c1c00001c1c00001c1c000000' || repeat('00', 32))::bytea)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet(('\x15421c1c00001c1c00001c1c000000' || repeat('00', 1))::bytea)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet(('\x15401c2c00001c1c00001c1c000000' || repeat('00', 32))::bytea)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet(('\x15401c1c00001c1c00001c1c00001500' || repeat('00', 32))::bytea)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet(('\x1580808080101c1c00001c1c00001c1c000000' || repeat('00', 32))::bytea)$q$);
SELECT pg_temp.attempt($q$SELECT bloom_from_parquet(('\x15402c1c15000000' || repeat('00', 32))::bytea)$q$);
-- The long form of a field header (delta 0, the id as a zigzag varint) is
-- read like the short form.
SELECT bloom_from_parquet(('\x050240' || '0c041c0000' || '1c1c0000' || '1c1c0000' || '00' || repeat('00', 32))::bytea) =
       bloom_empty(1, 0.5, 'split_block') AS long_form;

-- Stored values that break the layout's rules are refused.
SELECT pg_temp.attempt($q$SELECT ('\x534b0301010202ff' || '0001000000000000' || repeat('00', 32))::bloom AS k_not_8$q$);
SELECT pg_temp.attempt($q$SELECT ('\x534b0301010802ff' || '0801000000000000' || repeat('00', 33))::bloom AS not_whole_blocks$q$);
SELECT pg_temp.attempt($q$SELECT ('\x534b0301010802' || '01' || '0001000000000000' || repeat('00', 32))::bloom AS classic_kind$q$);
SELECT pg_temp.attempt($q$SELECT ('\x534b0301010803ff' || '0001000000000000' || repeat('00', 32))::bloom AS working$q$);
SELECT ('\x534b0301010802ff' || '0001000000000000' || repeat('00', 32))::bloom
       = bloom_empty(1, 0.5, 'split_block') AS stored_form;

-- Aggregates: a filter of 1 MiB or more takes the working encoding (a
-- queue of prefetched hashes): the same bytes as adding at once.
SELECT bloom_sizing(1000000, 0.01, 'split_block');
CREATE TABLE sb_big AS SELECT g FROM generate_series(1, 200000) g;
-- (test/unit/bloom: queued adds give the bytes of immediate ones.)
SELECT (SELECT bloom_agg(g, 1000000, 0.01, 'split_block') FROM sb_big)
       = (SELECT bloom_union(f) FROM (SELECT bloom_agg(g, 1000000, 0.01, 'split_block') AS f
                                     FROM sb_big GROUP BY g % 7) t) AS groups_union_equals_whole,
       (SELECT count(*) FROM sb_big, (SELECT bloom_agg(g, 1000000, 0.01, 'split_block') AS f FROM sb_big) t
        WHERE NOT f @> g) AS missing;
-- Parallel aggregation combines states by OR: the serial bytes.
ALTER TABLE sb_big SET (parallel_workers = 2);
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT bloom_agg(g, 1000000, 0.01, 'split_block') FROM sb_big;
CREATE TEMP TABLE par AS SELECT bloom_agg(g, 1000000, 0.01, 'split_block') AS f FROM sb_big;
RESET max_parallel_workers_per_gather;
SELECT f = (SELECT bloom_agg(g, 1000000, 0.01, 'split_block') FROM sb_big) AS parallel_same FROM par;
-- The typed twin (a declared value type, as Citus needs) is the same aggregate.
SELECT pg_get_function_identity_arguments(p.oid) FROM pg_proc p
WHERE proname = 'bloom_agg' AND pronargs = 4 ORDER BY 1;
DROP TABLE sb_big;
