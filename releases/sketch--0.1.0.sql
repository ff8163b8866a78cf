-- sketch: probabilistic sketch types (hll, ...) for rollups.
-- Every internal reference is schema-qualified with @extschema@ so the
-- script is safe under any search_path; nothing here is SECURITY DEFINER.

\echo Use "CREATE EXTENSION sketch" to load this file. \quit

CREATE FUNCTION @extschema@.sketch_hash(anyelement) RETURNS bigint
  AS 'MODULE_PATHNAME', 'sketch_hash'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sketch_hash(anyelement) IS
  'The 64-bit hash (XXH3, seed 0) that hll and cms sketches compute for a value, from its canonical encoding: equal values such as 42::int and 42::bigint, or 1.0 and 1.00, hash equally';
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

CREATE FUNCTION @extschema@.hll(@extschema@.hll, integer, boolean) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_enforce_typmod' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll(@extschema@.hll, integer, boolean) IS
  'Length coercion for hll(p): lowers a sketch''s precision to p exactly; raising it is an error';
CREATE CAST (@extschema@.hll AS @extschema@.hll)
  WITH FUNCTION @extschema@.hll(@extschema@.hll, integer, boolean) AS IMPLICIT;

CREATE FUNCTION @extschema@.hll_from_bytea(bytea) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_from_bytea(bytea) IS
  'Reads an hll from its binary format, validating every byte';
CREATE CAST (bytea AS @extschema@.hll) WITH FUNCTION @extschema@.hll_from_bytea(bytea);
CREATE CAST (@extschema@.hll AS bytea) WITHOUT FUNCTION;

-- Building and combining ----------------------------------------------------

CREATE FUNCTION @extschema@.hll_empty(p integer DEFAULT 14) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_empty(integer) IS
  'An empty hll of precision p (4..18, default 14)';

CREATE FUNCTION @extschema@.hll_add(@extschema@.hll, anyelement) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_add(@extschema@.hll, anyelement) IS
  'The sketch with one more value added; a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.hll_union(@extschema@.hll, @extschema@.hll) RETURNS @extschema@.hll
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

CREATE FUNCTION @extschema@.hll_cardinality(@extschema@.hll) RETURNS bigint
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

CREATE FUNCTION @extschema@.hll_intersect_cardinality(@extschema@.hll, @extschema@.hll) RETURNS bigint
  AS 'MODULE_PATHNAME', 'hll_intersect_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_intersect_cardinality(@extschema@.hll, @extschema@.hll) IS
  'Estimated size of the intersection by inclusion-exclusion, |A|+|B|-|A∪B|: its error is relative to the union, so small overlaps of large sets are unreliable';

CREATE FUNCTION @extschema@.hll_info(@extschema@.hll) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'hll_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_info(@extschema@.hll) IS
  'Precision, representation, size, estimate and standard error of a sketch, as jsonb';

CREATE FUNCTION @extschema@.hll_eq(@extschema@.hll, @extschema@.hll) RETURNS boolean
  AS 'MODULE_PATHNAME', 'hll_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_eq(@extschema@.hll, @extschema@.hll) IS
  'True if two sketches are identical (same precision and registers)';
CREATE FUNCTION @extschema@.hll_ne(@extschema@.hll, @extschema@.hll) RETURNS boolean
  AS 'MODULE_PATHNAME', 'hll_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_ne(@extschema@.hll, @extschema@.hll) IS
  'True if two sketches differ';

CREATE OPERATOR @extschema@.= (
  LEFTARG = @extschema@.hll, RIGHTARG = @extschema@.hll, FUNCTION = @extschema@.hll_eq,
  COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.hll, @extschema@.hll) IS 'Identical sketches';
CREATE OPERATOR @extschema@.<> (
  LEFTARG = @extschema@.hll, RIGHTARG = @extschema@.hll, FUNCTION = @extschema@.hll_ne,
  COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.hll, @extschema@.hll) IS 'Different sketches';

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

