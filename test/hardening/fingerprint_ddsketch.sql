-- The ddsketch part of a database's fingerprint (test/hardening/dump_restore.sh):
-- one line per stored sketch, with its exact bytes (md5 and length of the
-- binary form, md5 of the text form) and what every accessor answers
-- (count, sum, min, max, mean, quantiles at several q, ranks of a few
-- values, relative accuracy, info, equality).
WITH sketches(tbl, key, s) AS (
  SELECT 'data.ddsketch_golden', id::text || ' ' || label, s FROM data.ddsketch_golden
  UNION ALL SELECT 'data.ddsketch_shapes.s', id::text || ' ' || params, s FROM data.ddsketch_shapes
  UNION ALL SELECT 'data.ddsketch_shapes.external', id::text || ' ' || params, external FROM data.ddsketch_shapes
  UNION ALL SELECT 'data.ddsketch_arrays', id::text || '[' || i || ']', e
            FROM data.ddsketch_arrays LEFT JOIN LATERAL unnest(ss) WITH ORDINALITY AS u(e, i) ON true
  UNION ALL SELECT 'public.ddsketch_rollup.latency', day::text, latency FROM public.ddsketch_rollup
  UNION ALL SELECT 'data.ddsketch_all (view)', '', u FROM data.ddsketch_all
  UNION ALL SELECT 'data.ddsketch_weekly_mv (materialized)', week::text, u FROM data.ddsketch_weekly_mv
)
SELECT tbl, key,
       CASE WHEN s IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(s::bytea), md5(s::bytea), md5(s::text), ddsketch_count(s),
                           ddsketch_sum(s), ddsketch_min(s), ddsketch_max(s), ddsketch_mean(s),
                           ddsketch_quantiles(s, '{0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1}')::text,
                           ddsketch_quantile(s, 0.5),
                           ddsketch_rank(s, -1), ddsketch_rank(s, 0), ddsketch_rank(s, 1), ddsketch_rank(s, 1000),
                           ddsketch_relative_accuracy(s), ddsketch_info(s)::text, s = s)
       END AS fingerprint
FROM sketches
ORDER BY tbl, key;

-- Derived values stored beside the sketches.
SELECT 'public.ddsketch_rollup.n, p99' AS tbl, day::text AS key, n::text || ' ' || p99::text
FROM public.ddsketch_rollup
ORDER BY 1, 2;
