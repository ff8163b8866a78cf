-- sketch 0.1.0 -> 0.2.0 (docs/upgrades.md). The Makefile appends the pieces
-- that create the text twins, the typed aggregate twins and the privileges
-- (src/sql/text_overloads.sql, typed_aggregates.sql, privileges.sql): they
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
CREATE OR REPLACE FUNCTION @extschema@.bloom_contains(filter @extschema@.bloom, value anyelement)
  RETURNS boolean AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE PARALLEL SAFE;
ALTER FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anyelement) CALLED ON NULL INPUT;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anyelement) IS
  'False if the value was certainly never added; true if it may have been (a false positive with probability bloom_fpp). A NULL filter is empty (false); a NULL value gives NULL';
CREATE OR REPLACE FUNCTION @extschema@.bloom_contained(value anyelement, filter @extschema@.bloom)
  RETURNS boolean AS 'MODULE_PATHNAME', 'bloom_contained' LANGUAGE C IMMUTABLE PARALLEL SAFE;
ALTER FUNCTION @extschema@.bloom_contained(anyelement, @extschema@.bloom) CALLED ON NULL INPUT;

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
