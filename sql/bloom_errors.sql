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

-- A valid filter of m = 100 bits, k = 2, with bits 35 and 99 set, to corrupt
-- byte by byte: 534b (magic) 03 (bloom) 01 (version) 01 (hash) 02 (k)
-- 00 (encoding) 03 (element kind: text), m = 100 as uint64, then two 64-bit words.
SELECT '\x534b030101020003640000000000000000000008000000000000000800000000'::bloom
       = bloom_add(bloom_empty_bits(100, 2), 'x'::text) AS valid_reference;

SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('empty text',             $q$SELECT ''::bloom$q$),
  ('no \x prefix',           $q$SELECT '534b'::bloom$q$),
  ('odd hex length',         $q$SELECT '\x534'::bloom$q$),
  ('non-hex digit',          $q$SELECT '\x534z'::bloom$q$),
  ('truncated header',       $q$SELECT '\x534b0301'::bloom$q$),
  ('bad magic',              $q$SELECT '\x00000301010200006400000000000000'::bloom$q$),
  ('hll bytes as bloom',     $q$SELECT '\x534b0101010a01000000000000000000'::bloom$q$),
  ('cms bytes as bloom',     $q$SELECT '\x534b0201010200006400000000000000'::bloom$q$),
  ('unknown version',        $q$SELECT '\x534b0302010200006400000000000000'::bloom$q$),
  ('version zero',           $q$SELECT '\x534b0300010200006400000000000000'::bloom$q$),
  ('unknown hash',           $q$SELECT '\x534b0301020200006400000000000000'::bloom$q$),
  ('zero hashes',            $q$SELECT '\x534b0301010000006400000000000000'::bloom$q$),
  ('65 hashes',              $q$SELECT '\x534b0301014100006400000000000000'::bloom$q$),
  ('working state encoding', $q$SELECT '\x534b0301010201006400000000000000'::bloom$q$),
  ('unknown encoding',       $q$SELECT '\x534b0301010204006400000000000000'::bloom$q$),
  ('unknown element kind',   $q$SELECT '\x534b0301010200206400000000000000'::bloom$q$),
  ('no bit count',           $q$SELECT '\x534b030101020000'::bloom$q$),
  ('bit count truncated',    $q$SELECT '\x534b0301010200006400'::bloom$q$),
  ('m = 0',                  $q$SELECT '\x534b0301010200000000000000000000'::bloom$q$),
  ('m = 7',                  $q$SELECT '\x534b03010102000007000000000000000000000000000000'::bloom$q$),
  ('m above maximum',        $q$SELECT '\x534b0301010200000150d6dc01000000'::bloom$q$),
  ('huge declared m',        $q$SELECT '\x534b030101020000ffffffffffffffff'::bloom$q$),
  ('largest m, no bits',     $q$SELECT '\x534b0301010200000050d6dc01000000'::bloom$q$),
  ('bits missing',           $q$SELECT '\x534b0301010200006400000000000000'::bloom$q$),
  ('one word short',         $q$SELECT '\x534b0301010200006400000000000000ffffffffffffffff'::bloom$q$),
  ('trailing byte',          $q$SELECT '\x534b03010102000064000000000000000000000000000000000000000000000000'::bloom$q$),
  ('bit 92 set (not padding)', $q$SELECT '\x534b030101020000640000000000000000000000000000000000001000000000'::bloom$q$),
  ('padding bit 100 set',    $q$SELECT '\x534b030101020000640000000000000000000000000000000000000010000000'::bloom$q$),
  ('padding bit 127 set',    $q$SELECT '\x534b030101020000640000000000000000000000000000000000000000000080'::bloom$q$),
  ('bytea: truncated',       $q$SELECT '\x534b030101020000'::bytea::bloom$q$),
  ('bytea: garbage',         $q$SELECT '\xdeadbeef'::bytea::bloom$q$),
  ('bytea: padding bit',     $q$SELECT '\x534b030101020000640000000000000000000000000000000000000000000080'::bytea::bloom$q$),
  ('bytea: hll',             $q$SELECT hll_empty()::bytea::bloom$q$)
) AS t(label, query);

