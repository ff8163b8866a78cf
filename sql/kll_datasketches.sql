-- kll_from_datasketches / kll_to_datasketches: DataSketches compact KLL
-- sketches of doubles, floats (both as double precision) and longs (as
-- bigint). The vectors are the C++ and Java libraries' own bytes for the
-- stream 1..n (k = 200); every shipped file is checked by the unit tests
-- (test/unit/kll/kll_datasketches_test.cpp).
CREATE TEMP TABLE ds_kll(name text, item_type text, bytes bytea);
INSERT INTO ds_kll VALUES
  ('cpp double n10', 'double', '\x05010f00c80008000a00000000000000c8000100be000000000000000000f03f00000000000024400000000000002440000000000000224000000000000020400000000000001c4000000000000018400000000000001440000000000000104000000000000008400000000000000040000000000000f03f'),
  ('java float n10', 'float', '\x05010f00c80008000a00000000000000c8000100be0000000000803f000020410000204100001041000000410000e0400000c0400000a0400000804000004040000000400000803f'),
  ('java long n10', 'long', '\x05010f00c80008000a00000000000000c8000100be00000001000000000000000a000000000000000a00000000000000090000000000000008000000000000000700000000000000060000000000000005000000000000000400000000000000030000000000000002000000000000000100000000000000'),
  ('cpp double n1', 'double', '\x02020f04c8000800000000000000f03f'),
  ('cpp float n1', 'float', '\x02020f04c80008000000803f'),
  ('java long n1', 'long', '\x02020f04c80008000100000000000000'),
  ('java double n0', 'double', '\x02010f01c8000800'),
  ('old java n1 (no single-item flag)', 'double', '\x02020f00c80008000000000000000000'),
  ('java v1 one item (full form)', 'double', '\x05010f00c80008000100000000000000c8000100c7000000000000000000f03f000000000000f03f000000000000f03f'),
  ('java float n1000', 'float', '\x05010f00c8000800e803000000000000c800030062000000c4000000c50000000000803f00007a4400007a4400c0794400807944004079440000794400c0784400807844004078440000784400c0774400807744004077440000774400c0764400807644004076440000764400c0754400807544004075440000754400c0744400807444004074440000744400c0734400807344004073440000734400c0724400807244004072440000724400c0714400807144004071440000714400c0704400807044004070440000704400c06f4400806f4400406f4400006f4400c06e4400806e4400406e4400006e4400c06d4400806d4400406d4400006d4400c06c4400806c4400406c4400006c4400c06b4400806b4400406b4400006b4400c06a4400806a4400406a4400006a4400c0694400806944004069440000694400c0684400806844004068440000684400c0674400806744004067440000674400c0664400806644004066440000664400c0654400806544004065440000654400c0644400806444004064440000644400c0634400806344004063440000634400c0624400806244004062440000624400c061440000d943000080400000004100004041000080410000a0410000c0410000e0410000004200001042000020420000304200004042000050420000604200007042000080420000884200009042000098420000a0420000a8420000b0420000b8420000c0420000c8420000d0420000d8420000e0420000e8420000f0420000f84200000043000004430000084300000c4300001043000014430000184300001c4300002043000024430000284300002c4300003043000034430000384300003c4300004043000044430000484300004b4300004f43000053430000574300005b4300005f43000063430000674300006b4300006f43000073430000774300007b4300007f43008081430080834300808543008087430080894300808b4300808d4300808f43008091430080934300809543008097430080994300809b4300809d4300809f430080a1430080a3430080a5430080a7430080a9430080ab430080ad430080af430080b1430080b3430080b5430080b7430080b9430080bb430080bd430080bf430080c1430080c3430080c5430080c7430080c9430080cb430080cd430080cf430080d1430080d3430080d5430080d7430000db430000dd430000df430000e1430000e3430000e5430000e7430000e9430000eb430000ed430000ef430000f1430000f3430000f5430000f7430000f9430000fb430000fd430000ff430080004400800144008002440080034400800444008005440080064400800744008008440080094400800a4400800b4400800c4400800d4400800e4400800f440080104400801144008012440080134400801444008015440080164400801744008018440080194400801a4400801b4400801c4400801d4400801e4400801f440080204400802144008022440080234400802444008025440080264400802744008028440080294400802a4400802b4400802c4400802d4400802e4400802f440080304400803144008032440080334400803444008035440080364400803744008038440080394400803a4400403b4400403c4400403d4400403e4400403f440040404400404144004042440040434400404444004045440040464400404744004048440040494400404a4400404b4400404c4400404d4400404e4400404f440040504400405144004052440040534400405444004055440040564400405744004058440040594400405a4400405b4400405c4400405d4400405e4400405f440040604400406144');

