-- The cuckoo part of a database's fingerprint (test/hardening/dump_restore.sh):
-- one line per stored filter, with its exact bytes (md5 and length of the
-- binary form, md5 of the text form) and what every accessor answers
-- (cardinality, fpp, info, copies and membership of a few values, equality).
WITH filters(tbl, key, f) AS (
  SELECT 'data.cuckoo_golden', id::text || ' ' || label, f FROM data.cuckoo_golden
  UNION ALL SELECT 'data.cuckoo_shapes.f', id::text || ' ' || params, f FROM data.cuckoo_shapes
  UNION ALL SELECT 'data.cuckoo_shapes.external', id::text || ' ' || params, external FROM data.cuckoo_shapes
  UNION ALL SELECT 'data.cuckoo_arrays', id::text || '[' || i || ']', e
            FROM data.cuckoo_arrays LEFT JOIN LATERAL unnest(fs) WITH ORDINALITY AS u(e, i) ON true
  UNION ALL SELECT 'public.cuckoo_daily.active', day::text, active FROM public.cuckoo_daily
  UNION ALL SELECT 'data.cuckoo_all (view)', '', u FROM data.cuckoo_all
)
SELECT tbl, key,
       CASE WHEN f IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(f::bytea), md5(f::bytea), md5(f::text), cuckoo_cardinality(f),
                           cuckoo_fpp(f), cuckoo_info(f)::text,
                           -- probes of the kind the filter holds (header byte 7:
                           -- 1 numbers, 3 text, 255 empty)
                           CASE WHEN get_byte(f::bytea, 7) IN (1, 255) THEN
                             (SELECT string_agg(least(cuckoo_count(f, g), 9)::text, '' ORDER BY g)
                              FROM generate_series(1, 64) g) || ' ' || (f @> 100001) END,
                           CASE WHEN get_byte(f::bytea, 7) IN (3, 255) THEN f @> 'k1'::text END,
                           f = f)
       END AS fingerprint
FROM filters
ORDER BY tbl, key;

-- Derived values stored beside the filters.
SELECT 'public.cuckoo_daily.members' AS tbl, day::text AS key, members::text FROM public.cuckoo_daily
ORDER BY 1, 2;
