-- The topk part of a database's fingerprint (test/hardening/dump_restore.sh):
-- one line per stored summary, with its exact bytes (md5 and length of the
-- binary form, md5 of the text form) and what every accessor answers
-- (total, max_error, info, every held item best first with its estimate
-- and bounds, the first three items, the frequent items, the estimates of
-- a few probes of the summary's element kind, the items of a timestamptz
-- summary read back as timestamptz (as epochs: nothing here depends on the
-- session's settings), hash, equality).
WITH summaries(tbl, key, s) AS (
  SELECT 'data.topk_golden', id::text || ' ' || label, s FROM data.topk_golden
  UNION ALL SELECT 'data.topk_shapes.s', id::text || ' ' || params, s FROM data.topk_shapes
  UNION ALL SELECT 'data.topk_shapes.external', id::text || ' ' || params, external FROM data.topk_shapes
  UNION ALL SELECT 'data.topk_arrays', id::text || '[' || i || ']', e
            FROM data.topk_arrays LEFT JOIN LATERAL unnest(ss) WITH ORDINALITY AS u(e, i) ON true
  UNION ALL SELECT 'public.topk_rollup.top', day::text, top FROM public.topk_rollup
  UNION ALL SELECT 'data.topk_all (view)', 'union', u FROM data.topk_all
  UNION ALL SELECT 'data.topk_all (view)', 'decayed', decayed FROM data.topk_all
  UNION ALL SELECT 'data.topk_weekly_mv (materialized)', week::text, u FROM data.topk_weekly_mv
)
SELECT tbl, key,
       CASE WHEN s IS NULL THEN 'NULL'
            ELSE concat_ws(' ', length(s::bytea), md5(s::bytea), md5(s::text), topk_total(s), topk_max_error(s),
                           topk_info(s)::text,
                           (SELECT count(*) || ' ' || md5(string_agg(concat_ws('=', item, estimate, lower_bound, upper_bound), ','))
                            FROM topk_items(s)),
                           (SELECT string_agg(concat_ws('=', left(item, 40), estimate, lower_bound, upper_bound), ',')
                            FROM topk_items(s, 3)),
                           (SELECT count(*) || ' ' || md5(string_agg(item || '=' || lower_bound, ','))
                            FROM topk_frequent(s, 0.001, 'no_false_positives')),
                           -- probes of the kind the summary holds (header byte 7:
                           -- 1 numbers, 3 text, 8 timestamptz, 255 empty)
                           CASE WHEN get_byte(s::bytea, 7) IN (1, 255) THEN
                             topk_estimate(s, 1)::text || topk_estimate(s, 7::bigint)::text END,
                           CASE WHEN get_byte(s::bytea, 7) IN (3, 255) THEN
                             topk_estimate(s, 'item 1'::text)::text || topk_estimate(s, 'page 1'::text)::text END,
                           CASE WHEN get_byte(s::bytea, 7) = 8 THEN
                             (SELECT md5(string_agg(extract(epoch FROM item) || '=' || estimate, ','))
                              FROM topk_items(s, 100000, NULL::timestamptz)) END,
                           topk_hash(s), s = s)
       END AS fingerprint
FROM summaries
ORDER BY tbl, key;

-- Derived values stored beside the summaries.
SELECT 'public.topk_rollup.n, max_error' AS tbl, day::text AS key, n::text || ' ' || max_error::text
FROM public.topk_rollup
ORDER BY 1, 2;
