-- DataSketches HLL sketches (hash identity 3): import, export, the
-- libraries' hashing, unions within the identity and the refusals. The
-- libraries are not needed: exports are checked against the SHA-256 (first
-- 16 hex digits) of the files the C++ library wrote for the stream "ints
-- 0..n-1 as int64" (MANIFEST.tsv of /work/shared/interop/datasketches), and
-- the small files are literals here (test/unit/hll/dshll_codec_test.cpp
-- reads every file).

-- Building the stream here exports the C++ library's bytes, for every type.
CREATE TABLE ds_cpp_files (type text, n integer, sha text);
INSERT INTO ds_cpp_files VALUES
  ('HLL_4', 1, '207dbcd07951beae'), ('HLL_4', 10, '43d5aed57a896d8a'),
  ('HLL_4', 100, '7c48153e3eff1bbd'), ('HLL_4', 1000, '3350c055d03b6199'),
  ('HLL_4', 10000, '1e2fd433b8b99e3f'), ('HLL_4', 100000, '3eb3a197af7138ae'),
  ('HLL_4', 1000000, '15cd6101c4bb59cc'),
  ('HLL_6', 1, 'dcb52c61649afe03'), ('HLL_6', 10, '8c19b2f42950b447'),
  ('HLL_6', 100, '8683c74370978778'), ('HLL_6', 1000, 'ef8ab42722d1a835'),
  ('HLL_6', 10000, 'fe8563580f251454'), ('HLL_6', 100000, 'fb12dc3fea766b07'),
  ('HLL_8', 1, 'e37b6886cf9a1e11'), ('HLL_8', 10, 'ce6beaaa76c69f94'),
  ('HLL_8', 100, '501b5b647d48d3e2'), ('HLL_8', 1000, '24d27c49de100be8'),
  ('HLL_8', 10000, '697a397d094acd51'), ('HLL_8', 100000, '9844b99a4980476e');
CREATE TABLE ds_built AS
  SELECT f.type, f.n, f.sha,
         (SELECT hll_datasketches_agg(i::bigint, 12, f.type) FROM generate_series(0, f.n - 1) i) AS h
  FROM ds_cpp_files f;
SELECT type, n,
       substr(encode(sha256(hll_to_datasketches(h)), 'hex'), 1, 16) = sha AS same_bytes,
       hll_info(h) ->> 'representation' AS representation
FROM ds_built ORDER BY type, n;

-- Import -> export -> import: the same sketch; the imported one answers
-- its stored HIP estimate (the manifest's hipAccum), the one built here
-- this project's estimator on the same registers.
SELECT type, n,
       hll_from_datasketches(hll_to_datasketches(h)) = hll_from_datasketches(
         hll_to_datasketches(hll_from_datasketches(hll_to_datasketches(h)))) AS round_trip,
       hll_to_datasketches(hll_from_datasketches(hll_to_datasketches(h))) = hll_to_datasketches(h) AS same_export,
       hll_info(hll_from_datasketches(hll_to_datasketches(h))) ->> 'estimate' AS imported_estimate,
       hll_info(hll_from_datasketches(hll_to_datasketches(h))) ->> 'estimator' AS estimator,
       abs(hll_cardinality(h) - n) <= 5 * 0.0163 * n AS built_within_5_se
FROM ds_built WHERE type = 'HLL_8' ORDER BY n;

-- The libraries' own small files: Java's SET of 10 (HLL_8), Go's LIST of
-- 1 (HLL_4) and Java's empty HLL_6.
SELECT hll_info(hll_from_datasketches('\x0301070c050800090a00000081bc5d06862ff90dcbd7c204c1e91705d216730734a2610e75816607fc2d420a7b65e6082bf2fb06'))
         ->> 'entries' AS java_set_entries,
       hll_from_datasketches('\x0301070c050800090a00000081bc5d06862ff90dcbd7c204c1e91705d216730734a2610e75816607fc2d420a7b65e6082bf2fb06')
         = (SELECT hll_from_datasketches(hll_to_datasketches(h)) FROM ds_built WHERE type = 'HLL_8' AND n = 10) AS java_equals_ours,
       hll_cardinality(hll_from_datasketches('\x0201070c03080100cbd7c204')) AS go_list,
       hll_cardinality(hll_from_datasketches('\x0201070c030c0004')) AS java_empty,
       hll_to_datasketches(hll_from_datasketches('\x0201070c030c0004')) AS empty_export;

-- Another target type on export: the registers are the same.
SELECT substr(hll_to_datasketches(h, 'HLL_8'), 41) = substr(hll_to_datasketches(
         (SELECT h FROM ds_built b WHERE b.type = 'HLL_8' AND b.n = 100000)), 41) AS same_registers,
       length(hll_to_datasketches(h, 'hll_6')) AS hll_6_bytes
FROM ds_built WHERE type = 'HLL_4' AND n = 100000;

-- Values added to an imported sketch merge exactly: the union of imported
-- halves has the registers of the sketch of the whole stream, and answers
-- with this project's estimator, as an add does.
CREATE TABLE ds_halves AS
  SELECT i % 2 AS half, hll_from_datasketches(hll_to_datasketches(hll_datasketches_agg(i::bigint))) AS h
  FROM generate_series(0, 99999) i GROUP BY i % 2;
SELECT substr(hll_to_datasketches(hll_union(h), 'HLL_8'), 41) =
         substr(hll_to_datasketches((SELECT h FROM ds_built WHERE type = 'HLL_8' AND n = 100000)), 41) AS union_registers,
       hll_info(hll_union(h)) ->> 'estimator' AS estimator,
       hll_cardinality(hll_union(h)) = hll_cardinality((SELECT h FROM ds_built WHERE type = 'HLL_8' AND n = 100000)) AS union_estimate
FROM ds_halves;
SELECT hll_cardinality(hll_datasketches_add(hll_datasketches_add(h, 100000), 100001)) AS added,
       hll_info(hll_datasketches_add(h, 3)) ->> 'estimator' AS estimator_after_add
FROM ds_halves WHERE half = 0;

-- The libraries' value rules: smallint, integer and bigint hash alike (a
-- long), real and double precision alike (a double), text and varchar as
-- UTF-8; empty strings are skipped.
SELECT hll_to_datasketches(hll_datasketches_agg(v::smallint)) = hll_to_datasketches(hll_datasketches_agg(v::bigint)) AS int2_is_long,
       hll_to_datasketches(hll_datasketches_agg(v::integer)) = hll_to_datasketches(hll_datasketches_agg(v::bigint)) AS int4_is_long,
       hll_to_datasketches(hll_datasketches_agg(v::real)) = hll_to_datasketches(hll_datasketches_agg(v::double precision)) AS real_is_double,
       hll_to_datasketches(hll_datasketches_agg(v::text)) = hll_to_datasketches(hll_datasketches_agg(v::text::varchar)) AS varchar_is_text,
       hll_to_datasketches(hll_datasketches_agg(v::text)) <> hll_to_datasketches(hll_datasketches_agg(v::bigint)) AS text_is_not_long
