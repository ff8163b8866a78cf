-- Bad input and bad parameters: each case with its SQLSTATE and message.
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

-- A valid p = 10 sparse sketch with one entry, to corrupt byte by byte:
-- 534b (magic) 01 (hll) 01 (version) 01 (hash) 0a (p) 01 (sparse) 00, count, entries.
SELECT '\x534b0101010a01000100000041000000'::hll IS NOT NULL AS valid_reference;

SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('empty text',            $q$SELECT ''::hll$q$),
  ('no \x prefix',          $q$SELECT '534b'::hll$q$),
  ('odd hex length',        $q$SELECT '\x534'::hll$q$),
  ('non-hex digit',         $q$SELECT '\x534g'::hll$q$),
  ('truncated header',      $q$SELECT '\x534b0101'::hll$q$),
  ('bad magic',             $q$SELECT '\x00000101010a010000000000'::hll$q$),
  ('cms bytes as hll',      $q$SELECT '\x534b0201010a010000000000'::hll$q$),
  ('bloom bytes as hll',    $q$SELECT '\x534b0301010a010000000000'::hll$q$),
  ('unknown version',       $q$SELECT '\x534b0102010a010000000000'::hll$q$),
  ('version zero',          $q$SELECT '\x534b0100010a010000000000'::hll$q$),
  ('unknown hash',          $q$SELECT '\x534b0101020a010000000000'::hll$q$),
  ('precision 3',           $q$SELECT '\x534b01010103010000000000'::hll$q$),
  ('precision 19',          $q$SELECT '\x534b01010113010000000000'::hll$q$),
  ('unknown encoding',      $q$SELECT '\x534b0101010a040000000000'::hll$q$),
  ('working set encoding',  $q$SELECT '\x534b0101010a030000000000'::hll$q$),
  ('reserved byte',         $q$SELECT '\x534b0101010a010100000000'::hll$q$),
  ('count beyond data',     $q$SELECT '\x534b0101010a010002000000'::hll$q$),
  ('huge declared count',   $q$SELECT '\x534b0101010a0100ffffffff'::hll$q$),
  ('trailing bytes',        $q$SELECT '\x534b0101010a0100010000004100000000'::hll$q$),
  ('unsorted entries',      $q$SELECT '\x534b0101010a0100020000008100000041000000'::hll$q$),
  ('duplicate index',       $q$SELECT '\x534b0101010a0100020000004100000042000000'::hll$q$),
  ('rank zero',             $q$SELECT '\x534b0101010a01000100000040000000'::hll$q$),
  ('rank above maximum',    $q$SELECT '\x534b0101010a01000100000068000000'::hll$q$),
  ('too many sparse (p=4)', $q$SELECT '\x534b01010104010003000000410000008100000001010000'::hll$q$),
  ('dense wrong length',    $q$SELECT '\x534b01010104020000'::hll$q$),
  ('dense register > max',  $q$SELECT ('\x534b010101040200' || 'ff' || repeat('00', 11))::hll$q$),
  ('bytea: truncated',      $q$SELECT '\x534b0101010a0100'::bytea::hll$q$),
  ('bytea: garbage',        $q$SELECT '\xdeadbeef'::bytea::hll$q$),
  ('bytea: dense short',    $q$SELECT '\x534b0101010e0200ffff'::bytea::hll$q$)
) AS t(label, query);

-- Parameters out of range.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('hll_empty(3)',          $q$SELECT hll_empty(3)$q$),
  ('hll_empty(19)',         $q$SELECT hll_empty(19)$q$),
  ('hll_agg p = 2',         $q$SELECT hll_agg(g, 2) FROM generate_series(1, 3) g$q$),
  ('hll_agg p = NULL',      $q$SELECT hll_agg(g, NULL) FROM generate_series(1, 3) g$q$),
  ('hll_agg p varies',      $q$SELECT hll_agg(g, 10 + g) FROM generate_series(1, 3) g$q$),
  ('typmod hll(3)',         $q$CREATE TEMP TABLE bad (h hll(3))$q$),
  ('typmod hll(19)',        $q$CREATE TEMP TABLE bad (h hll(19))$q$),
  ('typmod hll(10, 2)',     $q$CREATE TEMP TABLE bad (h hll(10, 2))$q$),
  ('raise precision',       $q$SELECT hll_empty(10)::hll(12)$q$),
  ('confidence 0',          $q$SELECT hll_cardinality_bounds(hll_empty(), 0)$q$),
  ('confidence 1',          $q$SELECT hll_cardinality_bounds(hll_empty(), 1)$q$),
  ('confidence NaN',        $q$SELECT hll_cardinality_bounds(hll_empty(), 'NaN')$q$)
) AS t(label, query);

-- A NULL confidence gives NULL, as for any other NULL parameter.
SELECT hll_cardinality_bounds(hll_empty(), NULL) IS NULL AS null_confidence;

-- Extreme but valid: every register saturated. The estimate saturates at
-- bigint's maximum instead of overflowing.
SELECT #h AS saturated, (hll_cardinality_bounds(h)).upper
FROM (SELECT '\x534b0101010402007ddff77ddff77ddff77ddff7'::hll AS h) s;
