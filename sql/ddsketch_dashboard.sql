-- ddsketch readers for dashboards (ranks, cdf, pmf, trimmed mean) and
-- weighted input (ddsketch_agg(value, count), ddsketch_add(s, value, count)).
SET extra_float_digits = 0;

CREATE TEMP TABLE ints AS SELECT g::float8 AS v FROM generate_series(1, 1000) g;
CREATE TEMP TABLE sk AS SELECT ddsketch_agg(v) AS s FROM ints;
-- alpha of the default scale 6: 0.0054151594159025694
SELECT ddsketch_relative_accuracy(s) AS alpha FROM sk;

-- ddsketch_ranks is ddsketch_rank for every value, in order, NULL kept.
SELECT ddsketch_ranks(s, '{500, 1, 1000, 0.5, 2000, NULL, 250.5, -3}') AS ranks FROM sk;
SELECT ddsketch_ranks(s, '{500, 1, 1000, 0.5, 2000, NULL, 250.5, -3}')
       = ARRAY[ddsketch_rank(s, 500), ddsketch_rank(s, 1), ddsketch_rank(s, 1000),
               ddsketch_rank(s, 0.5), ddsketch_rank(s, 2000), NULL, ddsketch_rank(s, 250.5),
               ddsketch_rank(s, -3)] AS same_as_rank FROM sk;
-- Unsorted input, repeats, every x between the integers: each answer is
-- the one ddsketch_rank gives; the lower bound of the array is kept.
WITH xs AS (SELECT array_agg(((g * 7919) % 2003) / 2.0 ORDER BY g) AS xs FROM generate_series(1, 2003) g)
SELECT count(*) AS n, bool_and(r = ddsketch_rank(s, x)) AS all_same
FROM sk, xs, unnest(xs, ddsketch_ranks(s, xs)) AS u(x, r);
SELECT ddsketch_ranks(s, '[0:2]={3, 2, 1}') AS keeps_bounds,
       array_lower(ddsketch_ranks(s, '[0:2]={3, 2, 1}'), 1) AS lower FROM sk;

-- The rank rule: a bucket counts as <= x when its representative is, so a
-- rank is the exact fraction of values <= some x' with x/(1+alpha) < x' <=
-- x/(1-alpha): between the exact fractions at those two points.
WITH a AS (SELECT ddsketch_relative_accuracy(s) AS a FROM sk),
     xs AS (SELECT unnest('{1, 1.5, 10.5, 50, 99.5, 100, 250, 333.3, 500, 777.7, 999, 999.5, 1000}'::float8[]) AS x)
SELECT x, ddsketch_rank(s, x) AS rank,
       (SELECT count(*) FILTER (WHERE v <= x) FROM ints) / 1000.0 AS exact,
       (SELECT count(*) FILTER (WHERE v <= x / (1 + a)) FROM ints) / 1000.0 <= ddsketch_rank(s, x)
       AND ddsketch_rank(s, x) <= (SELECT count(*) FILTER (WHERE v <= x / (1 - a)) FROM ints) / 1000.0
         AS within
FROM sk, a, xs ORDER BY x;

-- ddsketch_cdf: m + 1 cumulative fractions, ranks of the splits then 1.
SELECT ddsketch_cdf(s, '{100, 300, 500, 900}') AS cdf FROM sk;
SELECT ddsketch_cdf(s, '{100, 300, 500, 900}')
       = ddsketch_ranks(s, '{100, 300, 500, 900}') || 1.0::float8 AS ranks_then_1 FROM sk;
WITH a AS (SELECT ddsketch_relative_accuracy(s) AS a FROM sk),
     sp AS (SELECT '{7.5, 42, 128, 256.5, 511, 640, 1023}'::float8[] AS sp)
SELECT k, c AS cdf,
       (SELECT count(*) FILTER (WHERE v <= sp[k]) FROM ints) / 1000.0 AS exact,
       (SELECT count(*) FILTER (WHERE v <= sp[k] / (1 + a)) FROM ints) / 1000.0 <= c
       AND c <= (SELECT count(*) FILTER (WHERE v <= sp[k] / (1 - a)) FROM ints) / 1000.0 AS within
