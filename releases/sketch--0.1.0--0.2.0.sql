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

-- bloom's split-block layout (Parquet's split-block Bloom filter) --------------
-- A piece of its own so that the 0.1.0 -> 0.2.0 upgrade runs it as it is
-- (bloom existed in 0.1.0; these objects are new in 0.2.0).

CREATE FUNCTION @extschema@.bloom_sizing(
    n bigint, p double precision, layout text,
    OUT bits bigint, OUT hashes integer, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'bloom_sizing_layout' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_sizing(bigint, double precision, text) IS
  'The filter of the layout (''classic'' or ''split_block'') for n distinct values at false-positive probability p: classic as bloom_sizing(n, p); split_block the smallest power-of-two bitset of 256-bit blocks whose Parquet formula fpp (sum over i of Poisson(i; 256 n/bits) (1 - (31/32)^i)^8) is at most p, with 8 hashes; its size in bytes and whether it fits (split_block: at most 2^30 bits, 128 MiB)';

CREATE FUNCTION @extschema@.bloom_empty(n bigint, p double precision, layout text) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_empty_layout' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_empty(bigint, double precision, text) IS
  'An empty filter of the layout (''classic'' or ''split_block'') sized for n distinct values at false-positive probability p (bloom_sizing(n, p, layout))';

CREATE FUNCTION @extschema@.bloom_agg_layout_trans(@extschema@.bloom, anyelement, bigint, double precision, text)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_agg_layout_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_layout_trans(@extschema@.bloom, anyelement, bigint, double precision, text) IS
  'Transition function of bloom_agg(value, n, p, layout)';

CREATE AGGREGATE @extschema@.bloom_agg(value anyelement, n bigint, p double precision, layout text) (
  SFUNC = @extschema@.bloom_agg_layout_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  FINALFUNC = @extschema@.bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement, bigint, double precision, text) IS
  'Bloom filter of the non-NULL values in the layout (''classic'' or ''split_block'': Parquet''s split-block filter, values hashed by their Parquet physical type), sized for n distinct values at false-positive probability p (the same n, p and layout on every row); NULL over no rows';

CREATE FUNCTION @extschema@.bloom_to_parquet(sketch @extschema@.bloom) RETURNS bytea
  AS 'MODULE_PATHNAME', 'bloom_to_parquet' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_to_parquet(@extschema@.bloom) IS
  'A split-block filter as a Parquet file stores it: the Thrift compact BloomFilterHeader (numBytes, BLOCK, XXHASH, UNCOMPRESSED) followed by the bitset';

CREATE FUNCTION @extschema@.bloom_from_parquet(data bytea, physical_type text DEFAULT NULL)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_from_parquet' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_from_parquet(bytea, text) IS
  'The split-block filter of a Parquet bloom filter''s bytes (header and bitset, validated: 22P03 when invalid); physical_type (INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) is the column''s, or NULL to let any value probe it and the first added value fix it; NULL data gives NULL';
-- ddsketch: quantiles with a guaranteed relative error (docs/ddsketch.md).

CREATE TYPE @extschema@.ddsketch;

CREATE FUNCTION @extschema@.ddsketch_in(cstring) RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.ddsketch_out(@extschema@.ddsketch) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ddsketch_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.ddsketch_recv(internal) RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.ddsketch_send(@extschema@.ddsketch) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ddsketch_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.ddsketch (
  INPUT = @extschema@.ddsketch_in,
  OUTPUT = @extschema@.ddsketch_out,
  RECEIVE = @extschema@.ddsketch_recv,
  SEND = @extschema@.ddsketch_send,
  INTERNALLENGTH = VARIABLE,
  STORAGE = extended
);
COMMENT ON FUNCTION @extschema@.ddsketch_in(cstring) IS
  'Text input of ddsketch: \x followed by the hex of the binary format, validated';
COMMENT ON FUNCTION @extschema@.ddsketch_out(@extschema@.ddsketch) IS
  'Text output of ddsketch: \x followed by the hex of the stored binary format';
COMMENT ON FUNCTION @extschema@.ddsketch_recv(internal) IS
  'Binary input of ddsketch (COPY BINARY, binary protocol), validated';
COMMENT ON FUNCTION @extschema@.ddsketch_send(@extschema@.ddsketch) IS
  'Binary output of ddsketch: the stored binary format';
COMMENT ON TYPE @extschema@.ddsketch IS
  'DDSketch of numbers for quantiles: every quantile within a relative error alpha of the true value (default alpha 0.0054 for a requested 0.01), mergeable exactly; exact count, sum, min and max';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.ddsketch_from_bytea(data bytea) RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_from_bytea(bytea) IS
  'Reads a ddsketch from its binary format, validating every byte';
CREATE CAST (bytea AS @extschema@.ddsketch) WITH FUNCTION @extschema@.ddsketch_from_bytea(bytea);
COMMENT ON CAST (bytea AS @extschema@.ddsketch) IS
  'The ddsketch whose binary form the bytea holds, validated like binary input (22P03 when invalid)';
CREATE CAST (@extschema@.ddsketch AS bytea) WITHOUT FUNCTION;
COMMENT ON CAST (@extschema@.ddsketch AS bytea) IS
  'The binary form of the ddsketch (its stored bytes, as ddsketch_send writes them)';

-- Building and combining ----------------------------------------------------

CREATE FUNCTION @extschema@.ddsketch_empty(
    relative_accuracy double precision DEFAULT 0.01, max_buckets integer DEFAULT 2048)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_empty(double precision, integer) IS
  'An empty ddsketch at the coarsest scale whose relative error does not exceed relative_accuracy (default 0.01), with at most max_buckets (16..65536, default 2048) buckets per sign';

CREATE FUNCTION @extschema@.ddsketch_add(sketch @extschema@.ddsketch, value double precision)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_add(@extschema@.ddsketch, double precision) IS
  'The sketch with one more value; a NULL value leaves it unchanged, a NULL sketch gives NULL, NaN and infinities are errors';

CREATE FUNCTION @extschema@.ddsketch_union(a @extschema@.ddsketch, b @extschema@.ddsketch)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_union(@extschema@.ddsketch, @extschema@.ddsketch) IS
  'Union of two sketches at the coarser scale and the smaller bucket limit (exact: finer buckets fold into coarser ones); a NULL side is ignored';

CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.ddsketch, RIGHTARG = @extschema@.ddsketch,
  FUNCTION = @extschema@.ddsketch_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.ddsketch, @extschema@.ddsketch) IS
  'Union of two ddsketches';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.ddsketch_quantile(sketch @extschema@.ddsketch, q double precision)
  RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_quantile' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_quantile(@extschema@.ddsketch, double precision) IS
  'The q-quantile (0..1) as percentile_disc defines it, within the sketch''s relative accuracy of the true value (unless ddsketch_info reports its rank unguaranteed); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_quantiles(sketch @extschema@.ddsketch, qs double precision[])
  RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'ddsketch_quantiles' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_quantiles(@extschema@.ddsketch, double precision[]) IS
  'ddsketch_quantile for each q of the array, in order (NULL where q is NULL, all NULL for a NULL or empty sketch)';

CREATE FUNCTION @extschema@.ddsketch_rank(sketch @extschema@.ddsketch, value double precision)
  RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_rank' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_rank(@extschema@.ddsketch, double precision) IS
  'The fraction of values <= value (exact below the minimum and from the maximum on, by whole buckets between); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_count(sketch @extschema@.ddsketch) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ddsketch_count' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_count(@extschema@.ddsketch) IS
  'The exact number of values; 0 for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_sum(sketch @extschema@.ddsketch) RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_sum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_sum(@extschema@.ddsketch) IS
  'The sum of the values, kept exactly and rounded once to double precision; 0 for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_mean(sketch @extschema@.ddsketch) RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_mean' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_mean(@extschema@.ddsketch) IS
  'ddsketch_sum / ddsketch_count; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_min(sketch @extschema@.ddsketch) RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_min' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_min(@extschema@.ddsketch) IS
  'The exact smallest value; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_max(sketch @extschema@.ddsketch) RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_max' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_max(@extschema@.ddsketch) IS
  'The exact largest value; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_relative_accuracy(sketch @extschema@.ddsketch)
  RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_relative_accuracy' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_relative_accuracy(@extschema@.ddsketch) IS
  'The relative error alpha = (gamma - 1) / (gamma + 1) every guaranteed quantile of the sketch stays within';

CREATE FUNCTION @extschema@.ddsketch_info(sketch @extschema@.ddsketch) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'ddsketch_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_info(@extschema@.ddsketch) IS
  'Scale, relative accuracy, bucket limit, count, zeros, min, max, sum, buckets per sign, whether buckets collapsed and which ranks lost the guarantee, and size, as jsonb';

CREATE FUNCTION @extschema@.ddsketch_eq(a @extschema@.ddsketch, b @extschema@.ddsketch) RETURNS boolean
  AS 'MODULE_PATHNAME', 'ddsketch_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_eq(@extschema@.ddsketch, @extschema@.ddsketch) IS
  'True if two sketches are identical (same scale, bucket limit and multiset of bucketed values)';