FROM generate_series(1, 50) v;
SELECT hll_cardinality(hll_datasketches_agg(v)) AS skipped_empty
FROM (VALUES (''), ('a'), (''), ('b')) t(v);
SELECT hll_cardinality(hll_datasketches_agg(v)) AS negative_zero_and_nan
FROM (VALUES (0.0::float8), (-0.0::float8), ('NaN'::float8)) t(v);

-- Parallel aggregation gives the same sketch as a serial one.
CREATE TABLE ds_par AS SELECT i::bigint AS v FROM generate_series(1, 200000) i;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
CREATE TABLE ds_par_result AS SELECT hll_datasketches_agg(v) AS h FROM ds_par;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SELECT substr(hll_to_datasketches(h, 'HLL_8'), 41) = substr(hll_to_datasketches(
         (SELECT hll_datasketches_agg(v) FROM ds_par), 'HLL_8'), 41) AS parallel_registers
FROM ds_par_result;

-- Refusals.
\set VERBOSITY default
SELECT hll_from_datasketches('\x0201030c03080108cbd7c204');  -- theta's family id
SELECT hll_from_datasketches('\x0202070c03080108cbd7c204');  -- serial version 2
SELECT hll_from_datasketches('\x0201071603080108cbd7c204');  -- lgK 22
SELECT hll_from_datasketches('\x0201070c03080108cbd7c2');    -- truncated
SELECT hll_from_datasketches('\x0201070c03080208cbd7c204');  -- count says 2
SELECT hll_from_datasketches('\x0201070c03080108cbd7c200');  -- coupon value 0
SELECT hll_from_datasketches(substr(hll_to_datasketches(h), 1, 100)) FROM ds_built WHERE type = 'HLL_4' AND n = 1000;
SELECT hll_from_datasketches(overlay(hll_to_datasketches(h) placing '\xff'::bytea from 41)) FROM ds_built WHERE type = 'HLL_4' AND n = 1000000;
SELECT hll_to_datasketches(h, 'HLL_5') FROM ds_built WHERE type = 'HLL_4' AND n = 1;
SELECT hll_to_datasketches(hll_agg(1));
SELECT hll_datasketches_add(hll_agg(1), 1);
SELECT hll_datasketches_add(h, 1.5) FROM ds_built WHERE type = 'HLL_4' AND n = 1;
SELECT hll_datasketches_add(h, 'x'::text) FROM ds_built WHERE type = 'HLL_4' AND n = 1;
SELECT hll_union(h) FROM (SELECT hll_agg(1) UNION ALL SELECT hll_from_datasketches('\x0201070c03080108cbd7c204')) t(h);
SELECT hll_union(h) FROM (SELECT hll_postgresql_hll_empty() UNION ALL SELECT hll_datasketches_agg(1::bigint)) t(h);
SELECT hll_datasketches_agg(v, 3) FROM generate_series(1, 2) v;
SELECT hll_datasketches_agg(v, 12, 'HLL_9') FROM generate_series(1, 2) v;
SELECT hll_datasketches_agg(v::numeric) FROM generate_series(1, 2) v;

DROP TABLE ds_cpp_files, ds_built, ds_halves, ds_par, ds_par_result;
