-- hll: Apache DataSketches HLL sketches (hash identity 3;
-- src/core/hll/dshll.h, docs/interop.md). Import of the libraries' bytes
-- (C++, Java, Go: HLL_4, HLL_6, HLL_8 in LIST, SET or HLL mode), export to
-- the C++ library's compact bytes, and an add and an aggregate that hash as
-- the libraries' update() does, so that new rows merge with imported
-- sketches. The install script and the 0.2.0 -> 0.3.0 upgrade both include
-- this piece (Makefile).
CREATE FUNCTION @extschema@.hll_from_datasketches(value bytea) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_from_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_from_datasketches(bytea) IS
  'Imports an Apache DataSketches HLL sketch (serial version 1: HLL_4, HLL_6 or HLL_8, LIST, SET or HLL mode, compact or updatable, lgK 4..21) as an hll of hash identity 3 that keeps the library''s registers and its HIP estimate; anything else is refused (22P03, saying what)';
CREATE FUNCTION @extschema@.hll_to_datasketches(sketch @extschema@.hll) RETURNS bytea
  AS 'MODULE_PATHNAME', 'hll_to_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_to_datasketches(@extschema@.hll) IS
  'The DataSketches HLL bytes of a sketch of hash identity 3, compact as the C++ library writes them, in the sketch''s own target type; 22023 for a sketch of another identity';
CREATE FUNCTION @extschema@.hll_to_datasketches(sketch @extschema@.hll, type text) RETURNS bytea
  AS 'MODULE_PATHNAME', 'hll_to_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_to_datasketches(@extschema@.hll, text) IS
  'The DataSketches HLL bytes of a sketch of hash identity 3 in the target type HLL_4, HLL_6 or HLL_8 (22023 for another name or identity)';
CREATE FUNCTION @extschema@.hll_datasketches_add(sketch @extschema@.hll, value anyelement) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_datasketches_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_datasketches_add(@extschema@.hll, anyelement) IS
  'A DataSketches sketch (hash identity 3) with one more value, hashed as the libraries'' update(): integers as a long, real and double precision as a double, text as UTF-8, bytea as bytes (other types 0A000; empty strings and byte arrays are skipped, as the libraries do); a NULL value leaves it unchanged, a NULL sketch gives NULL; 22023 for a sketch of another identity';
CREATE FUNCTION @extschema@.hll_datasketches_agg_trans(@extschema@.hll, anyelement) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_datasketches_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_datasketches_agg_trans(@extschema@.hll, anyelement) IS
  'Transition function of hll_datasketches_agg(value)';
CREATE FUNCTION @extschema@.hll_datasketches_agg_trans(@extschema@.hll, anyelement, integer) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_datasketches_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_datasketches_agg_trans(@extschema@.hll, anyelement, integer) IS
  'Transition function of hll_datasketches_agg(value, lg_k)';
CREATE FUNCTION @extschema@.hll_datasketches_agg_trans(@extschema@.hll, anyelement, integer, text) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_datasketches_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_datasketches_agg_trans(@extschema@.hll, anyelement, integer, text) IS
  'Transition function of hll_datasketches_agg(value, lg_k, type)';
-- SSPACE: the working state at the default lgK 12: 8-byte header, 32 fixed
-- bytes, two tables of 512 coupons, 4,096 registers, the varlena header.
CREATE AGGREGATE @extschema@.hll_datasketches_agg(value anyelement) (
  SFUNC = @extschema@.hll_datasketches_agg_trans, STYPE = @extschema@.hll, SSPACE = 8236,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_datasketches_agg(anyelement) IS
  'A DataSketches HLL sketch (hash identity 3, lgK 12, HLL_4) of the values, hashed as the libraries'' update() (see hll_datasketches_add); it merges exactly with hll_from_datasketches of the library''s sketches';
CREATE AGGREGATE @extschema@.hll_datasketches_agg(value anyelement, lg_k integer) (
  SFUNC = @extschema@.hll_datasketches_agg_trans, STYPE = @extschema@.hll, SSPACE = 8236,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_datasketches_agg(anyelement, integer) IS
  'A DataSketches HLL sketch (hash identity 3, HLL_4) of the values at lgK lg_k (4..21)';
CREATE AGGREGATE @extschema@.hll_datasketches_agg(value anyelement, lg_k integer, type text) (
  SFUNC = @extschema@.hll_datasketches_agg_trans, STYPE = @extschema@.hll, SSPACE = 8236,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_datasketches_agg(anyelement, integer, text) IS
  'A DataSketches HLL sketch (hash identity 3) of the values at lgK lg_k (4..21), exported by default in the target type HLL_4, HLL_6 or HLL_8';
