-- cuckoo scalar surface: sizing, building, add / add_new / delete / count,
-- membership, union, aggregates, reading.
SET extra_float_digits = 0;

-- Sizing: f = ceil(log2(2b/p)) (4..32), B = ceil(n / (b alpha)), alpha 0.80 / 0.90 / 0.93.
SELECT n, p, b, s.*
FROM (VALUES (1000000::bigint, 0.01::float8, 4), (1000000, 0.001, 4), (1000, 0.01, 2),
             (1000, 0.01, 8), (1, 0.5, 4), (10000000000, 0.01, 4), (10, 1.9e-9, 4)) AS t(n, p, b),
     LATERAL cuckoo_sizing(n, p, b) s;
SELECT * FROM cuckoo_sizing(1000, 0.01);

-- Empty filters.
SELECT cuckoo_info(cuckoo_empty(1000, 0.01));
SELECT cuckoo_empty(1, 0.5) AS smallest;
SELECT cuckoo_cardinality(cuckoo_empty(1000, 0.01)) AS card, cuckoo_fpp(cuckoo_empty(1000, 0.01)) AS fpp,
       cuckoo_contains(cuckoo_empty(1000, 0.01), 1) AS contains_1,
       cuckoo_empty(1000, 0.01) = cuckoo_empty(1000, 0.01, 4) AS default_bucket_size;

-- add (multiset), add_new (only if absent), delete, count; NULLs.
WITH f AS (SELECT cuckoo_add(cuckoo_add(cuckoo_empty(1000, 0.01), 'a'::text), 'a'::text) AS f)
SELECT cuckoo_count(f, 'a'::text) AS two_copies, cuckoo_cardinality(f) AS card,
       cuckoo_count(cuckoo_add_new(f, 'a'::text), 'a'::text) AS add_new_present,
       cuckoo_count(cuckoo_delete(f, 'a'::text), 'a'::text) AS one_deleted,
       cuckoo_contains(cuckoo_delete(cuckoo_delete(f, 'a'::text), 'a'::text), 'a'::text) AS both_deleted,
       cuckoo_delete(f, 'zzz'::text) = f AS absent_unchanged,
       cuckoo_add(f, NULL::text) = f AS null_value, cuckoo_add(NULL::cuckoo, 1) IS NULL AS null_filter,
       cuckoo_add_new(NULL::cuckoo, 1) IS NULL AS null_filter_new,
       cuckoo_delete(f, NULL::text) = f AS null_delete, cuckoo_delete(NULL::cuckoo, 1) IS NULL AS null_filter_delete,
       cuckoo_count(f, NULL::text) IS NULL AS null_count, cuckoo_count(NULL, 'a'::text) AS count_null_filter
FROM f;
SELECT cuckoo_add(cuckoo_empty(1000, 0.01), 42) = cuckoo_add_new(cuckoo_empty(1000, 0.01), 42) AS first_add_same,
       cuckoo_add(cuckoo_empty(1000, 0.01), 42) = cuckoo_agg(42, 1000, 0.01) AS add_equals_agg;

-- Membership: function, operators, literals; NULL value NULL, NULL filter false.
WITH f AS (SELECT cuckoo_add(cuckoo_add(cuckoo_empty(1000, 0.01), 'apple'::text), 'pear'::text) AS f)
SELECT cuckoo_contains(f, 'apple'::text) AS apple, f @> 'pear'::text AS pear, 'plum'::text <@ f AS plum,
       cuckoo_contains(f, 'apple') AS literal, cuckoo_contains(f, NULL::text) IS NULL AS null_value,
       cuckoo_contains(NULL, 'apple'::text) = false AS null_filter, cuckoo_count(f, 'pear') AS literal_count
FROM f;

