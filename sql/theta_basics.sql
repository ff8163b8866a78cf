-- theta: counts, unions, intersections, differences and Jaccard, checked
-- against the exact answers (exact below k, within the 95% bounds above).
CREATE TABLE th (g int, v int);
INSERT INTO th SELECT g, g FROM generate_series(1, 200000) g;

-- Exact while at most k = 2^lg_k distinct values were added.
SELECT theta_count(theta_agg(v)) AS n, (theta_bounds(theta_agg(v))).*, theta_info(theta_agg(v))->>'exact' AS exact
FROM th WHERE v <= 1000;
SELECT theta_count(theta_agg(v, 4)) AS n16, theta_info(theta_agg(v, 4))->>'exact' AS exact16 FROM th WHERE v <= 16;
SELECT theta_count(theta_agg(v, 4)) > 0 AS estimated, theta_info(theta_agg(v, 4))->>'exact' AS exact17 FROM th WHERE v <= 17;

-- Estimated beyond k: within 95% bounds that hold here, and the bounds
-- cover the truth.
SELECT n, lower <= 200000 AND 200000 <= upper AS covered, abs(n - 200000) < 0.06 * 200000 AS within_4_rse
FROM (SELECT theta_count(s) AS n, (theta_bounds(s)).* FROM (SELECT theta_agg(v) s FROM th) x) y;

-- Set algebra of A = 1..120000 and B = 80001..200000: |A∩B| = 40000,
-- |A \ B| = 80000, |A ∪ B| = 200000, Jaccard 0.2.
CREATE TABLE th_ab AS SELECT theta_agg(v) FILTER (WHERE v <= 120000) AS a,
                             theta_agg(v) FILTER (WHERE v > 80000) AS b FROM th;
SELECT 'union' AS op, (theta_bounds(a || b)).lower <= 200000 AND 200000 <= (theta_bounds(a || b)).upper AS covered FROM th_ab
UNION ALL
SELECT 'intersection', (theta_bounds(a & b)).lower <= 40000 AND 40000 <= (theta_bounds(a & b)).upper FROM th_ab
UNION ALL
SELECT 'difference', (theta_bounds(theta_diff(a, b))).lower <= 80000 AND 80000 <= (theta_bounds(theta_diff(a, b))).upper FROM th_ab
UNION ALL
SELECT 'jaccard', (theta_jaccard(a, b)).lower <= 0.2 AND 0.2 <= (theta_jaccard(a, b)).upper FROM th_ab;
-- The union of the two sketches is the sketch of the union, byte for byte.
SELECT (SELECT a || b FROM th_ab) = (SELECT theta_agg(v) FROM th) AS union_is_sketch_of_union;
SELECT theta_union(a, b) = a || b AS function_is_operator, theta_intersect(a, b) = a & b AS and_too FROM th_ab;

-- Exact set algebra below k.
SELECT theta_count(a & b) AS inter, theta_count(theta_diff(a, b)) AS diff, theta_count(a || b) AS uni,
       (theta_jaccard(a, b)).*
FROM (SELECT theta_agg(v) FILTER (WHERE v <= 30) a, theta_agg(v) FILTER (WHERE v > 20 AND v <= 40) b
      FROM th WHERE v <= 40) x;

-- Order and grouping do not matter: one set, one sketch.
SELECT (SELECT theta_agg(v ORDER BY v) FROM th) = (SELECT theta_agg(v ORDER BY v DESC) FROM th) AS order_free,
       (SELECT theta_union(s) FROM (SELECT theta_agg(v) s FROM th GROUP BY g % 7) p) = (SELECT theta_agg(v) FROM th) AS grouping_free;

-- The aggregates over groups: union and intersection.
SELECT theta_count(theta_intersect(s)) AS in_all_three
FROM (SELECT p, theta_agg(v) s FROM th, generate_series(2, 4) p WHERE v % p = 0 AND v <= 12000 GROUP BY p) x;
SELECT theta_intersect(s) IS NULL AS no_rows FROM (SELECT theta_empty() s) x WHERE false;
SELECT theta_count(theta_intersect(s)) AS skips_null
FROM (VALUES (theta_add(theta_add(theta_empty(), 1), 2)), (NULL), (theta_add(theta_empty(), 2))) t(s);

-- Different lg_k combine at the smaller, exactly.
SELECT (SELECT theta_agg(v, 10) FROM th WHERE v <= 50000) || (SELECT theta_agg(v, 12) FROM th WHERE v > 30000)
       = (SELECT theta_agg(v, 10) FROM th) AS smaller_k_exactly;

-- int, bigint and numeric are one kind: the same values, the same sketch.
SELECT theta_agg(v) = theta_agg(v::bigint) AS int_bigint, theta_agg(v) = theta_agg(v::numeric) AS int_numeric
FROM th WHERE v <= 5000;

-- Literals, NULLs and empty sketches.
SELECT theta_count(theta_add(theta_add(theta_empty(), 'x'), 'x')) AS one;
SELECT theta_count(NULL) AS null_count, (theta_bounds(NULL)).*, theta_add(NULL, 1) IS NULL AS null_sketch,
       theta_add(theta_empty(), NULL::int) = theta_empty() AS null_value;
SELECT theta_union(NULL::theta, theta_empty(5)) = theta_empty(5) AS null_side_ignored,
       theta_intersect(NULL::theta, theta_empty()) IS NULL AS strict_intersect;
SELECT theta_jaccard(theta_empty(), theta_empty()) IS NULL AS both_empty;
SELECT theta_agg(v) IS NULL AS no_rows FROM th WHERE false;
SELECT (theta_bounds(theta_agg(v), 0.5)).upper - (theta_bounds(theta_agg(v), 0.5)).lower
     < (theta_bounds(theta_agg(v), 0.99)).upper - (theta_bounds(theta_agg(v), 0.99)).lower AS wider_at_higher_confidence
FROM th;

-- Sizing, info, round trips, DISTINCT.
SELECT * FROM theta_sizing();
SELECT * FROM theta_sizing(16);
SELECT theta_info(theta_agg(v)) - 'theta' - 'estimate' - 'lower_95' - 'upper_95' AS info FROM th;
SELECT s::text::theta = s AS text_round_trip, s::bytea::theta = s AS bytea_round_trip FROM (SELECT theta_agg(v) s FROM th) x;
SELECT count(*) FROM (SELECT DISTINCT s FROM (SELECT theta_agg(v % 3) s FROM th GROUP BY g % 5) x) y;

-- Crafted sketches whose estimate or bounds leave bigint: θ = 1 (the least
-- valid θ) with no hashes, and θ = 2 holding the hash 1. Both pass
-- validation; their upper roots are near 3.5e19 and 2.6e19, which a cast to
-- bigint used to turn negative. Now the bounds saturate at the largest
-- bigint, never below the hashes held nor on the wrong side of theta_count.
SELECT label, theta_count(s) AS count, (theta_bounds(s)).*, (theta_bounds(s, 0.5)).upper AS upper_50,
       (theta_bounds(s)).lower <= theta_count(s) AND theta_count(s) <= (theta_bounds(s)).upper AS ordered
FROM (VALUES
  ('theta 1, empty', overlay(theta_empty()::bytea placing '\x0100000000000000' from 17)::theta),
  ('theta 2, hash 1', overlay(overlay(theta_add(theta_empty(), 1)::bytea placing '\x0200000000000000' from 17)
                              placing '\x0100000000000000' from 25)::theta)
) t(label, s);