CREATE FUNCTION @extschema@.ddsketch_ne(a @extschema@.ddsketch, b @extschema@.ddsketch) RETURNS boolean
  AS 'MODULE_PATHNAME', 'ddsketch_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_ne(@extschema@.ddsketch, @extschema@.ddsketch) IS
  'True if two sketches differ';

CREATE FUNCTION @extschema@.ddsketch_hash(@extschema@.ddsketch) RETURNS integer
  AS 'MODULE_PATHNAME', 'sketch_bytes_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_hash(@extschema@.ddsketch) IS
  'Hash of the ddsketch bytes, consistent with =: the hash operator class behind GROUP BY, DISTINCT and UNION on ddsketch columns';

CREATE OPERATOR @extschema@.= (
  LEFTARG = @extschema@.ddsketch, RIGHTARG = @extschema@.ddsketch, FUNCTION = @extschema@.ddsketch_eq,
  COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.ddsketch, @extschema@.ddsketch) IS 'Identical sketches';
CREATE OPERATOR @extschema@.<> (
  LEFTARG = @extschema@.ddsketch, RIGHTARG = @extschema@.ddsketch, FUNCTION = @extschema@.ddsketch_ne,
  COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.ddsketch, @extschema@.ddsketch) IS 'Different sketches';

-- = is byte equality of the stored form, so hashing the bytes is consistent
-- with it. No btree class: sketches have no meaningful order.
CREATE OPERATOR CLASS @extschema@.ddsketch_hash_ops DEFAULT FOR TYPE @extschema@.ddsketch USING hash AS
  OPERATOR 1 @extschema@.= (@extschema@.ddsketch, @extschema@.ddsketch),
  FUNCTION 1 @extschema@.ddsketch_hash(@extschema@.ddsketch);
COMMENT ON OPERATOR CLASS @extschema@.ddsketch_hash_ops USING hash IS
  'Hash equality of ddsketch values: GROUP BY, DISTINCT and UNION on ddsketch columns';

-- Aggregates ----------------------------------------------------------------

-- The value is double precision: every numeric type (smallint, integer,
-- bigint, numeric, real) casts to it implicitly, and an aggregate of fixed
-- argument types is one that distributed engines such as Citus can split.
CREATE FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision) IS
  'Transition function of ddsketch_agg(value)';
CREATE FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision, double precision)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision, double precision) IS
  'Transition function of ddsketch_agg(value, relative_accuracy)';
CREATE FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision, double precision, integer)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision, double precision, integer) IS
  'Transition function of ddsketch_agg(value, relative_accuracy, max_buckets)';
CREATE FUNCTION @extschema@.ddsketch_union_trans(@extschema@.ddsketch, @extschema@.ddsketch)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_union_trans(@extschema@.ddsketch, @extschema@.ddsketch) IS
  'Transition function of ddsketch_union and combine function of the ddsketch aggregates';
CREATE FUNCTION @extschema@.ddsketch_final(@extschema@.ddsketch) RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_final(@extschema@.ddsketch) IS
  'Final function of the ddsketch aggregates: the stored form of the state';

