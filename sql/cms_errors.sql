-- Bad input and bad parameters: each case with its SQLSTATE, message and detail.
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
         || CASE WHEN nullif(hint, '') IS NULL THEN '' ELSE ' | (hint)' END;
END $$;

-- A valid 4 x 2 plain sketch with k = 3 and two candidates, to corrupt byte
-- by byte (overlay positions are 1-based):
--   1-8 header 534b 02 01 01 00 01 00; 9-12 width; 13-16 depth; 17-20 k;
--   21-24 candidates; 25-32 N; 33-96 counters; 97-120 two records
--   (hash, end of text); 121-123 the texts.
CREATE TEMP TABLE ref AS
SELECT cms_add(cms_add(cms_empty_sized(4, 2, false, 3), 7, 3), 42, 2)::bytea AS b;
SELECT b AS reference, b::cms IS NOT NULL AS valid FROM ref;

SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('empty text',          $q$SELECT ''::cms$q$),
  ('no \x prefix',        $q$SELECT '534b'::cms$q$),
  ('odd hex length',      $q$SELECT '\x534'::cms$q$),
  ('non-hex digit',       $q$SELECT '\x534z'::cms$q$),
  ('truncated header',    $q$SELECT '\x534b0201'::cms$q$),
  ('header only',         $q$SELECT '\x534b020101000100'::cms$q$),
  ('hll bytes as cms',    $q$SELECT hll_empty()::bytea::cms$q$),
  ('cms text as hll',     $q$SELECT cms_empty()::text::hll$q$)
) AS t(label, query);

-- Every corruption, through the text input (22P02) and the bytea cast (22P03).
CREATE TEMP TABLE corruptions (label text, pos int, bytes bytea);
INSERT INTO corruptions VALUES
  ('bad magic',               1, '\x58'),
  ('bloom kind',              3, '\x03'),
  ('unknown kind',            3, '\x0b'),
  ('version 0',               4, '\x00'),
  ('version 2',               4, '\x02'),
  ('unknown hash',            5, '\x07'),
  ('unknown flag',            6, '\x02'),
  ('working state encoding',  7, '\x02'),
  ('unknown encoding',        7, '\x05'),
  ('unknown element kind',    8, '\x20'),
  ('width 0',                 9, '\x00000000'),
  ('width 5',                 9, '\x05000000'),
  ('huge width',              9, '\xffffffff'),
  ('depth 0',                13, '\x00000000'),
  ('depth 33',               13, '\x21000000'),
  ('k above maximum',        17, '\x11270000'),
  ('more candidates than k', 17, '\x01000000'),
  ('candidates beyond data', 21, '\x03000000'),
  ('total above 2^63-1',     25, '\x0000000000000080'),
  ('total off by one',       25, '\x0600000000000000'),
  ('counter above total',    33, '\x6300000000000000'),
  ('text end beyond texts',  105, '\x05000000'),
  ('clipped short text',     108, '\x80'),
  ('zero byte in text',      121, '\x00'),
  ('invalid UTF-8 text',     121, '\xff');
SELECT label,
       pg_temp.attempt(format('SELECT %L::cms', '\x' || encode(overlay(b placing bytes from pos), 'hex'))) AS as_text,
       pg_temp.attempt(format('SELECT %L::bytea::cms', overlay(b placing bytes from pos))) AS as_bytea
FROM corruptions, ref ORDER BY pos, label;

SELECT label, pg_temp.attempt(format('SELECT %L::bytea::cms', bytes)) AS result
FROM (SELECT 'trailing byte', b || '\x41'::bytea FROM ref
      UNION ALL SELECT 'texts one byte short', substr(b, 1, length(b) - 1) FROM ref
      UNION ALL SELECT 'unsorted hashes', substr(b, 1, 96) || substr(b, 109, 8) || substr(b, 105, 4) || substr(b, 97, 8) || substr(b, 117) FROM ref
      UNION ALL SELECT 'duplicate hashes', substr(b, 1, 96) || substr(b, 97, 8) || substr(b, 105, 4) || substr(b, 97, 8) || substr(b, 117) FROM ref
      UNION ALL SELECT 'row sum off', overlay(b placing '\x04' from 33) FROM ref
      UNION ALL SELECT 'conservative rows too small',
                       overlay(overlay(b placing '\x01' from 6) placing '\x0b' from 25) FROM ref
      UNION ALL SELECT 'candidate never counted', overlay(b placing '\x0000004000000000' from 97) FROM ref
) AS t(label, bytes);

