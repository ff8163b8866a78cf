-- One type's round trip, run by test/interop/parquet.sh with psql -v:
--   t (type name), phys (Parquet physical type), expr (text column v -> the
--   typed value), dir (work folder), n, p (sketch's filter sizing).
-- Every check prints one line "ok <name>: <detail>" or "not ok <name>: ...";
-- an ERROR is counted as a failure by the driver.
\set QUIET on
\pset tuples_only on
\pset format unaligned
SET client_min_messages = warning;

\set f_members :dir '/' :t '.members'
\set f_others :dir '/' :t '.others'
\set f_pq_answers :dir '/' :t '.pq.answers'
\set f_ref_answers :dir '/' :t '.ref.answers'
\set f_pq_hex :dir '/' :t '.pq.hex'
\set f_sk_hex :dir '/' :t '.sk.hex'
\set f_sk_answers :dir '/' :t '.sk.answers'

CREATE TEMP TABLE m (v text);
\copy m from :'f_members'
-- The identity numbers the lines in file order (COPY inserts in order).
CREATE TEMP TABLE o (k bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text);
\copy o (v) from :'f_others'
CREATE TEMP TABLE pq (k bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, a boolean);
\copy pq (a) from :'f_pq_answers'
CREATE TEMP TABLE ref (k bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, a boolean);
\copy ref (a) from :'f_ref_answers'
CREATE TEMP TABLE pqf (h text);
\copy pqf from :'f_pq_hex'

-- Parquet -> sketch: the filter bytes DuckDB stored in the file.
CREATE TEMP TABLE f AS
  SELECT decode(h, 'hex') AS stored, bloom_from_parquet(decode(h, 'hex'), :'phys') AS f FROM pqf;

SELECT CASE WHEN missed = 0 THEN 'ok' ELSE 'not ok' END
       || format(' %s parquet->sketch members: %s of %s members not found by bloom_contains', :'t', missed, total)
FROM (SELECT count(*) FILTER (WHERE NOT bloom_contains(f.f, :expr)) AS missed, count(*) AS total FROM m, f) x;

-- Value by value against DuckDB's reader (pq) and the spec referee (ref).
SELECT CASE WHEN differ = 0 THEN 'ok' ELSE 'not ok' END
       || format(' %s parquet->sketch non-members: %s of %s answers differ from the Parquet reader''s (%s "may contain" in both: the same false positives)%s',
                 :'t', differ, total, fp, coalesce(': ' || shown, ''))
FROM (SELECT count(*) FILTER (WHERE s IS DISTINCT FROM pq.a) AS differ, count(*) AS total,
             count(*) FILTER (WHERE s AND pq.a) AS fp,
             string_agg(format('%s sketch=%s parquet=%s spec=%s', o.v, s, pq.a, ref.a), '; ')
               FILTER (WHERE s IS DISTINCT FROM pq.a) AS shown
      FROM (SELECT o.k, o.v, bloom_contains(f.f, :expr) AS s FROM o, f) o
      JOIN pq USING (k) JOIN ref USING (k)) x;

SELECT CASE WHEN stored = bloom_to_parquet(f) THEN 'ok' ELSE 'not ok' END
       || format(' %s parquet->sketch->parquet: bloom_to_parquet(bloom_from_parquet(x)) = x (%s bytes)', :'t', length(stored))
FROM f;

-- Sketch -> Parquet: sketch's filter of the members, and its answers for the
-- non-members, for write_back.mjs to compare with the Parquet reader's.
CREATE TEMP TABLE s AS SELECT bloom_agg(:expr, :n, :p, 'split_block') AS f FROM m;
\copy (SELECT encode(bloom_to_parquet(f), 'hex') FROM s) to :'f_sk_hex'
\copy (SELECT bloom_contains(s.f, :expr) FROM o, s ORDER BY o.k) to :'f_sk_answers'