-- Text that is not "\x" + hex of a filter, and another type's real values
-- read as bloom (and bloom values as the others), through text and bytea.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('leading space',          $q$SELECT ' \x534b030101020000640000000000000000000000000000000000000000000000'::bloom$q$),
  ('trailing space',         $q$SELECT '\x534b030101020000640000000000000000000000000000000000000000000000 '::bloom$q$),
  ('trailing newline',       $q$SELECT E'\\x534b030101020000640000000000000000000000000000000000000000000000\n'::bloom$q$),
  ('upper-case \X',          $q$SELECT '\X534b030101020000640000000000000000000000000000000000000000000000'::bloom$q$),
  ('\x and nothing else',    $q$SELECT '\x'::bloom$q$),
  ('random bytes',           $q$SELECT '\xdeadbeef'::bloom$q$),
  ('bytea: empty',           $q$SELECT ''::bytea::bloom$q$),
  ('bytea: bits missing',    $q$SELECT '\x534b0301010200006400000000000000'::bytea::bloom$q$),
  ('bytea: huge declared m', $q$SELECT '\x534b030101020000ffffffffffffffff'::bytea::bloom$q$),
  ('bytea: version 2',       $q$SELECT '\x534b030201020000640000000000000000000000000000000000000000000000'::bytea::bloom$q$),
  ('bytea: working state',   $q$SELECT '\x534b030101020100640000000000000000000000000000000000000000000000'::bytea::bloom$q$),
  ('hll text as bloom',      $q$SELECT hll_add(hll_empty(10), 7)::text::bloom$q$),
  ('hll bytea as bloom',     $q$SELECT hll_add(hll_empty(10), 7)::bytea::bloom$q$),
  ('cms text as bloom',      $q$SELECT cms_add(cms_empty_sized(4, 2, false, 3), 7)::text::bloom$q$),
  ('cms bytea as bloom',     $q$SELECT cms_add(cms_empty_sized(4, 2, false, 3), 7)::bytea::bloom$q$),
  ('bloom text as hll',      $q$SELECT bloom_add(bloom_empty_bits(100, 2), 'x'::text)::text::hll$q$),
  ('bloom bytea as hll',     $q$SELECT bloom_add(bloom_empty_bits(100, 2), 'x'::text)::bytea::hll$q$),
  ('bloom text as cms',      $q$SELECT bloom_add(bloom_empty_bits(100, 2), 'x'::text)::text::cms$q$),
  ('bloom bytea as cms',     $q$SELECT bloom_add(bloom_empty_bits(100, 2), 'x'::text)::bytea::cms$q$)
) AS t(label, query);
-- Upper-case hex digits are accepted; the output is always lower case.
SELECT ('\x' || upper(substr(f::text, 3)))::bloom = f AS upper_case_input
FROM (SELECT bloom_add(bloom_empty_bits(100, 2), 'x'::text) AS f) s;

