-- theta_datasketches_agg / theta_datasketches_add: thetas of hash identity 3
-- built as the DataSketches libraries' update sketch builds them. The sketch
-- of the ints 0..n-1 gives the C++ library's file byte for byte (the SHA-256
-- prefixes are those of MANIFEST.tsv of the shipped files; every file is
-- checked by test/unit/theta and test/interop/datasketches.sh); it merges
-- with imports; other identities and value types are refused.
CREATE TEMP TABLE ds_cpp(n int, compressed boolean, sha text);
INSERT INTO ds_cpp VALUES
  (1, false, '67e741e79d6b30a8'), (10, false, 'f8a1ef24486887cd'), (1000, false, '1e24705880a180cb'),
  (10000, false, 'cc153d6d7a85c912'), (100000, false, '69126ea55d65f4bb'),
  (10, true, '16b14f865df62385'), (10000, true, '69c122d2f59cbf07'), (100000, true, 'b23a66df68230fdb');
CREATE TEMP TABLE ds_built AS
  SELECT n, (SELECT theta_datasketches_agg(i::bigint) FROM generate_series(0, n - 1) i) AS s
  FROM (SELECT DISTINCT n FROM ds_cpp) d;
SELECT c.n, c.compressed, substr(encode(sha256(theta_to_datasketches(b.s, c.compressed)), 'hex'), 1, 16) = c.sha AS library_bytes,
       theta_info(b.s)->>'retained' AS retained, theta_info(b.s)->>'lg_k' AS lg_k,
       theta_info(b.s)->>'exact' AS exact, round(theta_count(b.s)::numeric / c.n, 2) AS ratio
FROM ds_cpp c JOIN ds_built b USING (n) ORDER BY c.compressed, c.n;
-- the library's exact mode holds up to 15k/8 = 7680 entries; one more rebuilds to k
SELECT n, theta_info(s)->>'retained' AS retained, theta_info(s)->>'exact' AS exact, theta_info(s)->>'lg_k' AS lg_k
FROM (SELECT n, (SELECT theta_datasketches_agg(i::bigint) FROM generate_series(0, n - 1) i) AS s
      FROM (VALUES (7680), (7681)) v(n)) x ORDER BY n;
-- an import of the library's bytes is the built sketch (but for the kind
-- of values: an import does not know it)
SELECT theta_to_datasketches(theta_from_datasketches(theta_to_datasketches(s))) = theta_to_datasketches(s) AS round_trip,
       theta_info(theta_from_datasketches(theta_to_datasketches(s))) - 'element_kind' = theta_info(s) - 'element_kind' AS same_info
FROM ds_built WHERE n = 100000;
-- lg_k: nominal k = 2^lg_k; the stored form takes the lg_k that holds its entries
SELECT lg_k, theta_info(s)->>'lg_k' AS stored_lg_k, theta_info(s)->>'retained' AS retained,
       abs(theta_count(s) - 100000) < 100000 * 3 / sqrt(2 ^ lg_k) AS within_3_rse
FROM (SELECT lg_k, (SELECT theta_datasketches_agg(i::bigint, lg_k) FROM generate_series(0, 99999) i) AS s
      FROM (VALUES (4), (10), (16)) v(lg_k)) x ORDER BY lg_k;

-- Merges with imports: the union of an imported half and a built half holds
-- every hash of 0..99999 below its θ, as the whole stream's sketch does
-- (below their θs neither lacks a hash the other holds; the union keeps up
-- to 2^13 hashes, the lg_k both halves are stored at); intersection and
-- difference estimate 50000.
CREATE TEMP TABLE ds_halves AS
  SELECT theta_from_datasketches(theta_to_datasketches(theta_datasketches_agg(i::bigint) FILTER (WHERE i % 2 = 0))) AS even,
         theta_datasketches_agg(i::bigint) FILTER (WHERE i % 2 = 1) AS odd
  FROM generate_series(0, 99999) i;
SELECT theta_count(theta_diff(u, w)) = 0 AND theta_count(theta_diff(w, u)) = 0 AS union_is_whole,
       theta_info(u)->>'retained' AS union_retained, theta_info(u)->>'lg_k' AS union_lg_k,
       (SELECT theta_union(h) FROM (SELECT even UNION ALL SELECT odd) t(h)) = u AS aggregate_union,
       theta_count(even & odd) AS disjoint
FROM ds_halves, LATERAL (SELECT theta_union(even, odd) AS u, (SELECT s FROM ds_built WHERE n = 100000) AS w) x;
SELECT abs(theta_count(a & b) - 50000) < 3 * 50000 * sqrt(1.0 / 4096) AS intersect_50000,
       abs(theta_count(theta_diff(a, b)) - 50000) < 3 * 50000 * sqrt(1.0 / 4096) AS diff_50000,
       abs((theta_jaccard(a, b)).estimate - 1.0 / 3) < 0.05 AS jaccard_third
