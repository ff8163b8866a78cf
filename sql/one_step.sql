-- The one-step aggregates (src/sql/one_step.sql, docs/one_step.md):
-- approx_count_distinct, approx_top_k, approx_percentile and
-- approx_percentiles answer exactly what their sketch's aggregate and
-- accessor answer on the same rows, serially, in parallel, per group and as
-- window aggregates; NULLs are skipped; no rows give 0 and NULL; bad
-- parameters are the sketch's errors.
-- t is skewed (item-1 on half the rows, item-2 on a sixth, ...), s has 5
-- values only (a topk of k >= 5 is exact, so any plan gives the same bytes).
CREATE TABLE one_step (g int, v bigint, t text, x numeric, s text);
INSERT INTO one_step
SELECT g, (g::bigint * 2654435761) % 50000, 'item-' || (200000 / g), (g % 301) / 7.0,
       'small-' || (g % 5)
FROM generate_series(1, 200000) g;
INSERT INTO one_step VALUES (0, NULL, NULL, NULL, NULL);
ANALYZE one_step;
-- Serial until the parallel section: an error then comes from the backend,
-- never from a worker (whose CONTEXT line would depend on the plan).
SET max_parallel_workers_per_gather = 0;

-- approx_count_distinct(v) is hll_cardinality(hll_agg(v)), for any type.
SELECT approx_count_distinct(v) = hll_cardinality(hll_agg(v)) AS bigint_same,
       approx_count_distinct(t) = hll_cardinality(hll_agg(t)) AS text_same,
       approx_count_distinct(x) = hll_cardinality(hll_agg(x)) AS numeric_same,
       approx_count_distinct(v) AS bigint_estimate, count(DISTINCT v) AS bigint_exact,
       approx_count_distinct(t) AS text_estimate, count(DISTINCT t) AS text_exact
FROM one_step;
-- Its error is the hll's: within 3 standard errors (3 x 0.81%) of the truth.
SELECT abs(approx_count_distinct(v) - count(DISTINCT v)) <= 0.0243 * count(DISTINCT v) AS within_bound
FROM one_step;
-- No rows, only NULLs: 0, as count(DISTINCT v).
SELECT approx_count_distinct(v) AS no_rows FROM one_step WHERE false;
SELECT approx_count_distinct(v) AS only_nulls FROM one_step WHERE v IS NULL;
-- A quoted literal is hashed as text, as hll_agg hashes it.
SELECT approx_count_distinct('a'::text) AS one_literal;
-- Declared types have twins (as hll_agg has), which distributed engines split.
SELECT pg_get_function_identity_arguments(p.oid) AS twins
FROM pg_proc p WHERE p.proname = 'approx_count_distinct' ORDER BY 1;

-- approx_top_k(v, k) is topk_items(topk_agg(v, k)) as an array, best first.
SELECT (SELECT array_agg(ROW(item, estimate, lower_bound, upper_bound)::approx_top_k_item)
        FROM topk_items((SELECT topk_agg(t, 8) FROM one_step)))
       = (SELECT approx_top_k(t, 8) FROM one_step) AS same_as_topk_items;
SELECT i.* FROM unnest((SELECT approx_top_k(t, 4) FROM one_step)) i;
-- Items are given back as text, whatever the type.
SELECT (approx_top_k(v % 3, 3))[1].value AS top_value,
       pg_typeof((approx_top_k(v % 3, 3))[1].value) AS value_type
FROM one_step;
-- On data without heavy hitters the summary may hold nothing: an empty
-- array, as topk_items gives no rows (every bound is then within N/(k+1)).
SELECT approx_top_k(s, 2) AS uniform_k2 FROM one_step;
-- No rows: NULL, as array_agg; k out of range: topk's error.
SELECT approx_top_k(t, 4) IS NULL AS no_rows_is_null FROM one_step WHERE false;
SELECT approx_top_k(t, 0) FROM one_step;
SELECT approx_top_k(t, 65537) FROM one_step;
-- k must be the same on every row, as in topk_agg.
SELECT approx_top_k(t, (g % 2) + 1) FROM one_step;

-- approx_percentile(v, q) is ddsketch_quantile(ddsketch_agg(v), q), and
-- approx_percentiles(v, qs) ddsketch_quantiles(ddsketch_agg(v), qs).
SELECT approx_percentile(x, 0.5) = ddsketch_quantile(ddsketch_agg(x), 0.5) AS median_same,
       approx_percentile(v, 0.99) = ddsketch_quantile(ddsketch_agg(v), 0.99) AS p99_same,
       approx_percentiles(x, ARRAY[0.99, 0, 0.5, 1]) = ddsketch_quantiles(ddsketch_agg(x), ARRAY[0.99, 0, 0.5, 1])
         AS array_same,
       approx_percentiles(x, ARRAY[0.99, 0, 0.5, 1]) AS in_order_asked
FROM one_step;
-- Within the relative accuracy (0.0054) of percentile_disc's answer; the
-- ends are the exact min and max.
SELECT abs(approx_percentile(v, 0.9) / percentile_disc(0.9) WITHIN GROUP (ORDER BY v) - 1) <= 0.0054
         AS p90_within,
       approx_percentile(v, 0) = min(v) AS q0_is_min, approx_percentile(v, 1) = max(v) AS q1_is_max