CREATE AGGREGATE @extschema@.hll_agg(anyelement) (
  SFUNC = @extschema@.hll_agg_trans, STYPE = @extschema@.hll, SSPACE = 1024,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_agg(anyelement) IS
  'HyperLogLog sketch (p = 14) of the distinct non-NULL values; NULL over no rows';

CREATE AGGREGATE @extschema@.hll_agg(anyelement, integer) (
  SFUNC = @extschema@.hll_agg_trans, STYPE = @extschema@.hll, SSPACE = 1024,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_agg(anyelement, integer) IS
  'HyperLogLog sketch of precision p (4..18) of the distinct non-NULL values; NULL over no rows';

CREATE AGGREGATE @extschema@.hll_union(@extschema@.hll) (
  SFUNC = @extschema@.hll_union_trans, STYPE = @extschema@.hll, SSPACE = 1024,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_union(@extschema@.hll) IS
  'Union of hll sketches, at the smallest precision among them; NULL over no rows (hll_cardinality reads it as 0)';
-- cms: count-min sketch frequencies with a heavy-hitter candidate list.

CREATE TYPE @extschema@.cms;

CREATE FUNCTION @extschema@.cms_in(cstring) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_out(@extschema@.cms) RETURNS cstring
  AS 'MODULE_PATHNAME', 'cms_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_recv(internal) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_send(@extschema@.cms) RETURNS bytea
  AS 'MODULE_PATHNAME', 'cms_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.cms (
  INPUT = @extschema@.cms_in,
  OUTPUT = @extschema@.cms_out,
  RECEIVE = @extschema@.cms_recv,
  SEND = @extschema@.cms_send,
  INTERNALLENGTH = VARIABLE,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.cms IS
  'Count-min sketch of frequencies: estimates never below the true count and at most epsilon*N above it with probability 1-delta (defaults 0.001, 0.01: 2719 x 5 counters, 106 KiB), plus a list of the top k candidates (default 100) for cms_topk; merge with cms_union';

COMMENT ON FUNCTION @extschema@.cms_in(cstring) IS
  'Text input of cms: \x followed by the hex of the binary format, validated';
COMMENT ON FUNCTION @extschema@.cms_out(@extschema@.cms) IS
  'Text output of cms: \x followed by the hex of the binary format';
COMMENT ON FUNCTION @extschema@.cms_recv(internal) IS
  'Binary input of cms, validated';
COMMENT ON FUNCTION @extschema@.cms_send(@extschema@.cms) IS
  'Binary output of cms: the stored format';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.cms_from_bytea(bytea) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_from_bytea(bytea) IS
  'Reads a cms from its binary format, validating every byte';
CREATE CAST (bytea AS @extschema@.cms) WITH FUNCTION @extschema@.cms_from_bytea(bytea);
CREATE CAST (@extschema@.cms AS bytea) WITHOUT FUNCTION;

-- Building and combining ----------------------------------------------------

CREATE FUNCTION @extschema@.cms_empty(
    epsilon double precision DEFAULT 0.001, delta double precision DEFAULT 0.01,
    conservative boolean DEFAULT false, k integer DEFAULT 100) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_empty(double precision, double precision, boolean, integer) IS
  'An empty cms with width ceil(e/epsilon) and depth ceil(ln(1/delta)) (defaults 0.001, 0.01: 2719 x 5), conservative update or not, and a candidate list of k (0..10000, default 100)';

CREATE FUNCTION @extschema@.cms_empty_sized(
    width integer, depth integer, conservative boolean DEFAULT false, k integer DEFAULT 100)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_empty_sized' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_empty_sized(integer, integer, boolean, integer) IS
  'An empty cms of width counters per row and depth rows (1..32), conservative update or not, and a candidate list of k (default 100)';

CREATE FUNCTION @extschema@.cms_add(@extschema@.cms, anyelement) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_add(@extschema@.cms, anyelement) IS
  'The sketch with one more occurrence of the value; a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.cms_add(@extschema@.cms, anyelement, bigint) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_add(@extschema@.cms, anyelement, bigint) IS
  'The sketch with count more occurrences of the value; a NULL value or a NULL or zero count leaves it unchanged, a negative count is an error, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.cms_union(@extschema@.cms, @extschema@.cms) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_union(@extschema@.cms, @extschema@.cms) IS
  'Merge of two sketches of equal width and depth: counters summed, candidate lists united and re-ranked; a NULL side is ignored';

CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.cms, RIGHTARG = @extschema@.cms,
  FUNCTION = @extschema@.cms_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.cms, @extschema@.cms) IS
  'Merge of two cms sketches (cms_union)';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.cms_frequency(@extschema@.cms, anyelement) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cms_frequency' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_frequency(@extschema@.cms, anyelement) IS
  'Estimated count of the value: never below the true count, above it by at most cms_error_bound with probability 1-delta; 0 for a NULL sketch, NULL for a NULL value';

CREATE FUNCTION @extschema@.cms_total(@extschema@.cms) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cms_total' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_total(@extschema@.cms) IS
  'N, the total count added to the sketch (exact); 0 for a NULL sketch';

CREATE FUNCTION @extschema@.cms_error_bound(@extschema@.cms) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cms_error_bound' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_error_bound(@extschema@.cms) IS
  'floor(epsilon*N) with epsilon = e/width: each estimate exceeds the true count by at most this, with probability 1-delta; 0 for a NULL sketch';

CREATE FUNCTION @extschema@.cms_topk(sketch @extschema@.cms, n integer)
  RETURNS TABLE (value text, frequency bigint)
  AS 'MODULE_PATHNAME', 'cms_topk' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.cms_topk(@extschema@.cms, integer) IS
  'The n candidates with the largest estimated frequencies, best first (ties by value): each value as its type''s text output; no rows for a NULL sketch';

CREATE FUNCTION @extschema@.cms_topk(sketch @extschema@.cms, n integer, type_hint anyelement)
  RETURNS TABLE (value anyelement, frequency bigint)
  AS 'MODULE_PATHNAME', 'cms_topk' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.cms_topk(@extschema@.cms, integer, anyelement) IS
  'cms_topk with the values read back as the type of type_hint (pass e.g. NULL::bigint): the type the sketch was built from; no rows for a NULL sketch or n';

CREATE FUNCTION @extschema@.cms_info(@extschema@.cms) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'cms_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_info(@extschema@.cms) IS
  'Width, depth, epsilon, delta, update mode, total, error bound, candidate list and size of a sketch, as jsonb';

CREATE FUNCTION @extschema@.cms_eq(@extschema@.cms, @extschema@.cms) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cms_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_eq(@extschema@.cms, @extschema@.cms) IS
  'True if two sketches are identical (parameters, counters and candidate list)';
CREATE FUNCTION @extschema@.cms_ne(@extschema@.cms, @extschema@.cms) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cms_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_ne(@extschema@.cms, @extschema@.cms) IS
  'True if two sketches differ';

CREATE OPERATOR @extschema@.= (
  LEFTARG = @extschema@.cms, RIGHTARG = @extschema@.cms, FUNCTION = @extschema@.cms_eq,
  COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.cms, @extschema@.cms) IS 'Identical sketches';
CREATE OPERATOR @extschema@.<> (
  LEFTARG = @extschema@.cms, RIGHTARG = @extschema@.cms, FUNCTION = @extschema@.cms_ne,
  COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.cms, @extschema@.cms) IS 'Different sketches';

-- Aggregates ----------------------------------------------------------------
-- Every aggregate's state is cms itself (the working encoding), updated in
-- place; cms_union_trans is every aggregate's combine function, cms_final
-- (read-only) its final function. SSPACE is the default sketch's state.

CREATE FUNCTION @extschema@.cms_union_trans(@extschema@.cms, @extschema@.cms) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_union_trans(@extschema@.cms, @extschema@.cms) IS
  'Transition function of cms_union and combine function of the cms aggregates';
CREATE FUNCTION @extschema@.cms_final(@extschema@.cms) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_final(@extschema@.cms) IS
  'Final function of the cms aggregates: the stored form of the state';

-- cms_agg(value [, epsilon, delta [, conservative [, k]]])
CREATE FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision,
    double precision) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision,
    double precision, boolean) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision,
    double precision, boolean, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement) IS
  'Transition function of cms_agg(value)';
