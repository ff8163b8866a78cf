-- counting_bloom: sizing, add, delete, membership, union, aggregates, the
-- conversion to bloom, readers, equality and NULL handling.

-- Sizing is bloom's: the same m (cells) and k, four bits a cell.
SELECT * FROM counting_bloom_sizing(1000000, 0.01);
SELECT c.cells = b.bits AS same_m, c.hashes = b.hashes AS same_k, c.bytes, b.bytes AS bloom_bytes
FROM counting_bloom_sizing(1000, 0.01) c, bloom_sizing(1000, 0.01) b;
SELECT * FROM counting_bloom_sizing(300000000, 0.01);  -- too large to build, still answered

-- The stored format: header (kind 7), m, then 4-bit counters, low nibble first.
SELECT counting_bloom_empty(1, 0.5) AS empty_8_cells;
SELECT counting_bloom_add(counting_bloom_empty(1, 0.5), 'x'::text) AS one_value;
SELECT counting_bloom_add(counting_bloom_add(counting_bloom_empty(1, 0.5), 'x'::text), 'x'::text)
  AS twice;

-- Membership, add and delete.
CREATE TEMP TABLE cb AS
SELECT counting_bloom_add(counting_bloom_add(counting_bloom_add(
         counting_bloom_empty(100, 0.01), 'apple'::text), 'pear'::text), 'plum'::text) AS f;
SELECT f @> 'apple'::text AS apple, f @> 'pear'::text AS pear, 'plum'::text <@ f AS plum,
       counting_bloom_contains(f, 'kiwi'::text) AS kiwi FROM cb;
SELECT counting_bloom_contains(counting_bloom_delete(f, 'pear'::text), 'pear'::text) AS pear_after_delete,
       counting_bloom_contains(counting_bloom_delete(f, 'pear'::text), 'apple'::text) AS apple_stays,
       counting_bloom_contains(counting_bloom_delete(f, 'pear'::text), 'plum'::text) AS plum_stays
FROM cb;
-- Deleting what was added gives back the filter of the rest, byte for byte.
SELECT counting_bloom_delete(f, 'pear'::text)
       = counting_bloom_add(counting_bloom_add(counting_bloom_empty(100, 0.01), 'plum'::text), 'apple'::text)
       AS delete_undoes_add FROM cb;
-- A value added twice needs two deletes.
SELECT counting_bloom_contains(counting_bloom_delete(counting_bloom_add(f, 'pear'::text), 'pear'::text),
                               'pear'::text) AS still_there_once,
       counting_bloom_contains(counting_bloom_delete(counting_bloom_delete(counting_bloom_add(f, 'pear'::text),
                               'pear'::text), 'pear'::text), 'pear'::text) AS gone_after_two
FROM cb;
-- Deleting a value that is certainly absent (a counter at 0) changes nothing.
SELECT counting_bloom_delete(f, 'kiwi'::text) = f AS absent_delete_is_noop FROM cb;
-- int and bigint of equal value are the same element.
SELECT counting_bloom_contains(counting_bloom_add(counting_bloom_empty(100, 0.01), 42), 42::bigint) AS int_bigint,
       counting_bloom_delete(counting_bloom_add(counting_bloom_empty(100, 0.01), 42::bigint), 42::smallint)
         = counting_bloom_delete(counting_bloom_add(counting_bloom_empty(100, 0.01), 7), 7) AS same_after_delete;

-- NULLs: a NULL value changes nothing / answers NULL; a NULL filter is empty to readers.
SELECT counting_bloom_add(f, NULL::text) = f AS add_null, counting_bloom_delete(f, NULL::text) = f AS delete_null,
       counting_bloom_add(NULL::counting_bloom, 'x'::text) IS NULL AS add_to_null,
       counting_bloom_delete(NULL::counting_bloom, 'x'::text) IS NULL AS delete_from_null,
       counting_bloom_contains(f, NULL::text) IS NULL AS contains_null,
       counting_bloom_contains(NULL::counting_bloom, 'x'::text) AS null_filter_contains,
       counting_bloom_cardinality(NULL) AS null_cardinality, counting_bloom_fpp(NULL) AS null_fpp
FROM cb;

-- Aggregates: each row counts once, so duplicates count twice.
CREATE TEMP TABLE items AS SELECT g, g % 700 AS v FROM generate_series(1, 2100) g;
SELECT counting_bloom_info(counting_bloom_agg(v, 700, 0.01)) FROM items;
SELECT (SELECT counting_bloom_agg(v, 700, 0.01) FROM items) = counting_bloom_union(a, counting_bloom_union(a, a))
       AS three_copies
FROM (SELECT counting_bloom_agg(g, 700, 0.01) AS a FROM generate_series(0, 699) g) s;
SELECT counting_bloom_agg(v, 100, 0.01) IS NULL AS no_rows FROM items WHERE false;
SELECT counting_bloom_agg(NULL::int, 100, 0.01) IS NULL AS only_nulls;
-- The union is the counter-wise sum: union of parts = aggregate of all rows.
SELECT counting_bloom_union(f) = (SELECT counting_bloom_agg(v, 700, 0.01) FROM items) AS union_of_parts
FROM (SELECT g % 7 AS k, counting_bloom_agg(v, 700, 0.01) AS f FROM items GROUP BY 1) s;
SELECT counting_bloom_union(NULL::counting_bloom, counting_bloom_empty(10, 0.1)) = counting_bloom_empty(10, 0.1)
       AS null_side_ignored,
       counting_bloom_union(NULL::counting_bloom, NULL) IS NULL AS both_null;
