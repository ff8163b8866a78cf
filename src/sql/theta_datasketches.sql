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
