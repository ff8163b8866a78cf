-- ell: ExaLogLog distinct counting, the same surface as hll.
CREATE FUNCTION pg_temp.attempt(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- Empty and NULL sketches: 0 distinct; aggregates over no rows give NULL.
SELECT ell_info(ell_empty());
SELECT ell_cardinality(ell_empty()) AS empty, ell_cardinality(NULL) AS null_sketch,
       ell_cardinality_bounds(NULL) AS null_bounds, ell_cardinality_bounds(ell_empty(4)) AS empty_bounds;
SELECT ell_agg(g) IS NULL AS no_rows FROM generate_series(1, 0) g;
SELECT ell_agg(NULL::int) IS NULL AS only_nulls FROM generate_series(1, 3);
SELECT ell_union(s) IS NULL AS union_no_rows FROM (SELECT ell_empty() WHERE false) t(s);
SELECT * FROM ell_sizing();
SELECT p, registers, bytes, round(standard_error::numeric, 5) AS err
FROM generate_series(4, 18, 7) p, LATERAL ell_sizing(p);

-- Small sets are exact (sparse tokens) up to 7m/8 of them, then dense.
SELECT count(*) AS sizes, count(*) FILTER (WHERE est <> n AND rep = 'sparse') AS inexact_sparse,
       count(*) FILTER (WHERE abs(est - n) > 0.05 * n) AS off_by_5_percent,
       count(*) FILTER (WHERE rep <> CASE WHEN n <= 1792 THEN 'sparse' ELSE 'dense' END) AS wrong_form
FROM (SELECT n, ell_cardinality(s) AS est, ell_info(s)->>'representation' AS rep
      FROM generate_series(1, 1792, 97) n
           CROSS JOIN LATERAL (SELECT ell_agg(g) AS s FROM generate_series(1, n) g) a
      UNION ALL
      SELECT n, ell_cardinality(s), ell_info(s)->>'representation'
      FROM (VALUES (1792), (1793)) v(n)
           CROSS JOIN LATERAL (SELECT ell_agg(g) AS s FROM generate_series(1, n) g) a) t;

-- Dense: within 4 standard errors (0.362/sqrt(m)) at p = 8, 11 and 14, and
-- the bounds hold the truth.
SELECT p, abs(ell_cardinality(s) - 200000) / 200000.0 < 4 * 0.362 / sqrt(2 ^ p) AS within_4_sigma,
       (ell_cardinality_bounds(s, 0.9999)).lower <= 200000
         AND (ell_cardinality_bounds(s, 0.9999)).upper >= 200000 AS bounds_hold,
       ell_info(s)->>'estimator' AS estimator, ell_info(s)->'unmerged' AS unmerged
FROM (SELECT p, ell_agg(g, p) AS s FROM generate_series(1, 200000) g, (VALUES (8), (11), (14)) v(p)
      GROUP BY p) t ORDER BY p;

-- Element hashing and kinds are hll's: equal numbers hash equally, text
-- is another kind, and mixing kinds is an error.
SELECT (SELECT ell_agg(g::int) FROM generate_series(1, 3000) g)
     = (SELECT ell_agg(g::numeric) FROM generate_series(1, 3000) g) AS int_is_numeric;
SELECT ell_info(ell_agg(g::text))->>'element_kind' AS kind FROM generate_series(1, 3) g;
SELECT pg_temp.attempt($q$SELECT ell_agg(g::text) || ell_agg(g) FROM generate_series(1, 3) g$q$) AS union_kinds;
SELECT pg_temp.attempt($q$SELECT ell_add(ell_agg(g), 'x'::text) FROM generate_series(1, 3) g$q$) AS add_kind;
SELECT pg_temp.attempt($q$SELECT ell_union(s) FROM (SELECT ell_agg(g::text) FROM generate_series(1, 3) g
                          UNION ALL SELECT ell_agg(g) FROM generate_series(1, 3) g) t(s)$q$) AS union_agg_kinds;
SELECT ell_cardinality(ell_add(ell_empty(), 'a literal')) AS literal;

-- Parameters: each error with its SQLSTATE.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('p 3',              $q$SELECT ell_empty(3)$q$),
  ('p 19',             $q$SELECT ell_agg(1, 19)$q$),
  ('p NULL',           $q$SELECT ell_agg(1, NULL)$q$),
  ('p changes',        $q$SELECT ell_agg(g, 10 + g % 2) FROM generate_series(1, 4) g$q$),
  ('confidence 1',     $q$SELECT ell_cardinality_bounds(ell_empty(), 1)$q$),
  ('typmod 2 args',    $q$SELECT NULL::ell(10, 2)$q$),
  ('typmod 20',        $q$SELECT NULL::ell(20)$q$),
  ('typmod raise',     $q$SELECT ell_empty(8)::ell(10)$q$),
  ('sizing 30',        $q$SELECT ell_sizing(30)$q$),
  ('bad magic',        $q$SELECT '\x00000a01010a01ff0100000000000000'::ell$q$),
  ('hll bytes',        $q$SELECT '\x534b0101010a01000000000000000000'::ell$q$),
  ('unknown hash',     $q$SELECT '\x534b0a01020a01ff0100000000000000'::ell$q$),
  ('precision 19',     $q$SELECT '\x534b0a0101130100010000000000000000'::ell$q$),
  ('working set',      $q$SELECT '\x534b0a01010a03ff0100000000000000'::ell$q$),
  ('unknown flag',     $q$SELECT '\x534b0a01010a01ff0300000000000000'::ell$q$),
  ('truncated',        $q$SELECT '\x534b0a01010a01ff01000000010000'::ell$q$),
  ('bad bytea',        $q$SELECT '\x534b0a01010a01ff01000000'::bytea::ell$q$)
) AS t(label, query);