COMMENT ON FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision, double precision) IS
  'Transition function of cms_agg(value, epsilon, delta)';
COMMENT ON FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision, double precision, boolean) IS
  'Transition function of cms_agg(value, epsilon, delta, conservative)';
COMMENT ON FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision, double precision, boolean, integer) IS
  'Transition function of cms_agg(value, epsilon, delta, conservative, k)';

CREATE AGGREGATE @extschema@.cms_agg(anyelement) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg(anyelement) IS
  'Count-min sketch (epsilon 0.001, delta 0.01, k = 100) of the non-NULL values; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg(anyelement, double precision, double precision) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg(anyelement, double precision, double precision) IS
  'Count-min sketch of the non-NULL values with error epsilon*N at probability 1-delta (both in (0, 1), the same on every row); NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg(anyelement, double precision, double precision, boolean) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg(anyelement, double precision, double precision, boolean) IS
  'Count-min sketch (epsilon, delta) of the non-NULL values, with conservative update if asked; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg(anyelement, double precision, double precision, boolean, integer) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg(anyelement, double precision, double precision, boolean, integer) IS
  'Count-min sketch (epsilon, delta, conservative) of the non-NULL values keeping k heavy-hitter candidates (0..10000); NULL over no rows';

-- cms_agg_weighted(value, count [, epsilon, delta [, conservative [, k]]])
CREATE FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint,
    double precision, double precision) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint,
    double precision, double precision, boolean) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint,
    double precision, double precision, boolean, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint) IS
  'Transition function of cms_agg_weighted(value, count)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint, double precision, double precision) IS
  'Transition function of cms_agg_weighted(value, count, epsilon, delta)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint, double precision, double precision, boolean) IS
  'Transition function of cms_agg_weighted(value, count, epsilon, delta, conservative)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint, double precision, double precision, boolean, integer) IS
  'Transition function of cms_agg_weighted(value, count, epsilon, delta, conservative, k)';

