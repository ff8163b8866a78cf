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

-- A valid filter of m = 8 cells, k = 6, holding 'x' once, to corrupt byte by
-- byte: 534b (magic) 07 (counting_bloom) 01 (version) 01 (hash) 06 (k)
-- 00 (encoding) 03 (element kind: text), m = 8 as uint64, then one 64-bit
-- word of sixteen 4-bit counters (cells 8..15 are padding).
SELECT '\x534b07010106000308000000000000000102201000000000'::counting_bloom
       = counting_bloom_add(counting_bloom_empty(1, 0.5), 'x'::text) AS valid_reference;

SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('empty text',             $q$SELECT ''::counting_bloom$q$),
  ('no \x prefix',           $q$SELECT '534b'::counting_bloom$q$),
  ('odd hex length',         $q$SELECT '\x534'::counting_bloom$q$),
  ('truncated header',       $q$SELECT '\x534b0701'::counting_bloom$q$),
  ('bad magic',              $q$SELECT '\x000007010106000308000000000000000102201000000000'::counting_bloom$q$),
  ('bloom bytes as counting',$q$SELECT '\x534b03010106000308000000000000000102201000000000'::counting_bloom$q$),
  ('unknown version',        $q$SELECT '\x534b07020106000308000000000000000102201000000000'::counting_bloom$q$),
  ('unknown hash',           $q$SELECT '\x534b07010206000308000000000000000102201000000000'::counting_bloom$q$),
  ('zero hashes',            $q$SELECT '\x534b07010100000308000000000000000102201000000000'::counting_bloom$q$),
  ('65 hashes',              $q$SELECT '\x534b07010141000308000000000000000102201000000000'::counting_bloom$q$),
  ('working state encoding', $q$SELECT '\x534b07010106010308000000000000000102201000000000'::counting_bloom$q$),
  ('unknown encoding',       $q$SELECT '\x534b07010106020308000000000000000102201000000000'::counting_bloom$q$),
  ('unknown element kind',   $q$SELECT '\x534b07010106002008000000000000000102201000000000'::counting_bloom$q$),
  ('no cell count',          $q$SELECT '\x534b070101060003'::counting_bloom$q$),
  ('m = 7',                  $q$SELECT '\x534b07010106000307000000000000000102201000000000'::counting_bloom$q$),
  ('m above maximum',        $q$SELECT '\x534b070101060003e1fffd3f000000000102201000000000'::counting_bloom$q$),
  ('huge declared m',        $q$SELECT '\x534b070101060003ffffffffffffffff0102201000000000'::counting_bloom$q$),
  ('counters missing',       $q$SELECT '\x534b0701010600030800000000000000'::counting_bloom$q$),
  ('m = 17, one word',       $q$SELECT '\x534b07010106000311000000000000000102201000000000'::counting_bloom$q$),
  ('trailing byte',          $q$SELECT '\x534b0701010600030800000000000000010220100000000000'::counting_bloom$q$),
  ('padding cell 8 set',     $q$SELECT '\x534b07010106000308000000000000000102201001000000'::counting_bloom$q$),
  ('padding cell 15 set',    $q$SELECT '\x534b07010106000308000000000000000102201000000080'::counting_bloom$q$),
  ('bytea: garbage',         $q$SELECT '\xdeadbeef'::bytea::counting_bloom$q$),
  ('bytea: padding cell',    $q$SELECT '\x534b07010106000308000000000000000102201000000080'::bytea::counting_bloom$q$),
  ('bytea: working state',   $q$SELECT '\x534b07010106010308000000000000000102201000000000'::bytea::counting_bloom$q$),
  ('bloom text as counting', $q$SELECT bloom_empty(10, 0.1)::text::counting_bloom$q$),
  ('bloom bytea as counting',$q$SELECT bloom_empty(10, 0.1)::bytea::counting_bloom$q$),
  ('counting text as bloom', $q$SELECT counting_bloom_empty(10, 0.1)::text::bloom$q$),
  ('counting bytea as hll',  $q$SELECT counting_bloom_empty(10, 0.1)::bytea::hll$q$)
) AS t(label, query);

