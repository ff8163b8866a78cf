-- kll: building, reading and combining rank-quantile sketches.
SET extra_float_digits = 0;

-- Empty and NULL sketches: count 0, every other reader NULL.
SELECT kll_count(kll_empty()) AS count, kll_quantile(kll_empty(), 0.5) AS p50,
       kll_min(kll_empty()) AS min, kll_max(kll_empty()) AS max,
       kll_rank(kll_empty(), 1.0) AS rank, kll_rank_error(kll_empty()) AS err;
SELECT kll_count(NULL) AS count, kll_quantile(NULL, 0.5) AS p50,
       kll_quantiles(NULL, '{0.5,0.9}') AS ps, kll_rank(NULL, 1.0) AS rank,
       kll_cdf(NULL, '{1}'::float8[]) AS cdf, kll_info(NULL) AS info;
SELECT kll_agg(v) IS NULL AS no_rows FROM (SELECT 1.0::float8 WHERE false) t(v);
SELECT kll_agg(NULL::float8) IS NULL AS only_nulls FROM generate_series(1, 3);
SELECT kll_info(kll_empty());
SELECT kll_info(kll_empty(8))->>'k' AS k8, kll_info(kll_empty(65535))->>'k' AS k65535;

-- Exact while nothing is compacted: 1..100 at k = 200.
WITH s AS (SELECT kll_agg(g::float8) AS s FROM generate_series(1, 100) g)
SELECT kll_count(s) AS n, kll_min(s) AS min, kll_max(s) AS max,
       kll_quantile(s, 0) AS q0, kll_quantile(s, 0.5) AS q50, kll_quantile(s, 1) AS q1,
       kll_quantiles(s, '{0.25,NULL,0.75}') AS qs, kll_rank(s, 50.0) AS r50,
       kll_rank_error(s) AS err, kll_info(s)->>'exact' AS exact FROM s;

-- 100000 values: exact n, min, max; every rank within the bound the sketch
-- reports; quantiles monotone and inside [min, max].
CREATE TEMP TABLE d AS SELECT ((g * 7919) % 100000)::float8 AS v FROM generate_series(1, 100000) g;
CREATE TEMP TABLE s AS SELECT kll_agg(v) AS s FROM d;
SELECT kll_count(s) AS n, kll_min(s) AS min, kll_max(s) AS max,
       round(kll_rank_error(s)::numeric, 6) AS err,
       round(kll_rank_error(s, 0.9)::numeric, 6) AS err90,
       (kll_info(s)->>'levels')::int > 1 AS compacted FROM s;
SELECT count(*) AS queries,
       count(*) FILTER (WHERE abs(kll_rank(s, x) - (x + 1) / 100000.0) > kll_rank_error(s)) AS misses
FROM s, generate_series(999, 98999, 1000) x;
SELECT bool_and(a <= b) AS monotone, bool_and(a >= 0 AND b <= 99999) AS inside
FROM (SELECT kll_quantile(s, q / 100.0) AS a, kll_quantile(s, (q + 1) / 100.0) AS b
      FROM s, generate_series(0, 99) q) t;
SELECT array_length(kll_cdf(s, '{10000,50000,90000}'::float8[]), 1) AS cdf_len,
       abs((kll_cdf(s, '{10000,50000,90000}'::float8[]))[2] - 0.5) < 0.02 AS cdf_mid,
       abs((SELECT sum(x) FROM unnest(kll_pmf(s, '{10000,50000,90000}'::float8[])) x) - 1) < 1e-12 AS pmf_sums_to_1
FROM s;

-- Deterministic: the same rows in the same order give the same bytes.
SELECT (SELECT kll_agg(v ORDER BY v) FROM d) = (SELECT kll_agg(v ORDER BY v) FROM d) AS same_bytes;

-- Unions: the aggregate, the function and ||; across k the smaller wins.
WITH p AS (SELECT g % 4 AS part, kll_agg(g::float8) AS s FROM generate_series(1, 20000) g GROUP BY 1)
SELECT kll_count(kll_union(s)) AS n, kll_min(kll_union(s)) AS min, kll_max(kll_union(s)) AS max FROM p;
SELECT kll_info(kll_agg(g::float8, 400) || kll_agg(g::float8, 100))->>'k' AS k
FROM generate_series(1, 5000) g;
SELECT kll_count(kll_union(kll_agg(g::float8), NULL)) AS n FROM generate_series(1, 10) g;

-- Integers keep every bit; timestamps, dates.
WITH s AS (SELECT kll_agg(v) AS s FROM (VALUES (9007199254740993::bigint), (9007199254740995), (-1)) t(v))
SELECT kll_quantile_bigint(s, 0.5) AS median, kll_quantile_bigint(s, 1) AS max,
       kll_rank(s, 9007199254740994::bigint) AS rank, kll_rank(s, 0.5::float8) AS rank_of_double FROM s;
