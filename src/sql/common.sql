-- sketch: probabilistic sketch types (hll, ...) for rollups.
-- Every internal reference is schema-qualified with @extschema@ so the
-- script is safe under any search_path; nothing here is SECURITY DEFINER.

\echo Use "CREATE EXTENSION sketch" to load this file. \quit

-- Name lookups while this script runs: pg_catalog only. CREATE EXTENSION
-- searches the target schema too, and there any role that may create in it
-- (a database owner installing this trusted extension, in public) could
-- plant an operator or function of a better-matching signature than the
-- built-in one (an =(oid, regnamespace) beats pg_catalog's =(oid, oid)),
-- which the catalog-driven blocks below would then run as the superuser
-- that executes a trusted extension's script. Every object of the
-- extension is named @extschema@.<name>, so nothing here needs the schema
-- on the path. SET LOCAL ends with the script: PostgreSQL restores the
-- caller's search_path when CREATE EXTENSION or ALTER EXTENSION returns.
SET LOCAL search_path TO pg_catalog, pg_temp;

CREATE FUNCTION @extschema@.sketch_hash(value anyelement) RETURNS bigint
  AS 'MODULE_PATHNAME', 'sketch_hash'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sketch_hash(anyelement) IS
  'The 64-bit hash (XXH3, seed 0) that hll and cms sketches compute for a value, from its canonical encoding: equal values such as 42::int and 42::bigint, or 1.0 and 1.00, hash equally';