-- Equal values of SQL are one element: integers of every width.
WITH f AS (SELECT cuckoo_agg(g::int2, 1000, 0.001) AS f FROM generate_series(1, 500) g)
SELECT bool_and(f @> g::int4) AS int4, bool_and(f @> g::int8) AS int8, bool_and(cuckoo_contains(f, g::numeric)) AS num
FROM f, generate_series(1, 500) g;

-- No false negatives; false positives near the formula at the sized load.
CREATE TEMP TABLE cf10k AS SELECT cuckoo_agg(g, 10000, 0.01) AS f FROM generate_series(1, 10000) g;
SELECT count(*) FILTER (WHERE g <= 10000 AND f @> g) AS present_of_10000,
       count(*) FILTER (WHERE g > 10000 AND f @> g) BETWEEN 0.8 * 100000 * cuckoo_fpp(f)
                                                        AND 1.2 * 100000 * cuckoo_fpp(f) AS near_formula,
       cuckoo_fpp(f) < 0.01 AS below_p, cuckoo_cardinality(f) AS card
FROM cf10k, generate_series(1, 110000) g GROUP BY f;

-- One copy per distinct value: repeated values do not grow the aggregate
-- (duplicates removed by the 128-bit hash, not by fingerprint), also when
-- one value comes a million times: one copy, the smallest filter.
SELECT cuckoo_agg(g % 100, 1000, 0.01) = cuckoo_agg(g, 1000, 0.01) FILTER (WHERE g < 100) AS repeats_ignored,
       cuckoo_cardinality(cuckoo_agg(g % 100, 1000, 0.01)) AS card
FROM generate_series(0, 99999) g;
SELECT cuckoo_cardinality(f) AS card, cuckoo_count(f, 'same'::text) AS copies,
       cuckoo_info(f)->'subfilters' AS subfilters, cuckoo_info(f)->'bytes' AS bytes
FROM (SELECT cuckoo_agg('same'::text, 1000, 0.01) AS f FROM generate_series(1, 1000000)) s;
-- Values that share a fingerprint and bucket pair keep a copy each: with
-- 4-bit fingerprints (p = 0.5) most of 100 values collide, and every one
-- is counted.
SELECT cuckoo_cardinality(cuckoo_agg(g, 100, 0.5)) AS card_of_100 FROM generate_series(1, 100) g;

-- Growth: 2b + 1 copies of one value force a second sub-filter; past n the
-- aggregate grows and keeps every member.
WITH RECURSIVE r(i, f) AS (SELECT 0, cuckoo_empty(1000, 0.01)
                           UNION ALL SELECT i + 1, cuckoo_add(f, 'same'::text) FROM r WHERE i < 9)
SELECT i AS copies, cuckoo_count(f, 'same'::text) AS count, cuckoo_info(f)->'subfilters' AS subfilters
FROM r WHERE i IN (8, 9);
WITH f AS (SELECT cuckoo_agg(g, 1000, 0.01) AS f FROM generate_series(1, 5000) g)
SELECT cuckoo_info(f) - 'fpp' - 'load' AS info, (SELECT bool_and(f @> g) FROM generate_series(1, 5000) g) AS all_present,
       round(cuckoo_fpp(f)::numeric, 4) AS fpp
FROM f;

-- Union: a multiset sum (f ∪ f holds every copy twice and answers like f),
-- filters of different n merge, a NULL side is ignored; the aggregate too.
-- Counts stay exact: 900 + 39,000 values after the union's growth.
-- (u is the union, computed once: probing cuckoo_union(a.f, b.f) inside the
-- subqueries would compute it again for each of the 40,900 probes.)
WITH a AS (SELECT cuckoo_agg(g, 1000, 0.01) AS f FROM generate_series(1, 900) g),
     b AS (SELECT cuckoo_agg(g, 50000, 0.01) AS f FROM generate_series(1001, 40000) g),
     u AS MATERIALIZED (SELECT cuckoo_union(a.f, b.f) AS f FROM a, b)