WITH s AS (SELECT kll_agg(t) AS s FROM generate_series(timestamptz '2026-01-01 00:00+00',
                                                       timestamptz '2026-01-11 00:00+00', '1 hour') t)
SELECT kll_quantile_timestamptz(s, 0) = timestamptz '2026-01-01 00:00+00' AS min_exact,
       kll_quantile_timestamptz(s, 1) = timestamptz '2026-01-11 00:00+00' AS max_exact,
       kll_rank(s, timestamptz '2026-01-06 00:00+00') AS half FROM s;
WITH s AS (SELECT kll_agg(d::date) AS s FROM generate_series(date '2026-01-01', date '2026-01-31', '1 day') d)
SELECT kll_quantile_date(s, 0.5) AS median, kll_rank(s, date '2026-01-10') AS rank,
       kll_cdf(s, ARRAY[date '2026-01-10', date '2026-01-20']) AS cdf FROM s;
WITH s AS (SELECT kll_agg(t::timestamp) AS s FROM generate_series(timestamp '2026-01-01', timestamp '2026-01-02', '1 hour') t)
SELECT kll_quantile_timestamp(s, 0.5) AS median FROM s;

-- Weighted rows: a weight is its binary digits, not that many adds.
SELECT kll_count(kll_agg(v, w, 200)) AS n,
       kll_quantile(kll_agg(v, w, 200), 0.5) AS median
FROM (VALUES (1.0::float8, 3::bigint), (2.0, 1000000), (3.0, 0), (NULL, 5)) t(v, w);
SELECT kll_info(kll_agg(1.0::float8, 6, 200))->>'retained' AS two_items;

-- kll_add.
SELECT kll_count(kll_add(kll_add(kll_empty(), 1.5::float8), 2.5::float8)) AS n,
       kll_add(NULL, 1.0::float8) IS NULL AS null_sketch,
       kll_count(kll_add(kll_empty(), NULL::float8)) AS null_value;

-- Equality and text round trip.
WITH s AS (SELECT kll_agg(g::float8, 16) AS s FROM generate_series(1, 1000) g)
SELECT s = s::text::kll AS text_round_trip, s = (s::bytea)::kll AS bytea_round_trip,
       s <> kll_empty(16) AS differs FROM s;

-- Errors: parameters (22023), wrong types (22023), corrupt bytes (22P03).
\set VERBOSITY terse
SELECT kll_empty(7);
SELECT kll_agg(g::float8, 70000) FROM generate_series(1, 3) g;
SELECT kll_agg('NaN'::float8);
SELECT kll_quantile(kll_empty(), 1.5);
SELECT kll_rank_error(kll_empty(), 1);
SELECT kll_add(kll_agg(1.0::float8), date '2026-01-01');
SELECT kll_rank(kll_agg(1.0::float8), now());
SELECT kll_quantile_date(kll_agg(1.0::float8), 0.5);
SELECT kll_quantile(kll_agg(now()), 0.5);
SELECT kll_agg(1.0::float8) || kll_agg(1::bigint);
SELECT kll_cdf(kll_agg(1.0::float8), '{2,1}'::float8[]);
SELECT kll_cdf(kll_agg(1.0::float8), '{1,NULL}'::float8[]);
SELECT kll_agg(1.0::float8, -1::bigint, 200);
SELECT '\x534b0901010001ff'::kll;
SELECT ('\x' || substr(encode(kll_agg(1.0::float8)::bytea, 'hex'), 1, 60))::kll;
SELECT kll_agg(v, k) FROM (VALUES (1.0::float8, 200), (2.0, 100)) t(v, k);
\set VERBOSITY default

-- The SQLSTATE of each refusal.
CREATE FUNCTION pg_temp.sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE; END $$;
SELECT q, pg_temp.sqlstate_of(q) FROM unnest(ARRAY[
  'SELECT kll_empty(7)',
  'SELECT kll_agg(''NaN''::float8)',
  'SELECT kll_quantile(kll_empty(), -0.1)',
  'SELECT kll_add(kll_agg(1.0::float8), date ''2026-01-01'')',
  'SELECT kll_rank(kll_agg(1.0::float8), now())',
  'SELECT kll_quantile(kll_agg(1::bigint), 0.5)',
  'SELECT kll_quantile_bigint(kll_agg(1.0::float8), 0.5)',
  'SELECT kll_agg(1.0::float8) || kll_agg(now())',
  'SELECT kll_agg(1.0::float8, -1::bigint, 200)',
  'SELECT ''\x534b0901010001ff''::bytea::kll',
  'SELECT (''\x'' || substr(encode(kll_agg(1.0::float8)::bytea, ''hex''), 1, 60))::bytea::kll'
]) q;