FROM one_step;
-- Integer and numeric columns are read as double precision.
SELECT pg_get_function_identity_arguments(p.oid) AS percentile_signatures
FROM pg_proc p WHERE p.proname IN ('approx_percentile', 'approx_percentiles') ORDER BY 1;
-- No rows, only NULLs: NULL.
SELECT approx_percentile(v, 0.5) AS no_rows, approx_percentiles(v, ARRAY[0.5]) AS no_rows_array
FROM one_step WHERE false;
SELECT approx_percentile(v, 0.5) AS only_nulls FROM one_step WHERE v IS NULL;
-- q is checked as ddsketch_quantile checks it, on every row, and must be
-- the same on every row of a group (it is the question, kept in the state).
SELECT approx_percentile(v, 1.5) FROM one_step;
SELECT approx_percentile(v, 'NaN') FROM one_step;
SELECT approx_percentile(v, NULL) FROM one_step;
SELECT approx_percentile(v, (g % 2) / 2.0) FROM one_step;
SELECT approx_percentiles(v, ARRAY[0.5, NULL]) FROM one_step;
SELECT approx_percentiles(v, ARRAY[]::float8[]) FROM one_step;
SELECT approx_percentiles(v, ARRAY[[0.5], [0.9]]) FROM one_step;
SELECT approx_percentiles(v, ARRAY[0.5, (g % 2) / 2.0]) FROM one_step;
SELECT approx_percentile('Infinity'::float8, 0.5);
-- -0 asks what 0 asks.
SELECT approx_percentile(g, CASE WHEN g % 2 = 0 THEN '-0'::float8 ELSE 0 END) AS minus_zero
FROM generate_series(1, 10) g;
-- The state is a type of its own: a ddsketch followed by the fractions
-- asked; its input is validated (a tail that is not a request, a fraction
-- out of range are refused), and two states asking different fractions do
-- not merge (22023).
SELECT ddsketch_approx_percentile_final(
         ddsketch_approx_percentile_trans(NULL, 42, 0.5)::text::approx_percentile_state) AS round_trip;
SELECT length(ddsketch_approx_percentiles_trans(NULL, 1, ARRAY[0.25, 0.75])::text) AS text_length;
SELECT '\x00'::approx_percentile_state;
SELECT (ddsketch_agg(1)::text || '000000000000f03f01000151')::approx_percentile_state
         IS NOT NULL AS one_fraction_ok;
SELECT (ddsketch_agg(1)::text || '000000000000f83f01000151')::approx_percentile_state;
SELECT (ddsketch_agg(1)::text || '000000000000f03f01000251')::approx_percentile_state;
SELECT ddsketch_approx_percentile_combine(ddsketch_approx_percentile_trans(NULL, 1, 0.5),
                                          ddsketch_approx_percentile_trans(NULL, 2, 0.9));
SELECT ddsketch_approx_percentile_final(ddsketch_approx_percentiles_trans(NULL, 1, ARRAY[0.5, 0.9]));
SELECT ddsketch_approx_percentiles_final(ddsketch_approx_percentile_combine(
         ddsketch_approx_percentile_trans(NULL, 1, 0.5),
         ddsketch_approx_percentile_trans(NULL, 2, 0.5))) AS combined;

-- Per group and as a window aggregate.
SELECT g % 3 AS grp, approx_count_distinct(t) AS distinct_items,
       (approx_top_k(t, 2))[1].value AS top_item, approx_percentile(g, 0.5) AS median_g
FROM one_step WHERE g > 0 GROUP BY 1 ORDER BY 1;
SELECT g, approx_count_distinct(v) OVER (ORDER BY g ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS w,
       approx_percentiles(g, ARRAY[0, 1]) OVER (ORDER BY g ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS w_ends
FROM one_step WHERE g BETWEEN 1 AND 4 ORDER BY g;

-- Parallel: Finalize <- Gather <- Partial, and the same answers as serial.
ALTER TABLE one_step SET (parallel_workers = 2);
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT approx_count_distinct(v), approx_top_k(s, 8), approx_percentile(x, 0.5),
  approx_percentiles(v, ARRAY[0.1, 0.9]) FROM one_step;
SELECT approx_count_distinct(v) AS p_distinct, approx_top_k(s, 8)::text AS p_top,
       approx_percentile(x, 0.5) AS p_median, approx_percentiles(v, ARRAY[0.1, 0.9])::text AS p_deciles
FROM one_step \gset
RESET max_parallel_workers_per_gather;
SET max_parallel_workers_per_gather = 0;
SELECT approx_count_distinct(v) = :p_distinct AS parallel_distinct_same,
       approx_top_k(s, 8)::text = :'p_top' AS parallel_top_same,
       approx_percentile(x, 0.5) = :p_median AS parallel_median_same,
       approx_percentiles(v, ARRAY[0.1, 0.9])::text = :'p_deciles' AS parallel_deciles_same,
       approx_top_k(s, 8) AS serial_top
FROM one_step;
RESET ALL;
DROP TABLE one_step;
