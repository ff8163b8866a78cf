-- ddsketch from and to exponential histograms: OpenTelemetry's OTLP JSON
-- data point and Prometheus' native histogram (docs/ddsketch_otel.md). New
-- in 0.3.0 (UPGRADE_NEW_PIECES). The import is exact: every count lands in
-- the ddsketch bucket that holds its OTel/Prometheus bucket (scales above
-- max_scale fold down exactly; negative scales are refused).

CREATE FUNCTION @extschema@.ddsketch_from_otel(
    data_point jsonb, max_scale integer DEFAULT 12, max_buckets integer DEFAULT 2048)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_from_otel' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_from_otel(jsonb, integer, integer) IS
  'A ddsketch holding an OTLP JSON exponential-histogram data point exactly: OTel bucket j at scale s is ddsketch bucket j + 1, folded to min(scale, max_scale) (0..12); scales below 0 are refused; zeroCount becomes zeros; sum, min, max kept when present';

CREATE FUNCTION @extschema@.ddsketch_from_prometheus(
    histogram jsonb, max_scale integer DEFAULT 12, max_buckets integer DEFAULT 2048)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_from_prometheus' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_from_prometheus(jsonb, integer, integer) IS
  'A ddsketch holding a Prometheus native histogram (schema, zero_threshold, zero_count, count, sum, positive/negative spans and deltas) exactly: Prometheus bucket i at schema s is ddsketch bucket i, folded to min(schema, max_scale); schemas below 0 are refused';

CREATE FUNCTION @extschema@.ddsketch_to_otel(sketch @extschema@.ddsketch)
  RETURNS jsonb
  AS 'MODULE_PATHNAME', 'ddsketch_to_otel' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_to_otel(@extschema@.ddsketch) IS
  'The sketch as an OTLP JSON exponential-histogram data point at its scale (ddsketch bucket i is OTel bucket i - 1; 64-bit counts as strings; zeroThreshold 0); ddsketch_from_otel reads it back to the same sketch';

CREATE FUNCTION @extschema@.ddsketch_to_prometheus(sketch @extschema@.ddsketch)
  RETURNS jsonb
  AS 'MODULE_PATHNAME', 'ddsketch_to_prometheus' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_to_prometheus(@extschema@.ddsketch) IS
  'The sketch as a Prometheus native histogram in the JSON form ddsketch_from_prometheus reads (schema, zero_threshold 0, zero_count, count, sum, spans and deltas) at min(scale, 8), Prometheus'' finest schema; min and max are not carried';
