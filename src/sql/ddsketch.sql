-- ddsketch: quantiles with a guaranteed relative error (docs/ddsketch.md).
-- The type and what every type has (I/O, casts to and from bytea, = and <>,
-- the hash operator class, ddsketch_union with ddsketch_union_trans and ddsketch_final)
-- come before this piece, from src/sql/templates/sketch_type.sql.in and
-- this type's line of src/sql/templates/sketch_types.txt; a COMMENT ON here
-- of one of those objects words it this family's way.

COMMENT ON TYPE @extschema@.ddsketch IS
  'DDSketch of numbers for quantiles: every quantile within a relative error alpha of the true value (default alpha 0.0054 for a requested 0.01), mergeable exactly; exact count, sum, min and max';

-- Building and combining ----------------------------------------------------

CREATE FUNCTION @extschema@.ddsketch_empty(
    relative_accuracy double precision DEFAULT 0.01, max_buckets integer DEFAULT 2048)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_empty(double precision, integer) IS
  'An empty ddsketch at the coarsest scale whose relative error does not exceed relative_accuracy (default 0.01), with at most max_buckets (16..65536, default 2048) buckets per sign';

CREATE FUNCTION @extschema@.ddsketch_add(sketch @extschema@.ddsketch, value double precision)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_add(@extschema@.ddsketch, double precision) IS
  'The sketch with one more value; a NULL value leaves it unchanged, a NULL sketch gives NULL, NaN and infinities are errors';

CREATE FUNCTION @extschema@.ddsketch_union(a @extschema@.ddsketch, b @extschema@.ddsketch)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_union(@extschema@.ddsketch, @extschema@.ddsketch) IS
  'Union of two sketches at the coarser scale and the smaller bucket limit (exact: finer buckets fold into coarser ones); a NULL side is ignored';

CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.ddsketch, RIGHTARG = @extschema@.ddsketch,
  FUNCTION = @extschema@.ddsketch_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.ddsketch, @extschema@.ddsketch) IS
  'Union of two ddsketches';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.ddsketch_quantile(sketch @extschema@.ddsketch, q double precision)
  RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_quantile' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_quantile(@extschema@.ddsketch, double precision) IS
  'The q-quantile (0..1) as percentile_disc defines it, within the sketch''s relative accuracy of the true value (unless ddsketch_info reports its rank unguaranteed); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_quantiles(sketch @extschema@.ddsketch, qs double precision[])
  RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'ddsketch_quantiles' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_quantiles(@extschema@.ddsketch, double precision[]) IS
  'ddsketch_quantile for each q of the array, in order (NULL where q is NULL, all NULL for a NULL or empty sketch)';

CREATE FUNCTION @extschema@.ddsketch_rank(sketch @extschema@.ddsketch, value double precision)
  RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_rank' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_rank(@extschema@.ddsketch, double precision) IS
  'The fraction of values <= value (exact below the minimum and from the maximum on, by whole buckets between); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_count(sketch @extschema@.ddsketch) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ddsketch_count' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_count(@extschema@.ddsketch) IS
  'The exact number of values; 0 for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_sum(sketch @extschema@.ddsketch) RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_sum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_sum(@extschema@.ddsketch) IS
  'The sum of the values, kept exactly and rounded once to double precision; 0 for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_mean(sketch @extschema@.ddsketch) RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_mean' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_mean(@extschema@.ddsketch) IS
  'ddsketch_sum / ddsketch_count; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_min(sketch @extschema@.ddsketch) RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_min' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_min(@extschema@.ddsketch) IS
  'The exact smallest value; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_max(sketch @extschema@.ddsketch) RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_max' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_max(@extschema@.ddsketch) IS
  'The exact largest value; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_relative_accuracy(sketch @extschema@.ddsketch)
  RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_relative_accuracy' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_relative_accuracy(@extschema@.ddsketch) IS
  'The relative error alpha = (gamma - 1) / (gamma + 1) every guaranteed quantile of the sketch stays within';

CREATE FUNCTION @extschema@.ddsketch_info(sketch @extschema@.ddsketch) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'ddsketch_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_info(@extschema@.ddsketch) IS
  'Scale, relative accuracy, bucket limit, count, zeros, min, max, sum, buckets per sign, whether buckets collapsed and which ranks lost the guarantee, and size, as jsonb';

-- Aggregates ----------------------------------------------------------------

-- The value is double precision: every numeric type (smallint, integer,
-- bigint, numeric, real) casts to it implicitly, and an aggregate of fixed
-- argument types is one that distributed engines such as Citus can split.
CREATE FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision) IS
  'Transition function of ddsketch_agg(value)';
CREATE FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision, double precision)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision, double precision) IS
  'Transition function of ddsketch_agg(value, relative_accuracy)';
CREATE FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision, double precision, integer)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_agg_trans(@extschema@.ddsketch, double precision, double precision, integer) IS
  'Transition function of ddsketch_agg(value, relative_accuracy, max_buckets)';

CREATE AGGREGATE @extschema@.ddsketch_agg(value double precision) (
  SFUNC = @extschema@.ddsketch_agg_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_agg(double precision) IS
  'DDSketch of the non-NULL values at relative accuracy 0.01 (alpha 0.0054) and 2048 buckets per sign; NULL over no rows';

CREATE AGGREGATE @extschema@.ddsketch_agg(value double precision, relative_accuracy double precision) (
  SFUNC = @extschema@.ddsketch_agg_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_agg(double precision, double precision) IS
  'DDSketch of the non-NULL values at the coarsest scale within relative_accuracy, 2048 buckets per sign; NULL over no rows';

CREATE AGGREGATE @extschema@.ddsketch_agg(value double precision, relative_accuracy double precision,
                                          max_buckets integer) (
  SFUNC = @extschema@.ddsketch_agg_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_agg(double precision, double precision, integer) IS
  'DDSketch of the non-NULL values within relative_accuracy and at most max_buckets (16..65536) buckets per sign, collapsing the lowest magnitudes beyond; NULL over no rows';

COMMENT ON AGGREGATE @extschema@.ddsketch_union(@extschema@.ddsketch) IS
  'Union of ddsketches, at the coarsest scale and smallest bucket limit among them; NULL over no rows (readers take it as empty)';
