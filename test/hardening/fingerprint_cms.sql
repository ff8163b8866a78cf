-- The cms part of a database's fingerprint (test/hardening/dump_restore.sh):
-- one line per stored sketch, with its exact bytes (md5 and length of the
-- binary form, md5 of the text form) and what every accessor answers
-- (total, error bound, info, every candidate with its estimate, the
-- frequency of a few values, equality).
WITH sketches(tbl, key, s) AS (
  SELECT 'data.cms_golden', id::text || ' ' || label, s FROM data.cms_golden
  UNION ALL SELECT 'data.cms_shapes.s', id::text || ' ' || params, s FROM data.cms_shapes
  UNION ALL SELECT 'data.cms_shapes.external', id::text || ' ' || params, external FROM data.cms_shapes
  UNION ALL SELECT 'data.cms_arrays', id::text || '[' || i || ']', e
            FROM data.cms_arrays LEFT JOIN LATERAL unnest(ss) WITH ORDINALITY AS u(e, i) ON true
  UNION ALL SELECT 'public.cms_rollup.counts', day::text, counts FROM public.cms_rollup
  UNION ALL SELECT 'data.cms_all (view)', '', u FROM data.cms_all
)
SELECT tbl, key,
       CASE WHEN s IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(s::bytea), md5(s::bytea), md5(s::text), cms_total(s),
                           cms_error_bound(s), cms_info(s)::text,
                           (SELECT md5(string_agg(value || '=' || frequency, ',')) FROM cms_topk(s, 10000)),
                           -- probes of the kind the sketch holds (header byte 7: 1
                           -- numbers, 3 text, 0 built by 0.1.0, 255 empty)
                           CASE WHEN get_byte(s::bytea, 7) IN (0, 1, 255) THEN
                             cms_frequency(s, 1) || ' ' || cms_frequency(s, 7::bigint) END,
                           CASE WHEN get_byte(s::bytea, 7) IN (0, 3, 255) THEN
                             cms_frequency(s, 'key 1'::text) END,
                           s = s)
       END AS fingerprint
FROM sketches
ORDER BY tbl, key;

-- Derived values stored beside the sketches.
SELECT 'public.cms_rollup.total' AS tbl, day::text AS key, total::text FROM public.cms_rollup
ORDER BY 1, 2;
