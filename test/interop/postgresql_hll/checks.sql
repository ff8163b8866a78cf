-- Interoperability with the installed postgresql-hll (test/interop/postgresql_hll.sh).
-- sketch lives in schema sketch, the peer in public. Every check is one row
-- (check, ok, detail); the script counts them.
\set ON_ERROR_STOP 1
SET client_min_messages = error;   -- the peer warns for negative seeds

CREATE TEMP TABLE result (check_name text, ok boolean, detail text);

-- The parameter sets: log2m 4..17, regwidth 1..7, expthresh -1/0/powers of
-- two, sparseon 0/1; sizes from EMPTY through EXPLICIT, SPARSE and FULL.
CREATE TEMP TABLE params (log2m int, regwidth int, expthresh bigint, sparseon int);
INSERT INTO params VALUES
  (4, 1, 0, 0), (4, 1, 0, 1), (5, 2, 2, 1), (8, 3, -1, 1), (10, 4, 16, 0), (11, 5, -1, 1),
  (11, 5, 128, 1), (11, 5, 0, 0), (12, 7, 8192, 1), (13, 6, 256, 0), (14, 6, -1, 1),
  (15, 5, 1, 1), (16, 4, 64, 0), (17, 7, -1, 1), (17, 5, 0, 1);
CREATE TEMP TABLE sizes (n int);
INSERT INTO sizes VALUES (1), (3), (40), (300), (3000), (40000);
CREATE TEMP TABLE seeds (seed int);
INSERT INTO seeds VALUES (0), (12487), (-7);

-- 1. rows -> our compatible aggregate -> export equals the peer's own
-- hll_add_agg bytes; peer value -> import -> export gives its bytes back and
-- the peer reads them with an equal hll_print; cardinalities of EXPLICIT
-- sets agree exactly.
INSERT INTO result
SELECT format('bigint log2m=%s regwidth=%s expthresh=%s sparseon=%s seed=%s n=%s',
              log2m, regwidth, expthresh, sparseon, seed, n),
       ours = peer::text::bytea
         AND sketch.hll_to_postgresql_hll(sketch.hll_from_postgresql_hll(peer::text, seed)) = peer::text::bytea
         AND hll_print(ours::hll)::text = hll_print(peer)::text
         AND (hll_print(peer)::text NOT LIKE 'EXPLICIT%'
              OR sketch.hll_cardinality(sketch.hll_from_postgresql_hll(peer::text, seed)) = hll_cardinality(peer)),
       hll_print(peer)::text
FROM (SELECT p.*, s.seed, z.n,
             (SELECT sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_agg(
                       (g * 7919 + s.seed)::bigint, p.log2m, p.regwidth, p.expthresh, p.sparseon, s.seed))
              FROM generate_series(1, z.n) g) AS ours,
             (SELECT hll_add_agg(hll_hash_bigint((g * 7919 + s.seed)::bigint, s.seed),
                                 p.log2m, p.regwidth, p.expthresh, p.sparseon)
              FROM generate_series(1, z.n) g) AS peer
      FROM params p, seeds s, sizes z) t;

