-- ddsketch from and to exponential histograms (OpenTelemetry OTLP JSON,
-- Prometheus native histograms): exactness at power-of-two boundaries,
-- folding, zero bucket, sum/min/max, the round trip, Prometheus' conversion
-- vectors, and every refusal with its SQLSTATE.
CREATE FUNCTION pg_temp.attempt(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- The OTLP example (interop/otel/metrics.json): zeroCount 1, buckets
-- (2,4]: 0 and (4,8]: 2, min 0, max 5, sum 10; 64-bit integers as strings.
-- It is the sketch of the values 0, 5, 5 at scale 0, byte for byte.
SELECT ddsketch_from_otel('{"count":"3","sum":10,"scale":0,"zeroCount":"1",
    "positive":{"offset":1,"bucketCounts":["0","2"]},"min":0,"max":5,"zeroThreshold":0,
    "startTimeUnixNano":"1544712660300000000","attributes":[]}')
  = ddsketch_agg(v, 0.4) AS same_as_raw_values
FROM (VALUES (0), (5), (5)) t(v);

-- Powers of two: 2^k is the upper bound of OTel bucket k 2^s - 1 and of
-- ddsketch bucket k 2^s. A count there is the sketch of 2^k itself (built
-- at scale 12 and folded to s), and OTel bucket k 2^s holds values above
-- 2^k; folded from scale 20 to any scale, the count lands where the scale's
-- own histogram puts it.
SELECT s, k,
       ddsketch_from_otel(jsonb_build_object('scale', s, 'min', 2.0^k, 'max', 2.0^k, 'sum', 2.0^k,
           'positive', jsonb_build_object('offset', k * 2^s - 1, 'bucketCounts', jsonb_build_array(1))))
         = ddsketch_union((SELECT ddsketch_agg(x, 0.0001) FROM (VALUES ((2.0^k)::float8)) v(x)),
                          ddsketch_from_otel(jsonb_build_object('scale', s))) AS same_as_the_value,
       (ddsketch_info(ddsketch_from_otel(jsonb_build_object('scale', s,
           'positive', jsonb_build_object('offset', k * 2^s, 'bucketCounts', jsonb_build_array(1)))))
         ->> 'max')::float8 > 2.0^k AS next_bucket_is_above
FROM generate_series(0, 12, 4) s, (VALUES (-10), (0), (1), (10)) k(k)
ORDER BY 1, 2;
SELECT t, k,
       ddsketch_from_otel(jsonb_build_object('scale', 20, 'min', 2.0^k, 'max', 2.0^k, 'sum', 2.0^k,
           'positive', jsonb_build_object('offset', k * 2^20 - 1, 'bucketCounts', jsonb_build_array(1))),
           max_scale => t)
         = ddsketch_from_otel(jsonb_build_object('scale', t, 'min', 2.0^k, 'max', 2.0^k, 'sum', 2.0^k,
           'positive', jsonb_build_object('offset', k * 2^t - 1, 'bucketCounts', jsonb_build_array(1))))
         AS folded_equals_direct
FROM (VALUES (12), (6), (0)) t(t), (VALUES (-3), (0), (5)) k(k)
ORDER BY 1, 2;

-- Folding: the scale-4 buckets fold to scale 2 as OTel's j >> 2, plus one.
SELECT ddsketch_to_otel(ddsketch_from_otel(
  '{"scale":4,"positive":{"offset":-5,"bucketCounts":[1,2,3,4,5,6,7,8,9]}}', max_scale => 2))
  -> 'positive' AS folded_to_scale_2;

-- The round trip: a sketch, exported and imported, is the same sketch
-- (byte for byte when its sum is a double, as here; otherwise the sum
-- comes back rounded to the nearest double, as OTLP carries it).
CREATE TEMP TABLE raw AS
  SELECT CASE WHEN g % 7 = 0 THEN 0 WHEN g % 5 = 0 THEN -g ELSE g END * 0.25 AS v
  FROM generate_series(1, 2000) g;
SELECT a, ddsketch_from_otel(ddsketch_to_otel(s)) = s AS round_trip,
       ddsketch_to_otel(s) ->> 'count' AS count, ddsketch_to_otel(s) ->> 'zeroCount' AS zeros
FROM (SELECT a, ddsketch_agg(v, a) AS s FROM raw, (VALUES (0.01), (0.1), (0.3)) a(a) GROUP BY a) x
ORDER BY a;
SELECT ddsketch_to_otel(ddsketch_from_otel(ddsketch_to_otel(s))) = ddsketch_to_otel(s) AS same_json,
       ddsketch_sum(ddsketch_from_otel(ddsketch_to_otel(s))) = ddsketch_sum(s) AS same_sum
FROM (SELECT ddsketch_agg(v * 0.37) AS s FROM raw) x;
SELECT ddsketch_to_otel(ddsketch_empty()) AS empty_sketch;
SELECT ddsketch_to_otel(ddsketch_agg(v, 0.2)) AS small
FROM (VALUES (-2.0), (0), (1), (1.5), (4)) t(v);

-- Many data points: the union of their imports (OTel scales 3 and 8 merge
-- at scale 3). jsonb_path_query pulls the data points out of an export.
SELECT ddsketch_count(ddsketch_union(ddsketch_from_otel(dp))) AS count,
       ddsketch_info(ddsketch_union(ddsketch_from_otel(dp))) ->> 'scale' AS scale
FROM jsonb_path_query('{"resourceMetrics":[{"scopeMetrics":[{"metrics":[{"exponentialHistogram":{
  "dataPoints":[{"scale":3,"count":"3","positive":{"offset":0,"bucketCounts":["1","2"]}},
                {"scale":8,"count":"2","zeroCount":"1","negative":{"offset":5,"bucketCounts":["1"]}}]}}]}]}]}',
  '$.resourceMetrics[*].scopeMetrics[*].metrics[*].exponentialHistogram.dataPoints[*]') dp;