CREATE AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint) IS
  'Count-min sketch (epsilon 0.001, delta 0.01, k = 100) adding count occurrences of each value (rows with a NULL value or a NULL or zero count are skipped; a negative count is an error); NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint, double precision, double precision) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint, double precision, double precision) IS
  'Weighted count-min sketch with error epsilon*N at probability 1-delta; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint, double precision, double precision, boolean) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint, double precision, double precision, boolean) IS
  'Weighted count-min sketch (epsilon, delta), with conservative update if asked; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint, double precision, double precision, boolean, integer) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint, double precision, double precision, boolean, integer) IS
  'Weighted count-min sketch (epsilon, delta, conservative) keeping k heavy-hitter candidates; NULL over no rows';

-- cms_agg_sized(value, width, depth [, conservative [, k]])
CREATE FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer,
    boolean) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer,
    boolean, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer) IS
  'Transition function of cms_agg_sized(value, width, depth)';
COMMENT ON FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer, boolean) IS
  'Transition function of cms_agg_sized(value, width, depth, conservative)';
COMMENT ON FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer, boolean, integer) IS
  'Transition function of cms_agg_sized(value, width, depth, conservative, k)';

CREATE AGGREGATE @extschema@.cms_agg_sized(anyelement, integer, integer) (
  SFUNC = @extschema@.cms_agg_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_sized(anyelement, integer, integer) IS
  'Count-min sketch of width counters per row and depth rows (1..32) of the non-NULL values; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_sized(anyelement, integer, integer, boolean) (
  SFUNC = @extschema@.cms_agg_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_sized(anyelement, integer, integer, boolean) IS
  'Count-min sketch (width, depth), with conservative update if asked; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_sized(anyelement, integer, integer, boolean, integer) (
  SFUNC = @extschema@.cms_agg_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_sized(anyelement, integer, integer, boolean, integer) IS
  'Count-min sketch (width, depth, conservative) keeping k heavy-hitter candidates; NULL over no rows';

-- cms_agg_weighted_sized(value, count, width, depth [, conservative [, k]])
CREATE FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint,
    integer, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint,
    integer, integer, boolean) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint,
    integer, integer, boolean, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint, integer, integer) IS
  'Transition function of cms_agg_weighted_sized(value, count, width, depth)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint, integer, integer, boolean) IS
  'Transition function of cms_agg_weighted_sized(value, count, width, depth, conservative)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint, integer, integer, boolean, integer) IS
  'Transition function of cms_agg_weighted_sized(value, count, width, depth, conservative, k)';

