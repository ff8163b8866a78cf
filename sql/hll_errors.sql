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
  ('unknown hash',          $q$SELECT '\x534b0101040a010000000000'::hll$q$),
  ('precision 3',           $q$SELECT '\x534b01010103010000000000'::hll$q$),
  ('precision 19',          $q$SELECT '\x534b01010113010000000000'::hll$q$),
  ('unknown encoding',      $q$SELECT '\x534b0101010a040000000000'::hll$q$),
  ('working set encoding',  $q$SELECT '\x534b0101010a030000000000'::hll$q$),
  ('unknown element kind',  $q$SELECT '\x534b0101010a012000000000'::hll$q$),
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

-- More text and bytea classes: whitespace, case, empty payloads, counts whose
-- byte size overflows 32 bits, hash identity 0, the working state by bytea.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('leading space',         $q$SELECT ' \x534b0101010a01000100000041000000'::hll$q$),
  ('trailing space',        $q$SELECT '\x534b0101010a01000100000041000000 '::hll$q$),
  ('trailing newline',      $q$SELECT E'\\x534b0101010a01000100000041000000\n'::hll$q$),
  ('upper-case \X',         $q$SELECT '\X534b0101010a01000100000041000000'::hll$q$),
  ('upper-case hex digits', $q$SELECT '\x534B0101010A01000100000041000000'::hll$q$),
  ('\x and nothing else',   $q$SELECT '\x'::hll$q$),
  ('header only',           $q$SELECT '\x534b0101010a0100'::hll$q$),
  ('count 2^30',            $q$SELECT '\x534b0101010a010000000040'::hll$q$),
  ('count 2^31',            $q$SELECT '\x534b0101010a010000000080'::hll$q$),
  ('hash identity 0',       $q$SELECT '\x534b0101000a010000000000'::hll$q$),
  ('kind 0',                $q$SELECT '\x534b0001010a010000000000'::hll$q$),
  ('kind 255',              $q$SELECT '\x534bff01010a010000000000'::hll$q$),
  ('dense p=18, 12 bytes',  $q$SELECT '\x534b01010112020000000000'::hll$q$),
  ('bytea: empty',          $q$SELECT ''::bytea::hll$q$),
  ('bytea: working set',    $q$SELECT '\x534b0101010403000000000008000000'::bytea::hll$q$),
  ('bytea: unsorted',       $q$SELECT '\x534b0101010a0100020000008100000041000000'::bytea::hll$q$),
  ('bytea: version 2',      $q$SELECT '\x534b0102010a010000000000'::bytea::hll$q$),
  ('bytea: register > max', $q$SELECT ('\x534b010101040200' || 'ff' || repeat('00', 11))::bytea::hll$q$)
) AS t(label, query);
-- Real cms and bloom values (not just their headers) read as hll, through
-- text and through bytea.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('cms text as hll',       $q$SELECT cms_add(cms_empty_sized(4, 2, false, 3), 7)::text::hll$q$),
  ('cms bytea as hll',      $q$SELECT cms_add(cms_empty_sized(4, 2, false, 3), 7)::bytea::hll$q$),
  ('empty cms as hll',      $q$SELECT cms_empty()::bytea::hll$q$),
  ('bloom text as hll',     $q$SELECT bloom_add(bloom_empty_bits(64, 3), 7)::text::hll$q$),
  ('bloom bytea as hll',    $q$SELECT bloom_add(bloom_empty_bits(64, 3), 7)::bytea::hll$q$),
  ('empty bloom as hll',    $q$SELECT bloom_empty(1000, 0.01)::bytea::hll$q$)
) AS t(label, query);
-- Upper-case digits are accepted; the output is always lower case.
SELECT '\x534B0101010A01000100000041000000'::hll::text AS upper_case_input;

-- Binary input (recv): COPY ... (FORMAT binary) hands each field's bytes to
-- hll_recv. The binary form of a bytea is its raw bytes, so a binary COPY
-- file written from a bytea column feeds arbitrary bytes to hll_recv. (The
-- file goes to the server's data directory.)
CREATE TEMP TABLE recv_target (h hll);
CREATE TEMP TABLE recv_target10 (h hll(10));
CREATE FUNCTION pg_temp.recv(bytes bytea, target text DEFAULT 'recv_target') RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  file text := current_setting('data_directory') || '/sketch_recv_test.bin';
BEGIN
  EXECUTE format('COPY (SELECT %L::bytea) TO %L (FORMAT binary)', bytes, file);
  RETURN pg_temp.attempt(format('COPY %I FROM %L (FORMAT binary)', target, file));
END $$;
SELECT label, pg_temp.recv(bytes, target) AS result FROM (VALUES
  ('recv: valid sparse',        '\x534b0101010a01000100000041000000'::bytea, 'recv_target'),
  ('recv: p=14 into hll(10)',   '\x534b0101010e01000100000041000000', 'recv_target10'),
  ('recv: empty',               '', 'recv_target'),
  ('recv: garbage',             '\xdeadbeef', 'recv_target'),
  ('recv: truncated header',    '\x534b0101010a', 'recv_target'),
  ('recv: cms bytes',           '\x534b0201010a010000000000', 'recv_target'),
  ('recv: version 2',           '\x534b0102010a010000000000', 'recv_target'),
  ('recv: working set',         '\x534b0101010403000000000008000000', 'recv_target'),
  ('recv: huge count',          '\x534b0101010a0100ffffffff', 'recv_target'),
  ('recv: unsorted entries',    '\x534b0101010a0100020000008100000041000000', 'recv_target'),
  ('recv: duplicate index',     '\x534b0101010a0100020000004100000042000000', 'recv_target'),
  ('recv: rank zero',           '\x534b0101010a01000100000040000000', 'recv_target'),
  ('recv: register > max',      '\x534b010101040200ff0000000000000000000000', 'recv_target'),
  ('recv: dense wrong length',  '\x534b01010104020000', 'recv_target'),
  ('recv: bad input into hll(10)', '\xdeadbeef', 'recv_target10'),
  ('recv: cms value',           (SELECT cms_add(cms_empty_sized(4, 2, false, 3), 7)::bytea), 'recv_target'),
  ('recv: bloom value',         (SELECT bloom_add(bloom_empty_bits(64, 3), 7)::bytea), 'recv_target')
) AS t(label, bytes, target);
-- Only the two valid rows arrived; the p = 14 one was folded to hll(10).
SELECT 'recv_target' AS tbl, h::text, hll_info(h)->'precision' AS p FROM recv_target
UNION ALL
SELECT 'recv_target10', h::text, hll_info(h)->'precision' FROM recv_target10;

-- Merges never mismatch within hll: any two precisions merge (at the smaller
-- one, exactly) and the hash identity is checked on input. (Mismatched
-- parameters are errors for cms and bloom; their tables list them.)
SELECT hll_info(hll_agg(g, 4) || hll_agg(g, 18))->'precision' AS merged_precision,
       hll_cardinality(hll_agg(g, 18) || hll_agg(g, 4)) AS cardinality
FROM generate_series(1, 1000) g;

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

-- A row type that is not the function's own (a superuser's declaration of
-- the C function with other OUT parameters) is refused, never read past.
CREATE FUNCTION hll_bounds_three_columns(hll, float8, OUT a bigint, OUT b bigint, OUT c bigint)
  AS '$libdir/sketch', 'hll_cardinality_bounds' LANGUAGE C;
SELECT * FROM hll_bounds_three_columns(hll_empty(), 0.5);
DROP FUNCTION hll_bounds_three_columns;
