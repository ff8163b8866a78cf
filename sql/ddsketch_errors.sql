-- ddsketch: every refused input is a clear ERROR; each case with its
-- SQLSTATE, message and detail.
CREATE FUNCTION pg_temp.attempt(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  detail text;
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
  RETURN SQLSTATE || ': ' || SQLERRM || coalesce(' | ' || nullif(detail, ''), '');
END $$;

SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  -- NaN and infinities are not numbers a bucket can hold (22023).
  ('NaN in the aggregate',       $$SELECT ddsketch_agg(v) FROM unnest(ARRAY[1, 'NaN']::float8[]) v$$),
  ('Infinity in the aggregate',  $$SELECT ddsketch_agg(v) FROM unnest(ARRAY[1, 'Infinity']::float8[]) v$$),
  ('-Infinity added',            $$SELECT ddsketch_add(ddsketch_empty(), '-Infinity')$$),
  ('rank of NaN',                $$SELECT ddsketch_rank(ddsketch_agg(1.0), 'NaN')$$),
  ('rank of Infinity',           $$SELECT ddsketch_rank(ddsketch_agg(1.0), 'Infinity')$$),
  -- Parameters out of range (22023), NULL parameters (22004).
  ('accuracy 0',                 $$SELECT ddsketch_empty(0)$$),
  ('accuracy 1',                 $$SELECT ddsketch_empty(1)$$),
  ('accuracy below scale 12',    $$SELECT ddsketch_empty(0.00001)$$),
  ('accuracy NaN',               $$SELECT ddsketch_empty('NaN')$$),
  ('15 buckets',                 $$SELECT ddsketch_empty(0.01, 15)$$),
  ('65537 buckets',              $$SELECT ddsketch_empty(0.01, 65537)$$),
  ('8 buckets in the aggregate', $$SELECT ddsketch_agg(g, 0.01, 8) FROM generate_series(1, 3) g$$),
  ('NULL accuracy',              $$SELECT ddsketch_agg(g, NULL) FROM generate_series(1, 3) g$$),
  ('NULL max_buckets',           $$SELECT ddsketch_agg(g, 0.01, NULL) FROM generate_series(1, 3) g$$),
  -- Parameters must be the same for every row of a group.
  ('accuracy changes by row',    $$SELECT ddsketch_agg(g, CASE WHEN g < 3 THEN 0.01 ELSE 0.001 END) FROM generate_series(1, 5) g$$),
  -- Quantiles outside 0..1 (22023).
  ('quantile 1.5',               $$SELECT ddsketch_quantile(ddsketch_agg(1.0), 1.5)$$),
  ('quantile -0.1',              $$SELECT ddsketch_quantile(ddsketch_agg(1.0), -0.1)$$),
  ('quantile NaN',               $$SELECT ddsketch_quantile(ddsketch_agg(1.0), 'NaN')$$),
  ('quantiles with 2',           $$SELECT ddsketch_quantiles(ddsketch_agg(1.0), '{0.5, 2}')$$),
  ('quantiles 2-D',              $$SELECT ddsketch_quantiles(ddsketch_agg(1.0), '{{0.5}}')$$),
  -- Bad bytes: text input 22P02, binary input and casts 22P03.
  ('not hex',                    $$SELECT 'abc'::ddsketch$$),
  ('empty',                      $$SELECT '\x'::ddsketch$$),
  ('magic only',                 $$SELECT '\x534b'::ddsketch$$),
  ('one byte',                   $$SELECT '\x00'::bytea::ddsketch$$),
  ('an hll as text',             $$SELECT hll_empty()::text::ddsketch$$),
  ('an hll as bytea',            $$SELECT hll_empty()::bytea::ddsketch$$),
  ('count corrupted',            $$SELECT overlay(ddsketch_agg(g)::bytea PLACING '\xff'::bytea FROM 17)::ddsketch FROM generate_series(1, 10) g$$),
  ('truncated',                  $$SELECT substring(ddsketch_agg(g)::bytea FROM 1 FOR 40)::ddsketch FROM generate_series(1, 10) g$$),
  ('a working state',            $$SELECT overlay(ddsketch_empty()::bytea PLACING '\x02'::bytea FROM 7)::ddsketch$$),
  ('scale 13',                   $$SELECT overlay(ddsketch_empty()::bytea PLACING '\x0d'::bytea FROM 6)::ddsketch$$)
) AS cases(label, query);

-- A NULL q gives NULL, not an error.
SELECT ddsketch_quantile(ddsketch_agg(1.0), NULL) IS NULL AS null_q;

-- A count beyond bigint (only unions of a sketch with itself get there):
-- ddsketch_count refuses (22003); ddsketch_info still shows it.
WITH RECURSIVE r(n, s) AS (SELECT 0, ddsketch_agg(g) FROM generate_series(1, 3) g
                           UNION ALL SELECT n + 1, s || s FROM r WHERE n < 62)
SELECT pg_temp.attempt(format('SELECT ddsketch_count(%L::ddsketch)', s::text)) AS count,
       ddsketch_info(s)->'count' AS info_count
FROM r WHERE n = 62;