CREATE AGGREGATE @extschema@.cms_agg_weighted_sized(anyelement, bigint, integer, integer) (
  SFUNC = @extschema@.cms_agg_weighted_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted_sized(anyelement, bigint, integer, integer) IS
  'Weighted count-min sketch of width counters per row and depth rows; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted_sized(anyelement, bigint, integer, integer, boolean) (
  SFUNC = @extschema@.cms_agg_weighted_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted_sized(anyelement, bigint, integer, integer, boolean) IS
  'Weighted count-min sketch (width, depth), with conservative update if asked; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted_sized(anyelement, bigint, integer, integer, boolean, integer) (
  SFUNC = @extschema@.cms_agg_weighted_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted_sized(anyelement, bigint, integer, integer, boolean, integer) IS
  'Weighted count-min sketch (width, depth, conservative) keeping k heavy-hitter candidates; NULL over no rows';

CREATE AGGREGATE @extschema@.cms_union(@extschema@.cms) (
  SFUNC = @extschema@.cms_union_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_union(@extschema@.cms) IS
  'Merge of cms sketches of equal width and depth (counters summed, candidate lists united and re-ranked); NULL over no rows (readers treat it as empty)';
-- bloom: Bloom filters for set membership ("definitely not" / "maybe").

CREATE TYPE @extschema@.bloom;

CREATE FUNCTION @extschema@.bloom_in(cstring) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_out(@extschema@.bloom) RETURNS cstring
  AS 'MODULE_PATHNAME', 'bloom_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_recv(internal) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_send(@extschema@.bloom) RETURNS bytea
  AS 'MODULE_PATHNAME', 'bloom_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- STORAGE = external: a filter's bits are random and do not compress, so
-- large filters go out of line uncompressed, and a probe that detoasts one
-- copies it without trying to decompress it.
CREATE TYPE @extschema@.bloom (
  INPUT = @extschema@.bloom_in,
  OUTPUT = @extschema@.bloom_out,
  RECEIVE = @extschema@.bloom_recv,
  SEND = @extschema@.bloom_send,
  INTERNALLENGTH = VARIABLE,
  STORAGE = external
);
COMMENT ON TYPE @extschema@.bloom IS
  'Bloom filter for set membership: no false negatives, false positives with a chosen probability p; m bits and k hashes, sized by bloom_empty(n, p) or bloom_agg(value, n, p); merge with bloom_union';

COMMENT ON FUNCTION @extschema@.bloom_in(cstring) IS
  'Text input of bloom: \x followed by the hex of the binary format, validated';
COMMENT ON FUNCTION @extschema@.bloom_out(@extschema@.bloom) IS
  'Text output of bloom: \x followed by the hex of the binary format';
COMMENT ON FUNCTION @extschema@.bloom_recv(internal) IS
  'Binary input of bloom (the binary format), validated';
COMMENT ON FUNCTION @extschema@.bloom_send(@extschema@.bloom) IS
  'Binary output of bloom (the binary format)';

-- Casts ---------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_from_bytea(bytea) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_from_bytea(bytea) IS
  'Reads a bloom filter from its binary format, validating it';
CREATE CAST (bytea AS @extschema@.bloom) WITH FUNCTION @extschema@.bloom_from_bytea(bytea);
CREATE CAST (@extschema@.bloom AS bytea) WITHOUT FUNCTION;

-- Sizing and building -------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_sizing(
    n bigint, p double precision, OUT bits bigint, OUT hashes integer, OUT bytes bigint)
  AS 'MODULE_PATHNAME', 'bloom_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_sizing(bigint, double precision) IS
  'The filter bloom_empty(n, p) and bloom_agg(value, n, p) build for n distinct values at false-positive probability p: bits m = ceil(-n ln p / ln(2)^2), hashes k = round(m/n ln 2), and its size in bytes';

CREATE FUNCTION @extschema@.bloom_empty(n bigint, p double precision) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_empty(bigint, double precision) IS
  'An empty filter sized for n distinct values (n >= 1) at false-positive probability p (0 < p < 1)';

CREATE FUNCTION @extschema@.bloom_empty_bits(bits bigint, hashes integer) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_empty_bits' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_empty_bits(bigint, integer) IS
  'An empty filter of the given bits (8..8000000000) and hashes (1..64)';

CREATE FUNCTION @extschema@.bloom_add(@extschema@.bloom, anyelement) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, anyelement) IS
  'The filter with one more value added; a NULL value leaves it unchanged, a NULL filter gives NULL';

-- Membership ----------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anyelement) RETURNS boolean
  AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anyelement) IS
  'False if the value was certainly never added; true if it may have been (a false positive with probability bloom_fpp). NULL filter or value gives NULL';

