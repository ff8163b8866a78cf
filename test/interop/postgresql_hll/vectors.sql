-- The peer's own test vectors (postgresql-hll's sql/data/*.csv), loaded by
-- test/interop/postgresql_hll.sh into vec_murmur_bigint, vec_murmur_bytea,
-- vec_add (cumulative_add_*) and vec_union (cumulative_union_*).
\set ON_ERROR_STOP 1
SET client_min_messages = error;
CREATE TEMP TABLE vresult (check_name text, ok boolean, detail text);

-- MurmurHash3: one value in an EXPLICIT sketch is its hash, big-endian.
INSERT INTO vresult
SELECT 'vectors murmur_bigint (' || count(*) || ' rows)',
       count(*) FILTER (WHERE sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_add(sketch.hll_postgresql_hll_empty(11, 5, -1, 1, seed), pre_hash_long))
                               <> '\x128b7f'::bytea || int8send(post_hash_long)) = 0, NULL
FROM vec_murmur_bigint;
INSERT INTO vresult
SELECT 'vectors murmur_bytea (' || count(*) || ' rows)',
       count(*) FILTER (WHERE sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_add(sketch.hll_postgresql_hll_empty(11, 5, -1, 1, seed), pre_hash_bytes))
                               <> '\x128b7f'::bytea || int8send(post_hash_long)) = 0, NULL
FROM vec_murmur_bytea;

-- Every recorded value imports; exported, it is what the peer writes for it
-- at its default max_sparse (a union with an empty set re-encodes it there;
-- some files were recorded under hll_set_max_sparse(512)); EXPLICIT and EMPTY
-- cardinalities are exact.
INSERT INTO vresult
SELECT 'vectors ' || file || ' (' || count(*) || ' values)',
       count(*) FILTER (WHERE sketch.hll_to_postgresql_hll(sketch.hll_from_postgresql_hll(v))
                              <> hll_union(v::hll, hll_empty(11, 5, 128, 1))::text::bytea
                          OR (v LIKE '\x11%' OR v LIKE '\x12%')
                             AND sketch.hll_cardinality(sketch.hll_from_postgresql_hll(v)) <> card) = 0,
       NULL
FROM (SELECT file, multiset AS v, cardinality AS card FROM vec_add
      UNION ALL SELECT file, multiset, cardinality FROM vec_union
      UNION ALL SELECT file, union_multiset, union_cardinality FROM vec_union) t
GROUP BY file;

-- Cumulative unions: union of the previous step and the row's set, in our
-- hll_union, is the recorded next step.
INSERT INTO vresult
SELECT 'vectors ' || file || ' union steps (' || count(*) || ')',
       count(*) FILTER (WHERE sketch.hll_union(sketch.hll_from_postgresql_hll(prev), sketch.hll_from_postgresql_hll(multiset))
                              OPERATOR(sketch.<>) sketch.hll_from_postgresql_hll(union_multiset)) = 0, NULL
FROM (SELECT file, multiset, union_multiset, lag(union_multiset) OVER (PARTITION BY file ORDER BY ord) AS prev
      FROM vec_union) t
WHERE prev IS NOT NULL
GROUP BY file;

-- Cumulative adds: the recorded raw 64-bit value is already the hash; the
-- register it sets, read through our import, is what the next step holds
-- (our union of the previous step with the next one equals the next step).
INSERT INTO vresult
SELECT 'vectors ' || file || ' add steps (' || count(*) || ')',
       count(*) FILTER (WHERE sketch.hll_union(sketch.hll_from_postgresql_hll(prev), sketch.hll_from_postgresql_hll(multiset))
                              OPERATOR(sketch.<>) sketch.hll_from_postgresql_hll(multiset)) = 0, NULL
FROM (SELECT file, multiset, lag(multiset) OVER (PARTITION BY file ORDER BY ord) AS prev FROM vec_add) t
WHERE prev IS NOT NULL
GROUP BY file;

SELECT CASE WHEN ok THEN 'ok ' ELSE 'not ok ' END || check_name FROM vresult ORDER BY check_name;