-- what each holds, and whether the export gives the bytes back
SELECT name, kll_info(s)->>'element_type' AS type, kll_count(s), kll_min(s), kll_max(s),
       kll_info(s)->>'levels' AS levels, kll_info(s)->>'exact' AS exact,
       kll_to_datasketches(s, item_type) = bytes AS same_bytes,
       kll_from_datasketches(kll_to_datasketches(s), CASE item_type WHEN 'long' THEN 'long' ELSE 'double' END) = s AS round_trip,
       kll_from_datasketches(kll_to_datasketches(s, item_type), item_type) = s AS round_trip_own_type
  FROM (SELECT name, item_type, bytes, kll_from_datasketches(bytes, item_type) AS s FROM ds_kll) x ORDER BY name;
-- the default item type is double
SELECT kll_from_datasketches(bytes) = kll_from_datasketches(bytes, 'double'),
       kll_from_datasketches(bytes, 'DOUBLE') = kll_from_datasketches(bytes, 'double')
  FROM ds_kll WHERE name = 'cpp double n10';
SELECT kll_to_datasketches(kll_from_datasketches(bytes)) FROM ds_kll WHERE name = 'old java n1 (no single-item flag)';
SELECT kll_to_datasketches(kll_from_datasketches(bytes)) FROM ds_kll WHERE name = 'java v1 one item (full form)';

-- exact answers of 1..10, of 1..1000 within the rank error the sketch reports
CREATE TEMP TABLE ds_kll_imports AS SELECT name, kll_from_datasketches(bytes, item_type) AS s FROM ds_kll;
SELECT name, kll_quantiles(s, '{0, 0.1, 0.25, 0.5, 0.9, 1}'), kll_rank(s, 3::float8), kll_cdf(s, '{2, 5}'::float8[])
  FROM ds_kll_imports WHERE name LIKE '%n10' ORDER BY name;
SELECT kll_quantile_bigint(s, 0.5), kll_rank(s, 7::bigint) FROM ds_kll_imports WHERE name = 'java long n10';
SELECT kll_rank_error(s) > 0 AS estimated, kll_info(s)->>'retained' AS retained,
       abs(kll_quantile(s, 0.5) - 500) <= 1000 * kll_rank_error(s) AS median_within,
       bool_and(abs(kll_rank(s, v) - v / 1000.0) <= kll_rank_error(s)) AS ranks_within
  FROM ds_kll_imports, generate_series(10, 990, 10) v WHERE name = 'java float n1000' GROUP BY s;

-- a kll built from the same stream is the library's sketch, byte for byte, while exact
SELECT kll_to_datasketches(kll_agg(i::float8)) = (SELECT bytes FROM ds_kll WHERE name = 'cpp double n10') AS doubles,
       kll_to_datasketches(kll_agg(i::float8), 'float') = (SELECT bytes FROM ds_kll WHERE name = 'java float n10') AS floats,
       kll_to_datasketches(kll_agg(i::bigint)) = (SELECT bytes FROM ds_kll WHERE name = 'java long n10') AS longs
  FROM generate_series(1, 10) i;
SELECT kll_to_datasketches(kll_empty()) = (SELECT bytes FROM ds_kll WHERE name = 'java double n0') AS empty;

-- imports merge with sketches of their own value type: 1..10 and 11..1000
SELECT kll_count(u), kll_min(u), kll_max(u), abs(kll_rank(u, 500::float8) - 0.5) <= kll_rank_error(u) AS within
  FROM (SELECT (SELECT s FROM ds_kll_imports WHERE name = 'cpp double n10') || kll_agg(i::float8) AS u
          FROM generate_series(11, 1000) i) x;