SELECT cuckoo_cardinality(cuckoo_union(a.f, a.f)) = 2 * cuckoo_cardinality(a.f) AS self_union_doubles,
       cuckoo_union(a.f, NULL) = a.f AS null_b, cuckoo_union(NULL, a.f) = a.f AS null_a,
       cuckoo_union(NULL::cuckoo, NULL) IS NULL AS both_null,
       cuckoo_info(u.f)->'subfilters' AS subfilters,
       (SELECT bool_and(u.f @> g) FROM u, generate_series(1, 900) g) AS a_members,
       (SELECT bool_and(u.f @> g) FROM u, generate_series(1001, 40000) g) AS b_members,
       cuckoo_cardinality(u.f) AS card
FROM a, b, u;
SELECT cuckoo_cardinality(cuckoo_union(f)) AS card, cuckoo_union(f) @> 7 AS has_7, cuckoo_union(f) @> 3007 AS has_3007
FROM (SELECT k, cuckoo_agg(g, 1000, 0.01) AS f FROM generate_series(1, 3000) g, LATERAL (SELECT g % 3 AS k) s GROUP BY k) t;
SELECT cuckoo_union(f) IS NULL AS no_rows FROM (SELECT NULL::cuckoo AS f WHERE false) t;

-- Deletes: 30% of the members deleted, the rest all present, in a filter
-- built by cuckoo_add (one copy per add).
CREATE TEMP TABLE cf AS SELECT cuckoo_empty(10000, 0.01) AS f;
DO $$ DECLARE i int; BEGIN
  FOR i IN 1..10000 LOOP UPDATE cf SET f = cuckoo_add(f, i); END LOOP;
  FOR i IN 1..3000 LOOP UPDATE cf SET f = cuckoo_delete(f, i * 3); END LOOP; END $$;
SELECT cuckoo_cardinality(f) AS card,
       (SELECT bool_and(f @> g) FROM generate_series(1, 10000) g WHERE g % 3 <> 0 OR g > 9000) AS rest_present
FROM cf;
-- Deletes after cuckoo_agg (issue 32): the aggregate gives every distinct
-- value its own copy, so deleting 30% of the members loses none of the
-- rest and the count is exact (format version 1's set semantics lost about
-- 0.3% of them here, values sharing a copy with a deleted one).
CREATE TEMP TABLE cfset AS SELECT f FROM cf10k;
DO $$ DECLARE i int; BEGIN
  FOR i IN 1..3000 LOOP UPDATE cfset SET f = cuckoo_delete(f, i * 3); END LOOP; END $$;
SELECT (SELECT cuckoo_cardinality(f) FROM cf10k) AS agg_card, cuckoo_cardinality(f) AS after_deletes,
       (SELECT count(*) FROM generate_series(1, 10000) g WHERE (g % 3 <> 0 OR g > 9000) AND NOT f @> g)
         AS members_lost
FROM cfset;
-- The same after a union of 16 parts (cuckoo_union aggregate) of a filter
-- sized for all, and after a union of parts sized for 1/16 each (grown
-- chains of several sizes: a delete that cannot tell which size holds the
-- value's copy removes nothing, so a few deleted values may stay
-- maybe-present, never a member lost).
CREATE TEMP TABLE cfparts AS
SELECT cuckoo_union(f) AS big, cuckoo_union(s) AS small
FROM (SELECT cuckoo_agg(g, 10000, 0.01) AS f, cuckoo_agg(g, 625, 0.01) AS s
      FROM generate_series(1, 10000) g GROUP BY g % 16) t;