-- 2. Every hashed type, at the peer's defaults and at one other set.
INSERT INTO result
SELECT format('%s n=%s seed=%s', typ, n, seed), ours = peer::text::bytea, hll_print(peer)::text
FROM (SELECT 'smallint' AS typ, z.n, s.seed,
             (SELECT sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_agg(g::smallint, 11, 5, -1, 1, s.seed)) FROM generate_series(1, z.n) g) AS ours,
             (SELECT hll_add_agg(hll_hash_smallint(g::smallint, s.seed)) FROM generate_series(1, z.n) g) AS peer
      FROM sizes z, seeds s WHERE z.n < 32768
      UNION ALL
      SELECT 'integer', z.n, s.seed,
             (SELECT sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_agg(g, 11, 5, -1, 1, s.seed)) FROM generate_series(1, z.n) g),
             (SELECT hll_add_agg(hll_hash_integer(g, s.seed)) FROM generate_series(1, z.n) g)
      FROM sizes z, seeds s
      UNION ALL
      SELECT 'text', z.n, s.seed,
             (SELECT sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_agg('v' || g, 14, 6, 256, 0, s.seed)) FROM generate_series(1, z.n) g),
             (SELECT hll_add_agg(hll_hash_text('v' || g, s.seed), 14, 6, 256, 0) FROM generate_series(1, z.n) g)
      FROM sizes z, seeds s
      UNION ALL
      SELECT 'bytea', z.n, s.seed,
             (SELECT sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_agg(int4send(g), 11, 5, -1, 1, s.seed)) FROM generate_series(1, z.n) g),
             (SELECT hll_add_agg(hll_hash_bytea(int4send(g), s.seed)) FROM generate_series(1, z.n) g)
      FROM sizes z, seeds s
      UNION ALL
      SELECT 'boolean', 2, s.seed,
             (SELECT sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_agg(v, 11, 5, -1, 1, s.seed)) FROM (VALUES (true), (false)) b(v)),
             (SELECT hll_add_agg(hll_hash_boolean(v, s.seed)) FROM (VALUES (true), (false)) b(v))
      FROM seeds s) t;

-- 2b. Every other type by hll_hash_any's rule (src/pg/hll/hll_postgresql_hll_hash.h):
-- rows -> our aggregate (its typed twin where one exists, else anyelement)
-- -> export equals the peer's hll_add_agg(hll_hash_any(v, seed)) bytes,
-- and one scalar add (the anyelement overload) equals the peer's
-- hll_add(hll_empty(...), hll_hash_any(v, seed)), at the peer's defaults and
-- at log2m 14, regwidth 6, expthresh 256, sparseon 0.
DO $any$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('date', $e$DATE '1999-12-01' + g * 13$e$),
    ('timestamptz', $e$TIMESTAMPTZ '2024-01-01 00:00+00' + g * INTERVAL '1.5 seconds'$e$),
    ('timestamp', $e$TIMESTAMP '1960-01-01' + g * INTERVAL '1 minute'$e$),
    ('double precision', $e$(g / 3.0::float8) * CASE WHEN g % 2 = 0 THEN -1 ELSE 1 END$e$),
    ('real', $e$(g / 3.0)::real$e$),
    ('numeric', $e$round(g / 7.0, g % 5) * power(1000::numeric, g % 4)$e$),
    ('uuid', $e$md5(g::text)::uuid$e$),
    ('interval', $e$g * INTERVAL '1 hour 3 seconds'$e$),
    ('time', $e$TIME '00:00' + g * INTERVAL '1 second'$e$),
    ('timetz', $e$TIMETZ '12:00+02' + g * INTERVAL '1 second'$e$),
    ('macaddr', $e$('08:00:2b:' || lpad(to_hex(g / 256 % 256), 2, '0') || ':' || lpad(to_hex(g % 256), 2, '0') || ':01')::macaddr$e$),
    ('inet', $e$('10.' || (g / 65536 % 256) || '.' || (g / 256 % 256) || '.' || (g % 256))::inet$e$),
    ('jsonb', $e$jsonb_build_object('k', g, 'v', 'x' || g)$e$),
    ('point', $e$point(g, g / 3.0)$e$)) v(typ, expr)
  LOOP
    EXECUTE format($q$
      INSERT INTO result
      SELECT format('hll_hash_any %1$s %%s n=%%s seed=%%s', ps.label, z.n, s.seed),
             ours = peer::text::bytea AND add_ok, hll_print(peer)::text
      FROM sizes z, seeds s,
           (VALUES ('11/5/-1/1', 11, 5, -1, 1), ('14/6/256/0', 14, 6, 256, 0)) ps(label, log2m, regwidth, expthresh, sparseon),
           LATERAL (SELECT sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_agg(v, ps.log2m, ps.regwidth, ps.expthresh, ps.sparseon, s.seed)) AS ours,
                           hll_add_agg(hll_hash_any(v, s.seed), ps.log2m, ps.regwidth, ps.expthresh, ps.sparseon) AS peer
                    FROM (SELECT (%2$s)::%1$s AS v FROM generate_series(1, z.n) g) x) a,
           LATERAL (SELECT sketch.hll_to_postgresql_hll(sketch.hll_postgresql_hll_add(
                             sketch.hll_postgresql_hll_empty(ps.log2m, ps.regwidth, ps.expthresh, ps.sparseon, s.seed), v))
                           = hll_add(hll_empty(ps.log2m, ps.regwidth, ps.expthresh, ps.sparseon), hll_hash_any(v, s.seed))::text::bytea AS add_ok
                    FROM (SELECT (%2$s)::%1$s AS v FROM generate_series(z.n, z.n) g) x) b
      WHERE z.n <= 3000$q$, t.typ, t.expr);
  END LOOP;
