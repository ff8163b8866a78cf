-- topk: every refused input is a clear ERROR; each case with its SQLSTATE,
-- message and detail.
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
  -- k out of range (22023), NULL k (22004), k changing between rows.
  ('k 0',                        $$SELECT topk_empty(0)$$),
  ('k 65537',                    $$SELECT topk_empty(65537)$$),
  ('k 0 in the aggregate',       $$SELECT topk_agg(g, 0) FROM generate_series(1, 3) g$$),
  ('NULL k',                     $$SELECT topk_agg(g, NULL) FROM generate_series(1, 3) g$$),
  ('k changes by row',           $$SELECT topk_agg(g, CASE WHEN g < 3 THEN 8 ELSE 16 END) FROM generate_series(1, 5) g$$),
  -- Weights: negative is an error (22023); the total must stay a bigint (22003).
  ('negative weight',            $$SELECT topk_add(topk_empty(), 1, -1)$$),
  ('negative weight, aggregate', $$SELECT topk_agg_weighted(g, -g) FROM generate_series(1, 3) g$$),
  ('total overflow',             $$SELECT topk_add(topk_add(topk_empty(), 1, 9223372036854775807), 2)$$),
  ('union overflow',             $$SELECT topk_add(topk_empty(), 1, 9223372036854775807) || topk_add(topk_empty(), 2)$$),
  -- Element kinds: a summary of numbers does not take text (22023).
  ('text into numbers',          $$SELECT topk_add(topk_add(topk_empty(), 1), 'x'::text)$$),
  ('estimate text in numbers',   $$SELECT topk_estimate(topk_add(topk_empty(), 1), 'x'::text)$$),
  ('union of kinds',             $$SELECT topk_add(topk_empty(), 1) || topk_add(topk_empty(), 'x'::text)$$),
  -- Readers' arguments.
  ('negative n',                 $$SELECT * FROM topk_items(topk_empty(), -1)$$),
  ('threshold 1.5',              $$SELECT * FROM topk_frequent(topk_empty(), 1.5, 'no_false_positives')$$),
  ('threshold NaN',              $$SELECT * FROM topk_frequent(topk_empty(), 'NaN', 'no_false_positives')$$),
  ('unknown guarantee',          $$SELECT * FROM topk_frequent(topk_empty(), 0.1, 'exact')$$),
  ('NULL guarantee',             $$SELECT * FROM topk_frequent(topk_empty(), 0.1, NULL)$$),
  ('threshold below max_error',  $$SELECT * FROM topk_frequent((SELECT topk_agg(g % 100, 4) FROM generate_series(1, 1000) g), 0.01, 'no_false_negatives')$$),
  ('hint of another type',       $$SELECT * FROM topk_items(topk_add(topk_empty(), 'x'::text), 1, NULL::int)$$),
  ('clipped text with a hint',   $$SELECT * FROM topk_items(topk_add(topk_empty(), repeat('x', 2000)), 1, NULL::text)$$),
  -- Aging factors outside (0, 1] (22023).
  ('scale 0',                    $$SELECT topk_scale(topk_empty(), 0)$$),
  ('scale 1.5',                  $$SELECT topk_scale(topk_empty(), 1.5)$$),
  ('scale NaN',                  $$SELECT topk_scale(topk_empty(), 'NaN')$$),
  ('cms scale -1',               $$SELECT cms_scale(cms_empty(), -1)$$),
  ('cms scale saturated',        $$SELECT cms_scale(cms_add(cms_add(cms_empty(), 1, 9223372036854775807), 2), 0.5)$$),
  ('sizing epsilon 0',           $$SELECT topk_sizing(0)$$),
  ('sizing epsilon 1',           $$SELECT topk_sizing(1)$$),
  -- Bad bytes: text input 22P02, binary input and casts 22P03.
  ('not hex',                    $$SELECT 'abc'::topk$$),
  ('a cms as topk',              $$SELECT cms_empty()::bytea::topk$$),
  ('truncated',                  $$SELECT substring(topk_add(topk_empty(), 1)::bytea from 1 for 40)::topk$$),
  ('k 0 in the bytes',           $$SELECT overlay(topk_empty()::bytea placing '\x00000000' from 9)::topk$$),
  ('total below the counts',     $$SELECT overlay(topk_add(topk_empty(), 1, 5)::bytea placing '\x0100000000000000' from 17)::topk$$),
  ('max_error above the total',  $$SELECT overlay(topk_add(topk_empty(), 1, 5)::bytea placing '\x0900000000000000' from 25)::topk$$),
  ('zero counter',               $$SELECT overlay(topk_add(topk_empty(), 1, 5)::bytea placing '\x0000000000000000' from 41)::topk$$),
  ('unrecorded element kind',    $$SELECT overlay(topk_empty()::bytea placing '\x00' from 8)::topk$$),
  ('working encoding',           $$SELECT overlay(topk_empty()::bytea placing '\x02' from 7)::topk$$)
) t(label, query);
