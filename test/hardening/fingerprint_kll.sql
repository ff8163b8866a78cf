-- The kll part of a database's fingerprint (test/hardening/dump_restore.sh):
-- one line per stored sketch, with its exact bytes (md5 and length of the
-- binary form, md5 of the text form) and what every accessor answers
-- (count, the rank error, quantiles at several q of its own type, ranks of a
-- few values of its type, info, equality).
WITH sketches(tbl, key, s) AS (
  SELECT 'data.kll_golden', id::text || ' ' || label, s FROM data.kll_golden
  UNION ALL SELECT 'data.kll_shapes.s', id::text || ' ' || params, s FROM data.kll_shapes
  UNION ALL SELECT 'data.kll_shapes.external', id::text || ' ' || params, external FROM data.kll_shapes
  UNION ALL SELECT 'public.kll_daily.score', day::text, score FROM public.kll_daily
  UNION ALL SELECT 'data.kll_all (view)', '', u FROM data.kll_all
)
SELECT tbl, key,
       CASE WHEN s IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(s::bytea), md5(s::bytea), md5(s::text), kll_count(s),
                           kll_rank_error(s), kll_info(s)::text, s = s,
                           CASE kll_info(s)->>'element_type'
                             WHEN 'double precision' THEN
                               concat_ws(' ', kll_quantiles(s, '{0, 0.01, 0.25, 0.5, 0.75, 0.99, 1}')::text,
                                         kll_rank(s, -1.0::float8), kll_rank(s, 0.0::float8), kll_rank(s, 1000.0::float8),
                                         kll_cdf(s, '{-100, 0, 100}'::float8[])::text)
                             WHEN 'bigint' THEN
                               concat_ws(' ', kll_quantile_bigint(s, 0.5), kll_quantile_bigint(s, 1),
                                         kll_rank(s, 0::bigint), kll_rank(s, 30370004930000::bigint))
                             WHEN 'timestamptz' THEN
                               concat_ws(' ', extract(epoch FROM kll_quantile_timestamptz(s, 0.5)),
                                         kll_rank(s, TIMESTAMPTZ '2024-01-05 00:00+00'))
                             WHEN 'timestamp' THEN
                               concat_ws(' ', extract(epoch FROM kll_quantile_timestamp(s, 0.5)))
                             WHEN 'date' THEN
                               concat_ws(' ', kll_quantile_date(s, 0.5) - DATE '2000-01-01',
                                         kll_rank(s, DATE '2005-01-01'))
                           END)
       END AS fingerprint
FROM sketches
ORDER BY tbl, key;

-- Derived values stored beside the sketches.
SELECT 'public.kll_daily.n' AS tbl, day::text AS key, n::text
FROM public.kll_daily
ORDER BY 1, 2;