FROM sk, a, sp, unnest(ddsketch_cdf(s, sp)) WITH ORDINALITY AS u(c, k)
WHERE k <= cardinality(sp) ORDER BY k;
SELECT ddsketch_cdf(s, '{}') AS no_splits, ddsketch_cdf(s, '{-5}') AS below_min,
       ddsketch_cdf(s, '{1000}') AS at_max FROM sk;

-- ddsketch_pmf: m + 1 masses of integer counts, adding up to 1, the
-- differences of the cdf.
SELECT ddsketch_pmf(s, '{100, 300, 500, 900}') AS pmf FROM sk;
WITH sp AS (SELECT '{0.5, 3, 17, 64, 64.5, 200, 999.9, 5000}'::float8[] AS sp),
     p AS (SELECT ddsketch_pmf(s, sp) AS p, ddsketch_cdf(s, sp) AS c FROM sk, sp)
SELECT cardinality(p) AS masses, abs((SELECT sum(x) FROM unnest(p) x) - 1) < 1e-12 AS sums_to_1,
       (SELECT bool_and(x >= 0) FROM unnest(p) x) AS nonnegative,
       (SELECT bool_and(abs(p[k] - (c[k] - coalesce(c[k - 1], 0))) < 1e-12)
        FROM generate_subscripts(p, 1) k) AS differences_of_cdf
FROM p;
SELECT ddsketch_pmf(s, '{}') AS no_splits FROM sk;

-- Mixed signs and zeros: the negative buckets, the zeros, the positives.
CREATE TEMP TABLE mixed AS SELECT (g - 300) * 1.5 AS v FROM generate_series(0, 600) g;
SELECT ddsketch_cdf(s, '{-300, -0.5, 0, 0.5, 300}') AS cdf,
       ddsketch_pmf(s, '{-300, -0.5, 0, 0.5, 300}') AS pmf,
       ARRAY(SELECT count(*) FILTER (WHERE v <= x) / 601.0
             FROM mixed, unnest('{-300, -0.5, 0, 0.5, 300}'::float8[]) x GROUP BY x ORDER BY x) AS exact
FROM (SELECT ddsketch_agg(v) AS s FROM mixed) m;

-- NULL and empty sketches read as empty: NULL answers.
SELECT ddsketch_cdf(NULL, '{1}') AS cdf_null, ddsketch_cdf(ddsketch_empty(), '{1}') AS cdf_empty,
       ddsketch_pmf(NULL, '{1}') AS pmf_null, ddsketch_pmf(ddsketch_empty(), '{1}') AS pmf_empty,
       ddsketch_ranks(NULL, '{1, NULL}') AS ranks_null,
       ddsketch_ranks(ddsketch_empty(), '{1}') AS ranks_empty,
       ddsketch_trimmed_mean(NULL, 0, 1) AS tm_null,
       ddsketch_trimmed_mean(ddsketch_empty(), 0, 1) AS tm_empty;
SELECT ddsketch_cdf(s, NULL) AS cdf, ddsketch_pmf(s, NULL) AS pmf, ddsketch_ranks(s, NULL) AS ranks,
       ddsketch_trimmed_mean(s, NULL, 1) AS tm_lo, ddsketch_trimmed_mean(s, 0, NULL) AS tm_hi,
       ddsketch_ranks(s, '{}') AS no_values FROM sk;

-- The trimmed mean: positions (k-1, k] of the values in order, averaged
-- over [lo n, hi n]; a partial value weighted by its part. The exact one
-- by the same definition, and the bound alpha * (the same mean of |v|).
CREATE FUNCTION pg_temp.exact_trimmed(lo float8, hi float8) RETURNS float8 LANGUAGE sql AS $$
  SELECT sum(v * greatest(0, least(k, hi * n) - greatest(k - 1, lo * n))) / ((hi - lo) * max(n))
  FROM (SELECT v, row_number() OVER (ORDER BY v) AS k, count(*) OVER () AS n FROM ints) t $$;