-- Window aggregate: a running filter.
SELECT g, counting_bloom_cardinality(counting_bloom_agg(g, 100, 0.01) OVER (ORDER BY g)) AS running
FROM generate_series(1, 5) g;

-- The non-zero counters are the bloom filter of the members.
SELECT counting_bloom_to_bloom(counting_bloom_agg(v, 700, 0.01)) = bloom_agg(v, 700, 0.01) AS equals_bloom_agg
FROM items;
SELECT count(*) FILTER (WHERE counting_bloom_contains(c, x) <> bloom_contains(b, x)) AS disagreements
FROM (SELECT counting_bloom_agg(v, 700, 0.01) AS c, counting_bloom_to_bloom(counting_bloom_agg(v, 700, 0.01)) AS b
      FROM items) s, generate_series(-5000, 5000) x;
-- After deletes, the filter (and the bloom filter) of what remains.
CREATE FUNCTION pg_temp.delete_range(f counting_bloom, lo int, hi int) RETURNS counting_bloom
LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN lo..hi LOOP f := counting_bloom_delete(f, i); END LOOP;
  RETURN f;
END $$;
SELECT pg_temp.delete_range(f, 1, 300) = (SELECT counting_bloom_agg(g, 1000, 0.01) FROM generate_series(301, 1000) g)
         AS filter_of_the_rest,
       counting_bloom_to_bloom(pg_temp.delete_range(f, 1, 300))
         = (SELECT bloom_agg(g, 1000, 0.01) FROM generate_series(301, 1000) g) AS bloom_of_the_rest
FROM (SELECT counting_bloom_agg(g, 1000, 0.01) AS f FROM generate_series(1, 1000) g) a;

-- Readers.
SELECT counting_bloom_cardinality(counting_bloom_agg(g, 10000, 0.01)) BETWEEN 9700 AND 10300 AS cardinality_close,
       round(counting_bloom_fpp(counting_bloom_agg(g, 10000, 0.01))::numeric, 3) AS fpp_at_capacity
FROM generate_series(1, 10000) g;
SELECT counting_bloom_cardinality(counting_bloom_empty(10, 0.1)) AS empty_cardinality,
       counting_bloom_fpp(counting_bloom_empty(10, 0.1)) AS empty_fpp;

-- Text round trip, bytea casts, = and hashing.
SELECT f::text::counting_bloom = f AS text_round_trip, f::bytea::counting_bloom = f AS bytea_round_trip,
       f <> counting_bloom_empty(100, 0.01) AS differs, counting_bloom_hash(f) = counting_bloom_hash(f::text::counting_bloom) AS hash_stable
FROM cb;
-- The three groups and the filter of 1..30 each hold every digit three
-- times: one filter, whatever the order; the empty one is another. GROUP BY
-- uses the hash operator class.
SELECT count(*) AS groups FROM (
  SELECT f FROM (
    SELECT counting_bloom_agg(g % 10, 10, 0.1) AS f FROM generate_series(1, 90) g GROUP BY g % 3
    UNION ALL SELECT counting_bloom_agg(g % 10, 10, 0.1) FROM generate_series(1, 30) g
    UNION ALL SELECT counting_bloom_empty(10, 0.1)) s
  GROUP BY f) t;

-- Saturation: a counter stops at 15 and is never decremented again.
SELECT counting_bloom_info(f) ->> 'saturated_cells' AS saturated,
       counting_bloom_contains(f, 'x'::text) AS present,
       counting_bloom_info(f) ->> 'counter_sum' AS counter_sum
FROM (SELECT counting_bloom_agg('x'::text, 1, 0.5) AS f FROM generate_series(1, 20)) s;
CREATE FUNCTION pg_temp.delete_times(f counting_bloom, v text, times int) RETURNS counting_bloom
LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..times LOOP f := counting_bloom_delete(f, v); END LOOP;
  RETURN f;
END $$;
SELECT counting_bloom_contains(d, 'x'::text) AS still_present_after_30_deletes,
       counting_bloom_info(d) ->> 'counter_sum' AS counter_sum_after
FROM (SELECT pg_temp.delete_times(counting_bloom_agg('x'::text, 1, 0.5), 'x', 30) AS d
      FROM generate_series(1, 20)) s;

-- Probing a stored (TOASTed) filter many times reads the plain bits of its
-- non-zero cells, built once per query: the same answers as the counters
-- (and as counting_bloom_to_bloom's filter), deletes included.
CREATE TEMP TABLE cb_probe AS
SELECT counting_bloom_delete(counting_bloom_delete(counting_bloom_agg(g, 100000, 0.01), 7), 11) AS f
FROM generate_series(1, 50000) g;
CREATE TEMP TABLE cb_bits AS SELECT counting_bloom_to_bloom(f) AS b FROM cb_probe;
SELECT count(*) FILTER (WHERE (SELECT f FROM cb_probe) @> g AND g <= 50000) AS members_found,
       count(*) FILTER (WHERE (SELECT f FROM cb_probe) @> g AND g > 50000) AS false_positives,
       count(*) FILTER (WHERE ((SELECT f FROM cb_probe) @> g) <> ((SELECT b FROM cb_bits) @> g)) AS disagree_with_to_bloom,
       bool_or((SELECT f FROM cb_probe) @> g) FILTER (WHERE g IN (7, 11)) AS deleted_found
FROM generate_series(1, 100000) g;
