-- sketch 0.1.0 -> 0.2.0 (docs/upgrades.md).
--
-- Stored values of every type read unchanged: no format changed. New:
-- hash operator classes (GROUP BY, DISTINCT, UNION on sketch columns),
-- matchingsel estimates for bloom's @> and <@, and EXECUTE on the aggregates'
-- support functions revoked from PUBLIC.

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