-- Binary input (recv) through a binary COPY of bytea values.
CREATE TEMP TABLE recv_target (f counting_bloom);
CREATE FUNCTION pg_temp.recv(bytes bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  file text := current_setting('data_directory') || '/sketch_counting_bloom_recv_test.bin';
BEGIN
  EXECUTE format('COPY (SELECT %L::bytea) TO %L (FORMAT binary)', bytes, file);
  RETURN pg_temp.attempt(format('COPY recv_target FROM %L (FORMAT binary)', file));
END $$;
SELECT label, pg_temp.recv(bytes) AS result FROM (VALUES
  ('recv: valid',            '\x534b07010106000308000000000000000102201000000000'::bytea),
  ('recv: garbage',          '\xdeadbeef'),
  ('recv: working state',    '\x534b07010106010308000000000000000102201000000000'),
  ('recv: padding cell 15',  '\x534b07010106000308000000000000000102201000000080'),
  ('recv: bloom value',      (SELECT bloom_empty(10, 0.1)::bytea))
) AS t(label, bytes);
SELECT count(*) AS rows_loaded FROM recv_target;

-- Parameters out of range: 22023 with a hint; NULL parameters of the aggregate: 22004.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('sizing n = 0',              $q$SELECT counting_bloom_sizing(0, 0.01)$q$),
  ('sizing p = 1',              $q$SELECT counting_bloom_sizing(10, 1)$q$),
  ('empty n = -5',              $q$SELECT counting_bloom_empty(-5, 0.01)$q$),
  ('empty p = 0',               $q$SELECT counting_bloom_empty(100, 0)$q$),
  ('empty p = NaN',             $q$SELECT counting_bloom_empty(100, 'NaN')$q$),
  ('too many hashes',           $q$SELECT counting_bloom_empty(10, 1e-30)$q$),
  ('too many cells',            $q$SELECT counting_bloom_empty(200000000, 0.01)$q$),
  ('agg n = 0',                 $q$SELECT counting_bloom_agg(g, 0, 0.01) FROM generate_series(1, 3) g$q$),
  ('agg n = NULL',              $q$SELECT counting_bloom_agg(g, NULL, 0.01) FROM generate_series(1, 3) g$q$),
  ('agg p = NULL',              $q$SELECT counting_bloom_agg(g, 10, NULL) FROM generate_series(1, 3) g$q$),
  ('agg n varies',              $q$SELECT counting_bloom_agg(g, 10 * g, 0.01) FROM generate_series(1, 3) g$q$),
  ('trans on another filter',   $q$SELECT counting_bloom_agg_trans(counting_bloom_empty(10, 0.01), 1, 20, 0.01)$q$),
  ('trans on corrupt bytes',    $q$SELECT counting_bloom_agg_trans('\x534b0701'::bytea::text::counting_bloom, 1, 1, 0.5)$q$),
  ('untyped literal',           $q$SELECT counting_bloom_empty(10, 0.01) @> 'apple'$q$),
  ('contains: other kind',      $q$SELECT counting_bloom_contains(counting_bloom_add(counting_bloom_empty(10, 0.1), 1), 'a'::text)$q$),
  ('delete: other kind',        $q$SELECT counting_bloom_delete(counting_bloom_add(counting_bloom_empty(10, 0.1), 1), 'a'::text)$q$),
  ('add: other kind',           $q$SELECT counting_bloom_add(counting_bloom_add(counting_bloom_empty(10, 0.1), 1), 'a'::text)$q$)
) AS t(label, query);

-- Combining filters with different parameters: 22023 naming both.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('union m differs',     $q$SELECT counting_bloom_union(counting_bloom_empty(10, 0.01), counting_bloom_empty(20, 0.01))$q$),
  ('union k differs',     $q$SELECT counting_bloom_union(counting_bloom_empty(1000, 0.01), counting_bloom_empty(1000, 0.001))$q$),
  ('union aggregate',     $q$SELECT counting_bloom_union(f) FROM (VALUES (counting_bloom_empty(10, 0.01)), (counting_bloom_empty(20, 0.01))) t(f)$q$),
  ('union_trans direct',  $q$SELECT counting_bloom_union_trans(counting_bloom_empty(10, 0.01), counting_bloom_empty(20, 0.01))$q$),
  ('union kinds differ',  $q$SELECT counting_bloom_union(counting_bloom_add(counting_bloom_empty(10, 0.1), 1), counting_bloom_add(counting_bloom_empty(10, 0.1), 'a'::text))$q$)
) AS t(label, query);