CREATE FUNCTION @extschema@.bloom_contained(anyelement, @extschema@.bloom) RETURNS boolean
  AS 'MODULE_PATHNAME', 'bloom_contained' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contained(anyelement, @extschema@.bloom) IS
  'bloom_contains with the arguments swapped: may the value be in the filter?';

CREATE OPERATOR @extschema@.@> (
  LEFTARG = @extschema@.bloom, RIGHTARG = anyelement,
  FUNCTION = @extschema@.bloom_contains, COMMUTATOR = OPERATOR(@extschema@.<@)
);
COMMENT ON OPERATOR @extschema@.@> (@extschema@.bloom, anyelement) IS
  'filter @> value: the filter may contain the value (bloom_contains)';

CREATE OPERATOR @extschema@.<@ (
  LEFTARG = anyelement, RIGHTARG = @extschema@.bloom,
  FUNCTION = @extschema@.bloom_contained, COMMUTATOR = OPERATOR(@extschema@.@>)
);
COMMENT ON OPERATOR @extschema@.<@ (anyelement, @extschema@.bloom) IS
  'value <@ filter: the value may be in the filter (bloom_contains)';

-- Combining -----------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_union(@extschema@.bloom, @extschema@.bloom) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union(@extschema@.bloom, @extschema@.bloom) IS
  'Union (bit OR) of two filters with the same bits and hashes: exactly the filter of the union of their sets; a NULL side is ignored';

CREATE FUNCTION @extschema@.bloom_intersect(@extschema@.bloom, @extschema@.bloom) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_intersect' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_intersect(@extschema@.bloom, @extschema@.bloom) IS
  'Intersection (bit AND) of two filters with the same bits and hashes: contains every value of both sets, with more false positives than a filter built from the intersection';

CREATE OPERATOR @extschema@.| (
  LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
  FUNCTION = @extschema@.bloom_union, COMMUTATOR = OPERATOR(@extschema@.|)
);
COMMENT ON OPERATOR @extschema@.| (@extschema@.bloom, @extschema@.bloom) IS
  'Union of two bloom filters (bloom_union)';

