-- theta: Apache DataSketches' compact theta sketches (serial versions 1 to 4;
-- src/core/theta/theta_datasketches.h, docs/interop.md) read as thetas of
-- hash identity 3 (the libraries' hashes) and written back. The install
-- script and the 0.2.0 -> 0.3.0 upgrade both include this piece (Makefile).

CREATE FUNCTION @extschema@.theta_from_datasketches(value bytea) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_from_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_from_datasketches(bytea) IS
  'Imports a DataSketches compact theta sketch (serial version 1, 2, 3 or 4 compressed, as the C++, Java and Go libraries serialize it; seed 9001) as a theta of hash identity 3 holding the library''s entries and theta, at lg_k 12 or the smallest larger one that holds its entries: it unions, intersects and estimates with other imports, never with sketches of identity 1 (22023); malformed bytes or another seed hash 22P03, an update sketch 0A000';

CREATE FUNCTION @extschema@.theta_to_datasketches(sketch @extschema@.theta, compressed boolean DEFAULT false) RETURNS bytea
  AS 'MODULE_PATHNAME', 'theta_to_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_to_datasketches(@extschema@.theta, boolean) IS
  'The DataSketches bytes of a theta of hash identity 3: a compact ordered sketch of serial version 3, or 4 (compressed) when compressed and it has more than one entry or is in estimation mode, byte for byte what the C++ library serializes for the same entries and theta; 22023 for a sketch of identity 1';

-- Building thetas of identity 3 as the libraries' update sketch does
-- (src/core/theta/theta_datasketches.h, "building"): theta_datasketches_add
-- and theta_datasketches_agg hash values as update() does, rebuild when the
-- libraries' table rebuilds and keep every entry their compact() keeps, so
-- the sketch of a stream is the library's (entries, theta and, through
-- theta_to_datasketches, the bytes) when the rows come in the same order.
CREATE FUNCTION @extschema@.theta_datasketches_add(sketch @extschema@.theta, value anyelement) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_datasketches_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_datasketches_add(@extschema@.theta, anyelement) IS
  'A theta of DataSketches'' hashes (hash identity 3) with one more value, hashed as the libraries'' update(): integers as a long, real and double precision as a double, text as UTF-8, bytea as bytes (other types 0A000; empty strings and byte arrays are skipped, as the libraries do); every entry is kept, as compact() of the libraries'' update sketch keeps it; a NULL value leaves it unchanged, a NULL sketch gives NULL; 22023 for a sketch of another identity';
CREATE FUNCTION @extschema@.theta_datasketches_agg_trans(@extschema@.theta, anyelement) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_datasketches_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_datasketches_agg_trans(@extschema@.theta, anyelement) IS
  'Transition function of theta_datasketches_agg(value)';
CREATE FUNCTION @extschema@.theta_datasketches_agg_trans(@extschema@.theta, anyelement, integer) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_datasketches_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_datasketches_agg_trans(@extschema@.theta, anyelement, integer) IS
  'Transition function of theta_datasketches_agg(value, lg_k)';
CREATE FUNCTION @extschema@.theta_datasketches_final(@extschema@.theta) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_datasketches_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_datasketches_final(@extschema@.theta) IS
  'Final function of theta_datasketches_agg: the stored form of its state keeping every entry (compact() of the libraries'' update sketch), at the smallest lg_k from the aggregate''s that holds them; the state is left as it is';
-- SSPACE: the full working table at the default lg_k 12 (2^13 slots of 8
-- bytes, 24 fixed bytes, the varlena header).
CREATE AGGREGATE @extschema@.theta_datasketches_agg(value anyelement) (
  SFUNC = @extschema@.theta_datasketches_agg_trans, STYPE = @extschema@.theta, SSPACE = 65564,
  FINALFUNC = @extschema@.theta_datasketches_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.theta_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.theta_datasketches_agg(anyelement) IS
  'A theta of DataSketches'' hashes (hash identity 3, lg_k 12 as the libraries'' default) of the values, hashed as the libraries'' update() (see theta_datasketches_add) and kept as their update sketch keeps them; it unions, intersects and differs with theta_from_datasketches of the libraries'' sketches; NULL over no rows';
CREATE AGGREGATE @extschema@.theta_datasketches_agg(value anyelement, lg_k integer) (
  SFUNC = @extschema@.theta_datasketches_agg_trans, STYPE = @extschema@.theta, SSPACE = 65564,
  FINALFUNC = @extschema@.theta_datasketches_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.theta_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.theta_datasketches_agg(anyelement, integer) IS
  'A theta of DataSketches'' hashes (hash identity 3) of the values at nominal k = 2^lg_k (lg_k 4..24, the same on every row); NULL over no rows';
