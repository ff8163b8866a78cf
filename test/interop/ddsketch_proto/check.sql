-- ddsketch_from_ddsketch_proto against DataDog's JS DDSketch
-- (test/interop/ddsketch_proto.sh): psql's :'js' holds produce.mjs's
-- output (the values, and per sketch its protobuf and the JS answers).
-- Every check prints one line "ok <name>: ..." or "not ok <name>: ..."; an
-- ERROR counts as a failure in the driver. Writes :'work'/export.json (our
-- exports, for read.mjs).
\set QUIET on
\pset tuples_only on
\pset format unaligned
SET client_min_messages = warning;

CREATE TABLE raw AS SELECT v::float8 AS v FROM jsonb_array_elements_text(:'js'::jsonb -> 'values') v;

-- The import: scale 8 spans about 30 octaves, 7700 buckets at that scale.
CREATE TEMP TABLE js AS
  SELECT e ->> 'name' AS name, (e ->> 'relative_accuracy')::float8 AS alpha,
         (e ->> 'count')::bigint AS count, (e ->> 'min')::float8 AS min, (e ->> 'max')::float8 AS max,
         e -> 'quantiles' AS quantiles,
         ddsketch_from_ddsketch_proto(decode(e ->> 'proto', 'hex'), 'ceil', 12, 16384) AS s
  FROM jsonb_array_elements(:'js'::jsonb -> 'sketches') e;

-- The accuracy the import states (ddsketch_proto.h): exact ones keep their
-- scale's alpha; the re-bucketed default has (1 + alpha_f)(1 + alpha_S) - 1.
CREATE TEMP TABLE imported AS
  SELECT *, ddsketch_relative_accuracy(s) AS alpha_s,
         CASE WHEN name = 'default' THEN (1 + alpha) * (1 + ddsketch_relative_accuracy(s)) - 1
              ELSE ddsketch_relative_accuracy(s) END AS accuracy
  FROM js;

SELECT CASE WHEN bool_and(ddsketch_count(s) = count AND count = (SELECT count(*) FROM raw))
  THEN 'ok' ELSE 'not ok' END || ' count: every import counts the JS sketch''s '
  || max(count) || ' values' FROM imported;

-- Scales: the default (alpha 0.01) goes to scale 6 (alpha 0.0054, the
-- coarsest as accurate); the others keep theirs (2^(1/64), 2^(1/256)).
SELECT CASE WHEN string_agg(name || '=' || (ddsketch_info(s) ->> 'scale'), ',' ORDER BY name)
                 = 'default=6,scale6=6,scale8=8'
  THEN 'ok' ELSE 'not ok' END || ' scales: '
  || string_agg(name || '=' || (ddsketch_info(s) ->> 'scale'), ',' ORDER BY name) FROM imported;

-- Exact imports: every bucket as ddsketch_agg puts the same values.
CREATE FUNCTION pg_temp.buckets(s ddsketch) RETURNS jsonb LANGUAGE sql AS
  $$ SELECT ddsketch_to_otel(s) - 'sum' - 'min' - 'max' $$;
SELECT CASE WHEN pg_temp.buckets(s) = pg_temp.buckets((SELECT ddsketch_agg(v, alpha_s, 16384) FROM raw))
  THEN 'ok' ELSE 'not ok' END || ' exact buckets ' || name || ': every bucket count equals ddsketch_agg''s at scale '
  || (ddsketch_info(s) ->> 'scale')
FROM imported WHERE name <> 'default' ORDER BY name;

-- min and max: the JS sketch's are the values' own; the proto has none, so
-- the import's are its extreme buckets' representatives.
SELECT CASE WHEN abs(ddsketch_min(s) - min) <= accuracy * abs(min) AND abs(ddsketch_max(s) - max) <= accuracy * abs(max)
  THEN 'ok' ELSE 'not ok' END || ' min/max ' || name || ': ' || ddsketch_min(s) || ' / ' || ddsketch_max(s)
  || ' against the JS sketch''s ' || min || ' / ' || max || ' within ' || accuracy
FROM imported ORDER BY name;

-- Quantiles (q * 5000 whole: the JS rank and percentile_disc's agree): the
-- import against the true value within its accuracy, the JS answer against
-- the true value within alpha_f, the two against each other within the sum,
-- and the import against ddsketch_agg over the same values.
CREATE TEMP TABLE answers AS
  SELECT i.name, q::float8 AS q, ddsketch_quantile(i.s, q::float8) AS ours, (i.quantiles ->> q)::float8 AS js,
         (SELECT percentile_disc(q::float8) WITHIN GROUP (ORDER BY v) FROM raw) AS truth,
         ddsketch_quantile((SELECT ddsketch_agg(v) FROM raw), q::float8) AS agg,
         (SELECT ddsketch_relative_accuracy(ddsketch_agg(v)) FROM raw) AS agg_alpha,
         i.alpha, i.accuracy
  FROM imported i, jsonb_object_keys(i.quantiles) q;
SELECT CASE WHEN bool_and(abs(ours - truth) <= accuracy * abs(truth) * (1 + 1e-12))
  THEN 'ok' ELSE 'not ok' END || ' quantiles ' || name || ' vs percentile_disc: '
  || string_agg(q || ':' || ours || '~' || truth, ' ' ORDER BY q)
FROM answers GROUP BY name ORDER BY name;
SELECT CASE WHEN bool_and(abs(js - truth) <= alpha * abs(truth) * (1 + 1e-12))
  THEN 'ok' ELSE 'not ok' END || ' JS quantiles ' || name || ' vs percentile_disc within ' || max(alpha)
FROM answers GROUP BY name ORDER BY name;
SELECT CASE WHEN bool_and(abs(ours - js) <= (accuracy + alpha) * abs(truth) * (1 + 1e-12))
  THEN 'ok' ELSE 'not ok' END || ' quantiles ' || name || ' vs the JS sketch: '
  || string_agg(q || ':' || ours || '~' || js, ' ' ORDER BY q)
FROM answers GROUP BY name ORDER BY name;
SELECT CASE WHEN bool_and(abs(ours - agg) <= (accuracy + agg_alpha) * abs(truth) * (1 + 1e-12))
  THEN 'ok' ELSE 'not ok' END || ' quantiles ' || name || ' vs ddsketch_agg within ' || max(accuracy + agg_alpha)
FROM answers GROUP BY name ORDER BY name;

-- Our exports, for read.mjs: ddsketch_agg at its default scale 6, at
-- scale 9, and one sketch of zeros and negatives only.
CREATE TABLE exported AS
  SELECT 'default' AS name, ddsketch_agg(v) AS s FROM raw
  UNION ALL SELECT 'scale9', ddsketch_agg(v, 0.001, 16384) FROM raw
  UNION ALL SELECT 'nonpositive', ddsketch_agg(v) FROM raw WHERE v <= 0;
\o :work/export.json
SELECT json_agg(json_build_object('name', name, 'proto', encode(ddsketch_to_ddsketch_proto(s), 'hex'))) FROM exported;
\o