CREATE FUNCTION pg_temp.exact_trimmed_abs(lo float8, hi float8) RETURNS float8 LANGUAGE sql AS $$
  SELECT sum(abs(v) * greatest(0, least(k, hi * n) - greatest(k - 1, lo * n))) / ((hi - lo) * max(n))
  FROM (SELECT v, row_number() OVER (ORDER BY v) AS k, count(*) OVER () AS n FROM ints) t $$;
SELECT lo, hi, round(pg_temp.exact_trimmed(lo, hi)::numeric, 6) AS exact, ddsketch_trimmed_mean(s, lo, hi) AS estimate,
       abs(ddsketch_trimmed_mean(s, lo, hi) - pg_temp.exact_trimmed(lo, hi))
         <= ddsketch_relative_accuracy(s) * pg_temp.exact_trimmed_abs(lo, hi) * (1 + 1e-12) AS within
FROM sk, (VALUES (0.1, 0.9), (0.25, 0.75), (0.5, 1.0), (0.0, 1.0), (0.0105, 0.9), (0.333, 0.334),
                 (0.99, 1.0), (0.0, 0.0015)) AS t(lo_n, hi_n), LATERAL (SELECT lo_n::float8 AS lo, hi_n::float8 AS hi) b
ORDER BY lo, hi;
-- The first and last positions hold the exact min and max.
SELECT ddsketch_trimmed_mean(s, 0, 0.001) AS first, ddsketch_trimmed_mean(s, 0.999, 1) AS last,
       (SELECT ddsketch_trimmed_mean(ddsketch_agg(42.5), 0.3, 0.6)) AS one_value FROM sk;
-- (0, 1) is the mean of the representatives: within alpha of the exact mean.
SELECT abs(ddsketch_trimmed_mean(s, 0, 1) - ddsketch_mean(s)) <= ddsketch_relative_accuracy(s) * ddsketch_mean(s)
  AS whole_within FROM sk;
-- Mixed signs: within alpha of the mean of |v| over the same ranks.
WITH m AS (SELECT v, row_number() OVER (ORDER BY v) AS k FROM mixed),
     s AS (SELECT ddsketch_agg(v) AS s FROM mixed)
SELECT ddsketch_trimmed_mean(s, 0.2, 0.7) AS estimate,
       (SELECT sum(v * greatest(0, least(k, 0.7 * 601) - greatest(k - 1, 0.2 * 601))) / (0.5 * 601) FROM m) AS exact,
       abs(ddsketch_trimmed_mean(s, 0.2, 0.7)
           - (SELECT sum(v * greatest(0, least(k, 0.7 * 601) - greatest(k - 1, 0.2 * 601))) / (0.5 * 601) FROM m))
         <= ddsketch_relative_accuracy(s)
            * (SELECT sum(abs(v) * greatest(0, least(k, 0.7 * 601) - greatest(k - 1, 0.2 * 601))) / (0.5 * 601) FROM m)
            + 1e-9 AS within
FROM s;

-- Weighted input: each row adds count copies of its value exactly, the same
-- bytes as the rows repeated (count, zeros, buckets, min, max, exact sum).
CREATE TEMP TABLE weighted AS
SELECT CASE WHEN g % 17 = 0 THEN 0 WHEN g % 19 = 0 THEN -0.0::float8
            ELSE (g % 41 - 20) * exp((g % 23) - 11) END AS v,
       (g % 9)::bigint AS n
FROM generate_series(1, 3000) g;
CREATE TEMP TABLE repeated AS SELECT v FROM weighted, generate_series(1, n);
SELECT (SELECT ddsketch_agg(v, n) FROM weighted) = (SELECT ddsketch_agg(v) FROM repeated) AS default_form,
       (SELECT ddsketch_agg(v, n, 0.001) FROM weighted) = (SELECT ddsketch_agg(v, 0.001) FROM repeated) AS accuracy_form,
       (SELECT ddsketch_agg(v, n, 0.01, 16) FROM weighted) = (SELECT ddsketch_agg(v, 0.01, 16) FROM repeated) AS collapsed_form,
       (SELECT ddsketch_info(ddsketch_agg(v, n, 0.01, 16))->'collapsed' FROM weighted) AS collapsed,
       (SELECT ddsketch_count(ddsketch_agg(v, n)) FROM weighted) AS count,
       (SELECT count(*) FROM repeated) AS rows;
