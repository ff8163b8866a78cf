-- The counting_bloom part of a database's fingerprint
-- (test/hardening/dump_restore.sh): one line per stored filter, with its
-- exact bytes (md5 and length of the binary form, md5 of the text form) and
-- what every accessor answers (cardinality, fpp, info, membership of a few
-- values, the plain filter of its non-zero cells, equality).
WITH filters(tbl, key, f) AS (
  SELECT 'data.counting_bloom_golden', id::text || ' ' || label, f FROM data.counting_bloom_golden
  UNION ALL SELECT 'data.counting_bloom_shapes.f', id::text || ' ' || params, f FROM data.counting_bloom_shapes
  UNION ALL SELECT 'data.counting_bloom_shapes.external', id::text || ' ' || params, external FROM data.counting_bloom_shapes
  UNION ALL SELECT 'data.counting_bloom_arrays', id::text || '[' || i || ']', e
            FROM data.counting_bloom_arrays LEFT JOIN LATERAL unnest(fs) WITH ORDINALITY AS u(e, i) ON true
  UNION ALL SELECT 'public.counting_bloom_daily.active', day::text, active FROM public.counting_bloom_daily
  UNION ALL SELECT 'data.counting_bloom_all (view)', '', u FROM data.counting_bloom_all
)
SELECT tbl, key,
       CASE WHEN f IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(f::bytea), md5(f::bytea), md5(f::text), counting_bloom_cardinality(f),
                           counting_bloom_fpp(f), counting_bloom_info(f)::text,
                           md5(counting_bloom_to_bloom(f)::text),
                           -- probes of the kind the filter holds (header byte 7:
                           -- 1 numbers, 3 text, 255 empty)
                           CASE WHEN get_byte(f::bytea, 7) IN (1, 255) THEN
                             (SELECT string_agg((f @> g)::int::text, '' ORDER BY g)
                              FROM generate_series(1, 64) g) || ' ' || (f @> 100001) END,
                           CASE WHEN get_byte(f::bytea, 7) IN (3, 255) THEN f @> 'k1'::text END,
                           f = f)
       END AS fingerprint
FROM filters
ORDER BY tbl, key;

-- Derived values stored beside the filters, and what the view's plain
-- filter holds.
SELECT 'public.counting_bloom_daily.approx' AS tbl, day::text AS key, approx::text FROM public.counting_bloom_daily
UNION ALL
SELECT 'data.counting_bloom_all.plain', '', md5(plain::text) FROM data.counting_bloom_all
ORDER BY 1, 2;