CREATE FUNCTION pg_temp.del30(x cuckoo) RETURNS cuckoo LANGUAGE plpgsql AS $$
BEGIN FOR i IN 1..3000 LOOP x := cuckoo_delete(x, i * 3); END LOOP; RETURN x; END $$;
CREATE TEMP TABLE cfdel AS SELECT pg_temp.del30(big) AS big, pg_temp.del30(small) AS small FROM cfparts;
SELECT cuckoo_cardinality(p.big) AS big_card, cuckoo_cardinality(p.small) AS small_card,
       cuckoo_info(p.small)->'subfilters' AS small_subfilters,
       cuckoo_cardinality(d.big) AS big_after, cuckoo_cardinality(d.small) BETWEEN 7000 AND 7100 AS small_after,
       (SELECT count(*) FROM generate_series(1, 10000) g WHERE (g % 3 <> 0 OR g > 9000) AND NOT d.big @> g) AS big_lost,
       (SELECT count(*) FROM generate_series(1, 10000) g WHERE (g % 3 <> 0 OR g > 9000) AND NOT d.small @> g) AS small_lost
FROM cfparts p, cfdel d;

-- I/O round trips: text, binary, bytea casts; equality and hashing.
SELECT f::text::cuckoo = f AS text_round_trip, f::bytea::cuckoo = f AS bytea_round_trip,
       cuckoo_send(f) = f::bytea AS send_is_bytes, f <> cuckoo_empty(10000, 0.01) AS differs,
       length(f::bytea) = (cuckoo_info(f)->>'bytes')::int - 4 AS info_bytes
FROM cf;
SELECT count(*) AS distinct_filters FROM (SELECT cuckoo_agg(g % 3, 100, 0.01) AS f FROM generate_series(1, 9) g GROUP BY g % 3
                                          UNION SELECT cuckoo_agg(1, 100, 0.01)) t;

-- Window aggregate: the final function leaves the state as it is.
SELECT g, cuckoo_cardinality(cuckoo_agg(g, 100, 0.01) OVER (ORDER BY g)) AS running
FROM generate_series(1, 5) g;

-- A filter of 1 MiB or more (n = 1,000,000 at p = 0.001: 1.6 MB) takes the
-- deferred state: each value's buckets are prefetched and the value added
-- 16 rows later, in order. The result holds every value.
SELECT cuckoo_cardinality(f) AS held, (SELECT bool_and(f @> g) FROM generate_series(1, 100000) g) AS all_present,
       f @> 100001 AS absent_value, cuckoo_info(f)->>'subfilters' AS subfilters
FROM (SELECT cuckoo_agg(g, 1000000, 0.001) AS f FROM generate_series(1, 100000) g) s;
-- Its raw state (a user's aggregate over the transition function, no final
-- function) still has values queued: readers and cuckoo_delete add them
-- first, so the last values added are there, and can be deleted.
CREATE AGGREGATE pg_temp.raw_cuckoo(anyelement, bigint, double precision) (
  SFUNC = cuckoo_agg_trans, STYPE = cuckoo);
SELECT cuckoo_cardinality(r) AS held, r @> 99999 AS last_present,
       cuckoo_delete(r, 99999) @> 99999 AS deleted_absent,
       cuckoo_cardinality(cuckoo_delete(r, 99999)) AS held_after_delete,
       r::text = (SELECT cuckoo_agg(g, 1000000, 0.001) FROM generate_series(1, 100000) g)::text AS same_as_final
FROM (SELECT pg_temp.raw_cuckoo(g, 1000000, 0.001) AS r FROM generate_series(1, 100000) g) s;
-- Issue 29: a filter of 1 MiB or more is built through a prefetch queue in
-- front of the seen set, adding each row 16 rows later in order; its stored
-- bytes are those the build before it wrote (the md5 value was computed
-- by that build, b169d51, for the same query), with repeats near and far.
SET max_parallel_workers_per_gather = 0;
SELECT md5(f::bytea) = 'cf2fbb79d4446333493c0e763f9d8c9c' AS same_bytes, cuckoo_cardinality(f) AS held
FROM (SELECT cuckoo_agg(hashint8(g % 150000), 1000000, 0.01) AS f FROM generate_series(1, 300000) g) s;
RESET max_parallel_workers_per_gather;
