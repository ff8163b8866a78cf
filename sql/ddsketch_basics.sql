-- ddsketch: building, reading and combining quantile sketches.
SET extra_float_digits = 0;

-- Empty and NULL sketches: count 0, sum 0, every other reader NULL.
SELECT ddsketch_count(ddsketch_empty()) AS count, ddsketch_sum(ddsketch_empty()) AS sum,
       ddsketch_quantile(ddsketch_empty(), 0.5) AS p50, ddsketch_mean(ddsketch_empty()) AS mean,
       ddsketch_min(ddsketch_empty()) AS min, ddsketch_max(ddsketch_empty()) AS max,
       ddsketch_rank(ddsketch_empty(), 1) AS rank;
SELECT ddsketch_count(NULL) AS count, ddsketch_sum(NULL) AS sum,
       ddsketch_quantile(NULL, 0.5) AS p50, ddsketch_quantiles(NULL, '{0.5,0.9}') AS ps,
       ddsketch_mean(NULL) AS mean, ddsketch_min(NULL) AS min, ddsketch_max(NULL) AS max,
       ddsketch_rank(NULL, 1) AS rank, ddsketch_info(NULL) AS info;
-- An aggregate over no rows (or only NULLs) is NULL, as SQL's own are.
SELECT ddsketch_agg(v) IS NULL AS no_rows FROM (SELECT 1.0::float8 WHERE false) t(v);
SELECT ddsketch_agg(NULL::float8) IS NULL AS only_nulls FROM generate_series(1, 3);
SELECT ddsketch_info(ddsketch_empty());

-- The scale is the coarsest whose relative error does not exceed the request.
SELECT r AS requested, ddsketch_info(ddsketch_empty(r))->>'scale' AS scale,
       round(ddsketch_relative_accuracy(ddsketch_empty(r))::numeric, 6) AS alpha
FROM unnest(ARRAY[0.3, 0.1, 0.05, 0.02, 0.01, 0.005, 0.001, 0.0001]::float8[]) AS r;

-- Exact count, sum, mean, min and max; quantiles within alpha of
-- percentile_disc on 1..10000.
WITH s AS (SELECT ddsketch_agg(g) AS s FROM generate_series(1, 10000) g)
SELECT ddsketch_count(s) AS count, ddsketch_sum(s) AS sum, ddsketch_mean(s) AS mean,
       ddsketch_min(s) AS min, ddsketch_max(s) AS max FROM s;
WITH d AS (SELECT g::float8 AS v FROM generate_series(1, 10000) g),
     s AS (SELECT ddsketch_agg(v) AS s FROM d),
     q AS (SELECT unnest(ARRAY[0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1]::float8[]) AS q)
SELECT q.q, (SELECT percentile_disc(q.q) WITHIN GROUP (ORDER BY v) FROM d) AS exact,
       abs(ddsketch_quantile(s, q.q) - (SELECT percentile_disc(q.q) WITHIN GROUP (ORDER BY v) FROM d))
         <= ddsketch_relative_accuracy(s) * (SELECT percentile_disc(q.q) WITHIN GROUP (ORDER BY v) FROM d)
         AS within_alpha
FROM q, s ORDER BY q.q;
-- min and max are exact at q = 0 and q = 1.
SELECT ddsketch_quantile(s, 0) AS q0, ddsketch_quantile(s, 1) AS q1
FROM (SELECT ddsketch_agg(v) AS s FROM unnest(ARRAY[3.25, 17.5, 1000.125]) v) t;
-- Several quantiles at once, in order, NULL where q is NULL.
SELECT ddsketch_quantiles(ddsketch_agg(g), '{0.5, NULL, 1}') = ARRAY[ddsketch_quantile(ddsketch_agg(g), 0.5), NULL, 10000]
       AS same
FROM generate_series(1, 10000) g;
SELECT ddsketch_quantiles(ddsketch_agg(g), '{}') AS none FROM generate_series(1, 10) g;

-- Negative values, zeros and positive values in one sketch.
WITH d AS (SELECT v FROM unnest(ARRAY[-1000, -10, -1, 0, 0, -0.0, 1, 10, 1000]::float8[]) v),
     s AS (SELECT ddsketch_agg(v) AS s FROM d)
