-- sketch: probabilistic sketch types (hll, ...) for rollups.
-- Every internal reference is schema-qualified with @extschema@ so the
-- script is safe under any search_path; nothing here is SECURITY DEFINER.

\echo Use "CREATE EXTENSION sketch" to load this file. \quit

CREATE FUNCTION @extschema@.sketch_hash(value anyelement) RETURNS bigint
  AS 'MODULE_PATHNAME', 'sketch_hash'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sketch_hash(anyelement) IS
  'The 64-bit hash (XXH3, seed 0) that hll and cms sketches compute for a value, from its canonical encoding: equal values such as 42::int and 42::bigint, or 1.0 and 1.00, hash equally';
