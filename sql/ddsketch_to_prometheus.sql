-- ddsketch_to_prometheus: the reverse of ddsketch_from_prometheus, in the
-- JSON form it reads. The round trip keeps every bucket, the zeros, the
-- count and the sum (when it lies within what the buckets allow); min and
-- max, which Prometheus does not carry, come back as their buckets'
-- representatives.
SET extra_float_digits = 0;

-- Spans: one per run of non-empty buckets, the first offset absolute, each
-- later one the empty buckets since the previous span; deltas across spans.
SELECT ddsketch_to_prometheus(ddsketch_agg(v, 0.05))
FROM unnest('{1, 1, 1.1, 1.2, 2, 2, 2, -3, 0, 0}'::float8[]) v;
SELECT ddsketch_to_prometheus(ddsketch_empty());

-- The round trip, at schema 0..8, with negatives, zeros and gaps.
CREATE TEMP TABLE src AS
SELECT a, ddsketch_agg(CASE WHEN g % 13 = 0 THEN 0 ELSE (g % 7 - 2) * exp(g / 60.0) END, a) AS s
FROM generate_series(1, 600) g, unnest('{0.3, 0.05, 0.01, 0.003}'::float8[]) a GROUP BY a;
SELECT a, ddsketch_info(s)->>'scale' AS scale,
       ddsketch_to_otel(r) -> 'positive' = ddsketch_to_otel(s) -> 'positive' AS positive,
       ddsketch_to_otel(r) -> 'negative' = ddsketch_to_otel(s) -> 'negative' AS negative,
       ddsketch_count(r) = ddsketch_count(s) AS count,
       ddsketch_info(r)->'zero_count' = ddsketch_info(s)->'zero_count' AS zeros,
       ddsketch_sum(r) = ddsketch_sum(s) AS sum,
       ddsketch_to_prometheus(r) = ddsketch_to_prometheus(s) AS same_export
FROM src, LATERAL (SELECT ddsketch_from_prometheus(ddsketch_to_prometheus(s)) AS r) x ORDER BY a;
-- A finer sketch (scale 9 and above) is folded to schema 8 exactly: the
-- import equals the sketch folded to 8 (a union with an empty scale-8
-- sketch) in its buckets and count.
WITH s AS (SELECT ddsketch_agg(g * 0.37, 0.0001) AS s FROM generate_series(1, 2000) g)
SELECT ddsketch_to_prometheus(s)->'schema' AS schema,
       ddsketch_to_otel(ddsketch_from_prometheus(ddsketch_to_prometheus(s)))->'positive'
         = ddsketch_to_otel(s || ddsketch_empty(0.002))->'positive' AS folded
FROM s;
-- Counts beyond int64 have no Prometheus delta (22003).
\set VERBOSITY sqlstate
SELECT ddsketch_to_prometheus(ddsketch_agg(1.0, 9223372036854775807) || ddsketch_agg(1.0, 9223372036854775807));
\set VERBOSITY default
