-- The hll part of a database's fingerprint (test/hardening/dump_restore.sh):
-- one line per stored sketch, with its exact bytes (md5 and length of the
-- binary form, md5 of the text form) and what every accessor answers.
-- A type added later gets its own fingerprint_<type>.sql of the same shape.
WITH sketches(tbl, key, h) AS (
  SELECT 'data.hll_golden', id::text || ' ' || label, h FROM data.hll_golden
  UNION ALL SELECT 'data.hll_typed.h10', id::text, h10 FROM data.hll_typed
  UNION ALL SELECT 'data.hll_typed.h4', id::text, h4 FROM data.hll_typed
  UNION ALL SELECT 'data.hll_typed.h18', id::text, h18 FROM data.hll_typed
  UNION ALL SELECT 'public.hll_rollup.visitors', day::text || ' ' || link, visitors FROM public.hll_rollup
  UNION ALL SELECT 'public.hll_rollup.small', day::text || ' ' || link, small FROM public.hll_rollup
  UNION ALL SELECT 'data.hll_arrays', id::text || '[' || i || ']', e
            FROM data.hll_arrays LEFT JOIN LATERAL unnest(hs) WITH ORDINALITY AS u(e, i) ON true
  UNION ALL SELECT 'data.hll_big.h', id::text, h FROM data.hll_big
  UNION ALL SELECT 'data.hll_big.external', id::text, external FROM data.hll_big
  UNION ALL SELECT 'data.hll_pghll', id::text || ' ' || label, h FROM data.hll_pghll
  UNION ALL SELECT 'data.hll_daily (view)', day::text, u FROM data.hll_daily
  UNION ALL SELECT 'data.hll_daily_mv (materialized)', day::text, u FROM data.hll_daily_mv
)
SELECT tbl, key,
       CASE WHEN h IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(h::bytea), md5(h::bytea), md5(h::text), hll_cardinality(h),
                           hll_cardinality_bounds(h), hll_info(h)::text, h = h, # h)
       END AS fingerprint
FROM sketches
ORDER BY tbl, key;

-- postgresql-hll sketches (hash identity 2): the peer's bytes each exports.
SELECT 'data.hll_pghll export' AS tbl, id::text || ' ' || label AS key,
       coalesce(length(hll_to_postgresql_hll(h)) || ' ' || md5(hll_to_postgresql_hll(h)), 'NULL') AS fingerprint
FROM data.hll_pghll
ORDER BY id;

-- Derived values stored beside the sketches, and the shape of the tables.
SELECT 'public.hll_rollup.card' AS tbl, day::text || ' ' || link AS key, card::text FROM public.hll_rollup
UNION ALL
SELECT 'rows', c.relname, (xpath('/row/n/text()', query_to_xml(
         format('SELECT count(*) AS n FROM %I.%I', n.nspname, c.relname), false, true, '')))[1]::text
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname IN ('data', 'public') AND c.relkind IN ('r', 'm')
ORDER BY 1, 2;