-- More truncations and sizes declared beyond the data (checked against the
-- real length before anything is read or allocated), and counters out of
-- range or inconsistent with N, by bytea.
SELECT label, pg_temp.attempt(format('SELECT %L::bytea::cms', bytes)) AS result
FROM (SELECT 'fixed fields truncated (31 bytes)', substr(b, 1, 31) FROM ref
      UNION ALL SELECT 'counters truncated', substr(b, 1, 60) FROM ref
      UNION ALL SELECT 'records truncated', substr(b, 1, 100) FROM ref
      UNION ALL SELECT 'width 2^31, depth 32 in 123 bytes',
                       overlay(overlay(b placing '\x00000080' from 9) placing '\x20000000' from 13) FROM ref
      UNION ALL SELECT 'width and depth at maximum, header only',
                       overlay(overlay(substr(b, 1, 32) placing '\xffffffff' from 9) placing '\x20000000' from 13) FROM ref
      UNION ALL SELECT '10000 candidates declared',
                       overlay(overlay(b placing '\x10270000' from 17) placing '\x10270000' from 21) FROM ref
      UNION ALL SELECT 'counter 2^64 - 1', overlay(b placing '\xffffffffffffffff' from 33) FROM ref
      UNION ALL SELECT 'total 2^64 - 1', overlay(b placing '\xffffffffffffffff' from 25) FROM ref
      UNION ALL SELECT 'conservative row above N',
                       overlay(overlay(b placing '\x01' from 6)
                               placing decode(repeat('0200000000000000', 4), 'hex') from 33) FROM ref
) AS t(label, bytes);

-- Text that is not "\x" + hex of a cms, and another type's real values read
-- as cms (and cms values as the others), through text and through bytea.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('leading space',           $q$SELECT ' \x534b020101000100'::cms$q$),
  ('trailing space',          $q$SELECT (ref.b::cms::text || ' ')::cms FROM ref$q$),
  ('trailing newline',        $q$SELECT (ref.b::cms::text || E'\n')::cms FROM ref$q$),
  ('upper-case \X',           $q$SELECT '\X534b020101000100'::cms$q$),
  ('\x and nothing else',     $q$SELECT '\x'::cms$q$),
  ('random bytes',            $q$SELECT '\xdeadbeef'::cms$q$),
  ('bytea: empty',            $q$SELECT ''::bytea::cms$q$),
  ('bytea: garbage',          $q$SELECT '\xdeadbeef'::bytea::cms$q$),
  ('bytea: header only',      $q$SELECT '\x534b020101000100'::bytea::cms$q$),
  ('hll text as cms',         $q$SELECT hll_add(hll_empty(10), 7)::text::cms$q$),
  ('hll bytea as cms',        $q$SELECT hll_add(hll_empty(10), 7)::bytea::cms$q$),
  ('bloom text as cms',       $q$SELECT bloom_add(bloom_empty_bits(64, 3), 7)::text::cms$q$),
  ('bloom bytea as cms',      $q$SELECT bloom_add(bloom_empty_bits(64, 3), 7)::bytea::cms$q$),
  ('cms bytea as hll',        $q$SELECT ref.b::cms::bytea::hll FROM ref$q$),
  ('cms text as bloom',       $q$SELECT ref.b::cms::text::bloom FROM ref$q$),
  ('cms bytea as bloom',      $q$SELECT ref.b::cms::bytea::bloom FROM ref$q$)
) AS t(label, query);
-- Upper-case hex digits are accepted; the output is always lower case.
SELECT ('\x' || upper(substr(b::cms::text, 3)))::cms = b::cms AS upper_case_input FROM ref;