-- Zero bucket with a threshold: its values become zeros; a min or max in
-- it reads as 0.
SELECT ddsketch_info(ddsketch_from_otel('{"scale":2,"zeroCount":3,"zeroThreshold":0.001,"min":-0.0005,
  "max":1.1,"sum":1.1,"positive":{"offset":0,"bucketCounts":[1]}}')) - 'bytes' - 'format_version' AS zero_bucket;

-- Without min, max and sum (Prometheus has no min and max), they come from
-- the bucket representatives.
SELECT ddsketch_min(s), ddsketch_max(s), ddsketch_sum(s), ddsketch_count(s)
FROM (SELECT ddsketch_from_otel('{"scale":0,"positive":{"offset":1,"bucketCounts":[1,0,1]}}') s) x;

-- A producer's floating-point sum a few ulps outside the exact bounds is
-- clamped: ten values 0.1 summed in float8 give 0.9999999999999999.
SELECT ddsketch_from_otel(jsonb_build_object('scale', 4, 'count', 10, 'min', 0.1, 'max', 0.1,
         'sum', 0.9999999999999999,
         'positive', jsonb_build_object('offset', -54, 'bucketCounts', jsonb_build_array(10))))
       = ddsketch_agg(0.1::float8, 0.03) AS clamped_sum_equals_raw
FROM generate_series(1, 10);

-- Prometheus' conversion vectors (prometheus/prometheus
-- storage/remote/otlptranslator/prometheusremotewrite/histograms_test.go,
-- TestConvertBucketsLayout, Apache-2.0 facts): OTel buckets at scale 4
-- downscaled by d give these spans and deltas at schema 4 - d. Each
-- Prometheus histogram must be the same sketch as the OTel one folded.
CREATE TEMP TABLE vectors(name text, scale_down int, otel jsonb, prom jsonb);
INSERT INTO vectors VALUES
  ('zero offset', 0, '{"scale": 4, "positive": {"offset": 0, "bucketCounts": [4, 3, 2, 1]}}', '{"schema": 4, "positiveSpans": [[1, 4]], "positiveDeltas": [4, -1, -1, -1]}'),
  ('zero offset', 1, '{"scale": 4, "positive": {"offset": 0, "bucketCounts": [4, 3, 2, 1]}}', '{"schema": 3, "positiveSpans": [[1, 2]], "positiveDeltas": [7, -4]}'),
  ('zero offset', 2, '{"scale": 4, "positive": {"offset": 0, "bucketCounts": [4, 3, 2, 1]}}', '{"schema": 2, "positiveSpans": [[1, 1]], "positiveDeltas": [10]}'),
  ('offset 1', 0, '{"scale": 4, "positive": {"offset": 1, "bucketCounts": [4, 3, 2, 1]}}', '{"schema": 4, "positiveSpans": [[2, 4]], "positiveDeltas": [4, -1, -1, -1]}'),
  ('offset 1', 1, '{"scale": 4, "positive": {"offset": 1, "bucketCounts": [4, 3, 2, 1]}}', '{"schema": 3, "positiveSpans": [[1, 3]], "positiveDeltas": [4, 1, -4]}'),
  ('offset 1', 2, '{"scale": 4, "positive": {"offset": 1, "bucketCounts": [4, 3, 2, 1]}}', '{"schema": 2, "positiveSpans": [[1, 2]], "positiveDeltas": [9, -8]}'),
  ('positive offset', 0, '{"scale": 4, "positive": {"offset": 4, "bucketCounts": [4, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]}}', '{"schema": 4, "positiveSpans": [[5, 4], [12, 1]], "positiveDeltas": [4, -2, -2, 2, -1]}'),
  ('positive offset', 1, '{"scale": 4, "positive": {"offset": 4, "bucketCounts": [4, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]}}', '{"schema": 3, "positiveSpans": [[3, 2], [6, 1]], "positiveDeltas": [6, -4, -1]}'),
  ('positive offset', 2, '{"scale": 4, "positive": {"offset": 4, "bucketCounts": [4, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]}}', '{"schema": 2, "positiveSpans": [[2, 1], [3, 1]], "positiveDeltas": [8, -7]}'),
  ('scaledown merges spans', 0, '{"scale": 4, "positive": {"offset": 4, "bucketCounts": [4, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1]}}', '{"schema": 4, "positiveSpans": [[5, 4], [8, 1]], "positiveDeltas": [4, -2, -2, 2, -1]}'),
  ('scaledown merges spans', 1, '{"scale": 4, "positive": {"offset": 4, "bucketCounts": [4, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1]}}', '{"schema": 3, "positiveSpans": [[3, 2], [4, 1]], "positiveDeltas": [6, -4, -1]}'),
  ('scaledown merges spans', 2, '{"scale": 4, "positive": {"offset": 4, "bucketCounts": [4, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1]}}', '{"schema": 2, "positiveSpans": [[2, 4]], "positiveDeltas": [8, -8, 0, 1]}'),
  ('negative offset', 0, '{"scale": 4, "positive": {"offset": -2, "bucketCounts": [3, 1, 0, 0, 0, 1]}}', '{"schema": 4, "positiveSpans": [[-1, 2], [3, 1]], "positiveDeltas": [3, -2, 0]}'),
  ('negative offset', 1, '{"scale": 4, "positive": {"offset": -2, "bucketCounts": [3, 1, 0, 0, 0, 1]}}', '{"schema": 3, "positiveSpans": [[0, 3]], "positiveDeltas": [4, -4, 1]}'),
  ('negative offset', 2, '{"scale": 4, "positive": {"offset": -2, "bucketCounts": [3, 1, 0, 0, 0, 1]}}', '{"schema": 2, "positiveSpans": [[0, 2]], "positiveDeltas": [4, -3]}'),
  ('buckets with gaps of size 1', 0, '{"scale": 4, "positive": {"offset": -2, "bucketCounts": [3, 1, 0, 1, 0, 1]}}', '{"schema": 4, "positiveSpans": [[-1, 6]], "positiveDeltas": [3, -2, -1, 1, -1, 1]}'),
  ('buckets with gaps of size 1', 1, '{"scale": 4, "positive": {"offset": -2, "bucketCounts": [3, 1, 0, 1, 0, 1]}}', '{"schema": 3, "positiveSpans": [[0, 3]], "positiveDeltas": [4, -3, 0]}'),
  ('buckets with gaps of size 1', 2, '{"scale": 4, "positive": {"offset": -2, "bucketCounts": [3, 1, 0, 1, 0, 1]}}', '{"schema": 2, "positiveSpans": [[0, 2]], "positiveDeltas": [4, -2]}'),
  ('buckets with gaps of size 2', 0, '{"scale": 4, "positive": {"offset": -2, "bucketCounts": [3, 0, 0, 1, 0, 0, 1]}}', '{"schema": 4, "positiveSpans": [[-1, 7]], "positiveDeltas": [3, -3, 0, 1, -1, 0, 1]}'),
  ('buckets with gaps of size 2', 1, '{"scale": 4, "positive": {"offset": -2, "bucketCounts": [3, 0, 0, 1, 0, 0, 1]}}', '{"schema": 3, "positiveSpans": [[0, 4]], "positiveDeltas": [3, -2, -1, 1]}'),
  ('buckets with gaps of size 2', 2, '{"scale": 4, "positive": {"offset": -2, "bucketCounts": [3, 0, 0, 1, 0, 0, 1]}}', '{"schema": 2, "positiveSpans": [[0, 3]], "positiveDeltas": [3, -2, 0]}'),
  ('zero buckets', 0, '{"scale": 4, "positive": {"offset": 0, "bucketCounts": []}}', '{"schema": 4, "positiveSpans": [], "positiveDeltas": []}'),
  ('zero buckets', 1, '{"scale": 4, "positive": {"offset": 0, "bucketCounts": []}}', '{"schema": 3, "positiveSpans": [], "positiveDeltas": []}'),
  ('zero buckets', 2, '{"scale": 4, "positive": {"offset": 0, "bucketCounts": []}}', '{"schema": 2, "positiveSpans": [], "positiveDeltas": []}');