FROM (SELECT theta_from_datasketches(theta_to_datasketches(s)) AS a,
             (SELECT theta_datasketches_agg(i::bigint) FROM generate_series(50000, 149999) i) AS b
      FROM ds_built WHERE n = 100000) x;
-- adds: exact while the library's sketch is, and merged with imports
SELECT theta_to_datasketches(theta_datasketches_add(theta_datasketches_add(s, 10), 11)) =
         theta_to_datasketches((SELECT theta_datasketches_agg(i::bigint) FROM generate_series(0, 11) i)) AS add_is_agg,
       theta_datasketches_add(s, NULL::bigint) = s AS null_value,
       theta_datasketches_add(NULL, 1::bigint) IS NULL AS null_sketch,
       theta_count(theta_datasketches_add(theta_from_datasketches(theta_to_datasketches(s)), 99)) AS added_to_import
FROM ds_built WHERE n = 10;

-- The libraries' value rules: integers hash as a long, real as a double,
-- varchar as text; empty strings are skipped; -0.0 is 0.0 and NaN one value.
SELECT theta_datasketches_agg(v::smallint) = theta_datasketches_agg(v::bigint) AS int2_is_long,
       theta_datasketches_agg(v::integer) = theta_datasketches_agg(v::bigint) AS int4_is_long,
       theta_datasketches_agg(v::real) = theta_datasketches_agg(v::double precision) AS real_is_double,
       theta_datasketches_agg(v::text) = theta_datasketches_agg(v::text::varchar) AS varchar_is_text,
       theta_to_datasketches(theta_datasketches_agg(v::text)) <> theta_to_datasketches(theta_datasketches_agg(v::bigint)) AS text_is_not_long
FROM generate_series(1, 50) v;
SELECT theta_count(theta_datasketches_agg(v)) AS skipped_empty FROM (VALUES (''), ('a'), (''), ('b')) t(v);
SELECT theta_count(theta_datasketches_agg(v)) AS negative_zero_and_nan
FROM (VALUES (0.0::float8), (-0.0::float8), ('NaN'::float8), ('NaN'::float8)) t(v);
SELECT theta_datasketches_agg(v) IS NULL AS no_rows FROM generate_series(1, 0) v;

-- Parallel aggregation (partial states combined by theta_union_trans): in
-- exact mode the serial bytes; in estimation mode, as the libraries'
-- unions, another θ, but both hold every hash of the set below their θ (so
-- neither holds one the other lacks below the smaller) and agree within
-- the error.
CREATE TABLE ds_tpar AS SELECT i::bigint AS v FROM generate_series(1, 200000) i;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT theta_datasketches_agg(v) FROM ds_tpar;
CREATE TABLE ds_tpar_result AS
  SELECT theta_datasketches_agg(v) AS s, theta_datasketches_agg(v) FILTER (WHERE v <= 7000) AS small FROM ds_tpar;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SELECT small = serial_small AS exact_same_bytes,
       theta_count(theta_diff(s, serial)) = 0 AND theta_count(theta_diff(serial, s)) = 0 AS same_hashes,
       abs(theta_count(s) - theta_count(serial)) < 3 * 200000 / sqrt(4095) AS close
FROM ds_tpar_result,
     LATERAL (SELECT theta_datasketches_agg(v) AS serial, theta_datasketches_agg(v) FILTER (WHERE v <= 7000) AS serial_small
              FROM (SELECT v FROM ds_tpar ORDER BY v) o) q;

-- Refusals.
\set VERBOSITY sqlstate
SELECT theta_union(theta_agg(1), theta_datasketches_agg(1));
SELECT theta_agg(1) & theta_datasketches_agg(1);
SELECT theta_union(h) FROM (SELECT theta_agg(1) UNION ALL SELECT theta_datasketches_agg(1)) t(h);
SELECT theta_datasketches_add(theta_agg(1), 1);
SELECT theta_datasketches_add(theta_datasketches_agg(1), 'x'::text);
SELECT theta_datasketches_agg(v::numeric) FROM generate_series(1, 2) v;
SELECT theta_datasketches_agg(v::date) FROM (VALUES ('2020-01-01'::date)) t(v);
SELECT theta_datasketches_add(theta_datasketches_agg(1), 1.5);
SELECT theta_datasketches_agg(v, 3) FROM generate_series(1, 2) v;
SELECT theta_datasketches_agg(v, 25) FROM generate_series(1, 2) v;
SELECT theta_datasketches_agg(v, NULL) FROM generate_series(1, 2) v;
SELECT theta_datasketches_agg(v, 10 + v % 2) FROM generate_series(1, 2) v;
\set VERBOSITY default
SELECT theta_datasketches_add(theta_agg(1), 1);
SELECT theta_datasketches_agg(v::numeric) FROM generate_series(1, 2) v;

DROP TABLE ds_tpar, ds_tpar_result;