-- Text, binary and bytea round trips.
SELECT ell_empty(10)::text AS empty_p10, ell_add(ell_empty(10), 1)::text AS one_value;
SELECT s::text::ell = s AS text_same, s::bytea::ell = s AS bytea_same,
       length(s::bytea) = (ell_info(s)->>'bytes')::int - 4 AS bytes_same
FROM (SELECT ell_agg(g) AS s FROM generate_series(1, 5000) g) t;

-- ell -> hll: the registers a one-pass hll_agg of the same rows builds, at
-- every p and size. The cast is dense; hll_agg is sparse for small sets, so
-- it is compared densified (united with an empty dense hll, exact), and byte
-- for byte wherever hll_agg is dense itself.
SELECT p, n, e::hll = (h || ell_empty(p)::hll) AS same_registers,
       CASE WHEN hll_info(h)->>'representation' = 'dense' THEN e::hll = h END AS same_bytes,
       hll_cardinality(e::hll) = hll_cardinality(h || ell_empty(p)::hll) AS same_estimate,
       (e::hll)::text::hll = e::hll AS valid_hll
FROM (VALUES (4), (8), (11), (14), (18)) ps(p), (VALUES (1), (10), (1000), (100000)) ns(n),
     LATERAL (SELECT ell_agg(g, p) AS e, hll_agg(g, p) AS h FROM generate_series(1, n) g) a
ORDER BY p, n;
-- Text values and the element kind: old hll rollups and new ell rollups merge as hll.
WITH old AS (SELECT hll_agg('user-' || g, 12) AS h FROM generate_series(1, 30000) g),
     new AS (SELECT ell_agg('user-' || g, 12) AS e FROM generate_series(20001, 60000) g),
     truth AS (SELECT hll_agg('user-' || g, 12) AS h FROM generate_series(1, 60000) g)
SELECT (old.h || new.e::hll) = truth.h AS merged_is_one_pass,
       hll_info(new.e::hll)->>'element_kind' AS kind
FROM old, new, truth;
SELECT pg_temp.attempt($q$SELECT hll_agg(g::text) || ell_agg(g)::hll FROM generate_series(1, 3) g$q$) AS hll_kinds;