-- Binary input (recv): COPY ... (FORMAT binary) hands each field's bytes to
-- bloom_recv; the binary form of a bytea is its raw bytes, so a binary COPY
-- file written from a bytea feeds arbitrary bytes to bloom_recv. (The file
-- goes to the server's data directory.)
CREATE TEMP TABLE recv_target (f bloom);
CREATE FUNCTION pg_temp.recv(bytes bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  file text := current_setting('data_directory') || '/sketch_bloom_recv_test.bin';
BEGIN
  EXECUTE format('COPY (SELECT %L::bytea) TO %L (FORMAT binary)', bytes, file);
  RETURN pg_temp.attempt(format('COPY recv_target FROM %L (FORMAT binary)', file));
END $$;
SELECT label, pg_temp.recv(bytes) AS result FROM (VALUES
  ('recv: valid',            '\x534b030101020003640000000000000000000008000000000000000800000000'::bytea),
  ('recv: empty',            ''),
  ('recv: garbage',          '\xdeadbeef'),
  ('recv: no bit count',     '\x534b030101020000'),
  ('recv: version 2',        '\x534b030201020000640000000000000000000000000000000000000000000000'),
  ('recv: 65 hashes',        '\x534b030101410000640000000000000000000000000000000000000000000000'),
  ('recv: working state',    '\x534b030101020100640000000000000000000000000000000000000000000000'),
  ('recv: huge declared m',  '\x534b030101020000ffffffffffffffff'),
  ('recv: one word short',   '\x534b0301010200006400000000000000ffffffffffffffff'),
  ('recv: padding bit 127',  '\x534b030101020000640000000000000000000000000000000000000000000080'),
  ('recv: hll value',        (SELECT hll_add(hll_empty(10), 7)::bytea)),
  ('recv: cms value',        (SELECT cms_add(cms_empty_sized(4, 2, false, 3), 7)::bytea))
) AS t(label, bytes);
-- Only the valid row arrived.
SELECT count(*) AS rows_loaded, bool_and(f = bloom_add(bloom_empty_bits(100, 2), 'x'::text)) AS is_reference
FROM recv_target;

-- The same through psql's \copy, the way a client would load a file.
CREATE TABLE bloom_bin (b bytea);
INSERT INTO bloom_bin VALUES ('\x534b030101020000640000000000000000000000000000000000000000000080');
\copy bloom_bin TO 'results/bloom_errors.bin' WITH (FORMAT binary)
CREATE TABLE bloom_recv_target (f bloom);
\copy bloom_recv_target FROM 'results/bloom_errors.bin' WITH (FORMAT binary)
SELECT count(*) AS rows_loaded FROM bloom_recv_target;

-- Parameters out of range: 22023 with a hint; NULL parameters of an aggregate: 22004.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('sizing n = 0',              $q$SELECT bloom_sizing(0, 0.01)$q$),
  ('empty n = -5',              $q$SELECT bloom_empty(-5, 0.01)$q$),
  ('empty p = 0',               $q$SELECT bloom_empty(100, 0)$q$),
  ('empty p = 1',               $q$SELECT bloom_empty(100, 1)$q$),
  ('empty p = NaN',             $q$SELECT bloom_empty(100, 'NaN')$q$),
  ('empty p = -infinity',       $q$SELECT bloom_empty(100, '-Infinity')$q$),
  ('over 1 GB',                 $q$SELECT bloom_sizing(1000000000, 0.01)$q$),
  ('too many hashes',           $q$SELECT bloom_empty(10, 1e-30)$q$),
  ('bits 7',                    $q$SELECT bloom_empty_bits(7, 3)$q$),
  ('bits above maximum',        $q$SELECT bloom_empty_bits(8000000001, 3)$q$),
  ('hashes 0',                  $q$SELECT bloom_empty_bits(100, 0)$q$),
  ('hashes 65',                 $q$SELECT bloom_empty_bits(100, 65)$q$),
  ('agg n = 0',                 $q$SELECT bloom_agg(g, 0, 0.01) FROM generate_series(1, 3) g$q$),
  ('agg p = 2',                 $q$SELECT bloom_agg(g, 10, 2) FROM generate_series(1, 3) g$q$),
  ('agg n = NULL',              $q$SELECT bloom_agg(g, NULL, 0.01) FROM generate_series(1, 3) g$q$),
  ('agg p = NULL',              $q$SELECT bloom_agg(g, 10, NULL) FROM generate_series(1, 3) g$q$),
  ('agg n varies',              $q$SELECT bloom_agg(g, 10 * g, 0.01) FROM generate_series(1, 3) g$q$),
  ('agg p varies',              $q$SELECT bloom_agg(g, 10, 0.1 / g) FROM generate_series(1, 3) g$q$),
  ('agg_bits hashes = 0',       $q$SELECT bloom_agg_bits(g, 100, 0) FROM generate_series(1, 3) g$q$),
  ('agg_bits hashes = NULL',    $q$SELECT bloom_agg_bits(g, 100, NULL) FROM generate_series(1, 3) g$q$),
  ('agg_bits bits vary',        $q$SELECT bloom_agg_bits(g, 100 + g, 3) FROM generate_series(1, 3) g$q$),
  ('trans on another filter',   $q$SELECT bloom_agg_trans(bloom_empty(10, 0.01), 1, 20, 0.01)$q$),
  ('untyped literal',           $q$SELECT bloom_empty(10, 0.01) @> 'apple'$q$)
) AS t(label, query);

-- Parameters that never size anything are not checked: all-NULL values.
SELECT bloom_agg(NULL::int, 0, 5) IS NULL AS not_sized;

-- Combining filters with different parameters: 22023 naming both.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('union m differs',     $q$SELECT bloom_empty_bits(100, 3) | bloom_empty_bits(200, 3)$q$),
  ('union k differs',     $q$SELECT bloom_union(bloom_empty_bits(100, 3), bloom_empty_bits(100, 4))$q$),
  ('intersect differs',   $q$SELECT bloom_empty(1000, 0.01) & bloom_empty(1000, 0.001)$q$),
  ('union aggregate',     $q$SELECT bloom_union(f) FROM (VALUES (bloom_empty(10, 0.01)), (bloom_empty(20, 0.01))) t(f)$q$),
  ('union_trans direct',  $q$SELECT bloom_union_trans(bloom_empty(10, 0.01), bloom_empty(20, 0.01))$q$)
) AS t(label, query);

-- Leave nothing behind for later suites (hll_coexist drops the extension).
DROP TABLE bloom_bin, bloom_recv_target;
