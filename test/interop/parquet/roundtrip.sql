-- One type's round trip, a template: test/interop/parquet.sh replaces
--   @T@ (type name), @PHYS@ (Parquet physical type), @EXPR@ (the text column
--   v -> the typed value), @DIR@ (work folder), @N@ and @P@ (the sizing of
--   sketch's filter), since psql's \copy takes no variables.
-- Every check prints one line "ok <name>: <detail>" or "not ok <name>: ...";
-- an ERROR is counted as a failure by the driver.
\set QUIET on
\pset tuples_only on
\pset format unaligned
SET client_min_messages = warning;

CREATE TEMP TABLE m (v text);
\copy m from '@DIR@/@T@.members'
-- The identity numbers the lines in file order (COPY inserts in order).
CREATE TEMP TABLE o (k bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text);
\copy o (v) from '@DIR@/@T@.others'
CREATE TEMP TABLE pq (k bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, a boolean);
\copy pq (a) from '@DIR@/@T@.pq.answers'
CREATE TEMP TABLE ref (k bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, a boolean);
\copy ref (a) from '@DIR@/@T@.ref.answers'
CREATE TEMP TABLE pqf (h text);
\copy pqf from '@DIR@/@T@.pq.hex'

-- Parquet -> sketch: the filter bytes DuckDB stored in the file.
CREATE TEMP TABLE f AS
  SELECT decode(h, 'hex') AS stored, bloom_from_parquet(decode(h, 'hex'), '@PHYS@') AS f FROM pqf;

SELECT CASE WHEN missed = 0 AND total > 0 THEN 'ok' ELSE 'not ok' END
       || format(' %s parquet->sketch members: %s of %s members not found by bloom_contains', '@T@', missed, total)
FROM (SELECT count(*) FILTER (WHERE NOT bloom_contains(f.f, @EXPR@)) AS missed, count(*) AS total FROM m, f) x;

-- Value by value against DuckDB's reader (pq) and the spec referee (ref).
SELECT CASE WHEN differ = 0 AND total > 0 THEN 'ok' ELSE 'not ok' END
       || format(' %s parquet->sketch non-members: %s of %s answers differ from the Parquet reader''s (%s "may contain" in both: the same false positives)%s',
                 '@T@', differ, total, fp, coalesce(': ' || shown, ''))
FROM (SELECT count(*) FILTER (WHERE s IS DISTINCT FROM pq.a) AS differ, count(*) AS total,
             count(*) FILTER (WHERE s AND pq.a) AS fp,
             string_agg(format('%s sketch=%s parquet=%s spec=%s', o.v, s, pq.a, ref.a), '; ')
               FILTER (WHERE s IS DISTINCT FROM pq.a) AS shown
      FROM (SELECT o.k, o.v, bloom_contains(f.f, @EXPR@) AS s FROM o, f) o
      JOIN pq USING (k) JOIN ref USING (k)) x;

SELECT CASE WHEN stored = bloom_to_parquet(f) THEN 'ok' ELSE 'not ok' END
       || format(' %s parquet->sketch->parquet: bloom_to_parquet(bloom_from_parquet(x)) = x (%s bytes)', '@T@', length(stored))
FROM f;

-- The same members, the same spec, the same size: sketch's filter must be
-- DuckDB's, byte for byte. p is the first of a fine grid for which sketch
-- chooses DuckDB's size (both round the bitset up to a power of two).
SELECT CASE WHEN mine = f.stored THEN 'ok' ELSE 'not ok' END
       || format(' %s same-bytes: bloom_agg(v, @N@, %s, ''split_block'') of the members is %s DuckDB''s filter (%s bytes)',
                 '@T@', p, CASE WHEN mine = f.stored THEN 'byte-identical to' WHEN mine IS NULL THEN 'not sizable like' ELSE 'DIFFERENT from' END, length(f.stored))
FROM f
LEFT JOIN LATERAL (SELECT p FROM generate_series(1, 999) i, LATERAL (SELECT i::float8 / 1000 AS p) q
                   WHERE (bloom_sizing(@N@, p, 'split_block')).bits = 256 * (bloom_info(f.f)->>'blocks')::bigint
                   ORDER BY i LIMIT 1) size ON true
LEFT JOIN LATERAL (SELECT bloom_to_parquet(bloom_agg(@EXPR@, @N@, size.p, 'split_block')) AS mine FROM m) b ON true;

-- Sketch -> Parquet: sketch's filter of the members, and its answers for the
-- non-members, for write_back.mjs to compare with the Parquet reader's.
CREATE TEMP TABLE s AS SELECT bloom_agg(@EXPR@, @N@, @P@, 'split_block') AS f FROM m;
\copy (SELECT encode(bloom_to_parquet(f), 'hex') FROM s) to '@DIR@/@T@.sk.hex'
\copy (SELECT bloom_contains(s.f, @EXPR@) FROM o, s ORDER BY o.k) to '@DIR@/@T@.sk.answers'