SELECT count(*) AS vectors,
       count(*) FILTER (WHERE ddsketch_from_otel(otel, max_scale => 4 - scale_down)
                              = ddsketch_from_prometheus(prom)) AS equal
FROM vectors;
SELECT name, scale_down FROM vectors
WHERE ddsketch_from_otel(otel, max_scale => 4 - scale_down) <> ddsketch_from_prometheus(prom);

-- TestExponentialToNativeHistogram: scale 1 as is, scale 9 downsampled to
-- schema 8 (the vectors' count fields, 4 and 6, do not add up to their
-- buckets, 5 and 7: left out here, refused below).
SELECT ddsketch_from_prometheus('{"schema":1,"zero_count":1,"zero_threshold":1e-128,"sum":10.1,
         "positive_spans":[[2,2]],"positive_deltas":[1,0],"negative_spans":[[2,2]],"negative_deltas":[1,0]}')
     = ddsketch_from_otel('{"scale":1,"zero_count":1,"zero_threshold":1e-128,"sum":10.1,
         "positive":{"offset":1,"bucketCounts":[1,1]},"negative":{"offset":1,"bucketCounts":[1,1]}}') AS scale_1,
       ddsketch_from_prometheus('{"schema":8,"zeroCount":1,"positiveSpans":[{"offset":1,"length":2}],
         "positiveDeltas":[1,1],"negativeSpans":[{"offset":2,"length":2}],"negativeDeltas":[2,-1]}')
     = ddsketch_from_otel('{"scale":9,"zeroCount":1,"positive":{"offset":1,"bucketCounts":[1,1,1]},
         "negative":{"offset":2,"bucketCounts":[1,1,1]}}', max_scale => 8) AS scale_9_to_8;

