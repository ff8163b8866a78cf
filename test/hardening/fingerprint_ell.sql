-- The ell part of a database's fingerprint (test/hardening/dump_restore.sh):
-- one line per stored sketch, with its exact bytes (md5 and length of the
-- binary form, md5 of the text form) and what every accessor answers
-- (cardinality, bounds, info, the cast to hll, equality).
WITH sketches(tbl, key, s) AS (
  SELECT 'data.ell_golden', id::text || ' ' || label, s FROM data.ell_golden
  UNION ALL SELECT 'data.ell_shapes.s', id::text || ' ' || params, s FROM data.ell_shapes
  UNION ALL SELECT 'data.ell_shapes.external', id::text || ' ' || params, external FROM data.ell_shapes
  UNION ALL SELECT 'public.ell_daily.visitors', day::text, visitors FROM public.ell_daily
  UNION ALL SELECT 'data.ell_all (view)', '', u FROM data.ell_all
)
SELECT tbl, key,
       CASE WHEN s IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(s::bytea), md5(s::bytea), md5(s::text), ell_cardinality(s),
                           ell_cardinality_bounds(s, 0.9)::text, ell_info(s)::text,
                           md5((s::hll)::bytea), s = s)
       END AS fingerprint
FROM sketches
ORDER BY tbl, key;

-- Derived values stored beside the sketches, and the view over the cast.
SELECT 'public.ell_daily.n' AS tbl, day::text AS key, n::text
FROM public.ell_daily
ORDER BY 1, 2;
SELECT 'data.ell_as_hll (view)' AS tbl, md5(h::bytea), hll_cardinality(h) FROM data.ell_as_hll;
