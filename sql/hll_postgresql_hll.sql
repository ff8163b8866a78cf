-- postgresql-hll's sketches (hash identity 2): import, export, compatible
-- hashing, unions within the identity and every refusal. The peer is not
-- needed here: its values are literals it wrote (test/interop/postgresql_hll.sh
-- runs against the installed peer).

-- Import from the peer's text form and from bytea, every representation:
-- EMPTY, EXPLICIT, SPARSE, FULL; the export gives the same bytes back.
CREATE TABLE peer_values (label text, h text);
INSERT INTO peer_values VALUES
  ('empty', '\x118b7f'),
  ('explicit', '\x128b7f4610abe56eff5cb57ace5c908374fe16'),
  ('sparse', '\x1304400dfa'),
  ('full', '\x1404008012'),
  ('spec sparse', '\x13ab7f0163445bc0');
SELECT label, hll_cardinality(hll_from_postgresql_hll(h)) AS card,
       hll_to_postgresql_hll(hll_from_postgresql_hll(h))::text = h AS text_round_trip,
       hll_to_postgresql_hll(hll_from_postgresql_hll(h::bytea)) = h::bytea AS bytea_round_trip,
       hll_info(hll_from_postgresql_hll(h)) ->> 'representation' AS representation
FROM peer_values ORDER BY label;

-- hll_info shows the identity and the peer's parameters.
SELECT hll_info(hll_from_postgresql_hll('\x128b7f4610abe56eff5cb57ace5c908374fe16', 7));

-- A FULL of few registers is stored as the peer would write it (SPARSE).
SELECT hll_to_postgresql_hll(hll_from_postgresql_hll('\x1404408012'));

-- Our text form of such a value round-trips (dump and restore).
SELECT hll_from_postgresql_hll('\x1304400dfa')::text;
SELECT (hll_from_postgresql_hll('\x1304400dfa')::text)::hll = hll_from_postgresql_hll('\x1304400dfa') AS text_io;

-- Compatible building: the bytes of the peer's
-- hll_add_agg(hll_hash_integer(g), 4, 1, 0, 0 | 1) over 1..3 and
-- hll_add_agg(hll_hash_boolean(v)) over true, false.
SELECT hll_to_postgresql_hll(hll_postgresql_hll_agg(g, 4, 1, 0, 0, 0)) AS full,
       hll_to_postgresql_hll(hll_postgresql_hll_agg(g, 4, 1, 0, 1, 0)) AS sparse
FROM generate_series(1, 3) g;
SELECT hll_to_postgresql_hll(hll_postgresql_hll_agg(v)) FROM (VALUES (true), (false)) t(v);
-- hll_add(hll_empty(), hll_hash_integer(1, 7)) in the peer:
SELECT hll_to_postgresql_hll(hll_postgresql_hll_add(hll_postgresql_hll_empty(11, 5, -1, 1, 7), 1));
-- Every overload; NULL values are skipped; no rows give NULL.
SELECT hll_cardinality(hll_postgresql_hll_agg(g::smallint)) AS int2,
       hll_cardinality(hll_postgresql_hll_agg(g)) AS int4,
       hll_cardinality(hll_postgresql_hll_agg(g::bigint)) AS int8,
       hll_cardinality(hll_postgresql_hll_agg(g::text)) AS text,
       hll_cardinality(hll_postgresql_hll_agg(g::text::bytea)) AS bytea,
       hll_cardinality(hll_postgresql_hll_agg(g % 2 = 0)) AS bool,
       hll_cardinality(hll_postgresql_hll_agg(NULLIF(g, 3))) AS skips_null
FROM generate_series(1, 100) g;
SELECT hll_postgresql_hll_agg(g) IS NULL AS no_rows FROM generate_series(1, 0) g;
-- text and bytea of the same bytes hash alike, as in the peer.
SELECT hll_postgresql_hll_agg('abc'::text) = hll_postgresql_hll_agg('abc'::bytea) AS text_is_bytea,
       hll_postgresql_hll_agg('abc'::varchar) = hll_postgresql_hll_agg('abc'::text) AS varchar_is_text;
SELECT hll_postgresql_hll_add(NULL::hll, 1) IS NULL AS null_sketch,
       hll_postgresql_hll_add(hll_postgresql_hll_empty(), NULL::integer) = hll_postgresql_hll_empty() AS null_value;

-- Promotion past expthresh, then SPARSE, then FULL; estimates on the way.
SELECT n, hll_info(h) ->> 'representation' AS representation, hll_cardinality(h) AS card,
       length(hll_to_postgresql_hll(h)) AS peer_bytes
FROM (SELECT n, hll_postgresql_hll_agg(g, 11, 5, 4, 1, 0) AS h
      FROM (VALUES (4), (5), (300), (5000)) v(n), generate_series(1, n) g GROUP BY n) s