-- Refusals: malformed content 22P02, values the sketch cannot hold 22023,
-- indices beyond the doubles 22003.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('not an object',        $q$SELECT ddsketch_from_otel('[1]')$q$),
  ('scalar',               $q$SELECT ddsketch_from_otel('3')$q$),
  ('no scale',             $q$SELECT ddsketch_from_otel('{}')$q$),
  ('scale text',           $q$SELECT ddsketch_from_otel('{"scale":"x"}')$q$),
  ('scale fraction',       $q$SELECT ddsketch_from_otel('{"scale":1.5}')$q$),
  ('scale huge',           $q$SELECT ddsketch_from_otel('{"scale":1e30}')$q$),
  ('negative scale',       $q$SELECT ddsketch_from_otel('{"scale":-1}')$q$),
  ('vector scale -10',     $q$SELECT ddsketch_from_otel('{"scale":-10}')$q$),
  ('scale 21',             $q$SELECT ddsketch_from_otel('{"scale":21}')$q$),
  ('max_scale 13',         $q$SELECT ddsketch_from_otel('{"scale":3}', 13)$q$),
  ('max_buckets 8',        $q$SELECT ddsketch_from_otel('{"scale":3}', 12, 8)$q$),
  ('count mismatch',       $q$SELECT ddsketch_from_otel('{"scale":3,"count":"5","positive":{"bucketCounts":["1"]}}')$q$),
  ('vector count 4',       $q$SELECT ddsketch_from_otel('{"count":4,"scale":1,"zero_count":1,"positive":{"offset":1,"bucketCounts":[1,1]},"negative":{"offset":1,"bucketCounts":[1,1]}}')$q$),
  ('negative count',       $q$SELECT ddsketch_from_otel('{"scale":3,"positive":{"bucketCounts":[-1]}}')$q$),
  ('count 2^64',           $q$SELECT ddsketch_from_otel('{"scale":3,"zeroCount":"18446744073709551616"}')$q$),
  ('counts overflow',      $q$SELECT ddsketch_from_otel('{"scale":3,"zeroCount":"18446744073709551615","positive":{"bucketCounts":[1]}}')$q$),
  ('counts not array',     $q$SELECT ddsketch_from_otel('{"scale":3,"positive":{"bucketCounts":7}}')$q$),
  ('positive not object',  $q$SELECT ddsketch_from_otel('{"scale":3,"positive":[1]}')$q$),
  ('count object',         $q$SELECT ddsketch_from_otel('{"scale":3,"positive":{"bucketCounts":[{}]}}')$q$),
  ('offset beyond int32',  $q$SELECT ddsketch_from_otel('{"scale":3,"positive":{"offset":4294967296,"bucketCounts":[1]}}')$q$),
  ('beyond the doubles',   $q$SELECT ddsketch_from_otel('{"scale":0,"positive":{"offset":1024,"bucketCounts":[1]}}')$q$),
  ('below the doubles',    $q$SELECT ddsketch_from_otel('{"scale":0,"negative":{"offset":-1076,"bucketCounts":[1]}}')$q$),
  ('too wide',             $q$SELECT ddsketch_from_prometheus('{"schema":12,"positiveSpans":[[0,1],[3000,1]],"positiveDeltas":[1,0]}')$q$),
  ('wide with max_buckets',$q$SELECT ddsketch_count(ddsketch_from_prometheus('{"schema":12,"positiveSpans":[[0,1],[3000,1]],"positiveDeltas":[1,0]}', max_buckets => 4096))$q$),
  ('prom custom buckets',  $q$SELECT ddsketch_from_prometheus('{"schema":-53}')$q$),
  ('max not in bucket',    $q$SELECT ddsketch_from_otel('{"scale":0,"max":3,"positive":{"offset":0,"bucketCounts":[1]}}')$q$),
  ('min not in bucket',    $q$SELECT ddsketch_from_otel('{"scale":0,"min":1.5,"positive":{"offset":1,"bucketCounts":[1]}}')$q$),
  ('min outside zeros',    $q$SELECT ddsketch_from_otel('{"scale":0,"min":-1,"zeroCount":1}')$q$),
  ('sum NaN',              $q$SELECT ddsketch_from_otel('{"scale":0,"sum":"NaN","zeroCount":1}')$q$),
  ('max Infinity',         $q$SELECT ddsketch_from_otel('{"scale":0,"max":"Infinity","zeroCount":1}')$q$),
  ('threshold negative',   $q$SELECT ddsketch_from_otel('{"scale":0,"zeroThreshold":-1}')$q$),
  ('prom no schema',       $q$SELECT ddsketch_from_prometheus('{"positiveSpans":[]}')$q$),
  ('prom deltas missing',  $q$SELECT ddsketch_from_prometheus('{"schema":0,"positiveSpans":[[0,1]]}')$q$),
  ('prom too few deltas',  $q$SELECT ddsketch_from_prometheus('{"schema":0,"positiveSpans":[[0,2]],"positiveDeltas":[1]}')$q$),
  ('prom too many deltas', $q$SELECT ddsketch_from_prometheus('{"schema":0,"positiveSpans":[[0,1]],"positiveDeltas":[1,1]}')$q$),
  ('prom negative count',  $q$SELECT ddsketch_from_prometheus('{"schema":0,"positiveSpans":[[0,2]],"positiveDeltas":[1,-2]}')$q$),
  ('prom bad span',        $q$SELECT ddsketch_from_prometheus('{"schema":0,"positiveSpans":[[0]],"positiveDeltas":[]}')$q$),
  ('prom span string',     $q$SELECT ddsketch_from_prometheus('{"schema":0,"positiveSpans":["x"],"positiveDeltas":[]}')$q$),
  ('prom later offset < 0',$q$SELECT ddsketch_from_prometheus('{"schema":0,"positiveSpans":[[0,1],[-1,1]],"positiveDeltas":[1,0]}')$q$),
  ('prom schema -4',       $q$SELECT ddsketch_from_prometheus('{"schema":-4}')$q$),
  ('prom count mismatch',  $q$SELECT ddsketch_from_prometheus('{"schema":0,"count":2,"zeroCount":1}')$q$)
) t(label, query);
