-- Bad input and bad parameters: each case with its SQLSTATE, message, detail and hint.
CREATE FUNCTION pg_temp.attempt(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  detail text;
  hint text;
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
  RETURN SQLSTATE || ': ' || SQLERRM || coalesce(' | ' || nullif(detail, ''), '')
         || coalesce(' | hint: ' || nullif(hint, ''), '');
END $$;

-- A valid filter: n = 1, p = 0.5, b = 4 -> f = 4, B = 1, with 'x' added:
-- 534b (magic) 08 (cuckoo) 01 (version) 01 (hash) 04 (f) 00 (encoding)
-- 03 (element kind: text), 04 (b) 01 (S) six zero bytes, B = 1, count = 1,
-- one 64-bit word of slots, 8 guard bytes.
SELECT cuckoo_add(cuckoo_empty(1, 0.5), 'x'::text)::text AS reference;

SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('empty text',             $q$SELECT ''::cuckoo$q$),
  ('no \x prefix',           $q$SELECT '534b'::cuckoo$q$),
  ('odd hex length',         $q$SELECT '\x534'::cuckoo$q$),
  ('truncated header',       $q$SELECT '\x534b0801'::cuckoo$q$),
  ('bloom bytes as cuckoo',  $q$SELECT '\x534b030101020000640000000000000000000008000000000000000800000000'::cuckoo$q$),
  ('unknown version',        $q$SELECT '\x534b08030104000304010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('unknown hash',           $q$SELECT '\x534b08010204000304010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('f = 3',                  $q$SELECT '\x534b08010103000304010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('f = 33',                 $q$SELECT '\x534b08010121000304010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('working encoding',       $q$SELECT '\x534b08010104010304010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('deferred encoding',      $q$SELECT '\x534b08010104020304010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('distinct encoding',      $q$SELECT '\x534b08020104030304010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('distinct deferred',      $q$SELECT '\x534b08020104040304010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('unknown encoding',       $q$SELECT '\x534b08020104050304010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('unknown element kind',   $q$SELECT '\x534b08010104002004010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('bucket size 3',          $q$SELECT '\x534b08010104000303010000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('zero sub-filters',       $q$SELECT '\x534b08010104000304000000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('33 sub-filters',         $q$SELECT '\x534b08010104000304210000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('two sub-filters, one given', $q$SELECT '\x534b08010104000304020000000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('reserved byte set',      $q$SELECT '\x534b08010104000304010001000000000100000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('B = 0',                  $q$SELECT '\x534b08010104000304010000000000000000000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('huge B',                 $q$SELECT '\x534b080101040003040100000000000000ffffffffffffff000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('count 1, no slot set',   $q$SELECT '\x534b08010104000304010000000000000100000000000000010000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('count 0, a slot set',    $q$SELECT '\x534b08010104000304010000000000000100000000000000000000000000000005000000000000000000000000000000'::cuckoo$q$),
  ('count above slots',      $q$SELECT '\x534b08010104000304010000000000000100000000000000050000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('padding bit set',        $q$SELECT '\x534b08010104000304010000000000000100000000000000000000000000000000000100000000000000000000000000'::cuckoo$q$),
  ('guard byte set',         $q$SELECT '\x534b08010104000304010000000000000100000000000000000000000000000000000000000000000000000000000001'::cuckoo$q$),
  ('guard missing',          $q$SELECT '\x534b080101040003040100000000000001000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('trailing byte',          $q$SELECT '\x534b0801010400030401000000000000010000000000000000000000000000000000000000000000000000000000000000'::cuckoo$q$),
  ('bytea cast, corrupt',    $q$SELECT '\x534b0801'::bytea::cuckoo$q$),
  -- Parameters.
  ('n = 0',                  $q$SELECT cuckoo_empty(0, 0.01)$q$),
  ('p = 0',                  $q$SELECT cuckoo_empty(100, 0)$q$),
  ('p = 1',                  $q$SELECT cuckoo_empty(100, 1)$q$),
  ('p NaN',                  $q$SELECT cuckoo_empty(100, 'NaN')$q$),
  ('p too small for 32 bits', $q$SELECT cuckoo_empty(100, 1e-10)$q$),
  ('bucket size 3',          $q$SELECT cuckoo_empty(100, 0.01, 3)$q$),
  ('bucket size 16',         $q$SELECT cuckoo_sizing(100, 0.01, 16)$q$),
  ('too large to build',     $q$SELECT cuckoo_empty(1000000000, 0.01)$q$),
  ('sizing n = 0',           $q$SELECT cuckoo_sizing(0, 0.01)$q$),
  ('agg NULL n',             $q$SELECT cuckoo_agg(1, NULL, 0.01)$q$),
  ('agg NULL p',             $q$SELECT cuckoo_agg(1, 100, NULL)$q$),
  ('agg n changes',          $q$SELECT cuckoo_agg(g, g * 1000, 0.01) FROM generate_series(1, 3) g$q$),
  ('agg bad p',              $q$SELECT cuckoo_agg(g, 100, 2) FROM generate_series(1, 3) g$q$),
  -- Mismatches and kinds.
  ('union different p',      $q$SELECT cuckoo_union(cuckoo_empty(100, 0.01), cuckoo_empty(100, 0.001))$q$),
  ('union different b',      $q$SELECT cuckoo_union(cuckoo_empty(100, 0.01, 2), cuckoo_empty(100, 0.01, 8))$q$),
  ('union aggregate mismatch', $q$SELECT cuckoo_union(f) FROM (VALUES (cuckoo_empty(100, 0.01)), (cuckoo_empty(100, 0.001))) t(f)$q$),
  ('probe another kind',     $q$SELECT cuckoo_contains(cuckoo_add(cuckoo_empty(100, 0.01), 42), '42'::text)$q$),
  ('add another kind',       $q$SELECT cuckoo_add(cuckoo_add(cuckoo_empty(100, 0.01), 42), 'x'::text)$q$),
  ('delete another kind',    $q$SELECT cuckoo_delete(cuckoo_add(cuckoo_empty(100, 0.01), 42), 'x'::text)$q$),
  ('count another kind',     $q$SELECT cuckoo_count(cuckoo_add(cuckoo_empty(100, 0.01), 42), 'x'::text)$q$),
  ('union of kinds',         $q$SELECT cuckoo_union(cuckoo_add(cuckoo_empty(100, 0.01), 42), cuckoo_add(cuckoo_empty(100, 0.01), 'x'::text))$q$)
) AS cases(label, query);

-- Limits (54000): a chain of more than 32 sub-filters. Each filter below is
-- one full bucket (n = 1: B = 1, 4 slots) of 4 distinct values; a union with
-- another full one appends a sub-filter, until a 33rd would be needed.
SELECT pg_temp.attempt($q$
  SELECT cuckoo_union(f) FROM (
    SELECT k, cuckoo_add(cuckoo_add(cuckoo_add(cuckoo_add(cuckoo_empty(1, 1e-8),
             4 * k), 4 * k + 1), 4 * k + 2), 4 * k + 3) AS f
    FROM generate_series(1, 40) k ORDER BY k) t$q$) AS chain_limit;
SELECT cuckoo_info(cuckoo_union(f)) - 'fpp' - 'load' AS sixteen FROM (
    SELECT k, cuckoo_add(cuckoo_add(cuckoo_add(cuckoo_add(cuckoo_empty(1, 1e-8),
             4 * k), 4 * k + 1), 4 * k + 2), 4 * k + 3) AS f
    FROM generate_series(1, 16) k ORDER BY k) t;
-- Growth past the limit (issue 24): a value that needs room in a chain of
-- 32 full sub-filters is refused with 54000 and plan_grow's message, by
-- cuckoo_add and by an aggregate's transition (a user's aggregate over
-- cuckoo_agg_trans started from that chain), never a request for an
-- impossible size.
CREATE TEMP TABLE chain32 AS SELECT cuckoo_union(f) AS f FROM (
    SELECT k, cuckoo_add(cuckoo_add(cuckoo_add(cuckoo_add(cuckoo_empty(1, 1e-8),
             4 * k), 4 * k + 1), 4 * k + 2), 4 * k + 3) AS f
    FROM generate_series(1, 32) k ORDER BY k) t;
SELECT cuckoo_info(f)->'subfilters' AS subfilters, cuckoo_info(f)->'load' AS load FROM chain32;
SELECT pg_temp.attempt(format($q$SELECT cuckoo_add(%L::cuckoo, 1000)$q$, f)) AS add_past_32 FROM chain32;
DO $$ BEGIN
  EXECUTE format('CREATE AGGREGATE pg_temp.agg_from_chain(anyelement, bigint, double precision) '
                 '(SFUNC = cuckoo_agg_trans, STYPE = cuckoo, INITCOND = %L)', (SELECT f::text FROM chain32));
END $$;
SELECT pg_temp.attempt($q$SELECT pg_temp.agg_from_chain(g, 1, 1e-8)::text FROM generate_series(1000, 1003) g$q$)
  AS agg_past_32;
