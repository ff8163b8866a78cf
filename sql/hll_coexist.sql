-- sketch and the peer postgresql-hll both define a type named hll. Installed
-- in different schemas they live side by side in one database. The first
-- statements are README.md's "In a schema of its own, beside postgresql-hll"
-- sequence, as written there (the docs test runs README's copy too).
SET client_min_messages = warning;   -- the earlier tests' tables go with it
DROP EXTENSION sketch CASCADE;
RESET client_min_messages;
CREATE SCHEMA sketch;
CREATE EXTENSION sketch SCHEMA sketch;
CREATE EXTENSION hll;                    -- postgresql-hll, in public
-- both schemas on the path: functions and operators resolve by argument type
SET search_path = "$user", public, sketch;   -- or ALTER ROLE/DATABASE ... SET

CREATE TABLE visits_daily (day int, ours sketch.hll, peer public.hll);
INSERT INTO visits_daily
SELECT g % 3, sketch.hll_agg(g), hll_add_agg(hll_hash_integer(g))
FROM generate_series(1, 3000) g GROUP BY g % 3;
SELECT hll_cardinality(hll_union(ours)) AS ours, # hll_union(ours) AS by_operator,
       hll_cardinality(hll_union_agg(peer))::bigint AS peer
FROM visits_daily;
RESET search_path;

SELECT e.extname, n.nspname
FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE e.extname IN ('sketch', 'hll') ORDER BY 1;

-- Each extension's functions resolve by argument type when both schemas are
-- on the path, and by qualification when not.
SELECT day, sketch.hll_cardinality(ours) AS ours, hll_cardinality(peer)::bigint AS peer
FROM visits_daily ORDER BY day;
SELECT OPERATOR(sketch.#) sketch.hll_union(ours) AS ours_qualified,
       (sketch.hll_union(ours) OPERATOR(sketch.||) sketch.hll_empty()) OPERATOR(sketch.=) sketch.hll_union(ours)
         AS union_operator_qualified
FROM visits_daily;
SELECT pg_typeof(ours)::text AS ours_type, pg_typeof(peer)::text AS peer_type FROM visits_daily LIMIT 1;

-- Neither extension's objects shadow the other's.
SELECT proname, count(*) FILTER (WHERE n.nspname = 'sketch') AS in_sketch,
       count(*) FILTER (WHERE n.nspname = 'public') AS in_peer
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE proname IN ('hll_cardinality', 'hll_union', 'hll_add_agg', 'hll_union_agg', 'hll_agg')
GROUP BY proname ORDER BY proname;

DROP TABLE visits_daily;
DROP EXTENSION hll;
DROP EXTENSION sketch;
DROP SCHEMA sketch;
