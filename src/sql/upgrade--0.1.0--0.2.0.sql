-- sketch 0.1.0 -> 0.2.0 (docs/upgrades.md). The Makefile appends the pieces
-- that create the literal twins, the typed aggregate twins and the privileges
-- (src/sql/literal_overloads.sql, typed_aggregates.sql, privileges.sql): they
-- are written once and run both on a fresh install and here.
--
-- Stored values of every type read unchanged: byte 7 of the header, 0 in
-- every 0.1.0 sketch, is now the element kind, where 0 means unrecorded.

\echo Use "ALTER EXTENSION sketch UPDATE TO '0.2.0'" to load this file. \quit

CREATE FUNCTION @extschema@.hll_hash(@extschema@.hll) RETURNS integer
  AS 'MODULE_PATHNAME', 'sketch_bytes_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_hash(@extschema@.hll) IS
  'Hash of the hll bytes, consistent with =: the hash operator class behind GROUP BY, DISTINCT and UNION on hll columns';
-- PostgreSQL 15 cannot ALTER OPERATOR ... SET (HASHES); the flag is what a
-- fresh install's CREATE OPERATOR ... HASHES records.
UPDATE pg_catalog.pg_operator SET oprcanhash = true
WHERE oid = '@extschema@.=(@extschema@.hll,@extschema@.hll)'::pg_catalog.regoperator;
CREATE OPERATOR CLASS @extschema@.hll_hash_ops DEFAULT FOR TYPE @extschema@.hll USING hash AS
  OPERATOR 1 @extschema@.= (@extschema@.hll, @extschema@.hll),
  FUNCTION 1 @extschema@.hll_hash(@extschema@.hll);
COMMENT ON OPERATOR CLASS @extschema@.hll_hash_ops USING hash IS
  'Hash equality of hll values: GROUP BY, DISTINCT and UNION on hll columns';

CREATE FUNCTION @extschema@.cms_hash(@extschema@.cms) RETURNS integer
  AS 'MODULE_PATHNAME', 'sketch_bytes_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_hash(@extschema@.cms) IS
  'Hash of the cms bytes, consistent with =: the hash operator class behind GROUP BY, DISTINCT and UNION on cms columns';
-- PostgreSQL 15 cannot ALTER OPERATOR ... SET (HASHES); the flag is what a
-- fresh install's CREATE OPERATOR ... HASHES records.
UPDATE pg_catalog.pg_operator SET oprcanhash = true
WHERE oid = '@extschema@.=(@extschema@.cms,@extschema@.cms)'::pg_catalog.regoperator;
CREATE OPERATOR CLASS @extschema@.cms_hash_ops DEFAULT FOR TYPE @extschema@.cms USING hash AS
  OPERATOR 1 @extschema@.= (@extschema@.cms, @extschema@.cms),
  FUNCTION 1 @extschema@.cms_hash(@extschema@.cms);
COMMENT ON OPERATOR CLASS @extschema@.cms_hash_ops USING hash IS
  'Hash equality of cms values: GROUP BY, DISTINCT and UNION on cms columns';

CREATE FUNCTION @extschema@.bloom_hash(@extschema@.bloom) RETURNS integer
  AS 'MODULE_PATHNAME', 'sketch_bytes_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_hash(@extschema@.bloom) IS
  'Hash of the bloom bytes, consistent with =: the hash operator class behind GROUP BY, DISTINCT and UNION on bloom columns';
-- PostgreSQL 15 cannot ALTER OPERATOR ... SET (HASHES); the flag is what a
-- fresh install's CREATE OPERATOR ... HASHES records.
UPDATE pg_catalog.pg_operator SET oprcanhash = true
WHERE oid = '@extschema@.=(@extschema@.bloom,@extschema@.bloom)'::pg_catalog.regoperator;
CREATE OPERATOR CLASS @extschema@.bloom_hash_ops DEFAULT FOR TYPE @extschema@.bloom USING hash AS
  OPERATOR 1 @extschema@.= (@extschema@.bloom, @extschema@.bloom),
  FUNCTION 1 @extschema@.bloom_hash(@extschema@.bloom);
COMMENT ON OPERATOR CLASS @extschema@.bloom_hash_ops USING hash IS
  'Hash equality of bloom values: GROUP BY, DISTINCT and UNION on bloom columns';

-- Every sketch is capped so that it can be dumped as text (512 MiB).
COMMENT ON FUNCTION @extschema@.bloom_empty_bits(bigint, integer) IS
  'An empty filter of the given bits (8..4294442880) and hashes (1..64)';

ALTER OPERATOR @extschema@.@> (@extschema@.bloom, anyelement)
  SET (RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel);
ALTER OPERATOR @extschema@.<@ (anyelement, @extschema@.bloom)
  SET (RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel);

