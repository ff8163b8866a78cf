-- theta: every refused input is a clear ERROR; each case with its SQLSTATE,
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
  -- lg_k out of range (22023), NULL lg_k (22004), lg_k changing between rows.
  ('lg_k 3',                     $$SELECT theta_empty(3)$$),
  ('lg_k 25',                    $$SELECT theta_empty(25)$$),
  ('lg_k 26 in the aggregate',   $$SELECT theta_agg(g, 26) FROM generate_series(1, 3) g$$),
  ('NULL lg_k',                  $$SELECT theta_agg(g, NULL) FROM generate_series(1, 3) g$$),
  ('lg_k changes by row',        $$SELECT theta_agg(g, CASE WHEN g < 3 THEN 10 ELSE 12 END) FROM generate_series(1, 5) g$$),
  ('sizing lg_k 30',             $$SELECT theta_sizing(30)$$),
  -- Confidence outside (0, 1) (22023).
  ('confidence 0',               $$SELECT theta_bounds(theta_empty(), 0)$$),
  ('confidence 1',               $$SELECT theta_bounds(theta_empty(), 1)$$),
  ('confidence NaN',             $$SELECT theta_jaccard(theta_empty(), theta_empty(), 'NaN')$$),
  -- Element kinds: a sketch of numbers does not take text (22023).
  ('text into numbers',          $$SELECT theta_add(theta_add(theta_empty(), 1), 'x'::text)$$),
  ('union of kinds',             $$SELECT theta_add(theta_empty(), 1) || theta_add(theta_empty(), 'x'::text)$$),
  ('intersection of kinds',      $$SELECT theta_add(theta_empty(), 1) & theta_add(theta_empty(), 'x'::text)$$),
  ('difference of kinds',        $$SELECT theta_diff(theta_add(theta_empty(), 1), theta_add(theta_empty(), 'x'::text))$$),
  ('jaccard of kinds',           $$SELECT theta_jaccard(theta_add(theta_empty(), 1), theta_add(theta_empty(), 'x'::text))$$),
  -- Bad bytes: text input 22P02, binary input and casts 22P03.
  ('not hex',                    $$SELECT 'abc'::theta$$),
  ('a topk as theta',            $$SELECT topk_empty()::bytea::theta$$),
  ('truncated',                  $$SELECT substring(theta_add(theta_empty(), 1)::bytea from 1 for 30)::theta$$),
  ('lg_k 2 in the bytes',        $$SELECT overlay(theta_empty()::bytea placing '\x02' from 6)::theta$$),
  ('theta 0',                    $$SELECT overlay(theta_empty()::bytea placing '\x0000000000000000' from 17)::theta$$),
  ('hash above theta',           $$SELECT overlay(theta_add(theta_empty(), 1)::bytea placing '\x0100000000000000' from 17)::theta$$),
  ('zero hash',                  $$SELECT overlay(theta_add(theta_empty(), 1)::bytea placing '\x0000000000000000' from 25)::theta$$),
  ('unrecorded element kind',    $$SELECT overlay(theta_empty()::bytea placing '\x00' from 8)::theta$$),
  ('working encoding',           $$SELECT overlay(theta_empty()::bytea placing '\x02' from 7)::theta$$)
) t(label, query);
