-- The bloom part of a database's fingerprint (test/hardening/dump_restore.sh):
-- one line per stored filter, with its exact bytes (md5 and length of the
-- binary form, md5 of the text form) and what every accessor answers
-- (cardinality, fpp, info, membership of a few values, equality).
WITH filters(tbl, key, f) AS (
  SELECT 'data.bloom_golden', id::text || ' ' || label, f FROM data.bloom_golden
  UNION ALL SELECT 'data.bloom_shapes.f', id::text || ' ' || params, f FROM data.bloom_shapes
  UNION ALL SELECT 'data.bloom_shapes.external', id::text || ' ' || params, external FROM data.bloom_shapes
  UNION ALL SELECT 'data.bloom_arrays', id::text || '[' || i || ']', e
            FROM data.bloom_arrays LEFT JOIN LATERAL unnest(fs) WITH ORDINALITY AS u(e, i) ON true
  UNION ALL SELECT 'public.bloom_daily.seen', day::text, seen FROM public.bloom_daily
  UNION ALL SELECT 'data.bloom_all (view)', '', u FROM data.bloom_all
)
SELECT tbl, key,
       CASE WHEN f IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(f::bytea), md5(f::bytea), md5(f::text), bloom_cardinality(f),
                           bloom_fpp(f), bloom_info(f)::text,
                           -- probes of the kind the filter holds (header byte 7: 1
                           -- numbers, 3 text, 0 built by 0.1.0, 255 empty)
                           CASE WHEN get_byte(f::bytea, 7) IN (0, 1, 255) THEN
                             (SELECT string_agg((f @> g)::int::text, '' ORDER BY g)
                              FROM generate_series(1, 64) g) || ' ' || (f @> 100001) END,
                           CASE WHEN get_byte(f::bytea, 7) IN (0, 3, 255) THEN f @> 'k1'::text END,
                           -- split-block filters of INT32 and INT64 values
                           CASE WHEN get_byte(f::bytea, 7) IN (16, 17) THEN
                             (SELECT string_agg((f @> g)::int::text, '' ORDER BY g)
                              FROM generate_series(1, 64) g) END,
                           f = f)
       END AS fingerprint
FROM filters
ORDER BY tbl, key;

-- Derived values stored beside the filters.
SELECT 'public.bloom_daily.approx' AS tbl, day::text AS key, approx::text FROM public.bloom_daily
ORDER BY 1, 2;