-- A NULL filter is an empty one: membership answers false, not NULL.
CREATE OR REPLACE FUNCTION @extschema@.bloom_contains(sketch @extschema@.bloom, value anyelement)
  RETURNS boolean AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE PARALLEL SAFE;
ALTER FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anyelement) CALLED ON NULL INPUT;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anyelement) IS
  'False if the value was certainly never added; true if it may have been (a false positive with probability bloom_fpp). A NULL filter is empty (false); a NULL value gives NULL';
CREATE OR REPLACE FUNCTION @extschema@.bloom_contained(value anyelement, sketch @extschema@.bloom)
  RETURNS boolean AS 'MODULE_PATHNAME', 'bloom_contained' LANGUAGE C IMMUTABLE PARALLEL SAFE;
ALTER FUNCTION @extschema@.bloom_contained(anyelement, @extschema@.bloom) CALLED ON NULL INPUT;

-- Parameter names (docs/reference.md): 0.1.0 left most parameters unnamed,
-- so named-argument calls (hll_cardinality(sketch => h)) failed. CREATE OR
-- REPLACE with the same definition may add names to unnamed parameters; the
-- literal and typed-aggregate twins created below copy them.
CREATE OR REPLACE FUNCTION @extschema@.sketch_hash(value anyelement) RETURNS bigint
  AS 'MODULE_PATHNAME', 'sketch_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION @extschema@.hll(sketch @extschema@.hll, typmod integer, explicit boolean)
  RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_enforce_typmod' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.hll_from_bytea(data bytea) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.hll_add(sketch @extschema@.hll, value anyelement)
  RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.hll_union(a @extschema@.hll, b @extschema@.hll)
  RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.hll_cardinality(sketch @extschema@.hll) RETURNS bigint
  AS 'MODULE_PATHNAME', 'hll_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.hll_intersect_cardinality(a @extschema@.hll, b @extschema@.hll)
  RETURNS bigint
  AS 'MODULE_PATHNAME', 'hll_intersect_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.hll_info(sketch @extschema@.hll) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'hll_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.hll_eq(a @extschema@.hll, b @extschema@.hll) RETURNS boolean
  AS 'MODULE_PATHNAME', 'hll_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.hll_ne(a @extschema@.hll, b @extschema@.hll) RETURNS boolean
  AS 'MODULE_PATHNAME', 'hll_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- SSPACE 1024 -> 12300 (CREATE OR REPLACE keeps the aggregate and what depends on it): the largest state at the default p 14 (dense registers, 12,300
