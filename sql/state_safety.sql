-- The shared aggregate-state mechanism (docs/DESIGN.md, "Aggregate states"):
-- a state is written in place only when it is the executor's own working
-- state; stored values that arrive as states are copied first.
--
-- The attack of issue 9, as a superuser (who can always call the support
-- functions): aggregates over our transition functions whose INITCOND is a
-- real stored value of the type, fed enough rows to grow and turn dense.
CREATE SCHEMA m;
SELECT hll_agg(i)::text AS hll3 FROM generate_series(1, 3) i \gset
SELECT hll_agg(i)::text AS hll_dense FROM generate_series(1, 5000) i \gset
SELECT cms_agg(i, 0.01, 0.1, false, 4)::text AS cms3 FROM generate_series(1, 3) i \gset
SELECT bloom_agg(i, 100, 0.01)::text AS bloom3 FROM generate_series(1, 3) i \gset
CREATE AGGREGATE m.h(anyelement) (sfunc = hll_agg_trans, stype = hll, initcond = :'hll3');
CREATE AGGREGATE m.hd(anyelement) (sfunc = hll_agg_trans, stype = hll, initcond = :'hll_dense');
CREATE AGGREGATE m.hu(hll) (sfunc = hll_union_trans, stype = hll, initcond = :'hll3');
CREATE AGGREGATE m.c(anyelement) (sfunc = cms_agg_trans, stype = cms, initcond = :'cms3');
CREATE AGGREGATE m.b(anyelement, bigint, float8) (sfunc = bloom_agg_trans, stype = bloom,
                                                  initcond = :'bloom3');
-- Results equal the extension's own aggregates over the same values (the
-- INITCOND's values included), in their stored form.
SELECT hll_cardinality(m.h(i)) AS h, hll_cardinality(m.hd(i)) AS hd
FROM generate_series(1, 100000) i;
SELECT m.h(i)::text = (SELECT hll_agg(i)::text FROM generate_series(1, 100000) i) AS h_same
FROM generate_series(1, 100000) i;
SELECT hll_cardinality(m.hu(h)) AS hu
FROM (SELECT hll_agg(i) AS h FROM generate_series(1, 20000) i GROUP BY i % 7) t;
-- m.c adds with the default parameters to a state of other parameters: the
-- per-row parameter check refuses it cleanly; m.c5 passes the INITCOND's own.
SELECT cms_total(m.c(i % 10)) AS total FROM generate_series(1, 10000) i;
CREATE AGGREGATE m.c5(anyelement, float8, float8, boolean, integer)
  (sfunc = cms_agg_trans, stype = cms, initcond = :'cms3');
SELECT cms_frequency(m.c5(i % 10, 0.01, 0.1, false, 4), 3) AS f3,
       cms_total(m.c5(i % 10, 0.01, 0.1, false, 4)) AS total
FROM generate_series(1, 10000) i;
SELECT bloom_contains(m.b(i, 100, 0.01), 2) AS has2, bloom_contains(m.b(i, 100, 0.01), 50) AS has50
FROM generate_series(10, 60) i;
-- Grouped, and as a window aggregate.
SELECT count(*) AS groups, min(hll_cardinality(h)) AS least
FROM (SELECT g, m.h(i) AS h FROM generate_series(1, 30000) i, LATERAL (SELECT i % 5 AS g) s GROUP BY g) t;
SELECT max(hll_cardinality(w)) AS running FROM
  (SELECT m.h(i) OVER (ORDER BY i) AS w FROM generate_series(1, 2000) i) t;
-- Direct calls with stored values never write into their arguments and
-- return the stored form.
SELECT hll_cardinality(hll_agg_trans(:'hll3'::hll, 99)) AS direct,
       hll_cardinality(:'hll3'::hll) AS unchanged;
SELECT hll_union_trans(:'hll3'::hll, :'hll_dense'::hll) = hll_union(:'hll3'::hll, :'hll_dense'::hll)
  AS union_same;
SELECT cms_total(cms_union_trans(:'cms3'::cms, :'cms3'::cms)) AS doubled;
-- A mismatched merge is a clean ERROR naming both parameter sets.
SELECT cms_union_trans(:'cms3'::cms, cms_empty(0.001, 0.01));

-- Defence in depth: no support function of an extension aggregate is
-- executable by PUBLIC (catalog-driven: new families are covered too) ...
SELECT count(*) AS public_support_functions
FROM pg_aggregate a
JOIN pg_proc p ON p.oid IN (a.aggtransfn, a.aggcombinefn, a.aggfinalfn)
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
WHERE has_function_privilege('public', p.oid, 'EXECUTE');
-- ... so an ordinary role can neither call them nor build aggregates over
-- them, while the extension's aggregates work for it, in parallel too.
CREATE ROLE sketch_plain_role;
GRANT CREATE, USAGE ON SCHEMA m TO sketch_plain_role;
CREATE TABLE m.rows AS SELECT i AS v FROM generate_series(1, 200000) i;
GRANT SELECT ON m.rows TO sketch_plain_role;
SET ROLE sketch_plain_role;
SELECT hll_agg_trans(NULL::hll, 1);
CREATE AGGREGATE m.mine(anyelement) (sfunc = hll_agg_trans, stype = hll);
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
SELECT hll_cardinality(hll_agg(v)) AS hll, cms_total(cms_agg(v)) AS cms,
       bloom_contains(bloom_agg(v, 200000, 0.01), 5) AS bloom,
       hll_cardinality(hll_union(h)) AS hll_union
FROM m.rows, LATERAL (SELECT hll_add(hll_empty(), v) AS h) s;
RESET ALL;
RESET ROLE;

-- Sketch columns group, deduplicate and union (hash operator classes).
CREATE TABLE m.grouped AS
SELECT hll_agg(i % 3) AS h, cms_agg(i % 3) AS c, bloom_agg(i % 3, 10, 0.1) AS b
FROM generate_series(1, 9) i GROUP BY i % 2;
SELECT count(*) AS distinct_h FROM (SELECT DISTINCT h FROM m.grouped) t;
SELECT count(*) AS hll_groups FROM (SELECT h FROM m.grouped GROUP BY h) t;
SELECT count(*) AS cms_union_rows FROM (SELECT c FROM m.grouped UNION SELECT c FROM m.grouped) t;
SELECT count(*) AS bloom_distinct FROM (SELECT DISTINCT b FROM m.grouped) t;
DROP SCHEMA m CASCADE;
DROP ROLE sketch_plain_role;