SELECT kll_count(kll_union(s)), kll_max(kll_union(s)) FROM ds_kll_imports WHERE name LIKE '%float%' OR name LIKE '%double%';
SELECT kll_count(u), kll_quantile_bigint(u, 1)
  FROM (SELECT kll_union((SELECT s FROM ds_kll_imports WHERE name = 'java long n10'), kll_agg(i)) AS u
          FROM generate_series(100::bigint, 109) i) x;

\set VERBOSITY sqlstate
-- never silently across value types (22023)
SELECT (SELECT s FROM ds_kll_imports WHERE name = 'cpp double n10') || (SELECT s FROM ds_kll_imports WHERE name = 'java long n10');
SELECT (SELECT s FROM ds_kll_imports WHERE name = 'java long n10') || kll_agg(i::float8) FROM generate_series(1, 3) i;
-- the export needs the sketch's own item type (22023), timestamps have none (0A000)
SELECT kll_to_datasketches(kll_agg(i)) FROM generate_series(1::bigint, 3) i;
SELECT kll_to_datasketches(kll_agg(i), 'double') FROM generate_series(1::bigint, 3) i;
SELECT kll_to_datasketches(kll_agg(i::float8), 'long') FROM generate_series(1, 3) i;
SELECT kll_to_datasketches(kll_agg(i / 10.0), 'float') FROM generate_series(1, 3) i;
SELECT kll_to_datasketches(kll_agg(DATE '2024-01-01' + i)) FROM generate_series(1, 3) i;
SELECT kll_to_datasketches(kll_empty(), 'int');
SELECT kll_from_datasketches(bytes, 'int') FROM ds_kll WHERE name = 'cpp double n10';
\set VERBOSITY default
-- malformed bytes: 22P03 saying what; valid forms not read: 0A000
CREATE FUNCTION pg_temp.refusal(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ': ' || SQLERRM; END $$;
SELECT what, pg_temp.refusal(format('SELECT kll_from_datasketches(%s) FROM ds_kll WHERE name = %L', expr, 'cpp double n10'))
  FROM (VALUES
    ('truncated', $q$substring(bytes FROM 1 FOR 100)$q$),
    ('read as floats', $q$bytes, 'float'$q$),
    ('family 3', $q$set_byte(bytes, 2, 3)$q$),
    ('m = 4', $q$set_byte(bytes, 6, 4)$q$),
    ('n = 11', $q$set_byte(bytes, 8, 11)$q$),
    ('level 0 offset 191', $q$set_byte(bytes, 20, 191)$q$),
    ('level 0 offset past the items', $q$set_byte(bytes, 21, 1)$q$),
    ('flagged sorted', $q$set_byte(bytes, 3, 2)$q$),
    ('unknown flag', $q$set_byte(bytes, 3, 16)$q$),
    ('a NaN item', $q$set_byte(set_byte(bytes, 47, 127), 46, 248)$q$),
    ('min not an item', $q$set_byte(bytes, 31, 0)$q$),
    ('unused byte 7', $q$set_byte(bytes, 7, 1)$q$),
    ('updatable (serial version 3)', $q$set_byte(bytes, 1, 3)$q$),
    ('min_k 100', $q$set_byte(bytes, 16, 100)$q$),
    ('a NaN single float', $q$'\x02020f04c80008000000c07f'::bytea, 'float'$q$),
    ('two bytes', $q$'\x0201'::bytea$q$)) AS t(what, expr);
-- every byte of the preamble and the level offset complemented: all refused, 22P03 or 0A000
SELECT count(*) AS complemented,
       count(*) FILTER (WHERE r LIKE '22P03: %' OR r LIKE '0A000: %') AS refused
  FROM (SELECT pg_temp.refusal(format('SELECT kll_from_datasketches(set_byte(bytes, %s, 255 - get_byte(bytes, %s))) FROM ds_kll WHERE name = %L',
                                      i, i, 'cpp double n10')) AS r
          FROM generate_series(0, 23) i) x;
