-- hll: HyperLogLog distinct counting.
-- The type and what every type has (I/O, casts to and from bytea, = and <>,
-- the hash operator class, hll_union with hll_union_trans and hll_final)
-- come before this piece, from src/sql/templates/sketch_type.sql.in and
-- this type's line of src/sql/templates/sketch_types.txt; a COMMENT ON here
-- of one of those objects words it this family's way.

COMMENT ON TYPE @extschema@.hll IS
  'HyperLogLog sketch for distinct counts: hll(p), p in 4..18 (default 14: 0.81% standard error, at most 12 KiB); exact-ish sparse form for small sets; merge with hll_union';

-- hll's own words for objects of the template,
-- and the comments of its typmod functions, which the template leaves to it:
COMMENT ON FUNCTION @extschema@.hll_typmod_in(cstring[]) IS
  'Reads the hll(p) type modifier, p in 4..18';
COMMENT ON FUNCTION @extschema@.hll_typmod_out(integer) IS
  'Prints the hll(p) type modifier';
COMMENT ON FUNCTION @extschema@.hll_from_bytea(bytea) IS
  'Reads an hll from its binary format, validating every byte';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.hll(sketch @extschema@.hll, typmod integer, explicit boolean) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_enforce_typmod' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll(@extschema@.hll, integer, boolean) IS
  'Length coercion for hll(p): lowers a sketch''s precision to p exactly; raising it is an error';
CREATE CAST (@extschema@.hll AS @extschema@.hll)
  WITH FUNCTION @extschema@.hll(@extschema@.hll, integer, boolean) AS IMPLICIT;
COMMENT ON CAST (@extschema@.hll AS @extschema@.hll) IS
  'The hll(p) length coercion: lowers a sketch to the column''s precision exactly, refuses to raise it (22023)';

-- Building and combining ----------------------------------------------------

CREATE FUNCTION @extschema@.hll_empty(p integer DEFAULT 14) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_empty(integer) IS
  'An empty hll of precision p (4..18, default 14)';

CREATE FUNCTION @extschema@.hll_add(sketch @extschema@.hll, value anyelement) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_add(@extschema@.hll, anyelement) IS
  'The sketch with one more value added; a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.hll_union(a @extschema@.hll, b @extschema@.hll) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_union(@extschema@.hll, @extschema@.hll) IS
  'Union of two sketches (register max) at the smaller of their precisions; a NULL side is ignored';

CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.hll, RIGHTARG = @extschema@.hll,
  FUNCTION = @extschema@.hll_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.hll, @extschema@.hll) IS
  'Union of two hll sketches';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.hll_cardinality(sketch @extschema@.hll) RETURNS bigint
  AS 'MODULE_PATHNAME', 'hll_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_cardinality(@extschema@.hll) IS
  'Estimated number of distinct values; 0 for an empty or NULL sketch';

CREATE OPERATOR @extschema@.# (
  RIGHTARG = @extschema@.hll, FUNCTION = @extschema@.hll_cardinality
);
COMMENT ON OPERATOR @extschema@.# (NONE, @extschema@.hll) IS
  'Estimated number of distinct values (hll_cardinality)';

CREATE FUNCTION @extschema@.hll_cardinality_bounds(
    sketch @extschema@.hll, confidence double precision DEFAULT 0.95,
    OUT lower bigint, OUT upper bigint)
  AS 'MODULE_PATHNAME', 'hll_cardinality_bounds' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_cardinality_bounds(@extschema@.hll, double precision) IS
  'Interval that holds the true distinct count with the given confidence (default 0.95); never below what the sketch proves';

CREATE FUNCTION @extschema@.hll_intersect_cardinality(a @extschema@.hll, b @extschema@.hll) RETURNS bigint
  AS 'MODULE_PATHNAME', 'hll_intersect_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_intersect_cardinality(@extschema@.hll, @extschema@.hll) IS
  'Estimated size of the intersection by inclusion-exclusion, |A|+|B|-|A∪B|: its error is relative to the union, so small overlaps of large sets are unreliable';

CREATE FUNCTION @extschema@.hll_info(sketch @extschema@.hll) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'hll_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_info(@extschema@.hll) IS
  'Precision, representation, size, estimate and standard error of a sketch, as jsonb';

-- Aggregates ----------------------------------------------------------------

CREATE FUNCTION @extschema@.hll_agg_trans(@extschema@.hll, anyelement) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_agg_trans(@extschema@.hll, anyelement) IS
  'Transition function of hll_agg(value)';
CREATE FUNCTION @extschema@.hll_agg_trans(@extschema@.hll, anyelement, integer) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_agg_trans(@extschema@.hll, anyelement, integer) IS
  'Transition function of hll_agg(value, p)';

-- SSPACE: the largest state at the default p 14 (dense registers, 12,300
-- bytes with the varlena header). HashAggregate sizes its first pass with it:
-- a GROUP BY into many small groups then spills into partitions whose states
-- stay in the CPU caches, instead of probing 100 MB of states at random
-- (docs/hll.md, "Speed"; the figures: docs/benchmarks.md).
CREATE AGGREGATE @extschema@.hll_agg(value anyelement) (
  SFUNC = @extschema@.hll_agg_trans, STYPE = @extschema@.hll, SSPACE = 12300,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_agg(anyelement) IS
  'HyperLogLog sketch (p = 14) of the distinct non-NULL values; NULL over no rows';

CREATE AGGREGATE @extschema@.hll_agg(value anyelement, p integer) (
  SFUNC = @extschema@.hll_agg_trans, STYPE = @extschema@.hll, SSPACE = 12300,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_agg(anyelement, integer) IS
  'HyperLogLog sketch of precision p (4..18) of the distinct non-NULL values; NULL over no rows';

COMMENT ON AGGREGATE @extschema@.hll_union(@extschema@.hll) IS
  'Union of hll sketches, at the smallest precision among them; NULL over no rows (hll_cardinality reads it as 0)';
