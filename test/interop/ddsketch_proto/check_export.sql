-- ddsketch_to_ddsketch_proto read by DataDog's JS DDSketch
-- (test/interop/ddsketch_proto.sh): psql's :'js_read' holds read.mjs's
-- answers for each exported sketch (table exported, from check.sql). One
-- line "ok ..." or "not ok ..." per check.
\set QUIET on
\pset tuples_only on
\pset format unaligned
SET client_min_messages = warning;

CREATE TEMP TABLE js_read AS
  SELECT x.name, x.s, (e ->> 'count')::bigint AS count, (e ->> 'zero_count')::bigint AS zero_count,
         (e ->> 'gamma')::float8 AS gamma, e -> 'quantiles' AS quantiles
  FROM jsonb_array_elements(:'js_read'::jsonb) e JOIN exported x ON x.name = e ->> 'name';

SELECT CASE WHEN count(*) = 3 AND bool_and(count = ddsketch_count(s) AND zero_count = (ddsketch_info(s) ->> 'zero_count')::bigint)
  THEN 'ok' ELSE 'not ok' END || ' export count: the JS sketch counts ' || string_agg(name || '=' || count, ',' ORDER BY name)
FROM js_read;
-- gamma: JS rebuilds it from its relative accuracy, within a few ulps of ours.
SELECT CASE WHEN bool_and(abs(gamma - 2 ^ (2 ^ -(ddsketch_info(s) ->> 'scale')::int)) <= 1e-15)
  THEN 'ok' ELSE 'not ok' END || ' export gamma: ' || string_agg(name || '=' || gamma, ',' ORDER BY name)
FROM js_read;
-- Inner quantiles: the same bucket, so the same representative (to
-- floating-point rounding); 0 and 1 within alpha (ours are the exact min
-- and max, the JS sketch answers their bucket's representative).
CREATE TEMP TABLE answers AS
  SELECT name, q::float8 AS q, (quantiles ->> q)::float8 AS js, ddsketch_quantile(s, q::float8) AS ours,
         ddsketch_relative_accuracy(s) AS alpha
  FROM js_read, jsonb_object_keys(quantiles) q;
SELECT CASE WHEN bool_and(CASE WHEN q IN (0, 1) THEN abs(js - ours) <= alpha * abs(ours) * (1 + 1e-12)
                               ELSE abs(js - ours) <= 1e-9 * abs(ours) END)
  THEN 'ok' ELSE 'not ok' END || ' export quantiles ' || name || ': '
  || string_agg(q || ':' || js || '~' || ours, ' ' ORDER BY q)
FROM answers GROUP BY name ORDER BY name;

-- Our own round trip: the same buckets, and the same bytes again.
SELECT CASE WHEN bool_and(ddsketch_to_otel(ddsketch_from_ddsketch_proto(ddsketch_to_ddsketch_proto(s), 'ceil', 12, 16384)) - 'sum' - 'min' - 'max'
                          = ddsketch_to_otel(s) - 'sum' - 'min' - 'max'
                      AND ddsketch_to_ddsketch_proto(ddsketch_from_ddsketch_proto(ddsketch_to_ddsketch_proto(s), 'ceil', 12, 16384))
                          = ddsketch_to_ddsketch_proto(s))
  THEN 'ok' ELSE 'not ok' END || ' round trip: ddsketch_from_ddsketch_proto(ddsketch_to_ddsketch_proto(s)) has the buckets of s'
FROM exported;
