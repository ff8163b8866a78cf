-- ddsketch from and to DataDog's DDSketch protobuf, the message the
-- sketches-go, -java, -py and -js libraries serialize to
-- (docs/ddsketch_otel.md, "DataDog's DDSketch protobuf"). New in 0.3.0
-- (UPGRADE_NEW_PIECES). The import is exact when the mapping is
-- logarithmic with gamma = 2^(2^-s) and an integer offset; any other gamma
-- is re-bucketed with the accuracy stated in the docs; LINEAR, QUADRATIC
-- and CUBIC mappings are refused (0A000).

CREATE FUNCTION @extschema@.ddsketch_from_ddsketch_proto(
    proto bytea, index_rule text DEFAULT 'ceil', max_scale integer DEFAULT 12,
    max_buckets integer DEFAULT 2048)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_from_ddsketch_proto' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_from_ddsketch_proto(bytea, text, integer, integer) IS
  'A ddsketch holding a DataDog DDSketch protobuf: index_rule ceil (sketches-py, sketches-js: key k holds (gamma^(k-o-1), gamma^(k-o)]) or floor (sketches-go, sketches-java: [gamma^(k-o), gamma^(k-o+1))); exact when gamma = 2^(2^-s) and the offset o is an integer (folded to max_scale), otherwise each bin goes to the bucket of its representative at the coarsest scale as accurate as gamma (quantiles within (1 + a)(1 + a_s) - 1); zeroCount becomes zeros; min, max, sum are the buckets'' representatives (the proto has none)';

CREATE FUNCTION @extschema@.ddsketch_to_ddsketch_proto(sketch @extschema@.ddsketch)
  RETURNS bytea
  AS 'MODULE_PATHNAME', 'ddsketch_to_ddsketch_proto' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_to_ddsketch_proto(@extschema@.ddsketch) IS
  'The sketch as a DataDog DDSketch protobuf: gamma 2^(2^-scale), indexOffset 0, interpolation NONE, keys = ddsketch indices under the ceil rule, both stores in the contiguous form, zeroCount; counts above 2^53 are refused; min, max and sum are not carried; ddsketch_from_ddsketch_proto reads it back to the same buckets';