CREATE AGGREGATE @extschema@.ddsketch_agg(value double precision) (
  SFUNC = @extschema@.ddsketch_agg_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_agg(double precision) IS
  'DDSketch of the non-NULL values at relative accuracy 0.01 (alpha 0.0054) and 2048 buckets per sign; NULL over no rows';

CREATE AGGREGATE @extschema@.ddsketch_agg(value double precision, relative_accuracy double precision) (
  SFUNC = @extschema@.ddsketch_agg_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_agg(double precision, double precision) IS
  'DDSketch of the non-NULL values at the coarsest scale within relative_accuracy, 2048 buckets per sign; NULL over no rows';

CREATE AGGREGATE @extschema@.ddsketch_agg(value double precision, relative_accuracy double precision,
                                          max_buckets integer) (
  SFUNC = @extschema@.ddsketch_agg_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_agg(double precision, double precision, integer) IS
  'DDSketch of the non-NULL values within relative_accuracy and at most max_buckets (16..65536) buckets per sign, collapsing the lowest magnitudes beyond; NULL over no rows';

CREATE AGGREGATE @extschema@.ddsketch_union(sketch @extschema@.ddsketch) (
  SFUNC = @extschema@.ddsketch_union_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_union(@extschema@.ddsketch) IS
  'Union of ddsketches, at the coarsest scale and smallest bucket limit among them; NULL over no rows (readers take it as empty)';
-- topk: heavy hitters with deterministic bounds (docs/topk.md).

CREATE TYPE @extschema@.topk;

CREATE FUNCTION @extschema@.topk_in(cstring) RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.topk_out(@extschema@.topk) RETURNS cstring
  AS 'MODULE_PATHNAME', 'topk_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.topk_recv(internal) RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.topk_send(@extschema@.topk) RETURNS bytea
  AS 'MODULE_PATHNAME', 'topk_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.topk (
  INPUT = @extschema@.topk_in,
  OUTPUT = @extschema@.topk_out,
  RECEIVE = @extschema@.topk_recv,
  SEND = @extschema@.topk_send,
  INTERNALLENGTH = VARIABLE,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.topk IS
  'Heavy hitters (Misra-Gries): at most k items (default 1024) with counts; every item''s true count lies within [lower, lower + max_error] and max_error <= N/(k+1), deterministically, also after merges with topk_union (topk_scale may round max_error above it)';

COMMENT ON FUNCTION @extschema@.topk_in(cstring) IS
  'Text input of topk: \x followed by the hex of the binary format, validated';
COMMENT ON FUNCTION @extschema@.topk_out(@extschema@.topk) IS
  'Text output of topk: \x followed by the hex of the stored binary format';
COMMENT ON FUNCTION @extschema@.topk_recv(internal) IS
  'Binary input of topk (COPY BINARY, binary protocol), validated';
COMMENT ON FUNCTION @extschema@.topk_send(@extschema@.topk) IS
  'Binary output of topk: the stored binary format';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.topk_from_bytea(data bytea) RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_from_bytea(bytea) IS
  'Reads a topk from its binary format, validating every byte';
CREATE CAST (bytea AS @extschema@.topk) WITH FUNCTION @extschema@.topk_from_bytea(bytea);
COMMENT ON CAST (bytea AS @extschema@.topk) IS
  'The topk whose binary form the bytea holds, validated like binary input (22P03 when invalid)';
CREATE CAST (@extschema@.topk AS bytea) WITHOUT FUNCTION;
COMMENT ON CAST (@extschema@.topk AS bytea) IS
  'The binary form of the topk (its stored bytes, as topk_send writes them)';

-- Building, combining, aging ------------------------------------------------

CREATE FUNCTION @extschema@.topk_empty(k integer DEFAULT 1024) RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_empty(integer) IS
  'An empty topk keeping at most k items (1..65536, default 1024)';

CREATE FUNCTION @extschema@.topk_add(sketch @extschema@.topk, value anyelement)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_add(@extschema@.topk, anyelement) IS
  'The summary with one more occurrence of the item; a NULL item leaves it unchanged, a NULL sketch gives NULL';
CREATE FUNCTION @extschema@.topk_add(sketch @extschema@.topk, value anyelement, weight bigint)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_add(@extschema@.topk, anyelement, bigint) IS
  'The summary with weight more occurrences of the item; a NULL item or a NULL or zero weight leaves it unchanged, a negative weight is an error, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.topk_union(a @extschema@.topk, b @extschema@.topk)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_union(@extschema@.topk, @extschema@.topk) IS
  'Merge of two summaries (mergeable summaries: counts added, then purged to the smaller k; the bounds hold over the combined total); a NULL side is ignored';

CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.topk, RIGHTARG = @extschema@.topk,
  FUNCTION = @extschema@.topk_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.topk, @extschema@.topk) IS
  'Merge of two topk summaries';

CREATE FUNCTION @extschema@.topk_scale(sketch @extschema@.topk, factor double precision)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_scale' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_scale(@extschema@.topk, double precision) IS
  'Aging: every count and the total times factor (0 < factor <= 1), rounded down, max_error rounded up, so the bounds hold for the scaled counts; items that reach 0 are dropped';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.topk_items(sketch @extschema@.topk,
    OUT item text, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.topk_items(@extschema@.topk) IS
  'Every held item best first, as text, with its estimate (the upper bound) and the bounds its true count lies in; no rows for a NULL sketch';
CREATE FUNCTION @extschema@.topk_items(sketch @extschema@.topk, n integer,
    OUT item text, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.topk_items(@extschema@.topk, integer) IS
  'The n best items (ties by hash) as text with estimate and bounds; no rows for a NULL sketch or n, an error for a negative n';
CREATE FUNCTION @extschema@.topk_items(sketch @extschema@.topk, n integer, type_hint anyelement,
    OUT item anyelement, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_items' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.topk_items(@extschema@.topk, integer, anyelement) IS
  'topk_items with the items read back as the type of type_hint (pass e.g. NULL::bigint); no rows for a NULL sketch or n';

CREATE FUNCTION @extschema@.topk_frequent(sketch @extschema@.topk, threshold double precision,
    guarantee text,
    OUT item text, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_frequent' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.topk_frequent(@extschema@.topk, double precision, text) IS
  'The items whose count exceeds threshold*N (threshold 0..1), best first: with ''no_false_positives'' only items surely above it, with ''no_false_negatives'' every item possibly above it (an error when threshold*N < max_error); no rows for a NULL sketch';
CREATE FUNCTION @extschema@.topk_frequent(sketch @extschema@.topk, threshold double precision,
    guarantee text, type_hint anyelement,
    OUT item anyelement, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_frequent' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.topk_frequent(@extschema@.topk, double precision, text, anyelement) IS
  'topk_frequent with the items read back as the type of type_hint (pass e.g. NULL::bigint)';

CREATE FUNCTION @extschema@.topk_estimate(sketch @extschema@.topk, value anyelement,
    OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  AS 'MODULE_PATHNAME', 'topk_estimate' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_estimate(@extschema@.topk, anyelement) IS
  'The item''s count: estimate and the bounds its true count lies in (an item not held: estimate 0, bounds 0 and max_error); NULL for a NULL item, zeros for a NULL sketch';

CREATE FUNCTION @extschema@.topk_total(sketch @extschema@.topk) RETURNS bigint
  AS 'MODULE_PATHNAME', 'topk_total' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_total(@extschema@.topk) IS
  'N, the total weight added (exact); 0 for a NULL sketch';

CREATE FUNCTION @extschema@.topk_max_error(sketch @extschema@.topk) RETURNS bigint
  AS 'MODULE_PATHNAME', 'topk_max_error' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_max_error(@extschema@.topk) IS
  'The largest error of any count (upper_bound - lower_bound), at most N/(k+1) unless topk_scale rounded it up; 0 while at most k distinct items were added; 0 for a NULL sketch';

CREATE FUNCTION @extschema@.topk_info(sketch @extschema@.topk) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'topk_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_info(@extschema@.topk) IS
  'k, items held, total, max_error and its bound floor((N - sum of counts)/(k+1)), bytes, format version, hash and element kind, as jsonb';

CREATE FUNCTION @extschema@.topk_eq(a @extschema@.topk, b @extschema@.topk) RETURNS boolean
  AS 'MODULE_PATHNAME', 'topk_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_eq(@extschema@.topk, @extschema@.topk) IS
  'True if two summaries are identical (k, total, max_error, items and counts)';
CREATE FUNCTION @extschema@.topk_ne(a @extschema@.topk, b @extschema@.topk) RETURNS boolean
  AS 'MODULE_PATHNAME', 'topk_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_ne(@extschema@.topk, @extschema@.topk) IS
  'True if two summaries differ';

CREATE FUNCTION @extschema@.topk_hash(@extschema@.topk) RETURNS integer
  AS 'MODULE_PATHNAME', 'sketch_bytes_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_hash(@extschema@.topk) IS
  'Hash of the topk bytes, consistent with =: the hash operator class behind GROUP BY, DISTINCT and UNION on topk columns';

CREATE OPERATOR @extschema@.= (
  LEFTARG = @extschema@.topk, RIGHTARG = @extschema@.topk, FUNCTION = @extschema@.topk_eq,
  COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.topk, @extschema@.topk) IS 'Identical summaries';
CREATE OPERATOR @extschema@.<> (
  LEFTARG = @extschema@.topk, RIGHTARG = @extschema@.topk, FUNCTION = @extschema@.topk_ne,
  COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.topk, @extschema@.topk) IS 'Different summaries';

CREATE OPERATOR CLASS @extschema@.topk_hash_ops DEFAULT FOR TYPE @extschema@.topk USING hash AS
  OPERATOR 1 @extschema@.= (@extschema@.topk, @extschema@.topk),
  FUNCTION 1 @extschema@.topk_hash(@extschema@.topk);
COMMENT ON OPERATOR CLASS @extschema@.topk_hash_ops USING hash IS
  'Hash equality of topk values: GROUP BY, DISTINCT and UNION on topk columns';

-- Aggregates ----------------------------------------------------------------
-- Every aggregate's state is topk itself (the working encoding), updated in
-- place; topk_union_trans is every aggregate's combine function, topk_final
-- (read-only) its final function. SSPACE: a state starts at about 1 kB and
-- grows with the distinct items seen, to about 100 kB at k = 1024.

CREATE FUNCTION @extschema@.topk_union_trans(@extschema@.topk, @extschema@.topk)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_union_trans(@extschema@.topk, @extschema@.topk) IS
  'Transition function of topk_union and combine function of the topk aggregates';
CREATE FUNCTION @extschema@.topk_final(@extschema@.topk) RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_final(@extschema@.topk) IS
  'Final function of the topk aggregates: the stored form of the state';

CREATE FUNCTION @extschema@.topk_agg_trans(@extschema@.topk, anyelement) RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.topk_agg_trans(@extschema@.topk, anyelement, integer)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_agg_trans(@extschema@.topk, anyelement) IS
  'Transition function of topk_agg(value)';
COMMENT ON FUNCTION @extschema@.topk_agg_trans(@extschema@.topk, anyelement, integer) IS
  'Transition function of topk_agg(value, k)';

CREATE AGGREGATE @extschema@.topk_agg(value anyelement) (
  SFUNC = @extschema@.topk_agg_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.topk_agg(anyelement) IS
  'Heavy hitters of the non-NULL items, k = 1024: every count within N/1025; NULL over no rows';
CREATE AGGREGATE @extschema@.topk_agg(value anyelement, k integer) (
  SFUNC = @extschema@.topk_agg_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.topk_agg(anyelement, integer) IS
  'Heavy hitters of the non-NULL items keeping k items (1..65536, the same on every row): every count within N/(k+1); NULL over no rows';

CREATE FUNCTION @extschema@.topk_agg_weighted_trans(@extschema@.topk, anyelement, bigint)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.topk_agg_weighted_trans(@extschema@.topk, anyelement, bigint, integer)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_agg_weighted_trans(@extschema@.topk, anyelement, bigint) IS
  'Transition function of topk_agg_weighted(value, weight)';
COMMENT ON FUNCTION @extschema@.topk_agg_weighted_trans(@extschema@.topk, anyelement, bigint, integer) IS
  'Transition function of topk_agg_weighted(value, weight, k)';

CREATE AGGREGATE @extschema@.topk_agg_weighted(value anyelement, weight bigint) (
  SFUNC = @extschema@.topk_agg_weighted_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.topk_agg_weighted(anyelement, bigint) IS
  'Heavy hitters by total weight, k = 1024 (rows with a NULL item or a NULL or zero weight are skipped; a negative weight is an error); NULL over no rows';
CREATE AGGREGATE @extschema@.topk_agg_weighted(value anyelement, weight bigint, k integer) (
  SFUNC = @extschema@.topk_agg_weighted_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.topk_agg_weighted(anyelement, bigint, integer) IS
  'Heavy hitters by total weight keeping k items (the same on every row); NULL over no rows';

CREATE AGGREGATE @extschema@.topk_union(sketch @extschema@.topk) (
  SFUNC = @extschema@.topk_union_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.topk_union(@extschema@.topk) IS
  'Merge of topk summaries (at the smallest k among them); NULL over no rows (readers treat it as empty)';

-- Sizing --------------------------------------------------------------------

CREATE FUNCTION @extschema@.topk_sizing(
    epsilon double precision, item_bytes integer DEFAULT 8,
    OUT k bigint, OUT max_error_fraction double precision, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'topk_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_sizing(double precision, integer) IS
  'The topk for a largest error of epsilon*N: k = ceil(1/epsilon) - 1 (max_error <= N/(k+1)), the bytes of a full stored summary whose item texts average item_bytes, and whether k fits (at most 65536)';
-- theta: set operations and similarity on KMV sketches (docs/theta.md).

CREATE TYPE @extschema@.theta;

CREATE FUNCTION @extschema@.theta_in(cstring) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.theta_out(@extschema@.theta) RETURNS cstring
  AS 'MODULE_PATHNAME', 'theta_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.theta_recv(internal) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.theta_send(@extschema@.theta) RETURNS bytea
  AS 'MODULE_PATHNAME', 'theta_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.theta (
  INPUT = @extschema@.theta_in,
  OUTPUT = @extschema@.theta_out,
  RECEIVE = @extschema@.theta_recv,
  SEND = @extschema@.theta_send,
  INTERNALLENGTH = VARIABLE,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.theta IS
  'Theta (KMV) sketch of distinct values: the k = 2^lg_k smallest hashes (default lg_k 12, relative standard error 1.6%), exact below k; union (||), intersection (&), difference and Jaccard similarity with confidence bounds';

COMMENT ON FUNCTION @extschema@.theta_in(cstring) IS
  'Text input of theta: \x followed by the hex of the binary format, validated';
COMMENT ON FUNCTION @extschema@.theta_out(@extschema@.theta) IS
  'Text output of theta: \x followed by the hex of the stored binary format';
COMMENT ON FUNCTION @extschema@.theta_recv(internal) IS
  'Binary input of theta (COPY BINARY, binary protocol), validated';
COMMENT ON FUNCTION @extschema@.theta_send(@extschema@.theta) IS
  'Binary output of theta: the stored binary format';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.theta_from_bytea(data bytea) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_from_bytea(bytea) IS
  'Reads a theta from its binary format, validating every byte';
CREATE CAST (bytea AS @extschema@.theta) WITH FUNCTION @extschema@.theta_from_bytea(bytea);
COMMENT ON CAST (bytea AS @extschema@.theta) IS
  'The theta whose binary form the bytea holds, validated like binary input (22P03 when invalid)';
CREATE CAST (@extschema@.theta AS bytea) WITHOUT FUNCTION;
COMMENT ON CAST (@extschema@.theta AS bytea) IS
  'The binary form of the theta (its stored bytes, as theta_send writes them)';

-- Building and set operations ----------------------------------------------

CREATE FUNCTION @extschema@.theta_empty(lg_k integer DEFAULT 12) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_empty(integer) IS
  'An empty theta sketch keeping k = 2^lg_k hashes (lg_k 4..24, default 12)';

CREATE FUNCTION @extschema@.theta_add(sketch @extschema@.theta, value anyelement)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_add(@extschema@.theta, anyelement) IS
  'The sketch with one more value; a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.theta_union(a @extschema@.theta, b @extschema@.theta)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_union(@extschema@.theta, @extschema@.theta) IS
  'The sketch of the union of both sets (at the smaller k, exactly the sketch the union''s values would build); a NULL side is ignored';
CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.theta, RIGHTARG = @extschema@.theta,
  FUNCTION = @extschema@.theta_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.theta, @extschema@.theta) IS
  'Union of two theta sketches';

CREATE FUNCTION @extschema@.theta_intersect(a @extschema@.theta, b @extschema@.theta)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_intersect2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_intersect(@extschema@.theta, @extschema@.theta) IS
  'The sketch of the values in both sets: the hashes both hold below the smaller theta (error relative to the union: see docs/theta.md)';
CREATE OPERATOR @extschema@.& (
  LEFTARG = @extschema@.theta, RIGHTARG = @extschema@.theta,
  FUNCTION = @extschema@.theta_intersect, COMMUTATOR = OPERATOR(@extschema@.&)
);
COMMENT ON OPERATOR @extschema@.& (@extschema@.theta, @extschema@.theta) IS
  'Intersection of two theta sketches';

CREATE FUNCTION @extschema@.theta_diff(a @extschema@.theta, b @extschema@.theta)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_diff' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_diff(@extschema@.theta, @extschema@.theta) IS
  'The sketch of the values of a that are not in b';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.theta_count(sketch @extschema@.theta) RETURNS bigint
  AS 'MODULE_PATHNAME', 'theta_count' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_count(@extschema@.theta) IS
  'Estimated number of distinct values (exact below k), rounded; 0 for a NULL sketch';

CREATE FUNCTION @extschema@.theta_bounds(sketch @extschema@.theta,
    confidence double precision DEFAULT 0.95, OUT lower bigint, OUT upper bigint)
  AS 'MODULE_PATHNAME', 'theta_bounds' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_bounds(@extschema@.theta, double precision) IS
  'Bounds on the number of distinct values at the confidence (0..1, default 0.95), for any sketch including intersections and differences; exact sketches give the count twice; (0, 0) for a NULL sketch, NULLs for a NULL confidence';

CREATE FUNCTION @extschema@.theta_jaccard(a @extschema@.theta, b @extschema@.theta,
    confidence double precision DEFAULT 0.95,
    OUT estimate double precision, OUT lower double precision, OUT upper double precision)
  AS 'MODULE_PATHNAME', 'theta_jaccard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_jaccard(@extschema@.theta, @extschema@.theta, double precision) IS
  'Jaccard similarity |A & B| / |A | B| of the two sets from the union''s sample (MinHash), with a Wilson interval at the confidence; NULL when both are empty';

CREATE FUNCTION @extschema@.theta_info(sketch @extschema@.theta) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'theta_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_info(@extschema@.theta) IS
  'lg_k, k, hashes retained, exact, theta (the sampling rate), estimate and 95% bounds, bytes, format version, hash and element kind, as jsonb';

CREATE FUNCTION @extschema@.theta_eq(a @extschema@.theta, b @extschema@.theta) RETURNS boolean
  AS 'MODULE_PATHNAME', 'theta_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_eq(@extschema@.theta, @extschema@.theta) IS
  'True if two sketches are identical (the same lg_k, theta and hashes: sketches of the same set at the same lg_k)';
CREATE FUNCTION @extschema@.theta_ne(a @extschema@.theta, b @extschema@.theta) RETURNS boolean
  AS 'MODULE_PATHNAME', 'theta_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_ne(@extschema@.theta, @extschema@.theta) IS
  'True if two sketches differ';

CREATE FUNCTION @extschema@.theta_hash(@extschema@.theta) RETURNS integer
  AS 'MODULE_PATHNAME', 'sketch_bytes_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_hash(@extschema@.theta) IS
  'Hash of the theta bytes, consistent with =: the hash operator class behind GROUP BY, DISTINCT and UNION on theta columns';

CREATE OPERATOR @extschema@.= (
  LEFTARG = @extschema@.theta, RIGHTARG = @extschema@.theta, FUNCTION = @extschema@.theta_eq,
  COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.theta, @extschema@.theta) IS 'Identical sketches';
CREATE OPERATOR @extschema@.<> (
  LEFTARG = @extschema@.theta, RIGHTARG = @extschema@.theta, FUNCTION = @extschema@.theta_ne,
  COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.theta, @extschema@.theta) IS 'Different sketches';

CREATE OPERATOR CLASS @extschema@.theta_hash_ops DEFAULT FOR TYPE @extschema@.theta USING hash AS
  OPERATOR 1 @extschema@.= (@extschema@.theta, @extschema@.theta),
  FUNCTION 1 @extschema@.theta_hash(@extschema@.theta);
COMMENT ON OPERATOR CLASS @extschema@.theta_hash_ops USING hash IS
  'Hash equality of theta values: GROUP BY, DISTINCT and UNION on theta columns';

-- Aggregates ----------------------------------------------------------------
-- theta_agg and theta_union keep a working state (a hash table that grows
-- to 2k slots, 64 KiB at lg_k 12) updated in place, theta_union_trans
-- their combine function; theta_intersect keeps the running intersection.

CREATE FUNCTION @extschema@.theta_union_trans(@extschema@.theta, @extschema@.theta)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_union_trans(@extschema@.theta, @extschema@.theta) IS
  'Transition function of theta_union and combine function of theta_agg and theta_union';
CREATE FUNCTION @extschema@.theta_intersect_trans(@extschema@.theta, @extschema@.theta)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_intersect_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_intersect_trans(@extschema@.theta, @extschema@.theta) IS
  'Transition and combine function of theta_intersect';
CREATE FUNCTION @extschema@.theta_final(@extschema@.theta) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_final(@extschema@.theta) IS
  'Final function of the theta aggregates: the stored form of the state';

CREATE FUNCTION @extschema@.theta_agg_trans(@extschema@.theta, anyelement) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.theta_agg_trans(@extschema@.theta, anyelement, integer)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_agg_trans(@extschema@.theta, anyelement) IS
  'Transition function of theta_agg(value)';
COMMENT ON FUNCTION @extschema@.theta_agg_trans(@extschema@.theta, anyelement, integer) IS
  'Transition function of theta_agg(value, lg_k)';

CREATE AGGREGATE @extschema@.theta_agg(value anyelement) (
  SFUNC = @extschema@.theta_agg_trans, STYPE = @extschema@.theta, SSPACE = 8192,
  FINALFUNC = @extschema@.theta_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.theta_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.theta_agg(anyelement) IS
  'Theta sketch (lg_k 12) of the non-NULL values; NULL over no rows';
CREATE AGGREGATE @extschema@.theta_agg(value anyelement, lg_k integer) (
  SFUNC = @extschema@.theta_agg_trans, STYPE = @extschema@.theta, SSPACE = 8192,
  FINALFUNC = @extschema@.theta_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.theta_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.theta_agg(anyelement, integer) IS
  'Theta sketch of the non-NULL values keeping k = 2^lg_k hashes (lg_k 4..24, the same on every row); NULL over no rows';

CREATE AGGREGATE @extschema@.theta_union(sketch @extschema@.theta) (
  SFUNC = @extschema@.theta_union_trans, STYPE = @extschema@.theta, SSPACE = 8192,
  FINALFUNC = @extschema@.theta_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.theta_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.theta_union(@extschema@.theta) IS
  'Union of theta sketches (at the smallest lg_k); NULL over no rows';

CREATE AGGREGATE @extschema@.theta_intersect(sketch @extschema@.theta) (
  SFUNC = @extschema@.theta_intersect_trans, STYPE = @extschema@.theta, SSPACE = 32800,
  COMBINEFUNC = @extschema@.theta_intersect_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.theta_intersect(@extschema@.theta) IS
  'Intersection of the non-NULL theta sketches (at the smallest lg_k); NULL over no rows';

-- Sizing --------------------------------------------------------------------

CREATE FUNCTION @extschema@.theta_sizing(lg_k integer DEFAULT 12,
    OUT k bigint, OUT standard_error double precision, OUT bytes bigint)
  AS 'MODULE_PATHNAME', 'theta_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_sizing(integer) IS
  'A theta sketch of lg_k (4..24): k = 2^lg_k, the relative standard error of a count or union 1/sqrt(k-1), and the bytes of a full stored sketch';
-- counting_bloom: Bloom filters with 4-bit counters, so that members can be deleted.

CREATE TYPE @extschema@.counting_bloom;

CREATE FUNCTION @extschema@.counting_bloom_in(cstring) RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.counting_bloom_out(@extschema@.counting_bloom) RETURNS cstring
  AS 'MODULE_PATHNAME', 'counting_bloom_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.counting_bloom_recv(internal) RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.counting_bloom_send(@extschema@.counting_bloom) RETURNS bytea
  AS 'MODULE_PATHNAME', 'counting_bloom_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- STORAGE = external, as bloom: large filters go out of line uncompressed,
-- and a probe that detoasts one copies it without decompressing.
CREATE TYPE @extschema@.counting_bloom (
  INPUT = @extschema@.counting_bloom_in,
  OUTPUT = @extschema@.counting_bloom_out,
  RECEIVE = @extschema@.counting_bloom_recv,
  SEND = @extschema@.counting_bloom_send,
  INTERNALLENGTH = VARIABLE,
  STORAGE = external
);
COMMENT ON TYPE @extschema@.counting_bloom IS
  'Counting Bloom filter: set membership with deletes; m 4-bit counters and k hashes at bloom''s positions, sized by counting_bloom_empty(n, p) or counting_bloom_agg(value, n, p); no false negatives for members added and not deleted, unless a value that was never added is deleted';

COMMENT ON FUNCTION @extschema@.counting_bloom_in(cstring) IS
  'Text input of counting_bloom: \x followed by the hex of the binary format, validated';
COMMENT ON FUNCTION @extschema@.counting_bloom_out(@extschema@.counting_bloom) IS
  'Text output of counting_bloom: \x followed by the hex of the binary format';
COMMENT ON FUNCTION @extschema@.counting_bloom_recv(internal) IS
  'Binary input of counting_bloom (the binary format), validated';
COMMENT ON FUNCTION @extschema@.counting_bloom_send(@extschema@.counting_bloom) IS
  'Binary output of counting_bloom (the binary format)';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.counting_bloom_from_bytea(data bytea) RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_from_bytea(bytea) IS
  'Reads a counting bloom filter from its binary format, validating it';
CREATE CAST (bytea AS @extschema@.counting_bloom)
  WITH FUNCTION @extschema@.counting_bloom_from_bytea(bytea);
COMMENT ON CAST (bytea AS @extschema@.counting_bloom) IS
  'The counting_bloom whose binary form the bytea holds, validated like binary input (22P03 when invalid)';
CREATE CAST (@extschema@.counting_bloom AS bytea) WITHOUT FUNCTION;
COMMENT ON CAST (@extschema@.counting_bloom AS bytea) IS
  'The binary form of the counting_bloom (its stored bytes, as counting_bloom_send writes them)';

-- Sizing and building -------------------------------------------------------

CREATE FUNCTION @extschema@.counting_bloom_sizing(
    n bigint, p double precision,
    OUT cells bigint, OUT hashes integer, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'counting_bloom_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_sizing(bigint, double precision) IS
  'The filter counting_bloom_empty(n, p) and counting_bloom_agg(value, n, p) build for n live values at false-positive probability p: bloom''s cells m = ceil(-n ln p / ln(2)^2) and hashes k = round(m/n ln 2), its size in bytes (4 bits a cell), and whether it fits one value (at most 1073610720 cells); answers for any n';

CREATE FUNCTION @extschema@.counting_bloom_empty(n bigint, p double precision)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_empty(bigint, double precision) IS
  'An empty counting filter sized for n live values (n >= 1) at false-positive probability p (0 < p < 1)';

CREATE FUNCTION @extschema@.counting_bloom_add(sketch @extschema@.counting_bloom, value anyelement)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, anyelement) IS
  'The filter with the value added once more (its k counters incremented, saturating at 15); a NULL value leaves it unchanged, a NULL filter gives NULL';

CREATE FUNCTION @extschema@.counting_bloom_delete(sketch @extschema@.counting_bloom, value anyelement)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_delete(@extschema@.counting_bloom, anyelement) IS
  'The filter with the value deleted once (its k counters decremented; saturated ones stay at 15); unchanged when a counter is 0. Delete only values that were added: deleting a false positive removes other members. A NULL value leaves it unchanged, a NULL filter gives NULL';

-- Membership ----------------------------------------------------------------

CREATE FUNCTION @extschema@.counting_bloom_contains(sketch @extschema@.counting_bloom, value anyelement)
  RETURNS boolean
  AS 'MODULE_PATHNAME', 'counting_bloom_contains' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contains(@extschema@.counting_bloom, anyelement) IS
  'False if the value is certainly not a member (never added, or deleted as often as added); true if it may be one (a false positive with probability counting_bloom_fpp). A NULL filter is empty (false); a NULL value gives NULL';

CREATE FUNCTION @extschema@.counting_bloom_contained(value anyelement, sketch @extschema@.counting_bloom)
  RETURNS boolean
  AS 'MODULE_PATHNAME', 'counting_bloom_contained' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contained(anyelement, @extschema@.counting_bloom) IS
  'counting_bloom_contains with the arguments swapped: may the value be in the filter?';

CREATE OPERATOR @extschema@.@> (
  LEFTARG = @extschema@.counting_bloom, RIGHTARG = anyelement,
  FUNCTION = @extschema@.counting_bloom_contains, COMMUTATOR = OPERATOR(@extschema@.<@),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.@> (@extschema@.counting_bloom, anyelement) IS
  'filter @> value: the counting filter may contain the value (counting_bloom_contains)';

CREATE OPERATOR @extschema@.<@ (
  LEFTARG = anyelement, RIGHTARG = @extschema@.counting_bloom,
  FUNCTION = @extschema@.counting_bloom_contained, COMMUTATOR = OPERATOR(@extschema@.@>),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.<@ (anyelement, @extschema@.counting_bloom) IS
  'value <@ filter: the value may be in the counting filter (counting_bloom_contains)';

-- Combining and converting --------------------------------------------------

CREATE FUNCTION @extschema@.counting_bloom_union(a @extschema@.counting_bloom, b @extschema@.counting_bloom)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_union(@extschema@.counting_bloom, @extschema@.counting_bloom) IS
  'Union of two counting filters with the same cells and hashes: counters added, saturating at 15, so exactly the filter of the two multisets together; a NULL side is ignored';

CREATE FUNCTION @extschema@.counting_bloom_to_bloom(sketch @extschema@.counting_bloom)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_to_bloom' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_to_bloom(@extschema@.counting_bloom) IS
  'The bloom filter of the same m and k whose bits are the non-zero counters: the bloom filter of the members, answering bloom_contains as counting_bloom_contains does (a quarter of the size, no deletes)';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.counting_bloom_cardinality(sketch @extschema@.counting_bloom) RETURNS bigint
  AS 'MODULE_PATHNAME', 'counting_bloom_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_cardinality(@extschema@.counting_bloom) IS
  'Estimated number of distinct live values, from the non-zero counters by bloom''s estimator: -(m/k) ln(1 - X/m) for X counters above 0; 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.counting_bloom_fpp(sketch @extschema@.counting_bloom) RETURNS double precision
  AS 'MODULE_PATHNAME', 'counting_bloom_fpp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_fpp(@extschema@.counting_bloom) IS
  'Current false-positive probability from the non-zero counters, (X/m)^k; 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.counting_bloom_info(sketch @extschema@.counting_bloom) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'counting_bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_info(@extschema@.counting_bloom) IS
  'Cells, hashes, size, counters set and saturated, counter sum, fill ratio, estimated cardinality and false-positive probability of a counting filter, as jsonb';

CREATE FUNCTION @extschema@.counting_bloom_eq(a @extschema@.counting_bloom, b @extschema@.counting_bloom)
  RETURNS boolean
  AS 'MODULE_PATHNAME', 'counting_bloom_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_eq(@extschema@.counting_bloom, @extschema@.counting_bloom) IS
  'True if two counting filters are identical (same cells, hashes and counters)';
CREATE FUNCTION @extschema@.counting_bloom_ne(a @extschema@.counting_bloom, b @extschema@.counting_bloom)
  RETURNS boolean
  AS 'MODULE_PATHNAME', 'counting_bloom_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_ne(@extschema@.counting_bloom, @extschema@.counting_bloom) IS
  'True if two counting filters differ';

CREATE FUNCTION @extschema@.counting_bloom_hash(@extschema@.counting_bloom) RETURNS integer
  AS 'MODULE_PATHNAME', 'sketch_bytes_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_hash(@extschema@.counting_bloom) IS
  'Hash of the counting_bloom bytes, consistent with =: the hash operator class behind GROUP BY, DISTINCT and UNION on counting_bloom columns';

CREATE OPERATOR @extschema@.= (
  LEFTARG = @extschema@.counting_bloom, RIGHTARG = @extschema@.counting_bloom,
  FUNCTION = @extschema@.counting_bloom_eq,
  COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.counting_bloom, @extschema@.counting_bloom) IS
  'Identical counting filters';
CREATE OPERATOR @extschema@.<> (
  LEFTARG = @extschema@.counting_bloom, RIGHTARG = @extschema@.counting_bloom,
  FUNCTION = @extschema@.counting_bloom_ne,
  COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.counting_bloom, @extschema@.counting_bloom) IS
  'Different counting filters';

CREATE OPERATOR CLASS @extschema@.counting_bloom_hash_ops
  DEFAULT FOR TYPE @extschema@.counting_bloom USING hash AS
  OPERATOR 1 @extschema@.= (@extschema@.counting_bloom, @extschema@.counting_bloom),
  FUNCTION 1 @extschema@.counting_bloom_hash(@extschema@.counting_bloom);
COMMENT ON OPERATOR CLASS @extschema@.counting_bloom_hash_ops USING hash IS
  'Hash equality of counting_bloom values: GROUP BY, DISTINCT and UNION on counting_bloom columns';

-- Aggregates ----------------------------------------------------------------
-- The state is a counting_bloom value updated in place; states of 1 MiB or
-- more are a working form that counts each value a few rows after
-- prefetching its cells. The read-only final function returns the stored
-- form. SSPACE is a filter for ~100,000 values at p = 0.01 (468 KiB).

CREATE FUNCTION @extschema@.counting_bloom_agg_trans(@extschema@.counting_bloom, anyelement, bigint, double precision)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_trans(@extschema@.counting_bloom, anyelement, bigint, double precision) IS
  'Transition function of counting_bloom_agg(value, n, p)';
CREATE FUNCTION @extschema@.counting_bloom_union_trans(@extschema@.counting_bloom, @extschema@.counting_bloom)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_union_trans(@extschema@.counting_bloom, @extschema@.counting_bloom) IS
  'Transition function of counting_bloom_union and combine function of the counting_bloom aggregates';
CREATE FUNCTION @extschema@.counting_bloom_final(@extschema@.counting_bloom) RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_final(@extschema@.counting_bloom) IS
  'Final function of counting_bloom_agg and counting_bloom_union: the stored form of the state';

CREATE AGGREGATE @extschema@.counting_bloom_agg(value anyelement, n bigint, p double precision) (
  SFUNC = @extschema@.counting_bloom_agg_trans, STYPE = @extschema@.counting_bloom, SSPACE = 480000,
  FINALFUNC = @extschema@.counting_bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.counting_bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(anyelement, bigint, double precision) IS
  'Counting Bloom filter of the non-NULL values (each row counts once, duplicates too), sized for n live values at false-positive probability p (the same n and p on every row); NULL over no rows';

CREATE AGGREGATE @extschema@.counting_bloom_union(sketch @extschema@.counting_bloom) (
  SFUNC = @extschema@.counting_bloom_union_trans, STYPE = @extschema@.counting_bloom, SSPACE = 480000,
  FINALFUNC = @extschema@.counting_bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.counting_bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_union(@extschema@.counting_bloom) IS
  'Union of counting filters with the same cells and hashes (counters added, saturating at 15); NULL inputs skipped; NULL over no rows';
-- cuckoo: cuckoo filters for membership with deletes.

CREATE TYPE @extschema@.cuckoo;

CREATE FUNCTION @extschema@.cuckoo_in(cstring) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.cuckoo_out(@extschema@.cuckoo) RETURNS cstring
  AS 'MODULE_PATHNAME', 'cuckoo_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.cuckoo_recv(internal) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.cuckoo_send(@extschema@.cuckoo) RETURNS bytea
  AS 'MODULE_PATHNAME', 'cuckoo_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- STORAGE = external: fingerprints are random and do not compress, so large
-- filters go out of line uncompressed and a probe's detoast is one copy.
CREATE TYPE @extschema@.cuckoo (
  INPUT = @extschema@.cuckoo_in,
  OUTPUT = @extschema@.cuckoo_out,
  RECEIVE = @extschema@.cuckoo_recv,
  SEND = @extschema@.cuckoo_send,
  INTERNALLENGTH = VARIABLE,
  STORAGE = external
);
COMMENT ON TYPE @extschema@.cuckoo IS
  'Cuckoo filter for set membership with deletes: no false negatives for values added and not deleted, false positives at a chosen rate p; f-bit fingerprints in buckets of b slots, sized by cuckoo_empty(n, p) or cuckoo_agg(value, n, p); grows by chained sub-filters; merge with cuckoo_union';

COMMENT ON FUNCTION @extschema@.cuckoo_in(cstring) IS
  'Text input of cuckoo: \x followed by the hex of the binary format, validated';
COMMENT ON FUNCTION @extschema@.cuckoo_out(@extschema@.cuckoo) IS
  'Text output of cuckoo: \x followed by the hex of the binary format';
COMMENT ON FUNCTION @extschema@.cuckoo_recv(internal) IS
  'Binary input of cuckoo (the binary format), validated';
COMMENT ON FUNCTION @extschema@.cuckoo_send(@extschema@.cuckoo) IS
  'Binary output of cuckoo (the binary format)';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.cuckoo_from_bytea(data bytea) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_from_bytea(bytea) IS
  'Reads a cuckoo filter from its binary format, validating it';
CREATE CAST (bytea AS @extschema@.cuckoo) WITH FUNCTION @extschema@.cuckoo_from_bytea(bytea);
COMMENT ON CAST (bytea AS @extschema@.cuckoo) IS
  'The cuckoo whose binary form the bytea holds, validated like binary input (22P03 when invalid)';
CREATE CAST (@extschema@.cuckoo AS bytea) WITHOUT FUNCTION;
COMMENT ON CAST (@extschema@.cuckoo AS bytea) IS
  'The binary form of the cuckoo (its stored bytes, as cuckoo_send writes them)';

-- Sizing and building -------------------------------------------------------

CREATE FUNCTION @extschema@.cuckoo_sizing(
    n bigint, p double precision, bucket_size integer DEFAULT 4,
    OUT buckets bigint, OUT fingerprint_bits integer, OUT bytes bigint,
    OUT bits_per_member double precision, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'cuckoo_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_sizing(bigint, double precision, integer) IS
  'The filter cuckoo_empty(n, p, b) builds for n values at false-positive rate p: fingerprint bits f = ceil(log2(2b/p)) (4..32), buckets B = ceil(n / (b alpha)) at the design load alpha (0.80, 0.90, 0.93 for b = 2, 4, 8), its size in bytes, bits per member, and whether it fits one value; answers for any n';

CREATE FUNCTION @extschema@.cuckoo_empty(n bigint, p double precision, bucket_size integer DEFAULT 4)
  RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_empty(bigint, double precision, integer) IS
  'An empty filter sized for n values (n >= 1) at false-positive rate p (2b/2^32 <= p < 1) with buckets of bucket_size slots (2, 4 or 8)';

CREATE FUNCTION @extschema@.cuckoo_add(sketch @extschema@.cuckoo, value anyelement) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_add(@extschema@.cuckoo, anyelement) IS
  'The filter with one more copy of the value (a multiset, like CF.ADD; pairs with cuckoo_delete); grows by a sub-filter when full; a NULL value leaves it unchanged, a NULL filter gives NULL';

CREATE FUNCTION @extschema@.cuckoo_add_new(sketch @extschema@.cuckoo, value anyelement) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_add_new' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_add_new(@extschema@.cuckoo, anyelement) IS
  'The filter with the value added unless it may already be present (CF.ADDNX); a NULL value leaves it unchanged, a NULL filter gives NULL';

CREATE FUNCTION @extschema@.cuckoo_delete(sketch @extschema@.cuckoo, value anyelement) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_delete(@extschema@.cuckoo, anyelement) IS
  'The filter with one copy of the value''s fingerprint removed (unchanged when absent); deleting a value never added that is a false positive removes another member''s fingerprint; a NULL value leaves it unchanged, a NULL filter gives NULL';

-- Membership ----------------------------------------------------------------

CREATE FUNCTION @extschema@.cuckoo_contains(sketch @extschema@.cuckoo, value anyelement) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cuckoo_contains' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_contains(@extschema@.cuckoo, anyelement) IS
  'False if the value is certainly not in the filter; true if it may be (a false positive with probability cuckoo_fpp). A NULL filter is empty (false); a NULL value gives NULL';

CREATE FUNCTION @extschema@.cuckoo_contained(value anyelement, sketch @extschema@.cuckoo) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cuckoo_contained' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_contained(anyelement, @extschema@.cuckoo) IS
  'cuckoo_contains with the arguments swapped: may the value be in the filter?';

CREATE OPERATOR @extschema@.@> (
  LEFTARG = @extschema@.cuckoo, RIGHTARG = anyelement,
  FUNCTION = @extschema@.cuckoo_contains, COMMUTATOR = OPERATOR(@extschema@.<@),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.@> (@extschema@.cuckoo, anyelement) IS
  'filter @> value: the filter may contain the value (cuckoo_contains)';

CREATE OPERATOR @extschema@.<@ (
  LEFTARG = anyelement, RIGHTARG = @extschema@.cuckoo,
  FUNCTION = @extschema@.cuckoo_contained, COMMUTATOR = OPERATOR(@extschema@.@>),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.<@ (anyelement, @extschema@.cuckoo) IS
  'value <@ filter: the value may be in the filter (cuckoo_contains)';

CREATE FUNCTION @extschema@.cuckoo_count(sketch @extschema@.cuckoo, value anyelement) RETURNS integer
  AS 'MODULE_PATHNAME', 'cuckoo_count' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_count(@extschema@.cuckoo, anyelement) IS
  'Copies of the value''s fingerprint in its candidate buckets over all sub-filters (CF.COUNT): at least the times it was added and not deleted, more on a fingerprint collision; 0 for a NULL filter, NULL for a NULL value';

-- Combining -----------------------------------------------------------------

CREATE FUNCTION @extschema@.cuckoo_union(a @extschema@.cuckoo, b @extschema@.cuckoo) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_union(@extschema@.cuckoo, @extschema@.cuckoo) IS
  'Union of two filters with the same fingerprint bits and bucket size (any n): each fingerprint of b is re-inserted into a''s sub-filters of its bucket count (set semantics: skipped when already there), into an appended sub-filter when none has room; a NULL side is ignored';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.cuckoo_cardinality(sketch @extschema@.cuckoo) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cuckoo_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_cardinality(@extschema@.cuckoo) IS
  'Fingerprints held: the adds minus the successful deletes (exact while no two values share a fingerprint and bucket pair; cuckoo_agg and cuckoo_union skip a value already maybe-present); 0 for a NULL filter';

CREATE FUNCTION @extschema@.cuckoo_fpp(sketch @extschema@.cuckoo) RETURNS double precision
  AS 'MODULE_PATHNAME', 'cuckoo_fpp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_fpp(@extschema@.cuckoo) IS
  'Current false-positive probability: 1 - prod over sub-filters of (1 - 1/(2^f - 1))^(2 b load_i); 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.cuckoo_info(sketch @extschema@.cuckoo) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'cuckoo_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_info(@extschema@.cuckoo) IS
  'Buckets (of the first sub-filter), bucket size, fingerprint bits, sub-filters, capacity, count, load, size, false-positive probability, format version, hash and element kind of a filter, as jsonb';

CREATE FUNCTION @extschema@.cuckoo_eq(a @extschema@.cuckoo, b @extschema@.cuckoo) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cuckoo_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_eq(@extschema@.cuckoo, @extschema@.cuckoo) IS
  'True if two filters are byte for byte identical (same parameters, same fingerprints in the same slots)';
CREATE FUNCTION @extschema@.cuckoo_ne(a @extschema@.cuckoo, b @extschema@.cuckoo) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cuckoo_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_ne(@extschema@.cuckoo, @extschema@.cuckoo) IS
  'True if two filters differ';

CREATE FUNCTION @extschema@.cuckoo_hash(@extschema@.cuckoo) RETURNS integer
  AS 'MODULE_PATHNAME', 'sketch_bytes_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_hash(@extschema@.cuckoo) IS
  'Hash of the cuckoo bytes, consistent with =: the hash operator class behind GROUP BY, DISTINCT and UNION on cuckoo columns';

CREATE OPERATOR @extschema@.= (
  LEFTARG = @extschema@.cuckoo, RIGHTARG = @extschema@.cuckoo, FUNCTION = @extschema@.cuckoo_eq,
  COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.cuckoo, @extschema@.cuckoo) IS 'Identical filters (byte equality of the stored form)';
CREATE OPERATOR @extschema@.<> (
  LEFTARG = @extschema@.cuckoo, RIGHTARG = @extschema@.cuckoo, FUNCTION = @extschema@.cuckoo_ne,
  COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.cuckoo, @extschema@.cuckoo) IS 'Different filters';

CREATE OPERATOR CLASS @extschema@.cuckoo_hash_ops DEFAULT FOR TYPE @extschema@.cuckoo USING hash AS
  OPERATOR 1 @extschema@.= (@extschema@.cuckoo, @extschema@.cuckoo),
  FUNCTION 1 @extschema@.cuckoo_hash(@extschema@.cuckoo);
COMMENT ON OPERATOR CLASS @extschema@.cuckoo_hash_ops USING hash IS
  'Hash equality of cuckoo values: GROUP BY, DISTINCT and UNION on cuckoo columns';

-- Aggregates ----------------------------------------------------------------
-- The state is a cuckoo value updated in place (set semantics: a value
-- already maybe-present is not added again); its read-only final function
-- returns the stored form. SSPACE is a filter for ~100,000 values at
-- p = 0.01 (139 KB).

CREATE FUNCTION @extschema@.cuckoo_agg_trans(@extschema@.cuckoo, anyelement, bigint, double precision)
  RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_agg_trans(@extschema@.cuckoo, anyelement, bigint, double precision) IS
  'Transition function of cuckoo_agg(value, n, p)';
CREATE FUNCTION @extschema@.cuckoo_union_trans(@extschema@.cuckoo, @extschema@.cuckoo)
  RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_union_trans(@extschema@.cuckoo, @extschema@.cuckoo) IS
  'Transition function of cuckoo_union and combine function of both cuckoo aggregates';
CREATE FUNCTION @extschema@.cuckoo_final(@extschema@.cuckoo) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_final(@extschema@.cuckoo) IS
  'Final function of cuckoo_agg and cuckoo_union: the stored form of the state';

CREATE AGGREGATE @extschema@.cuckoo_agg(value anyelement, n bigint, p double precision) (
  SFUNC = @extschema@.cuckoo_agg_trans, STYPE = @extschema@.cuckoo, SSPACE = 140000,
  FINALFUNC = @extschema@.cuckoo_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cuckoo_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cuckoo_agg(anyelement, bigint, double precision) IS
  'Cuckoo filter (bucket size 4) of the distinct non-NULL values, sized for n values at false-positive rate p (the same n and p on every row); grows past n; NULL over no rows';

CREATE AGGREGATE @extschema@.cuckoo_union(sketch @extschema@.cuckoo) (
  SFUNC = @extschema@.cuckoo_union_trans, STYPE = @extschema@.cuckoo, SSPACE = 140000,
  FINALFUNC = @extschema@.cuckoo_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cuckoo_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cuckoo_union(@extschema@.cuckoo) IS
  'Union of cuckoo filters with the same fingerprint bits and bucket size; NULL inputs skipped; NULL over no rows';

-- Aging (0.2.0) -------------------------------------------------------------
-- topk_scale is in topk.sql; cms_scale is its own piece so that the 0.1.0
-- -> 0.2.0 upgrade creates it too (docs/rollups.md: trending over a
-- decaying window).

CREATE FUNCTION @extschema@.cms_scale(sketch @extschema@.cms, factor double precision)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_scale' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_scale(@extschema@.cms, double precision) IS
  'Aging: every counter and the total times factor (0 < factor <= 1), rounded down (some counters up, so each row still adds up to the total); estimates stay at or above the scaled true counts, candidates whose estimate reaches 0 are dropped (an error for a sketch whose total saturated)';

-- Literal twins of the functions that take a value --------------------------

-- A quoted literal has type unknown, which a polymorphic anyelement argument
-- cannot resolve ("could not determine polymorphic type"), so
-- bloom_contains(f, 'x'), hll_add(h, 'x') or sketch_hash('x') would fail.
-- Each function that takes a value as anyelement (and returns a fixed type,
-- or a record of OUT parameters of fixed types)
-- gets a twin taking the pseudo-type unknown, over the same C function: a
-- literal matches it exactly and is hashed as text. Not a text twin: citext
-- and other types with an implicit cast to text would then resolve to it,
-- and a constant's cast is folded away before the function sees it, so
-- 'Alice'::citext would be hashed as case-sensitive text. Generated from the
-- catalog, so a new family's functions get twins too. (Operators cannot
-- have such twins: PostgreSQL resolves an unknown operand as the other
-- operand's type. Write f @> 'x'::text.)
DO $literal$
DECLARE
  fn record;
  twin_args text;
BEGIN
  FOR fn IN
    SELECT p.oid, p.proname, p.proargtypes::oid[] AS argtypes, p.proargnames, p.prorettype,
           coalesce(p.proallargtypes, p.proargtypes::oid[]) AS allargtypes, p.proargmodes,
           p.prosrc, p.probin, p.provolatile, p.proisstrict,
           pg_catalog.obj_description(p.oid, 'pg_proc') AS comment
    FROM pg_catalog.pg_proc p
    WHERE p.pronamespace = '@extschema@'::regnamespace AND p.prokind = 'f'
      AND 'anyelement'::regtype = ANY (p.proargtypes::oid[])
      AND EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
                  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
                  WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid
                    AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                    AND d.deptype = 'e')
      AND p.prorettype <> 'anyelement'::regtype AND NOT p.proretset
      -- or a record of OUT parameters, none of them polymorphic
      AND (p.prorettype <> 'record'::regtype OR
           (p.proallargtypes IS NOT NULL AND
            (SELECT count(*) FROM unnest(p.proallargtypes) x WHERE x = 'anyelement'::regtype) =
            (SELECT count(*) FROM unnest(p.proargtypes::oid[]) x WHERE x = 'anyelement'::regtype)))
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_aggregate a
                      WHERE p.oid IN (a.aggtransfn, a.aggcombinefn, a.aggfinalfn))
    ORDER BY p.oid
  LOOP
    SELECT pg_catalog.string_agg(
             pg_catalog.concat_ws(' ', CASE WHEN fn.proargmodes[i] = 'o' THEN 'OUT' END,
                                  pg_catalog.quote_ident(nullif(fn.proargnames[i], '')),
                                  CASE WHEN x = 'anyelement'::regtype THEN 'unknown'
                                       ELSE x::regtype::text END), ', ' ORDER BY i)
      INTO twin_args FROM unnest(fn.allargtypes) WITH ORDINALITY AS u(x, i);
    EXECUTE pg_catalog.format(
      'CREATE FUNCTION @extschema@.%I(%s) RETURNS %s AS %L, %L LANGUAGE C %s %s PARALLEL SAFE',
      fn.proname, twin_args, fn.prorettype::regtype, fn.probin, fn.prosrc,
      CASE fn.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
      CASE WHEN fn.proisstrict THEN 'STRICT' ELSE 'CALLED ON NULL INPUT' END);
    EXECUTE pg_catalog.format('COMMENT ON FUNCTION @extschema@.%I(%s) IS %L', fn.proname, twin_args,
      fn.comment || ' (a quoted literal, hashed as text)');
  END LOOP;
END
$literal$;

-- cms_add(s, 'x', 3): with a literal value and an integer count, the twin
-- (cms, unknown, bigint) and (cms, anyelement, bigint) tie (an unknown
-- argument matches neither exactly, and both need integer -> bigint), so
-- PostgreSQL called the call ambiguous. A twin whose count is an integer
-- matches it exactly; 'x' with a bigint count still resolves to the bigint
-- twin.
CREATE FUNCTION @extschema@.cms_add(sketch @extschema@.cms, value pg_catalog.unknown, count integer)
  RETURNS @extschema@.cms AS 'MODULE_PATHNAME', 'cms_add_int4_count'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_add(@extschema@.cms, pg_catalog.unknown, integer) IS
  'The sketch with count more occurrences of the value; a NULL value or a NULL or zero count leaves it unchanged, a negative count is an error, a NULL sketch gives NULL (a quoted literal, hashed as text)';

-- The same for topk_add(s, 'x', 3).
CREATE FUNCTION @extschema@.topk_add(sketch @extschema@.topk, value pg_catalog.unknown, weight integer)
  RETURNS @extschema@.topk AS 'MODULE_PATHNAME', 'topk_add_int4_weight'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_add(@extschema@.topk, pg_catalog.unknown, integer) IS
  'The summary with weight more occurrences of the item; a NULL item or a NULL or zero weight leaves it unchanged, a negative weight is an error, a NULL summary gives NULL (a quoted literal, hashed as text)';

-- Aggregates with declared element types -------------------------------------

-- Every aggregate above that takes a value as anyelement gets twins whose
-- value argument is a declared type, each over a twin of its transition
-- function (the same C function). Why: a distributed engine such as Citus
-- splits an aggregate into partial aggregates on the shards only when the
-- argument types equal the aggregate's declared types, and calls the
-- transition function without a call expression, so the value's type must
-- be readable from the function's declaration (docs/distributed.md). On one
-- node the twins behave exactly like the anyelement aggregate: PostgreSQL
-- picks the twin of the argument's type, and the element hasher sees
-- through implicit coercions (a varchar or citext passed to the text twin
-- is still hashed as what it is). Types without a twin use the anyelement
-- aggregate. The twins carry the aggregate's argument names (\df and
-- pg_get_function_arguments show value text, p integer, as documented).
-- Generated from the catalog, so a new family's aggregates get their twins
-- without editing this block.
DO $typed$
DECLARE
  element_types CONSTANT regtype[] := ARRAY[
    'smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision', 'text',
    'bytea', 'uuid', 'date', 'timestamp', 'timestamptz', 'boolean']::regtype[];
  agg record;
  element regtype;
  agg_args text;
  agg_decl text;
  trans_args text;
  trans_name text;
BEGIN
  FOR agg IN
    SELECT p.oid AS aggfn, p.proname, p.proargtypes::oid[] AS argtypes, p.proargnames,
           t.oid AS transfn, t.proname AS trans_name, t.prosrc, t.probin, t.provolatile,
           t.proisstrict, t.proargtypes::oid[] AS trans_argtypes,
           a.aggtranstype::regtype AS stype, a.aggtransspace, a.aggfinalmodify,
           (SELECT s.typname FROM pg_catalog.pg_type s WHERE s.oid = a.aggtranstype) AS stype_name,
           (SELECT f.proname FROM pg_catalog.pg_proc f WHERE f.oid = a.aggfinalfn) AS finalfn,
           (SELECT c.proname FROM pg_catalog.pg_proc c WHERE c.oid = a.aggcombinefn) AS combinefn,
           pg_catalog.obj_description(p.oid, 'pg_proc') AS agg_comment,
           pg_catalog.obj_description(t.oid, 'pg_proc') AS trans_comment
    FROM pg_catalog.pg_aggregate a
    JOIN pg_catalog.pg_proc p ON p.oid = a.aggfnoid
    JOIN pg_catalog.pg_proc t ON t.oid = a.aggtransfn
    WHERE p.pronamespace = '@extschema@'::regnamespace
      AND 'anyelement'::regtype = ANY (p.proargtypes::oid[])
      AND EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
                  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
                  WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid
                    AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                    AND d.deptype = 'e')
    ORDER BY p.oid
  LOOP
    FOREACH element IN ARRAY element_types LOOP
      SELECT pg_catalog.string_agg(CASE WHEN x = 'anyelement'::regtype THEN element ELSE x::regtype END::text,
                                   ', ' ORDER BY i)
        INTO agg_args FROM unnest(agg.argtypes) WITH ORDINALITY AS u(x, i);
      SELECT pg_catalog.string_agg(
               pg_catalog.concat_ws(' ', pg_catalog.quote_ident(nullif(agg.proargnames[i], '')),
                                    CASE WHEN x = 'anyelement'::regtype THEN element
                                         ELSE x::regtype END::text), ', ' ORDER BY i)
        INTO agg_decl FROM unnest(agg.argtypes) WITH ORDINALITY AS u(x, i);
      SELECT pg_catalog.string_agg(CASE WHEN x = 'anyelement'::regtype THEN element ELSE x::regtype END::text,
                                   ', ' ORDER BY i)
        INTO trans_args FROM unnest(agg.trans_argtypes) WITH ORDINALITY AS u(x, i);
      trans_name := pg_catalog.format('@extschema@.%I(%s)', agg.trans_name, trans_args);
      IF pg_catalog.to_regprocedure(trans_name) IS NULL THEN
        EXECUTE pg_catalog.format(
          'CREATE FUNCTION @extschema@.%I(%s) RETURNS %s AS %L, %L LANGUAGE C %s %s PARALLEL SAFE',
          agg.trans_name, trans_args, agg.stype, agg.probin, agg.prosrc,
          CASE agg.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
          CASE WHEN agg.proisstrict THEN 'STRICT' ELSE 'CALLED ON NULL INPUT' END);
        EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', trans_name,
          agg.trans_comment || ' (for ' || element || ' values)');
      END IF;
      EXECUTE pg_catalog.format(
        'CREATE AGGREGATE @extschema@.%I(%s) (SFUNC = @extschema@.%I, STYPE = @extschema@.%I, '
        'SSPACE = %s, FINALFUNC = @extschema@.%I, FINALFUNC_MODIFY = %s, '
        'COMBINEFUNC = @extschema@.%I, PARALLEL = SAFE)',
        agg.proname, agg_decl, agg.trans_name, agg.stype_name, agg.aggtransspace, agg.finalfn,
        CASE agg.aggfinalmodify WHEN 'r' THEN 'READ_ONLY' WHEN 's' THEN 'SHAREABLE' ELSE 'READ_WRITE' END,
        agg.combinefn);
      EXECUTE pg_catalog.format('COMMENT ON AGGREGATE @extschema@.%I(%s) IS %L', agg.proname, agg_args,
        agg.agg_comment || ' (' || element || ' values: a declared type lets distributed engines '
        'split it into partial aggregates)');
    END LOOP;
  END LOOP;
END
$typed$;

-- Privileges ----------------------------------------------------------------

-- Defence in depth (docs/hardening.md, "Aggregate states"): the transition,
-- combine and final functions of the extension's aggregates are support
-- functions, not for direct use. Every state they receive is checked by the
-- shared state mechanism whoever calls them; in addition, no role but the
-- extension's owner (and superusers) may call them or build its own
-- aggregates over them. The extension's aggregates keep working for every
-- role: PostgreSQL checks EXECUTE on an aggregate's support functions for
-- the aggregate's owner, not for the caller. Generic over the catalog, so an
-- aggregate added by a new family is covered without editing this file.
DO $privileges$
DECLARE
  support regprocedure;
BEGIN
  FOR support IN
    SELECT DISTINCT p.oid::pg_catalog.regprocedure
    FROM pg_catalog.pg_aggregate a
    JOIN pg_catalog.pg_proc p ON p.oid IN (a.aggtransfn, a.aggcombinefn, a.aggfinalfn)
    JOIN pg_catalog.pg_depend d
      ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid
     AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND d.deptype = 'e'
    JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
  LOOP
    EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', support);
  END LOOP;
END
$privileges$;
