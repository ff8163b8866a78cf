-- hll: HyperLogLog distinct counting.

CREATE TYPE @extschema@.hll;

CREATE FUNCTION @extschema@.hll_in(cstring, oid, integer) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.hll_out(@extschema@.hll) RETURNS cstring
  AS 'MODULE_PATHNAME', 'hll_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.hll_recv(internal, oid, integer) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.hll_send(@extschema@.hll) RETURNS bytea
  AS 'MODULE_PATHNAME', 'hll_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.hll_typmod_in(cstring[]) RETURNS integer
  AS 'MODULE_PATHNAME', 'hll_typmod_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.hll_typmod_out(integer) RETURNS cstring
  AS 'MODULE_PATHNAME', 'hll_typmod_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.hll (
  INPUT = @extschema@.hll_in,
  OUTPUT = @extschema@.hll_out,
  RECEIVE = @extschema@.hll_recv,
  SEND = @extschema@.hll_send,
  TYPMOD_IN = @extschema@.hll_typmod_in,
  TYPMOD_OUT = @extschema@.hll_typmod_out,
  INTERNALLENGTH = VARIABLE,
  STORAGE = extended
);
COMMENT ON FUNCTION @extschema@.hll_in(cstring, oid, integer) IS
  'Text input of hll: \x followed by the hex of the binary format, validated; applies the hll(p) typmod';
COMMENT ON FUNCTION @extschema@.hll_out(@extschema@.hll) IS
  'Text output of hll: \x followed by the hex of the stored binary format';
COMMENT ON FUNCTION @extschema@.hll_recv(internal, oid, integer) IS
  'Binary input of hll (COPY BINARY, binary protocol), validated; applies the hll(p) typmod';
COMMENT ON FUNCTION @extschema@.hll_send(@extschema@.hll) IS
  'Binary output of hll: the stored binary format';
COMMENT ON FUNCTION @extschema@.hll_typmod_in(cstring[]) IS
  'Reads the hll(p) type modifier, p in 4..18';
COMMENT ON FUNCTION @extschema@.hll_typmod_out(integer) IS
  'Prints the hll(p) type modifier';
COMMENT ON TYPE @extschema@.hll IS
  'HyperLogLog sketch for distinct counts: hll(p), p in 4..18 (default 14: 0.81% standard error, at most 12 KiB); exact-ish sparse form for small sets; merge with hll_union';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.hll(sketch @extschema@.hll, typmod integer, explicit boolean) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_enforce_typmod' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll(@extschema@.hll, integer, boolean) IS
  'Length coercion for hll(p): lowers a sketch''s precision to p exactly; raising it is an error';
CREATE CAST (@extschema@.hll AS @extschema@.hll)
  WITH FUNCTION @extschema@.hll(@extschema@.hll, integer, boolean) AS IMPLICIT;
COMMENT ON CAST (@extschema@.hll AS @extschema@.hll) IS
  'The hll(p) length coercion: lowers a sketch to the column''s precision exactly, refuses to raise it (22023)';

CREATE FUNCTION @extschema@.hll_from_bytea(data bytea) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_from_bytea(bytea) IS
  'Reads an hll from its binary format, validating every byte';
CREATE CAST (bytea AS @extschema@.hll) WITH FUNCTION @extschema@.hll_from_bytea(bytea);
COMMENT ON CAST (bytea AS @extschema@.hll) IS
  'The hll whose binary form the bytea holds, validated like binary input (22P03 when invalid)';
CREATE CAST (@extschema@.hll AS bytea) WITHOUT FUNCTION;
COMMENT ON CAST (@extschema@.hll AS bytea) IS
  'The binary form of the hll (its stored bytes, as hll_send writes them)';

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

CREATE FUNCTION @extschema@.hll_eq(a @extschema@.hll, b @extschema@.hll) RETURNS boolean
  AS 'MODULE_PATHNAME', 'hll_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_eq(@extschema@.hll, @extschema@.hll) IS
  'True if two sketches are identical (same precision and registers)';
CREATE FUNCTION @extschema@.hll_ne(a @extschema@.hll, b @extschema@.hll) RETURNS boolean
  AS 'MODULE_PATHNAME', 'hll_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_ne(@extschema@.hll, @extschema@.hll) IS
  'True if two sketches differ';

CREATE FUNCTION @extschema@.hll_hash(@extschema@.hll) RETURNS integer
  AS 'MODULE_PATHNAME', 'sketch_bytes_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_hash(@extschema@.hll) IS
  'Hash of the hll bytes, consistent with =: the hash operator class behind GROUP BY, DISTINCT and UNION on hll columns';

CREATE OPERATOR @extschema@.= (
  LEFTARG = @extschema@.hll, RIGHTARG = @extschema@.hll, FUNCTION = @extschema@.hll_eq,
  COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.hll, @extschema@.hll) IS 'Identical sketches';
CREATE OPERATOR @extschema@.<> (
  LEFTARG = @extschema@.hll, RIGHTARG = @extschema@.hll, FUNCTION = @extschema@.hll_ne,
  COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.hll, @extschema@.hll) IS 'Different sketches';

-- = is byte equality of the stored form (docs/reference.md), so hashing the
-- bytes is consistent with it. No btree class: sketches have no meaningful
-- order, and hashing is all GROUP BY, DISTINCT and UNION need.
CREATE OPERATOR CLASS @extschema@.hll_hash_ops DEFAULT FOR TYPE @extschema@.hll USING hash AS
  OPERATOR 1 @extschema@.= (@extschema@.hll, @extschema@.hll),
  FUNCTION 1 @extschema@.hll_hash(@extschema@.hll);
COMMENT ON OPERATOR CLASS @extschema@.hll_hash_ops USING hash IS
  'Hash equality of hll values: GROUP BY, DISTINCT and UNION on hll columns';

-- Aggregates ----------------------------------------------------------------

CREATE FUNCTION @extschema@.hll_agg_trans(@extschema@.hll, anyelement) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_agg_trans(@extschema@.hll, anyelement) IS
  'Transition function of hll_agg(value)';
CREATE FUNCTION @extschema@.hll_agg_trans(@extschema@.hll, anyelement, integer) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_agg_trans(@extschema@.hll, anyelement, integer) IS
  'Transition function of hll_agg(value, p)';
CREATE FUNCTION @extschema@.hll_union_trans(@extschema@.hll, @extschema@.hll) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_union_trans(@extschema@.hll, @extschema@.hll) IS
  'Transition function of hll_union and combine function of the hll aggregates';
CREATE FUNCTION @extschema@.hll_final(@extschema@.hll) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_final(@extschema@.hll) IS
  'Final function of the hll aggregates: the stored form of the state';

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

CREATE AGGREGATE @extschema@.hll_union(sketch @extschema@.hll) (
  SFUNC = @extschema@.hll_union_trans, STYPE = @extschema@.hll, SSPACE = 1024,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_union(@extschema@.hll) IS
  'Union of hll sketches, at the smallest precision among them; NULL over no rows (hll_cardinality reads it as 0)';