-- Unions: the same set gives the same bytes in any order and grouping, as
-- the aggregate, the function and ||, and equals ell_agg of all the rows.
CREATE TEMP TABLE rws AS SELECT g, (g * 2654435761::bigint) % 1000003 AS v FROM generate_series(1, 60000) g;
CREATE TEMP TABLE parts AS SELECT g % 7 AS part, ell_agg(v) AS s, ell_agg(v, 13) AS s13 FROM rws GROUP BY 1;
SELECT (SELECT ell_union(s ORDER BY part) FROM parts) = (SELECT ell_union(s ORDER BY part DESC) FROM parts) AS order_free,
       (SELECT ell_union(s ORDER BY part) FROM parts) = (SELECT ell_agg(v) FROM rws) AS union_is_agg,
       (SELECT ell_union(s ORDER BY part) FROM parts)
         = (SELECT ell_union(u) FROM (SELECT ell_union(s) AS u FROM parts GROUP BY part % 3) t) AS grouping_free;
SELECT a.s || b.s = ell_union(b.s, a.s) AS commutes, (a.s || a.s) = ell_union(a.s, NULL) AS idempotent
FROM parts a, parts b WHERE a.part = 1 AND b.part = 2;
-- Across precisions: folded to the smallest, in any order.
SELECT (SELECT ell_union(x ORDER BY part) FROM (SELECT part, CASE WHEN part % 2 = 0 THEN s ELSE s13 END FROM parts) t(part, x))
     = (SELECT ell_union(x ORDER BY part DESC) FROM (SELECT part, CASE WHEN part % 2 = 0 THEN s ELSE s13 END FROM parts) t(part, x)) AS fold_order_free,
       ell_info((SELECT ell_union(s13) || ell_empty(9) FROM parts))->>'precision' AS folded_p;
-- Small sets fold exactly: an ell(10) column holds what ell_agg(v, 10) builds.
CREATE TEMP TABLE typed (s ell(10));
INSERT INTO typed SELECT ell_agg(g, 14) FROM generate_series(1, 500) g;
SELECT s = (SELECT ell_agg(g, 10) FROM generate_series(1, 500) g) AS exact_fold, format_type(atttypid, atttypmod)
FROM typed, pg_attribute WHERE attrelid = 'typed'::regclass AND attname = 's';

-- Streams: ell_add from ell_empty keeps the sketch unmerged, whose dense
-- estimate is the martingale one; any merge drops it. ell_agg's result is
-- merged (the same bytes in any plan) and has the registers of the stream.
CREATE FUNCTION pg_temp.stream(p int, n int) RETURNS ell LANGUAGE plpgsql AS $$
DECLARE s ell := ell_empty(p);
BEGIN
  FOR i IN 1 .. n LOOP s := ell_add(s, i); END LOOP;
  RETURN s;
END $$;
SELECT ell_info(s)->>'estimator' AS estimator, ell_info(s)->'unmerged' AS unmerged,
       abs(ell_cardinality(s) - 20000) / 20000.0 < 4 * 0.326 / sqrt(256) AS within_4_sigma,
       ell_info(s)->'martingale_estimate' = ell_info(s)->'estimate' AS answers_martingale,
       ell_info(s || ell_add(ell_empty(8), 1))->>'estimator' AS merged_estimator,
       (s || ell_add(ell_empty(8), 1)) = (SELECT ell_agg(g, 8) FROM generate_series(1, 20000) g) AS registers_of_agg,
       ell_union(s, ell_empty(8)) = s AS empty_keeps_it
FROM (SELECT pg_temp.stream(8, 20000) AS s) t;
SELECT ell_info(ell_agg(g))->'unmerged' AS agg_unmerged FROM generate_series(1, 10) g;

-- = and the hash operator class.
SET enable_sort = off;
SELECT count(*) AS distinct_sketches
FROM (SELECT DISTINCT s FROM (SELECT ell_agg(g % (1 + g % 2)) AS s FROM generate_series(1, 30) g GROUP BY g % 4) t) d;
RESET enable_sort;
SELECT ell_empty(10) = ell_empty(10) AS eq, ell_empty(10) <> ell_empty(11) AS ne;
