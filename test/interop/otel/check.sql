-- ddsketch_from_otel against the OpenTelemetry JS SDK (test/interop/otel.sh):
-- psql's :'otel' holds record.mjs's output, one entry per instrument with
-- the raw values and the SDK's OTLP JSON data point. Every check prints one
-- line "ok <name>: ..." or "not ok <name>: ..."; an ERROR counts as a
-- failure in the driver.
\set QUIET on
\pset tuples_only on
\pset format unaligned
SET client_min_messages = warning;

CREATE TEMP TABLE dp AS
  SELECT e ->> 'name' AS name, e -> 'point' AS point, e -> 'values' AS vals,
         (e -> 'point' ->> 'scale')::int AS sdk_scale,
         least((e -> 'point' ->> 'scale')::int, 12) AS scale,
         ddsketch_from_otel(e -> 'point') AS s
  FROM jsonb_array_elements(:'otel'::jsonb) e;
CREATE TEMP TABLE raw AS
  SELECT name, v::float8 AS v FROM dp, jsonb_array_elements_text(vals) v;

-- The SDK's buckets, folded to the sketch's scale (OTel's j >> d), non-empty
-- ones, against the import's buckets as ddsketch_to_otel writes them.
CREATE TEMP TABLE sdk_buckets AS
  SELECT name, floor(((point -> 'positive' ->> 'offset')::bigint + ord - 1) / 2.0 ^ (sdk_scale - scale))::bigint AS j,
         sum(c::bigint) AS c
  FROM dp, jsonb_array_elements_text(point -> 'positive' -> 'bucketCounts') WITH ORDINALITY b(c, ord)
  GROUP BY 1, 2 HAVING sum(c::bigint) > 0;
CREATE FUNCTION pg_temp.buckets(s ddsketch) RETURNS TABLE(j bigint, c bigint) LANGUAGE sql AS $$
  SELECT (ddsketch_to_otel(s) -> 'positive' ->> 'offset')::bigint + ord - 1, c::bigint
  FROM jsonb_array_elements_text(ddsketch_to_otel(s) -> 'positive' -> 'bucketCounts') WITH ORDINALITY b(c, ord)
  WHERE c::bigint > 0 $$;

SELECT CASE WHEN ddsketch_count(s) = (point ->> 'count')::bigint
             AND ddsketch_sum(s) = (point ->> 'sum')::float8
             AND ddsketch_min(s) = (point ->> 'min')::float8
             AND ddsketch_max(s) = (point ->> 'max')::float8
             AND (ddsketch_info(s) ->> 'zero_count')::bigint = (point ->> 'zeroCount')::bigint
            THEN 'ok' ELSE 'not ok' END
       || format(' %s count, sum, min, max, zeroCount equal the SDK''s (SDK scale %s, sketch scale %s): %s %s %s %s',
                 name, sdk_scale, scale, ddsketch_count(s), ddsketch_sum(s), ddsketch_min(s), ddsketch_max(s))
FROM dp ORDER BY name;

CREATE TEMP TABLE sketch_buckets AS SELECT name, b.j, b.c FROM dp, pg_temp.buckets(s) b;
SELECT CASE WHEN differ = 0 AND n > 0 THEN 'ok' ELSE 'not ok' END
       || format(' %s bucket counts equal the SDK''s: %s non-empty buckets, %s differ', name, n, differ)
FROM (SELECT coalesce(x.name, y.name) AS name, count(*) AS n,
             count(*) FILTER (WHERE x.c IS DISTINCT FROM y.c) AS differ
      FROM sdk_buckets x FULL JOIN sketch_buckets y ON x.name = y.name AND x.j = y.j
      GROUP BY 1) t ORDER BY name;

-- Every raw value in the bucket the SDK put it in: ddsketch_agg over the
-- raw values at the import's scale (its own alpha asks for that scale) has
-- the same buckets, count, min and max (the sum: the SDK's is a float8
-- running sum, ddsketch's exact).
SELECT CASE WHEN ddsketch_to_otel(r) - 'sum' = ddsketch_to_otel(s) - 'sum' THEN 'ok' ELSE 'not ok' END
       || format(' %s raw values land in the SDK''s buckets (ddsketch_agg at scale %s)', name, scale)
FROM (SELECT dp.name, dp.scale, dp.s,
             (SELECT ddsketch_agg(v, ddsketch_relative_accuracy(dp.s), 65536)
              FROM raw WHERE raw.name = dp.name) AS r
      FROM dp) t ORDER BY name;

-- Quantiles of the import within the sketch's relative accuracy of the raw
-- values' percentile_disc.
SELECT CASE WHEN worst <= alpha * (1 + 1e-12) THEN 'ok' ELSE 'not ok' END
       || format(' %s quantiles within alpha %s of percentile_disc: worst %s', name, alpha, worst)
FROM (SELECT dp.name, ddsketch_relative_accuracy(dp.s) AS alpha,
             max(abs(ddsketch_quantile(dp.s, q) - t.truth) / nullif(abs(t.truth), 0)) AS worst
      FROM dp, unnest(ARRAY[0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999]) q,
           LATERAL (SELECT percentile_disc(q) WITHIN GROUP (ORDER BY v) AS truth
                    FROM raw WHERE raw.name = dp.name) t
      GROUP BY 1, 2) x ORDER BY name;

-- The export reads back to the same sketch.
SELECT CASE WHEN ddsketch_from_otel(ddsketch_to_otel(s)) = s THEN 'ok' ELSE 'not ok' END
       || format(' %s ddsketch_to_otel round trip', name)
FROM dp ORDER BY name;
