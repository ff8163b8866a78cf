-- Parallel aggregation: partial filters in workers, combined in the leader by
-- the union (a multiset sum, less one copy of each value both partial states
-- saw: their seen sets say which). The bytes may differ from the serial plan's
-- (cuckoo's stored form depends on the order of inserts), so what is
-- compared is every answer: membership of every value, and the cardinality.
CREATE TABLE cuckoo_par (g int, k int, v bigint, t text);
INSERT INTO cuckoo_par SELECT g, g % 10, (g * 2654435761) % 300000, 'item-' || (g % 70000)
FROM generate_series(1, 400000) g;
ALTER TABLE cuckoo_par SET (parallel_workers = 2);
ANALYZE cuckoo_par;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF)
SELECT cuckoo_agg(v, 300000, 0.01) AS fv, cuckoo_agg(t, 70000, 0.001) AS ft FROM cuckoo_par;
CREATE TABLE cuckoo_par_result AS
SELECT cuckoo_agg(v, 300000, 0.01) AS fv, cuckoo_agg(t, 70000, 0.001) AS ft FROM cuckoo_par;

EXPLAIN (COSTS OFF)
SELECT k, cuckoo_agg(v, 30000, 0.01) AS f FROM cuckoo_par GROUP BY k;
CREATE TABLE cuckoo_par_groups AS SELECT k, cuckoo_agg(v, 30000, 0.01) AS f FROM cuckoo_par GROUP BY k;

SET max_parallel_workers_per_gather = 0;
CREATE TABLE cuckoo_ser_result AS
SELECT cuckoo_agg(v, 300000, 0.01) AS fv, cuckoo_agg(t, 70000, 0.001) AS ft FROM cuckoo_par;
CREATE TABLE cuckoo_ser_groups AS SELECT k, cuckoo_agg(v, 30000, 0.01) AS f FROM cuckoo_par GROUP BY k;

-- Every member in both; the same answer for every probe; exactly the same
-- count: one copy per distinct value (each v appears on one or two rows,
-- often read by different workers).
SELECT cuckoo_cardinality(p.fv) AS par_card_v, cuckoo_cardinality(s.fv) AS ser_card_v,
       cuckoo_cardinality(p.ft) AS par_card_t, cuckoo_cardinality(s.ft) AS ser_card_t,
       (SELECT bool_and(p.fv @> v AND s.fv @> v AND p.ft @> t AND s.ft @> t) FROM cuckoo_par) AS all_members,
       (SELECT count(*) FROM generate_series(300000, 400000) x WHERE (p.fv @> x::bigint) <> (s.fv @> x::bigint))
         < 0.01 * 100000 AS probes_agree
FROM cuckoo_par_result p, cuckoo_ser_result s;
SELECT count(*) AS groups,
       bool_and((SELECT bool_and(p.f @> v) FROM cuckoo_par c WHERE c.k = p.k)) AS members,
       bool_and(cuckoo_cardinality(p.f) = cuckoo_cardinality(s.f)) AS cards_equal
FROM cuckoo_par_groups p JOIN cuckoo_ser_groups s USING (k);
-- Deletes after the parallel plan (issue 32): 30% of the text values
-- deleted, every other one still present, the count exact.
CREATE FUNCTION pg_temp.del_items(x cuckoo) RETURNS cuckoo LANGUAGE plpgsql AS $$
BEGIN FOR i IN 0..20999 LOOP x := cuckoo_delete(x, 'item-' || (i * 3)); END LOOP; RETURN x; END $$;
CREATE TABLE cuckoo_par_deleted AS SELECT pg_temp.del_items(ft) AS ft FROM cuckoo_par_result;
SELECT cuckoo_cardinality(ft) AS card_after,
       (SELECT count(*) FROM generate_series(0, 69999) i WHERE (i % 3 <> 0 OR i >= 63000) AND NOT ft @> ('item-' || i))
         AS members_lost
FROM cuckoo_par_deleted;

-- The union aggregate over the group filters, parallel and serial.
SET max_parallel_workers_per_gather = 2;
ALTER TABLE cuckoo_par_groups SET (parallel_workers = 2);
ANALYZE cuckoo_par_groups;
EXPLAIN (COSTS OFF) SELECT cuckoo_union(f) FROM cuckoo_par_groups;
CREATE TABLE cuckoo_par_union AS SELECT cuckoo_union(f) AS f FROM cuckoo_par_groups;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE cuckoo_ser_union AS SELECT cuckoo_union(f) AS f FROM cuckoo_par_groups;
SELECT (SELECT bool_and(p.f @> v) FROM cuckoo_par) AS members,
       cuckoo_cardinality(p.f) AS par_card, cuckoo_cardinality(s.f) AS ser_card
FROM cuckoo_par_union p, cuckoo_ser_union s;

RESET ALL;
DROP TABLE cuckoo_par, cuckoo_par_result, cuckoo_par_deleted, cuckoo_par_groups, cuckoo_ser_result, cuckoo_ser_groups,
           cuckoo_par_union, cuckoo_ser_union;