ORDER BY n;

-- Unions within the identity: hll_union, ||, the aggregate, in parallel too.
CREATE TABLE pghll_rollup AS
SELECT g % 10 AS k, hll_postgresql_hll_agg(g) AS h FROM generate_series(1, 20000) g GROUP BY 1;
SELECT hll_union(h) = (SELECT hll_postgresql_hll_agg(g) FROM generate_series(1, 20000) g)
         AS union_equals_one_pass,
       hll_cardinality(hll_union(h)) AS card
FROM pghll_rollup;
SELECT (SELECT h FROM pghll_rollup WHERE k = 1) || (SELECT h FROM pghll_rollup WHERE k = 2)
       = hll_union((SELECT h FROM pghll_rollup WHERE k = 1), (SELECT h FROM pghll_rollup WHERE k = 2))
       AS operator_union;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE TABLE pghll_rows AS SELECT g FROM generate_series(1, 50000) g;
SELECT hll_postgresql_hll_agg(g) = (SELECT hll_union(h) FROM (SELECT hll_postgresql_hll_agg(g) AS h
         FROM pghll_rows GROUP BY g % 3) s) AS parallel_equals_split
FROM pghll_rows;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
SELECT hll_intersect_cardinality(hll_postgresql_hll_agg(g), hll_postgresql_hll_agg(g + 50))
FROM generate_series(1, 100) g;

