-- sketch and the peer postgresql-hll both define a type named hll. Installed
-- in different schemas they live side by side in one database.
DROP EXTENSION sketch CASCADE;
CREATE SCHEMA sk;
CREATE EXTENSION sketch SCHEMA sk;
CREATE EXTENSION hll;

SELECT e.extname, n.nspname
FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE e.extname IN ('sketch', 'hll') ORDER BY 1;

CREATE TABLE both_kinds (day int, ours sk.hll, peer public.hll);
INSERT INTO both_kinds
SELECT g % 3, sk.hll_agg(g), hll_add_agg(hll_hash_integer(g))
FROM generate_series(1, 3000) g GROUP BY g % 3;

-- Each extension's functions resolve by argument type, whatever the search_path.
SELECT day, sk.hll_cardinality(ours) AS ours, hll_cardinality(peer)::bigint AS peer
FROM both_kinds ORDER BY day;
SELECT sk.hll_cardinality(sk.hll_union(ours)) AS ours, hll_cardinality(hll_union_agg(peer))::bigint AS peer
FROM both_kinds;

SET search_path = sk, public;
SELECT #hll_union(ours) AS ours_by_operator, hll_cardinality(hll_union_agg(peer))::bigint AS peer
FROM both_kinds;
SELECT pg_typeof(ours)::text AS ours_type, pg_typeof(peer)::text AS peer_type FROM both_kinds LIMIT 1;
RESET search_path;

-- Neither extension's objects shadow the other's.
SELECT proname, count(*) FILTER (WHERE n.nspname = 'sk') AS in_sketch,
       count(*) FILTER (WHERE n.nspname = 'public') AS in_peer
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE proname IN ('hll_cardinality', 'hll_union', 'hll_add_agg', 'hll_union_agg', 'hll_agg')
GROUP BY proname ORDER BY proname;

DROP TABLE both_kinds;
DROP EXTENSION hll;
DROP EXTENSION sketch;
DROP SCHEMA sk;
