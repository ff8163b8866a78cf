-- ell: ExaLogLog distinct counting (docs/ell.md), the same surface as hll
-- in about 58% of its bytes for the same error. The type and what every
-- type has (I/O, casts to and from bytea, = and <>, the hash operator
-- class, ell_union with ell_union_trans and ell_final) come before this
-- piece, from src/sql/templates/sketch_type.sql.in and this type's line of
-- src/sql/templates/sketch_types.txt; a COMMENT ON here of one of those
-- objects words it this family's way.
--
-- Values are hashed as hll hashes them (sketch_hash), so the cast to hll
-- gives the registers hll_agg builds from the same rows.

COMMENT ON TYPE @extschema@.ell IS
  'ExaLogLog sketch for distinct counts (t = 2, d = 20): ell(p), p in 4..18 (default 11: 0.80% standard error, at most 7 KiB, where hll needs 12 KiB); exact sparse tokens for small sets; merge with ell_union; cast to hll merges with hll rollups';

COMMENT ON FUNCTION @extschema@.ell_typmod_in(cstring[]) IS
  'Reads the ell(p) type modifier, p in 4..18';
COMMENT ON FUNCTION @extschema@.ell_typmod_out(integer) IS
  'Prints the ell(p) type modifier';
COMMENT ON FUNCTION @extschema@.ell_from_bytea(bytea) IS
  'Reads an ell from its binary format, validating every byte';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.ell(sketch @extschema@.ell, typmod integer, explicit boolean) RETURNS @extschema@.ell
  AS 'MODULE_PATHNAME', 'ell_enforce_typmod' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell(@extschema@.ell, integer, boolean) IS
  'Length coercion for ell(p): lowers a sketch''s precision to p by folding (exact for sparse sketches, docs/ell.md for dense ones); raising it is an error';
CREATE CAST (@extschema@.ell AS @extschema@.ell)
  WITH FUNCTION @extschema@.ell(@extschema@.ell, integer, boolean) AS IMPLICIT;
COMMENT ON CAST (@extschema@.ell AS @extschema@.ell) IS
  'The ell(p) length coercion: folds a sketch to the column''s precision, refuses to raise it (22023)';

CREATE FUNCTION @extschema@.ell_to_hll(sketch @extschema@.ell) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'ell_to_hll' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_to_hll(@extschema@.ell) IS
  'The dense hll of the same precision whose registers are exactly those hll_agg builds from the same rows, with the same element kind: ell and hll rollups merge as hll';
CREATE CAST (@extschema@.ell AS @extschema@.hll) WITH FUNCTION @extschema@.ell_to_hll(@extschema@.ell);
COMMENT ON CAST (@extschema@.ell AS @extschema@.hll) IS
  'The hll registers hll_agg builds from the same rows at the same precision (ell_to_hll)';

-- Building and combining ----------------------------------------------------

CREATE FUNCTION @extschema@.ell_empty(p integer DEFAULT 11) RETURNS @extschema@.ell
  AS 'MODULE_PATHNAME', 'ell_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_empty(integer) IS
  'An empty ell of precision p (4..18, default 11), never merged: values added with ell_add keep its martingale estimate';

CREATE FUNCTION @extschema@.ell_add(sketch @extschema@.ell, value anyelement) RETURNS @extschema@.ell
  AS 'MODULE_PATHNAME', 'ell_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_add(@extschema@.ell, anyelement) IS
  'The sketch with one more value added (a never-merged sketch keeps its martingale estimate); a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.ell_union(a @extschema@.ell, b @extschema@.ell) RETURNS @extschema@.ell
  AS 'MODULE_PATHNAME', 'ell_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_union(@extschema@.ell, @extschema@.ell) IS
  'Union of two sketches (exact register union, the same bytes in any order) at the smaller of their precisions; a NULL side is ignored';

CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.ell, RIGHTARG = @extschema@.ell,
  FUNCTION = @extschema@.ell_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.ell, @extschema@.ell) IS
  'Union of two ell sketches';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.ell_cardinality(sketch @extschema@.ell) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ell_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_cardinality(@extschema@.ell) IS
  'Estimated number of distinct values (maximum likelihood; the martingale estimate for a dense sketch never merged); 0 for an empty or NULL sketch';

CREATE FUNCTION @extschema@.ell_cardinality_bounds(
    sketch @extschema@.ell, confidence double precision DEFAULT 0.95,
    OUT lower bigint, OUT upper bigint)
  AS 'MODULE_PATHNAME', 'ell_cardinality_bounds' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_cardinality_bounds(@extschema@.ell, double precision) IS
  'Interval that holds the true distinct count with the given confidence (default 0.95); never below what the sketch proves';

CREATE FUNCTION @extschema@.ell_info(sketch @extschema@.ell) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'ell_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_info(@extschema@.ell) IS
  'Precision, representation, size, estimate, estimator, standard error, and both estimates (maximum likelihood, martingale when never merged) of a sketch, as jsonb';

-- Sizing (here rather than in sizing.sql: the family is new in 0.3.0, and
-- the upgrade creates it from this piece) -----------------------------------

CREATE FUNCTION @extschema@.ell_sizing(
    p integer DEFAULT 11, OUT registers bigint, OUT bytes bigint, OUT standard_error double precision)
  AS 'MODULE_PATHNAME', 'ell_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_sizing(integer) IS
  'An ell of precision p at its largest (dense): 2^p registers of 28 bits, bytes, and the relative standard error of its maximum-likelihood estimate, 0.362/sqrt(2^p); sparse sketches of few values are smaller';

-- Aggregates ----------------------------------------------------------------

CREATE FUNCTION @extschema@.ell_agg_trans(@extschema@.ell, anyelement) RETURNS @extschema@.ell
  AS 'MODULE_PATHNAME', 'ell_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_agg_trans(@extschema@.ell, anyelement) IS
  'Transition function of ell_agg(value)';
CREATE FUNCTION @extschema@.ell_agg_trans(@extschema@.ell, anyelement, integer) RETURNS @extschema@.ell
  AS 'MODULE_PATHNAME', 'ell_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_agg_trans(@extschema@.ell, anyelement, integer) IS
  'Transition function of ell_agg(value, p)';
CREATE FUNCTION @extschema@.ell_agg_final(@extschema@.ell) RETURNS @extschema@.ell
  AS 'MODULE_PATHNAME', 'ell_agg_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ell_agg_final(@extschema@.ell) IS
  'Final function of ell_agg: the stored form of the state as a merge leaves it (no martingale), so the same set gives the same bytes in any plan';

-- SSPACE: the largest state at the default p 11 (dense registers, 7,200
-- bytes with the varlena header), as hll_agg's (src/sql/hll.sql says why).
CREATE AGGREGATE @extschema@.ell_agg(value anyelement) (
  SFUNC = @extschema@.ell_agg_trans, STYPE = @extschema@.ell, SSPACE = 7200,
  FINALFUNC = @extschema@.ell_agg_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ell_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ell_agg(anyelement) IS
  'ExaLogLog sketch (p = 11) of the distinct non-NULL values, the same bytes in any plan; NULL over no rows';

CREATE AGGREGATE @extschema@.ell_agg(value anyelement, p integer) (
  SFUNC = @extschema@.ell_agg_trans, STYPE = @extschema@.ell, SSPACE = 7200,
  FINALFUNC = @extschema@.ell_agg_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ell_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ell_agg(anyelement, integer) IS
  'ExaLogLog sketch of precision p (4..18) of the distinct non-NULL values, the same bytes in any plan; NULL over no rows';

COMMENT ON AGGREGATE @extschema@.ell_union(@extschema@.ell) IS
  'Union of ell sketches, at the smallest precision among them; the same bytes in any order; NULL over no rows (ell_cardinality reads it as 0)';
