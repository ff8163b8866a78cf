-- The theta part of a database's fingerprint (test/hardening/dump_restore.sh):
-- one line per stored sketch, with its exact bytes (md5 and length of the
-- binary form, md5 of the text form) and what every accessor answers
-- (count, the bounds at 0.95 and 0.99, info, the set operations with
-- itself, the count after adding a probe of the sketch's element kind, the
-- Jaccard similarity with a fixed sketch of numbers or of texts, hash,
-- equality).
WITH sketches(tbl, key, s) AS (
  SELECT 'data.theta_golden', id::text || ' ' || label, s FROM data.theta_golden
  UNION ALL SELECT 'data.theta_shapes.s', id::text || ' ' || params, s FROM data.theta_shapes
  UNION ALL SELECT 'data.theta_shapes.external', id::text || ' ' || params, external FROM data.theta_shapes
  UNION ALL SELECT 'data.theta_arrays', id::text || '[' || i || ']', e
            FROM data.theta_arrays LEFT JOIN LATERAL unnest(ss) WITH ORDINALITY AS u(e, i) ON true
  UNION ALL SELECT 'public.theta_rollup.users', day::text, users FROM public.theta_rollup
  UNION ALL SELECT 'data.theta_all (view)', 'any_day', any_day FROM data.theta_all
  UNION ALL SELECT 'data.theta_all (view)', 'every_day', every_day FROM data.theta_all
  UNION ALL SELECT 'data.theta_all (view)', 'churned', churned FROM data.theta_all
  UNION ALL SELECT 'data.theta_weekly_mv (materialized)', week::text || ' union', u FROM data.theta_weekly_mv
  UNION ALL SELECT 'data.theta_weekly_mv (materialized)', week::text || ' every day', every_day FROM data.theta_weekly_mv
),
probes(numbers, texts) AS (
  SELECT (SELECT theta_agg(g, 10) FROM generate_series(1, 5000) g),
         (SELECT theta_agg('user ' || g, 10) FROM generate_series(1, 5000) g)
)
SELECT tbl, key,
       CASE WHEN s IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(s::bytea), md5(s::bytea), md5(s::text), theta_count(s),
                           theta_bounds(s)::text, theta_bounds(s, 0.99)::text, theta_info(s)::text,
                           (s || s) = s, (s & s) = s, theta_count(theta_diff(s, s)),
                           -- probes of the kind the sketch holds (header byte 7:
                           -- 1 numbers, 3 text, 255 empty)
                           CASE WHEN get_byte(s::bytea, 7) IN (1, 255) THEN
                             theta_count(theta_add(s, 1))::text || ' ' || theta_count(theta_add(s, 7::bigint))::text
                             || ' ' || theta_jaccard(s, p.numbers)::text END,
                           CASE WHEN get_byte(s::bytea, 7) IN (3, 255) THEN
                             theta_count(theta_add(s, 'user 1'::text))::text || ' ' || theta_jaccard(s, p.texts)::text END,
                           theta_hash(s), s = s)
       END AS fingerprint
FROM sketches, probes p
ORDER BY tbl, key;

-- Derived values stored beside the sketches.
SELECT 'public.theta_rollup.n, exact' AS tbl, day::text AS key, n::text || ' ' || exact::text
FROM public.theta_rollup
ORDER BY 1, 2;
