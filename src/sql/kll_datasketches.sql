-- kll: Apache DataSketches' compact KLL sketches (src/core/kll/kll_datasketches.h,
-- docs/interop.md) of doubles and floats read as klls of double precision, of
-- longs as klls of bigint, and written back. The bytes do not say which item
-- type they hold: the item type argument does ('double' by default). The
-- install script and the 0.2.0 -> 0.3.0 upgrade both include this piece
-- (Makefile).

CREATE FUNCTION @extschema@.kll_from_datasketches(value bytea) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_from_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_from_datasketches(bytea) IS
  'Imports a DataSketches compact KLL sketch of doubles (KllDoublesSketch, kll_sketch<double>; empty, single-item or full, m = 8) as a kll of double precision with the library''s k, n, min, max and items at their levels; malformed bytes 22P03 saying what, the updatable form or a sketch merged from a smaller k 0A000';

CREATE FUNCTION @extschema@.kll_from_datasketches(value bytea, item_type text) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_from_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_from_datasketches(bytea, text) IS
  'Imports a DataSketches compact KLL sketch of item_type ''double'' or ''float'' (as a kll of double precision: floats widen exactly) or ''long'' (as a kll of bigint); 22023 for another item type, malformed bytes 22P03, the updatable form or a sketch merged from a smaller k 0A000';

CREATE FUNCTION @extschema@.kll_to_datasketches(sketch @extschema@.kll) RETURNS bytea
  AS 'MODULE_PATHNAME', 'kll_to_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_to_datasketches(@extschema@.kll) IS
  'The DataSketches compact KLL bytes of a sketch: of doubles for double precision (and an empty sketch), of longs for bigint; while exact (n <= k) after values added in ascending order, byte for byte the library''s sketch of the same stream; 0A000 for timestamp, timestamptz and date sketches';

CREATE FUNCTION @extschema@.kll_to_datasketches(sketch @extschema@.kll, item_type text) RETURNS bytea
  AS 'MODULE_PATHNAME', 'kll_to_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_to_datasketches(@extschema@.kll, text) IS
  'The DataSketches compact KLL bytes of a sketch as items of item_type: ''double'' or ''float'' for double precision (float only when every value kept is a float exactly), ''long'' for bigint; 22023 otherwise, 0A000 for timestamp, timestamptz and date sketches';