-- Grouped and merged, and as a window aggregate.
SELECT ddsketch_union(s) = (SELECT ddsketch_agg(v) FROM repeated) AS merged
FROM (SELECT ddsketch_agg(v, n) AS s FROM weighted GROUP BY n % 4, v < 0) t;
SELECT g, ddsketch_count(ddsketch_agg(g, g::bigint) OVER (ORDER BY g ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)) AS window_count
FROM generate_series(1, 4) g;
-- The sum is exact: 2^63 - 1 copies of 1e300 and of -1e300 add up to 0; of
-- 1e300 alone they are beyond double precision.
SELECT ddsketch_sum(ddsketch_agg(v, 9223372036854775807)) AS zero,
       ddsketch_info(ddsketch_agg(v, 9223372036854775807))->'count' AS count
FROM unnest('{1e300, -1e300}'::float8[]) v;
SELECT (SELECT ddsketch_sum(ddsketch_agg(1e300, 9223372036854775807))) AS beyond,
       (SELECT ddsketch_sum(ddsketch_agg(0.1, 3::bigint))) = ddsketch_sum(ddsketch_agg(v)) AS three_tenths
FROM (VALUES (0.1::float8), (0.1), (0.1)) t(v);
-- 0 and NULL counts add nothing; only those rows: NULL, as over no rows.
SELECT ddsketch_agg(g, 0::bigint) IS NULL AS zeros_only, ddsketch_agg(g, NULL::bigint) IS NULL AS nulls_only,
       ddsketch_agg(NULL::float8, 5::bigint) IS NULL AS null_values
FROM generate_series(1, 3) g;
SELECT ddsketch_agg(g, (g % 2)::bigint) = ddsketch_agg(g) FILTER (WHERE g % 2 = 1) AS zero_counts_skipped
FROM generate_series(1, 100) g;
-- The weighted readers agree with the repeated rows.
SELECT ddsketch_cdf(ddsketch_agg(v, n), '{-1, 0, 1}') = (SELECT ddsketch_cdf(ddsketch_agg(v), '{-1, 0, 1}') FROM repeated) AS cdf,
       ddsketch_trimmed_mean(ddsketch_agg(v, n), 0.05, 0.95)
         = (SELECT ddsketch_trimmed_mean(ddsketch_agg(v), 0.05, 0.95) FROM repeated) AS trimmed
FROM weighted;

-- ddsketch_add(s, value, count): count copies at once.
SELECT ddsketch_add(ddsketch_empty(), 2.5, 3) = ddsketch_add(ddsketch_add(ddsketch_add(ddsketch_empty(), 2.5), 2.5), 2.5) AS same_bytes,
       ddsketch_add(ddsketch_agg(1.0), 2.5, 0) = ddsketch_agg(1.0) AS zero_count,
       ddsketch_add(ddsketch_agg(1.0), 2.5, NULL) = ddsketch_agg(1.0) AS null_count,
       ddsketch_add(ddsketch_agg(1.0), NULL, 3) = ddsketch_agg(1.0) AS null_value,
       ddsketch_add(NULL, 2.5, 3) IS NULL AS null_sketch,
       ddsketch_count(ddsketch_add(ddsketch_agg(1.0), -7.25, 1000000)) AS count;