SELECT ddsketch_count(s) AS count, ddsketch_sum(s) AS sum, ddsketch_min(s) AS min,
       ddsketch_max(s) AS max, ddsketch_info(s)->'zero_count' AS zeros,
       ddsketch_info(s)->'positive_buckets' AS positive, ddsketch_info(s)->'negative_buckets' AS negative,
       (SELECT array_agg(abs(ddsketch_quantile(s, q) - e) <= ddsketch_relative_accuracy(s) * abs(e))
        FROM unnest(ARRAY[0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9]::float8[],
                    ARRAY[-1000, -10, -1, 0, 0, 1, 10, 1000]::float8[]) AS u(q, e))
         AS within_alpha
FROM s;

-- rank: the fraction of values <= x.
WITH s AS (SELECT ddsketch_agg(g) AS s FROM generate_series(1, 1000) g)
SELECT ddsketch_rank(s, 0) AS below_min, ddsketch_rank(s, 1000) AS at_max,
       ddsketch_rank(s, 5000) AS above_max, abs(ddsketch_rank(s, 500) - 0.5) < 0.01 AS median
FROM s;

-- Every numeric type goes in through double precision.
SELECT ddsketch_count(ddsketch_agg(v)) AS count, ddsketch_sum(ddsketch_agg(v)) AS sum FROM (VALUES
  (1::smallint::float8), (2::int), (3::bigint), (4.5::numeric), (5.5::real)) t(v);
SELECT ddsketch_sum(ddsketch_agg(v::smallint)) AS int2, ddsketch_sum(ddsketch_agg(v::int)) AS int4,
       ddsketch_sum(ddsketch_agg(v::bigint)) AS int8, ddsketch_sum(ddsketch_agg(v::numeric)) AS numeric,
       ddsketch_sum(ddsketch_agg(v::real)) AS float4
FROM generate_series(1, 100) v;

-- The sum is exact inside, whatever the order of additions.
SELECT ddsketch_sum(ddsketch_agg(v)) AS exact_sum, sum(v) AS float_sum
FROM unnest(ARRAY[1e20, 1, -1e20, 1e-20]::float8[]) v;

-- ddsketch_add: one value at a time equals the aggregate; NULL value keeps
-- the sketch, NULL sketch stays NULL.
SELECT ddsketch_add(ddsketch_add(ddsketch_empty(), 1), 2) = ddsketch_agg(v) AS same
FROM unnest(ARRAY[2, 1]::float8[]) v;
SELECT ddsketch_add(ddsketch_empty(), NULL) = ddsketch_empty() AS null_value,
       ddsketch_add(NULL, 1) IS NULL AS null_sketch,
       ddsketch_count(ddsketch_add(ddsketch_empty(), '2.5')) AS literal;

-- Union: function, operator and aggregate agree; NULL sides are ignored; the
-- union over any partition has the bytes of one aggregate over all rows.
WITH s AS (
  SELECT ddsketch_agg(g) FILTER (WHERE g <= 600) AS a, ddsketch_agg(g) FILTER (WHERE g > 600) AS b,
         ddsketch_agg(g) AS ab
  FROM generate_series(1, 1000) g)
SELECT (a || b) = ab AS exact, ddsketch_union(a, b) = (b || a) AS commutes,
       (a || NULL) = a AS null_right, (NULL || b) = b AS null_left
FROM s;
SELECT count(*) AS parts, ddsketch_union(s) = (SELECT ddsketch_agg(g * 1.5) FROM generate_series(1, 20000) g)
       AS same_bytes
FROM (SELECT g % 64 AS part, ddsketch_agg(g * 1.5) AS s FROM generate_series(1, 20000) g GROUP BY 1) p;
-- Sketches of different accuracy merge at the coarser scale, exactly.
WITH s AS (
  SELECT ddsketch_agg(g, 0.001, 65536) FILTER (WHERE g <= 2500) AS fine,
         ddsketch_agg(g, 0.01) FILTER (WHERE g > 2500) AS coarse, ddsketch_agg(g, 0.01) AS whole
  FROM generate_series(1, 5000) g)
SELECT fine || coarse = whole AS folded, ddsketch_info(fine)->'scale' AS fine_scale,
       ddsketch_info(fine)->'collapsed' AS fine_collapsed,
       ddsketch_info(fine || coarse)->'scale' AS union_scale
FROM s;