END
$any$;

-- 3. Unions agree in either system: groups of rows aggregated by each, then
-- the peer's hll_union_agg and our hll_union over the imported groups.
INSERT INTO result
SELECT format('union log2m=%s regwidth=%s expthresh=%s sparseon=%s n=%s', log2m, regwidth, expthresh, sparseon, n),
       ours = peer::text::bytea, hll_print(peer)::text
FROM (SELECT p.*, z.n,
             (SELECT sketch.hll_to_postgresql_hll(sketch.hll_union(sketch.hll_from_postgresql_hll(h::text)))
              FROM (SELECT hll_add_agg(hll_hash_integer(g), p.log2m, p.regwidth, p.expthresh, p.sparseon) AS h
                    FROM generate_series(1, z.n) g GROUP BY g % 7) grp) AS ours,
             (SELECT hll_union_agg(h)
              FROM (SELECT hll_add_agg(hll_hash_integer(g), p.log2m, p.regwidth, p.expthresh, p.sparseon) AS h
                    FROM generate_series(1, z.n) g GROUP BY g % 7) grp) AS peer
      FROM params p, sizes z) t;

-- 4. The migration recipe as docs/migration.md writes it, on a column of the
-- peer's type, in one statement.
CREATE TABLE peer_rollup (day int, visitors hll);
INSERT INTO peer_rollup SELECT g % 5, hll_add_agg(hll_hash_bigint(g)) FROM generate_series(1, 30000) g GROUP BY 1;
CREATE TEMP TABLE before AS SELECT day, visitors::text AS t FROM peer_rollup;
ALTER TABLE peer_rollup ALTER COLUMN visitors TYPE sketch.hll USING sketch.hll_from_postgresql_hll(visitors::text);
INSERT INTO result
SELECT 'recipe ALTER TABLE: every value exports as before',
       bool_and(sketch.hll_to_postgresql_hll(r.visitors)::text = b.t), count(*)::text
FROM peer_rollup r JOIN before b USING (day);
-- New rows keep merging with the history.
INSERT INTO result
SELECT 'recipe: new rows merge with imported history',
       sketch.hll_union(visitors) OPERATOR(sketch.=)
         (SELECT sketch.hll_postgresql_hll_agg(g::bigint) FROM generate_series(1, 30000) g),
       NULL
FROM peer_rollup;

-- 5. The peer can answer NaN (regwidth 6, log2m 13, 60,000 distinct
-- bigints, expthresh 256, sparseon 0); the imported sketch gives a real estimate.
INSERT INTO result
SELECT 'NaN case: the peer says ' || coalesce(peer_card::text, 'NULL') || ', ours ' || ours_card,
       ours_card BETWEEN 54000 AND 66000, NULL
FROM (SELECT hll_cardinality(h) AS peer_card,
             sketch.hll_cardinality(sketch.hll_from_postgresql_hll(h::text)) AS ours_card
      FROM (SELECT hll_add_agg(hll_hash_bigint(g), 13, 6, 256, 0) AS h FROM generate_series(1, 60000) g) x) y;

SELECT CASE WHEN ok THEN 'ok ' ELSE 'not ok ' END || check_name ||
       CASE WHEN ok OR detail IS NULL THEN '' ELSE ' (' || left(detail, 120) || ')' END
FROM result ORDER BY ok, check_name;