-- bytes with the varlena header). HashAggregate sizes its first pass with it:
-- a GROUP BY into many small groups then spills into partitions whose states
-- stay in the CPU caches, instead of probing 100 MB of states at random (10M
-- rows into 100,000 groups: 1.9 x faster serial; docs/hll.md, "Speed").
CREATE OR REPLACE AGGREGATE @extschema@.hll_agg(value anyelement) (
  SFUNC = @extschema@.hll_agg_trans, STYPE = @extschema@.hll, SSPACE = 12300,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.hll_agg(value anyelement, p integer) (
  SFUNC = @extschema@.hll_agg_trans, STYPE = @extschema@.hll, SSPACE = 12300,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.hll_union(sketch @extschema@.hll) (
  SFUNC = @extschema@.hll_union_trans, STYPE = @extschema@.hll, SSPACE = 1024,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);

CREATE OR REPLACE FUNCTION @extschema@.cms_from_bytea(data bytea) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.cms_add(sketch @extschema@.cms, value anyelement)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.cms_add(sketch @extschema@.cms, value anyelement, count bigint)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.cms_union(a @extschema@.cms, b @extschema@.cms)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.cms_frequency(sketch @extschema@.cms, value anyelement)
  RETURNS bigint
  AS 'MODULE_PATHNAME', 'cms_frequency' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.cms_total(sketch @extschema@.cms) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cms_total' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.cms_error_bound(sketch @extschema@.cms) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cms_error_bound' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.cms_info(sketch @extschema@.cms) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'cms_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.cms_eq(a @extschema@.cms, b @extschema@.cms) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cms_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.cms_ne(a @extschema@.cms, b @extschema@.cms) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cms_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg(value anyelement) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg(value anyelement, epsilon double precision,
    delta double precision) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg(value anyelement, epsilon double precision,
    delta double precision, conservative boolean) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg(value anyelement, epsilon double precision,
    delta double precision, conservative boolean, k integer) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_weighted(value anyelement, count bigint) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_weighted(value anyelement, count bigint,
    epsilon double precision, delta double precision) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_weighted(value anyelement, count bigint,
    epsilon double precision, delta double precision, conservative boolean) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_weighted(value anyelement, count bigint,
    epsilon double precision, delta double precision, conservative boolean, k integer) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_sized(value anyelement, width integer, depth integer) (
  SFUNC = @extschema@.cms_agg_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_sized(value anyelement, width integer, depth integer,
    conservative boolean) (
  SFUNC = @extschema@.cms_agg_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_sized(value anyelement, width integer, depth integer,
    conservative boolean, k integer) (
  SFUNC = @extschema@.cms_agg_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_weighted_sized(value anyelement, count bigint,
    width integer, depth integer) (
  SFUNC = @extschema@.cms_agg_weighted_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_weighted_sized(value anyelement, count bigint,
    width integer, depth integer, conservative boolean) (
  SFUNC = @extschema@.cms_agg_weighted_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_agg_weighted_sized(value anyelement, count bigint,
    width integer, depth integer, conservative boolean, k integer) (
  SFUNC = @extschema@.cms_agg_weighted_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.cms_union(sketch @extschema@.cms) (
  SFUNC = @extschema@.cms_union_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);

CREATE OR REPLACE FUNCTION @extschema@.bloom_from_bytea(data bytea) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.bloom_add(sketch @extschema@.bloom, value anyelement)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.bloom_union(a @extschema@.bloom, b @extschema@.bloom)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.bloom_intersect(a @extschema@.bloom, b @extschema@.bloom)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_intersect' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.bloom_cardinality(sketch @extschema@.bloom) RETURNS bigint
  AS 'MODULE_PATHNAME', 'bloom_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.bloom_fpp(sketch @extschema@.bloom) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bloom_fpp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.bloom_info(sketch @extschema@.bloom) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.bloom_eq(a @extschema@.bloom, b @extschema@.bloom) RETURNS boolean
  AS 'MODULE_PATHNAME', 'bloom_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.bloom_ne(a @extschema@.bloom, b @extschema@.bloom) RETURNS boolean
  AS 'MODULE_PATHNAME', 'bloom_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE AGGREGATE @extschema@.bloom_agg(value anyelement, n bigint, p double precision) (
  SFUNC = @extschema@.bloom_agg_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  FINALFUNC = @extschema@.bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.bloom_agg_bits(value anyelement, bits bigint, hashes integer) (
  SFUNC = @extschema@.bloom_agg_bits_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  FINALFUNC = @extschema@.bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE @extschema@.bloom_union(sketch @extschema@.bloom) (
  SFUNC = @extschema@.bloom_union_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);

-- Sizing answers for any n (and says whether the filter fits), and cms and
-- hll get sizing functions of their own.
DROP FUNCTION @extschema@.bloom_sizing(bigint, double precision);
CREATE FUNCTION @extschema@.bloom_sizing(
    n bigint, p double precision,
    OUT bits bigint, OUT hashes integer, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'bloom_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_sizing(bigint, double precision) IS
  'The filter bloom_empty(n, p) and bloom_agg(value, n, p) build for n distinct values at false-positive probability p: bits m = ceil(-n ln p / ln(2)^2), hashes k = round(m/n ln 2), its size in bytes, and whether it fits one value (at most 4294442880 bits); answers for any n';

CREATE FUNCTION @extschema@.cms_sizing(
    epsilon double precision, delta double precision, k integer DEFAULT 100,
    OUT width bigint, OUT depth integer, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'cms_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_sizing(double precision, double precision, integer) IS
  'The count-min sketch cms_agg(value, epsilon, delta) builds: width ceil(e/epsilon), depth ceil(ln(1/delta)), bytes before any candidate (each adds 12 bytes plus its text), and whether it can be built with k candidates; answers for any epsilon';

CREATE FUNCTION @extschema@.hll_sizing(
    p integer DEFAULT 14, OUT registers bigint, OUT bytes bigint, OUT standard_error double precision)
  AS 'MODULE_PATHNAME', 'hll_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_sizing(integer) IS
  'An hll of precision p at its largest (dense): 2^p registers, bytes, and the relative standard error 1.04/sqrt(2^p); sparse sketches of few values are smaller';

-- Every cast is documented for \dC+ readers.
COMMENT ON CAST (bytea AS @extschema@.hll) IS
  'The hll whose binary form the bytea holds, validated like binary input (22P03 when invalid)';
COMMENT ON CAST (@extschema@.hll AS bytea) IS
  'The binary form of the hll (its stored bytes, as hll_send writes them)';
COMMENT ON CAST (bytea AS @extschema@.cms) IS
  'The cms whose binary form the bytea holds, validated like binary input (22P03 when invalid)';
COMMENT ON CAST (@extschema@.cms AS bytea) IS
  'The binary form of the cms (its stored bytes, as cms_send writes them)';
COMMENT ON CAST (bytea AS @extschema@.bloom) IS
  'The bloom whose binary form the bytea holds, validated like binary input (22P03 when invalid)';
COMMENT ON CAST (@extschema@.bloom AS bytea) IS
  'The binary form of the bloom (its stored bytes, as bloom_send writes them)';
COMMENT ON CAST (@extschema@.hll AS @extschema@.hll) IS
  'The hll(p) length coercion: lowers a sketch to the column''s precision exactly, refuses to raise it (22023)';