CREATE OPERATOR @extschema@.& (
  LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
  FUNCTION = @extschema@.bloom_intersect, COMMUTATOR = OPERATOR(@extschema@.&)
);
COMMENT ON OPERATOR @extschema@.& (@extschema@.bloom, @extschema@.bloom) IS
  'Approximate intersection of two bloom filters (bloom_intersect)';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_cardinality(@extschema@.bloom) RETURNS bigint
  AS 'MODULE_PATHNAME', 'bloom_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_cardinality(@extschema@.bloom) IS
  'Estimated number of distinct values added, from the fill: -(m/k) ln(1 - X/m) for X bits set; 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.bloom_fpp(@extschema@.bloom) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bloom_fpp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_fpp(@extschema@.bloom) IS
  'Current false-positive probability from the fill, (X/m)^k: above the p it was sized for once the filter is over capacity; 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.bloom_info(@extschema@.bloom) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_info(@extschema@.bloom) IS
  'Bits, hashes, size, bits set, fill ratio, estimated cardinality and false-positive probability of a filter, as jsonb';

CREATE FUNCTION @extschema@.bloom_eq(@extschema@.bloom, @extschema@.bloom) RETURNS boolean
  AS 'MODULE_PATHNAME', 'bloom_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_eq(@extschema@.bloom, @extschema@.bloom) IS
  'True if two filters are identical (same bits, hashes and bits set)';
CREATE FUNCTION @extschema@.bloom_ne(@extschema@.bloom, @extschema@.bloom) RETURNS boolean
  AS 'MODULE_PATHNAME', 'bloom_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_ne(@extschema@.bloom, @extschema@.bloom) IS
  'True if two filters differ';

CREATE OPERATOR @extschema@.= (
  LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom, FUNCTION = @extschema@.bloom_eq,
  COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.bloom, @extschema@.bloom) IS 'Identical filters';
CREATE OPERATOR @extschema@.<> (
  LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom, FUNCTION = @extschema@.bloom_ne,
  COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.bloom, @extschema@.bloom) IS 'Different filters';

-- Aggregates ----------------------------------------------------------------
-- The state is a bloom value updated in place, so it moves between parallel
-- workers (and distributed nodes) without serial functions. bloom_agg's state
-- is a working form that sets each value's bits a few rows after prefetching
-- them; its read-only final function returns the stored form, so it also
-- works as a window aggregate. SSPACE is a filter for ~100,000 values at
-- p = 0.01 (117 KiB).

CREATE FUNCTION @extschema@.bloom_agg_trans(@extschema@.bloom, anyelement, bigint, double precision)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_trans(@extschema@.bloom, anyelement, bigint, double precision) IS
  'Transition function of bloom_agg(value, n, p)';
CREATE FUNCTION @extschema@.bloom_agg_bits_trans(@extschema@.bloom, anyelement, bigint, integer)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_agg_bits_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_bits_trans(@extschema@.bloom, anyelement, bigint, integer) IS
  'Transition function of bloom_agg_bits(value, bits, hashes)';
CREATE FUNCTION @extschema@.bloom_union_trans(@extschema@.bloom, @extschema@.bloom)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union_trans(@extschema@.bloom, @extschema@.bloom) IS
  'Transition function of bloom_union and combine function of the bloom aggregates';

CREATE FUNCTION @extschema@.bloom_final(@extschema@.bloom) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_final(@extschema@.bloom) IS
  'Final function of bloom_agg and bloom_agg_bits: the stored form of the state';

CREATE AGGREGATE @extschema@.bloom_agg(anyelement, bigint, double precision) (
  SFUNC = @extschema@.bloom_agg_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  FINALFUNC = @extschema@.bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement, bigint, double precision) IS
  'Bloom filter of the non-NULL values, sized for n distinct values at false-positive probability p (the same n and p on every row); NULL over no rows';

CREATE AGGREGATE @extschema@.bloom_agg_bits(anyelement, bigint, integer) (
  SFUNC = @extschema@.bloom_agg_bits_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  FINALFUNC = @extschema@.bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg_bits(anyelement, bigint, integer) IS
  'Bloom filter of the non-NULL values with the given bits and hashes (the same on every row); NULL over no rows';

CREATE AGGREGATE @extschema@.bloom_union(@extschema@.bloom) (
  SFUNC = @extschema@.bloom_union_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_union(@extschema@.bloom) IS
  'Union of bloom filters with the same bits and hashes; NULL inputs skipped; NULL over no rows';