-- The migration recipe on a dumped column (the peer's text form in text).
CREATE TABLE visits (day int, h text);
INSERT INTO visits VALUES (1, '\x128b7f4610abe56eff5cb57ace5c908374fe16'), (2, '\x118b7f');
ALTER TABLE visits ALTER COLUMN h TYPE hll USING hll_from_postgresql_hll(h::text);
SELECT day, hll_cardinality(h) FROM visits ORDER BY day;
-- A column of hll(11) takes them; another precision refuses (no fold across the peer's layout).
CREATE TABLE visits11 (h hll(11));
INSERT INTO visits11 SELECT h FROM visits;
CREATE TABLE visits12 (h hll(12));
INSERT INTO visits12 SELECT h FROM visits;
CREATE TABLE visits10 (h hll(10));
INSERT INTO visits10 SELECT h FROM visits;

-- Refusals.
SELECT hll_from_postgresql_hll('\x108b7f');                          -- UNDEFINED
SELECT hll_from_postgresql_hll('\x128b7f00');                        -- not 8-byte hashes
SELECT hll_from_postgresql_hll('\x13');                              -- truncated
SELECT hll_from_postgresql_hll('\x218b7f');                          -- schema version 2
SELECT hll_from_postgresql_hll('\x1392' || '7f');                    -- log2m 18
SELECT hll_from_postgresql_hll('\x13ab7f0163445bc1');                -- padding not zero
SELECT hll_from_postgresql_hll('x118b7f');                           -- not \x
SELECT hll_from_postgresql_hll('\x118b7g');                          -- not hex
SELECT hll_union(hll_postgresql_hll_agg(1), hll_agg(1));             -- identities differ
SELECT hll_postgresql_hll_agg(1) || hll_agg(1);
SELECT hll_union(h) FROM (SELECT hll_agg(1) UNION ALL SELECT hll_postgresql_hll_agg(1)) t(h);
SELECT hll_union(hll_postgresql_hll_agg(1), hll_postgresql_hll_agg(1, 12, 5, -1, 1, 0));  -- log2m
SELECT hll_union(hll_postgresql_hll_agg(1), hll_postgresql_hll_agg(1, 11, 5, -1, 1, 3));  -- seed
SELECT hll_add(hll_postgresql_hll_empty(), 1);                       -- xxh3 into identity 2
SELECT hll_postgresql_hll_add(hll_empty(), 1);                       -- peer hash into identity 1
SELECT hll_to_postgresql_hll(hll_agg(1));                            -- identity 1 has no peer form
SELECT hll_postgresql_hll_empty(3);
SELECT hll_postgresql_hll_empty(11, 8);
SELECT hll_postgresql_hll_empty(11, 5, 3);
SELECT hll_postgresql_hll_empty(11, 5, 16384);
SELECT hll_postgresql_hll_empty(11, 5, -1, 2);
SELECT hll_postgresql_hll_agg(g, 11, 5, -1, 1, CASE WHEN g < 3 THEN 0 ELSE 1 END) FROM generate_series(1, 5) g;
SELECT hll_postgresql_hll_agg(g, NULL, 5, -1, 1, 0) FROM generate_series(1, 5) g;
-- Types whose hll_hash_any answer is not stable: refused.
SELECT hll_postgresql_hll_agg(ARRAY[1, 2]);                           -- an array holds an OID
SELECT hll_postgresql_hll_agg(ROW(1, 'a'));                           -- a record's typmod
CREATE TYPE pghll_mood AS ENUM ('sad', 'ok');
SELECT hll_postgresql_hll_agg('ok'::pghll_mood);                       -- an enum is its label's OID
DROP TYPE pghll_mood;
SELECT hll_postgresql_hll_add(hll_postgresql_hll_empty(), '08:00:2b:01:02:03:04:05'::macaddr8);  -- by reference
SELECT hll_postgresql_hll_add(hll_postgresql_hll_empty(), int4range(1, 2));  -- a range holds an OID
-- The SQLSTATEs: corrupt bytes 22P03, bad text 22P02, UNDEFINED and
-- every mismatch 22023.
\set VERBOSITY sqlstate
SELECT hll_from_postgresql_hll('\x128b7f00');
SELECT hll_from_postgresql_hll('\x118b7g');
SELECT hll_from_postgresql_hll('\x108b7f');
SELECT hll_postgresql_hll_agg(1) || hll_agg(1);
SELECT hll_union(hll_postgresql_hll_agg(1), hll_postgresql_hll_agg(1, 11, 5, -1, 1, 3));
SELECT hll_add(hll_postgresql_hll_empty(), 1);
SELECT hll_postgresql_hll_agg(ARRAY[1.5]);
\set VERBOSITY default
-- Other types are hashed by hll_hash_any's rule (test/interop/postgresql_hll.sh
-- compares with the peer's own): values of 1, 2, 4 or 8 bytes as that many
-- little-endian bytes, varlenas as their data bytes, other fixed lengths as
-- their send form. So a date hashes as the integer of its days since
-- 2000-01-01, a timestamptz as the bigint of its microseconds, a float8 as
-- the bigint of its bits, a uuid or an interval as its send form's bytea,
-- a varchar as the text; scalar adds and the
-- aggregate agree, and a quoted literal is hashed as the text it spells.
SELECT hll_postgresql_hll_agg(DATE '2000-01-01' + g) = hll_postgresql_hll_agg(g) AS date_as_int4,
       hll_postgresql_hll_agg(TIMESTAMPTZ '2000-01-01 00:00+00' + g * INTERVAL '1 microsecond', 12, 5, -1, 1, 9)
         = hll_postgresql_hll_agg(g::bigint, 12, 5, -1, 1, 9) AS timestamptz_as_int8,
       hll_postgresql_hll_agg(g / 3.0::float8)
         = hll_postgresql_hll_agg(('x' || encode(float8send(g / 3.0::float8), 'hex'))::bit(64)::bigint) AS float8_as_its_bits,
       hll_postgresql_hll_agg(md5(g::text)::uuid) = hll_postgresql_hll_agg(uuid_send(md5(g::text)::uuid)) AS uuid_as_send_form,
       hll_postgresql_hll_agg(g * INTERVAL '1 hour') = hll_postgresql_hll_agg(interval_send(g * INTERVAL '1 hour')) AS interval_as_send_form,
       hll_postgresql_hll_agg(g::text::varchar) = hll_postgresql_hll_agg(g::text) AS varchar_as_text,
       hll_cardinality(hll_postgresql_hll_agg(g / 7.0) FILTER (WHERE g <= 100)) AS numeric_exact_100
FROM generate_series(1, 3000) g;
SELECT hll_postgresql_hll_add(hll_postgresql_hll_empty(), DATE '2000-01-11')
         = hll_postgresql_hll_add(hll_postgresql_hll_empty(), 10) AS add_date_as_int4,
       hll_postgresql_hll_add(hll_postgresql_hll_empty(), 2.5)
         = (SELECT hll_postgresql_hll_agg(2.5)) AS add_numeric_as_agg,
       hll_postgresql_hll_add(hll_postgresql_hll_empty(), 'x')
         = hll_postgresql_hll_add(hll_postgresql_hll_empty(), 'x'::text) AS literal_as_text,
       hll_postgresql_hll_add(hll_postgresql_hll_empty(), NULL::date)
         = hll_postgresql_hll_empty() AS null_unchanged,
       -- numeric: its bytes, so equal values of other scales count twice (as in the peer)
       hll_postgresql_hll_add(hll_postgresql_hll_empty(), 1.0)
         <> hll_postgresql_hll_add(hll_postgresql_hll_empty(), 1.00) AS numeric_scale_counts;

-- A state encoding is never accepted as a stored value.
SELECT '\x534b0101020b05ff000000008b7f000000000000000000000000'::hll;

DROP TABLE peer_values, pghll_rollup, pghll_rows, visits, visits10, visits11, visits12;