-- Binary input (recv): COPY ... (FORMAT binary) hands each field's bytes to
-- cms_recv; the binary form of a bytea is its raw bytes, so a binary COPY
-- file written from a bytea feeds arbitrary bytes to cms_recv. (The file
-- goes to the server's data directory.)
CREATE TEMP TABLE recv_target (s cms);
CREATE FUNCTION pg_temp.recv(bytes bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  file text := current_setting('data_directory') || '/sketch_cms_recv_test.bin';
BEGIN
  EXECUTE format('COPY (SELECT %L::bytea) TO %L (FORMAT binary)', bytes, file);
  RETURN pg_temp.attempt(format('COPY recv_target FROM %L (FORMAT binary)', file));
END $$;
SELECT label, pg_temp.recv(bytes) AS result
FROM (SELECT 'recv: valid', b FROM ref
      UNION ALL SELECT 'recv: empty', ''::bytea
      UNION ALL SELECT 'recv: garbage', '\xdeadbeef'
      UNION ALL SELECT 'recv: header only', substr(b, 1, 8) FROM ref
      UNION ALL SELECT 'recv: texts one byte short', substr(b, 1, length(b) - 1) FROM ref
      UNION ALL SELECT 'recv: version 2', overlay(b placing '\x02' from 4) FROM ref
      UNION ALL SELECT 'recv: working state', overlay(b placing '\x02' from 7) FROM ref
      UNION ALL SELECT 'recv: huge width', overlay(b placing '\xffffffff' from 9) FROM ref
      UNION ALL SELECT 'recv: counter above total', overlay(b placing '\x6300000000000000' from 33) FROM ref
      UNION ALL SELECT 'recv: row sum off', overlay(b placing '\x04' from 33) FROM ref
      UNION ALL SELECT 'recv: unsorted hashes',
                       substr(b, 1, 96) || substr(b, 109, 8) || substr(b, 105, 4) || substr(b, 97, 8) || substr(b, 117) FROM ref
      UNION ALL SELECT 'recv: invalid UTF-8 text', overlay(b placing '\xff' from 121) FROM ref
      UNION ALL SELECT 'recv: hll value', hll_add(hll_empty(10), 7)::bytea
      UNION ALL SELECT 'recv: bloom value', bloom_add(bloom_empty_bits(64, 3), 7)::bytea
) AS t(label, bytes);
-- Only the valid row arrived.
SELECT count(*) AS rows_loaded, bool_and(s = (SELECT b::cms FROM ref)) AS is_reference FROM recv_target;

-- Parameters out of range.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('epsilon 0',               $q$SELECT cms_empty(0)$q$),
  ('epsilon 1',               $q$SELECT cms_empty(1)$q$),
  ('epsilon NaN',             $q$SELECT cms_empty('NaN')$q$),
  ('delta 0',                 $q$SELECT cms_empty(0.01, 0)$q$),
  ('delta 1',                 $q$SELECT cms_empty(0.01, 1)$q$),
  ('delta too small',         $q$SELECT cms_empty(0.01, 1e-20)$q$),
  ('epsilon too small',       $q$SELECT cms_empty(1e-9)$q$),
  ('sketch over 1 GB',        $q$SELECT cms_empty(2e-7, 1e-10)$q$),
  ('k -1',                    $q$SELECT cms_empty(k => -1)$q$),
  ('k 10001',                 $q$SELECT cms_empty(k => 10001)$q$),
  ('width 0',                 $q$SELECT cms_empty_sized(0, 5)$q$),
  ('depth 0',                 $q$SELECT cms_empty_sized(100, 0)$q$),
  ('depth 33',                $q$SELECT cms_empty_sized(100, 33)$q$),
  ('width over 1 GB',         $q$SELECT cms_empty_sized(200000000, 1)$q$),
  ('cms_agg epsilon 2',       $q$SELECT cms_agg(g, 2, 0.01) FROM generate_series(1, 3) g$q$),
  ('cms_agg epsilon NULL',    $q$SELECT cms_agg(g, NULL, 0.01) FROM generate_series(1, 3) g$q$),
  ('cms_agg k NULL',          $q$SELECT cms_agg(g, 0.01, 0.01, true, NULL) FROM generate_series(1, 3) g$q$),
  ('cms_agg epsilon varies',  $q$SELECT cms_agg(g, 0.01 * g, 0.01) FROM generate_series(1, 3) g$q$),
  ('cms_agg k varies',        $q$SELECT cms_agg(g, 0.01, 0.01, false, g) FROM generate_series(1, 3) g$q$),
  ('cms_agg_sized depth 40',  $q$SELECT cms_agg_sized(g, 100, 40) FROM generate_series(1, 3) g$q$),
  ('cms_agg_sized width NULL', $q$SELECT cms_agg_sized(g, NULL, 4) FROM generate_series(1, 3) g$q$),
  ('cms_agg_sized mode varies', $q$SELECT cms_agg_sized(g, 100, 4, g > 1) FROM generate_series(1, 3) g$q$),
  ('weighted count -1',       $q$SELECT cms_agg_weighted(g, -1) FROM generate_series(1, 3) g$q$),
  ('weighted sized count -5', $q$SELECT cms_agg_weighted_sized(g, -5, 10, 2) FROM generate_series(1, 3) g$q$),
  ('cms_add count -1',        $q$SELECT cms_add(cms_empty(), 1, -1)$q$),
  ('cms_topk n -1',           $q$SELECT * FROM cms_topk(cms_empty(), -1)$q$),
  ('typed topk wrong type',   $q$SELECT * FROM cms_topk((SELECT cms_agg('abc'::text)), 1, NULL::int)$q$),
  ('typed topk clipped',      $q$SELECT * FROM cms_topk((SELECT cms_agg(repeat('x', 2000))), 1, NULL::text)$q$)
) AS t(label, query);

-- Merging sketches of different width or depth names both parameter sets.
SELECT label, pg_temp.attempt(query) AS result FROM (VALUES
  ('function',      $q$SELECT cms_union(cms_empty(), cms_empty(0.01))$q$),
  ('operator',      $q$SELECT cms_empty_sized(100, 3) || cms_empty_sized(100, 4)$q$),
  ('aggregate',     $q$SELECT cms_union(s) FROM (VALUES (cms_empty()), (cms_empty(0.002))) t(s)$q$),
  ('upsert',        $q$SELECT cms_agg(1) || cms_agg(1, 0.01, 0.01)$q$)
) AS t(label, query);
-- The update mode and k may differ.
SELECT cms_info(cms_union(cms_empty(), cms_empty(0.001, 0.01, true, 7)))->>'k' AS k;

-- A NULL parameter of cms_empty gives NULL, as for any strict function.
SELECT cms_empty(NULL) IS NULL AS null_epsilon, cms_empty_sized(10, NULL) IS NULL AS null_depth;