-- A bucket limit collapses the lowest magnitudes instead of failing, and
-- says which ranks lost the guarantee.
WITH s AS (SELECT ddsketch_agg(g, 0.01, 64) AS s FROM generate_series(1, 1000) g)
SELECT ddsketch_info(s)->'collapsed' AS collapsed, ddsketch_info(s)->'unguaranteed_ranks' AS ranks,
       ddsketch_info(s)->'positive_buckets' AS buckets, ddsketch_count(s) AS count,
       ddsketch_min(s) AS min,
       abs(ddsketch_quantile(s, 0.99) - 990) <= ddsketch_relative_accuracy(s) * 990 AS p99_within_alpha,
       abs(ddsketch_quantile(s, 0.75) - 750) <= ddsketch_relative_accuracy(s) * 750 AS p75_within_alpha
FROM s;

-- Text round trip, binary round trip, bytea casts, GROUP BY and DISTINCT.
WITH s AS (SELECT ddsketch_agg(g) AS s FROM generate_series(-50, 500) g)
SELECT s::text::ddsketch = s AS text_round_trip, s::bytea::ddsketch = s AS bytea_round_trip,
       left(s::text, 18) AS starts
FROM s;
-- (groups 2, 3 and 4 hold the same values)
SELECT count(*) AS distinct_sketches FROM (SELECT DISTINCT s FROM (
  SELECT ddsketch_agg(least(g % 5, 2)) AS s FROM generate_series(1, 30) g GROUP BY g % 5) t) d;
SELECT count(*) AS groups FROM (SELECT s, count(*) FROM (
  SELECT ddsketch_agg(least(g % 5, 2)) AS s FROM generate_series(1, 30) g GROUP BY g % 5) t GROUP BY s) d;

-- Rollups: hourly sketches merged into a daily p99 without the raw rows.
CREATE TEMP TABLE latency AS
SELECT timestamptz '2026-01-01' + (g % 48) * interval '1 hour' AS ts, exp((g % 997) / 100.0) AS ms
FROM generate_series(1, 48000) g;
CREATE TEMP TABLE latency_hourly AS
SELECT date_trunc('hour', ts) AS hour, ddsketch_agg(ms) AS ms FROM latency GROUP BY 1;
WITH daily AS (SELECT date_trunc('day', hour) AS day, ddsketch_union(ms) AS ms
               FROM latency_hourly GROUP BY 1),
     raw AS (SELECT date_trunc('day', ts) AS day, ddsketch_agg(ms) AS ms,
                    percentile_disc(0.99) WITHIN GROUP (ORDER BY ms) AS p99
             FROM latency GROUP BY 1)
SELECT d.day, ddsketch_count(d.ms) AS requests, d.ms = r.ms AS same_as_raw,
       abs(ddsketch_quantile(d.ms, 0.99) - r.p99) <= ddsketch_relative_accuracy(d.ms) * r.p99
         AS p99_within_alpha
FROM daily d JOIN raw r USING (day) ORDER BY 1;

-- As a window aggregate (the final function does not modify the state).
SELECT g, ddsketch_quantile(ddsketch_agg(g) OVER (ORDER BY g), 0.5) AS running_median
FROM generate_series(1, 5) g;

-- rank agrees with the exact minimum and maximum.
SELECT ddsketch_rank(s, 1.001) AS rank_of_min, ddsketch_rank(s, 4.999) AS just_below_max,
       ddsketch_quantile(s, 0.5) AS median
FROM (SELECT ddsketch_agg(x) AS s FROM unnest('{1.001, 5}'::float8[]) x) t;

-- A sum beyond double precision: ddsketch_sum is Infinity, as float8 says,
-- and ddsketch_info shows it as the string "Infinity" (JSON has no infinity).
SELECT ddsketch_sum(s) AS sum, ddsketch_info(s)->'sum' AS info_sum, ddsketch_count(s) AS count
FROM (SELECT ddsketch_agg(v) AS s FROM unnest('{1.7976931348623157e308, 1.7976931348623157e308}'::float8[]) v) t;

-- A sketch collapsed at a fine scale, folded into a coarser one: smaller
-- values of the other side join its collapsed bucket, so the unguaranteed
-- ranks still cover every value whose bucket is lost.
WITH p AS (SELECT (SELECT ddsketch_agg(x, 0.001) FROM generate_series(1, 1000) x) AS fine,
                  (SELECT ddsketch_agg(x, 0.05) FROM generate_series(1, 3) x) AS coarse)
SELECT ddsketch_info(fine)->'unguaranteed_ranks' AS fine_ranks,
       ddsketch_info(fine || coarse)->'unguaranteed_ranks' AS union_ranks,
       ddsketch_info(fine || coarse)->'positive_buckets' AS union_buckets
FROM p;
