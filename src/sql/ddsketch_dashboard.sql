-- ddsketch readers for dashboards and weighted input (docs/ddsketch.md,
-- "Dashboards"). New in 0.3.0 (UPGRADE_NEW_PIECES). Every reader counts by
-- ddsketch_rank's rule: a bucket counts as <= x when its representative is
-- <= x, exact below the minimum and from the maximum on.

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.ddsketch_ranks(sketch @extschema@.ddsketch, vals double precision[])
  RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'ddsketch_ranks' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_ranks(@extschema@.ddsketch, double precision[]) IS
  'ddsketch_rank of each value of the array, in order, in one pass over the buckets (NULL where the value is NULL, all NULL for a NULL or empty sketch)';

CREATE FUNCTION @extschema@.ddsketch_cdf(sketch @extschema@.ddsketch, splits double precision[])
  RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'ddsketch_cdf' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_cdf(@extschema@.ddsketch, double precision[]) IS
  'For m finite, strictly increasing split points, m + 1 cumulative fractions: the fraction of values <= each split (as ddsketch_rank counts), then 1; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_pmf(sketch @extschema@.ddsketch, splits double precision[])
  RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'ddsketch_pmf' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_pmf(@extschema@.ddsketch, double precision[]) IS
  'The histogram over m finite, strictly increasing split points: m + 1 fractions of the values (<= the first split, in (split k, split k+1], above the last) that add up to 1; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.ddsketch_trimmed_mean(sketch @extschema@.ddsketch,
                                                  lo double precision, hi double precision)
  RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_trimmed_mean' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_trimmed_mean(@extschema@.ddsketch, double precision, double precision) IS
  'The mean of the values whose rank lies in [lo, hi] (0 <= lo < hi <= 1), a value partly inside weighted by its part, within the relative accuracy of the same mean of |value|; NULL for a NULL or empty sketch';

-- Weighted input ------------------------------------------------------------

CREATE FUNCTION @extschema@.ddsketch_add(sketch @extschema@.ddsketch, value double precision, count bigint)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_add_count' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_add(@extschema@.ddsketch, double precision, bigint) IS
  'The sketch with count more copies of value, exactly as many ddsketch_add calls make it; a NULL value or a NULL or 0 count leaves it unchanged, a NULL sketch gives NULL; a negative count is an error';

-- The count is bigint: ddsketch_agg(value, n) with an integer n is the
-- (value, relative_accuracy) form (double precision is the numeric types'
-- preferred type), which refuses every integer with a hint to cast.
CREATE FUNCTION @extschema@.ddsketch_agg_weighted_trans(@extschema@.ddsketch, double precision, bigint)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_agg_weighted_trans(@extschema@.ddsketch, double precision, bigint) IS
  'Transition function of ddsketch_agg(value, count)';
CREATE FUNCTION @extschema@.ddsketch_agg_weighted_trans(@extschema@.ddsketch, double precision, bigint, double precision)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_agg_weighted_trans(@extschema@.ddsketch, double precision, bigint, double precision) IS
  'Transition function of ddsketch_agg(value, count, relative_accuracy)';
CREATE FUNCTION @extschema@.ddsketch_agg_weighted_trans(@extschema@.ddsketch, double precision, bigint, double precision, integer)
  RETURNS @extschema@.ddsketch
  AS 'MODULE_PATHNAME', 'ddsketch_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_agg_weighted_trans(@extschema@.ddsketch, double precision, bigint, double precision, integer) IS
  'Transition function of ddsketch_agg(value, count, relative_accuracy, max_buckets)';

CREATE AGGREGATE @extschema@.ddsketch_agg(value double precision, count bigint) (
  SFUNC = @extschema@.ddsketch_agg_weighted_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_agg(double precision, bigint) IS
  'DDSketch of each non-NULL value count times (exact counts, the same sketch as the rows repeated) at relative accuracy 0.01 and 2048 buckets per sign; 0 or NULL counts add nothing; NULL over no rows';

CREATE AGGREGATE @extschema@.ddsketch_agg(value double precision, count bigint,
                                          relative_accuracy double precision) (
  SFUNC = @extschema@.ddsketch_agg_weighted_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_agg(double precision, bigint, double precision) IS
  'DDSketch of each non-NULL value count times at the coarsest scale within relative_accuracy, 2048 buckets per sign; NULL over no rows';

CREATE AGGREGATE @extschema@.ddsketch_agg(value double precision, count bigint,
                                          relative_accuracy double precision, max_buckets integer) (
  SFUNC = @extschema@.ddsketch_agg_weighted_trans, STYPE = @extschema@.ddsketch, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.ddsketch_agg(double precision, bigint, double precision, integer) IS
  'DDSketch of each non-NULL value count times within relative_accuracy and at most max_buckets (16..65536) buckets per sign; NULL over no rows';