-- Every refusal, with its SQLSTATE.
CREATE FUNCTION pg_temp.attempt(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  hint text;
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
  RETURN SQLSTATE || ': ' || SQLERRM || coalesce(' | ' || nullif(hint, ''), '');
END $$;
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('cdf decreasing',         $$SELECT ddsketch_cdf(ddsketch_agg(1.0), '{2, 1}')$$),
  ('cdf repeated',           $$SELECT ddsketch_cdf(ddsketch_agg(1.0), '{1, 1}')$$),
  ('cdf NaN',                $$SELECT ddsketch_cdf(ddsketch_agg(1.0), '{1, NaN}')$$),
  ('cdf Infinity',           $$SELECT ddsketch_cdf(ddsketch_agg(1.0), '{-Infinity}')$$),
  ('cdf NULL split',         $$SELECT ddsketch_cdf(ddsketch_agg(1.0), '{1, NULL}')$$),
  ('cdf 2-D',                $$SELECT ddsketch_cdf(ddsketch_agg(1.0), '{{1}, {2}}')$$),
  ('cdf checked when NULL',  $$SELECT ddsketch_cdf(NULL, '{2, 1}')$$),
  ('cdf checked when empty', $$SELECT ddsketch_cdf(ddsketch_empty(), '{2, 1}')$$),
  ('pmf decreasing',         $$SELECT ddsketch_pmf(ddsketch_agg(1.0), '{5, 3}')$$),
  ('pmf NaN',                $$SELECT ddsketch_pmf(ddsketch_agg(1.0), '{NaN}')$$),
  ('pmf 2-D',                $$SELECT ddsketch_pmf(ddsketch_agg(1.0), '{{1}}')$$),
  ('ranks of NaN',           $$SELECT ddsketch_ranks(ddsketch_agg(1.0), '{1, NaN}')$$),
  ('ranks 2-D',              $$SELECT ddsketch_ranks(ddsketch_agg(1.0), '{{1}}')$$),
  ('trimmed lo = hi',        $$SELECT ddsketch_trimmed_mean(ddsketch_agg(1.0), 0.5, 0.5)$$),
  ('trimmed lo > hi',        $$SELECT ddsketch_trimmed_mean(ddsketch_agg(1.0), 0.6, 0.5)$$),
  ('trimmed lo < 0',         $$SELECT ddsketch_trimmed_mean(ddsketch_agg(1.0), -0.1, 0.5)$$),
  ('trimmed hi > 1',         $$SELECT ddsketch_trimmed_mean(ddsketch_agg(1.0), 0.1, 1.5)$$),
  ('trimmed NaN',            $$SELECT ddsketch_trimmed_mean(ddsketch_agg(1.0), 'NaN', 1)$$),
  ('trimmed checked when empty', $$SELECT ddsketch_trimmed_mean(ddsketch_empty(), 0.5, 0.5)$$),
  ('negative count',         $$SELECT ddsketch_agg(g, -1::bigint) FROM generate_series(1, 3) g$$),
  ('negative count added',   $$SELECT ddsketch_add(ddsketch_empty(), 1, -2)$$),
  ('NaN weighted',           $$SELECT ddsketch_agg('NaN'::float8, 2::bigint)$$),
  ('Infinity added weighted', $$SELECT ddsketch_add(ddsketch_empty(), 'Infinity', 2)$$),
  ('count beyond 2^64 - 1',  $$SELECT ddsketch_agg(1.0, 9223372036854775807) FROM generate_series(1, 3)$$),
  ('added beyond 2^64 - 1',  $$SELECT ddsketch_add(ddsketch_agg(v, 9223372036854775807), 1, 2) FROM unnest('{1, 2}'::float8[]) v$$),
  ('NULL accuracy weighted', $$SELECT ddsketch_agg(g, 2::bigint, NULL) FROM generate_series(1, 3) g$$),
  ('accuracy 0 weighted',    $$SELECT ddsketch_agg(g, 2::bigint, 0.0) FROM generate_series(1, 3) g$$),
  -- an integer accuracy after a bigint count matches two forms: ambiguous, never the wrong one
  ('integer accuracy weighted', $$SELECT ddsketch_agg(g, 2::bigint, 1) FROM generate_series(1, 3) g$$),
  ('integer count as accuracy', $$SELECT ddsketch_agg(g, 3) FROM generate_series(1, 3) g$$),
  ('accuracy changes weighted', $$SELECT ddsketch_agg(g, 2::bigint, CASE WHEN g < 3 THEN 0.01 ELSE 0.001 END) FROM generate_series(1, 5) g$$)
) AS t(label, query);
-- The last value that fits: 2^64 - 1.
SELECT ddsketch_info(ddsketch_add(ddsketch_agg(v, 9223372036854775807), 1, 1))->'count' AS count_max
FROM unnest('{1, 2}'::float8[]) v;
