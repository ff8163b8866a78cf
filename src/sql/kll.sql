-- kll: quantiles with a guaranteed rank error (docs/kll.md). The type and
-- what every type has (I/O, casts to and from bytea, = and <>, the hash
-- operator class, kll_union with kll_union_trans and kll_final) come before
-- this piece, from src/sql/templates/sketch_type.sql.in and this type's line
-- of src/sql/templates/sketch_types.txt; a COMMENT ON here of one of those
-- objects words it this family's way.
--
-- One sketch holds values of one type (double precision, bigint, timestamp,
-- timestamptz or date), recorded in it: each function that takes or returns
-- values has one overload per type, and a value of another type than the
-- sketch's is an error (double precision and bigint read each other's).

COMMENT ON TYPE @extschema@.kll IS
  'KLL sketch of an ordered column (double precision, bigint, timestamp, timestamptz or date) for quantiles and ranks: every rank within the error kll_rank_error reports (1.33% at k = 200, 99% confidence), deterministic, mergeable; exact count, min and max';

-- Building and combining ----------------------------------------------------

CREATE FUNCTION @extschema@.kll_empty(k integer DEFAULT 200) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_empty(integer) IS
  'An empty kll of k (8..65535, default 200); it takes the type of its first value';

CREATE FUNCTION @extschema@.kll_add(sketch @extschema@.kll, value double precision) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_add_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_add(@extschema@.kll, double precision) IS
  'The sketch with one more double precision value (an error for a sketch of another type); a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.kll_add(sketch @extschema@.kll, value bigint) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_add_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_add(@extschema@.kll, bigint) IS
  'The sketch with one more bigint value (an error for a sketch of another type); a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.kll_add(sketch @extschema@.kll, value timestamp) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_add_timestamp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_add(@extschema@.kll, timestamp) IS
  'The sketch with one more timestamp value (an error for a sketch of another type); a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.kll_add(sketch @extschema@.kll, value timestamptz) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_add_timestamptz' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_add(@extschema@.kll, timestamptz) IS
  'The sketch with one more timestamptz value (an error for a sketch of another type); a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.kll_add(sketch @extschema@.kll, value date) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_add_date' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_add(@extschema@.kll, date) IS
  'The sketch with one more date value (an error for a sketch of another type); a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.kll_union(a @extschema@.kll, b @extschema@.kll) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_union(@extschema@.kll, @extschema@.kll) IS
  'Union of two sketches of the same value type, at the smaller k (whose rank error it then guarantees); a NULL side is ignored';

CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.kll, RIGHTARG = @extschema@.kll,
  FUNCTION = @extschema@.kll_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.kll, @extschema@.kll) IS
  'Union of two kll sketches';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.kll_quantile(sketch @extschema@.kll, q double precision) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_quantile_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_quantile(@extschema@.kll, double precision) IS
  'The q-quantile (0..1) of a double precision sketch (of a bigint sketch, converted): a value whose rank is within kll_rank_error of q, exactly the minimum at 0 and the maximum at 1, never outside them, rising with q; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_quantile_bigint(sketch @extschema@.kll, q double precision) RETURNS bigint
  AS 'MODULE_PATHNAME', 'kll_quantile_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_quantile_bigint(@extschema@.kll, double precision) IS
  'The q-quantile (0..1) of a bigint sketch: a value whose rank is within kll_rank_error of q, exactly the minimum at 0 and the maximum at 1, never outside them, rising with q; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_quantile_timestamp(sketch @extschema@.kll, q double precision) RETURNS timestamp
  AS 'MODULE_PATHNAME', 'kll_quantile_timestamp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_quantile_timestamp(@extschema@.kll, double precision) IS
  'The q-quantile (0..1) of a timestamp sketch: a value whose rank is within kll_rank_error of q, exactly the minimum at 0 and the maximum at 1, never outside them, rising with q; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_quantile_timestamptz(sketch @extschema@.kll, q double precision) RETURNS timestamptz
  AS 'MODULE_PATHNAME', 'kll_quantile_timestamptz' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_quantile_timestamptz(@extschema@.kll, double precision) IS
  'The q-quantile (0..1) of a timestamptz sketch: a value whose rank is within kll_rank_error of q, exactly the minimum at 0 and the maximum at 1, never outside them, rising with q; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_quantile_date(sketch @extschema@.kll, q double precision) RETURNS date
  AS 'MODULE_PATHNAME', 'kll_quantile_date' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_quantile_date(@extschema@.kll, double precision) IS
  'The q-quantile (0..1) of a date sketch: a value whose rank is within kll_rank_error of q, exactly the minimum at 0 and the maximum at 1, never outside them, rising with q; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_quantiles(sketch @extschema@.kll, qs double precision[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_quantiles' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_quantiles(@extschema@.kll, double precision[]) IS
  'kll_quantile for each q of the array, in order, of a double precision or bigint sketch (NULL where q is NULL, all NULL for a NULL or empty sketch)';

CREATE FUNCTION @extschema@.kll_rank(sketch @extschema@.kll, value double precision) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_rank_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_rank(@extschema@.kll, double precision) IS
  'The fraction of values <= value, within kll_rank_error (exact below the minimum and from the maximum on); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_rank(sketch @extschema@.kll, value bigint) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_rank_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_rank(@extschema@.kll, bigint) IS
  'The fraction of values <= value, within kll_rank_error (exact below the minimum and from the maximum on); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_rank(sketch @extschema@.kll, value timestamp) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_rank_timestamp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_rank(@extschema@.kll, timestamp) IS
  'The fraction of values <= value, within kll_rank_error (exact below the minimum and from the maximum on); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_rank(sketch @extschema@.kll, value timestamptz) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_rank_timestamptz' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_rank(@extschema@.kll, timestamptz) IS
  'The fraction of values <= value, within kll_rank_error (exact below the minimum and from the maximum on); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_rank(sketch @extschema@.kll, value date) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_rank_date' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_rank(@extschema@.kll, date) IS
  'The fraction of values <= value, within kll_rank_error (exact below the minimum and from the maximum on); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_cdf(sketch @extschema@.kll, splits double precision[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_cdf_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_cdf(@extschema@.kll, double precision[]) IS
  'kll_rank at each split point (non-NULL, strictly increasing), then 1: the cumulative distribution, one more value than splits; NULL for a NULL or empty sketch';
CREATE FUNCTION @extschema@.kll_pmf(sketch @extschema@.kll, splits double precision[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_pmf_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_pmf(@extschema@.kll, double precision[]) IS
  'The fraction of values in each interval the split points (non-NULL, strictly increasing) cut: (-inf, s1], (s1, s2], ..., (sm, +inf); within the double-sided error of kll_info; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_cdf(sketch @extschema@.kll, splits bigint[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_cdf_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_cdf(@extschema@.kll, bigint[]) IS
  'kll_rank at each split point (non-NULL, strictly increasing), then 1: the cumulative distribution, one more value than splits; NULL for a NULL or empty sketch';
CREATE FUNCTION @extschema@.kll_pmf(sketch @extschema@.kll, splits bigint[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_pmf_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_pmf(@extschema@.kll, bigint[]) IS
  'The fraction of values in each interval the split points (non-NULL, strictly increasing) cut: (-inf, s1], (s1, s2], ..., (sm, +inf); within the double-sided error of kll_info; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_cdf(sketch @extschema@.kll, splits timestamp[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_cdf_timestamp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_cdf(@extschema@.kll, timestamp[]) IS
  'kll_rank at each split point (non-NULL, strictly increasing), then 1: the cumulative distribution, one more value than splits; NULL for a NULL or empty sketch';
CREATE FUNCTION @extschema@.kll_pmf(sketch @extschema@.kll, splits timestamp[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_pmf_timestamp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_pmf(@extschema@.kll, timestamp[]) IS
  'The fraction of values in each interval the split points (non-NULL, strictly increasing) cut: (-inf, s1], (s1, s2], ..., (sm, +inf); within the double-sided error of kll_info; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_cdf(sketch @extschema@.kll, splits timestamptz[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_cdf_timestamptz' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_cdf(@extschema@.kll, timestamptz[]) IS
  'kll_rank at each split point (non-NULL, strictly increasing), then 1: the cumulative distribution, one more value than splits; NULL for a NULL or empty sketch';
CREATE FUNCTION @extschema@.kll_pmf(sketch @extschema@.kll, splits timestamptz[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_pmf_timestamptz' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_pmf(@extschema@.kll, timestamptz[]) IS
  'The fraction of values in each interval the split points (non-NULL, strictly increasing) cut: (-inf, s1], (s1, s2], ..., (sm, +inf); within the double-sided error of kll_info; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_cdf(sketch @extschema@.kll, splits date[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_cdf_date' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_cdf(@extschema@.kll, date[]) IS
  'kll_rank at each split point (non-NULL, strictly increasing), then 1: the cumulative distribution, one more value than splits; NULL for a NULL or empty sketch';
CREATE FUNCTION @extschema@.kll_pmf(sketch @extschema@.kll, splits date[]) RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'kll_pmf_date' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_pmf(@extschema@.kll, date[]) IS
  'The fraction of values in each interval the split points (non-NULL, strictly increasing) cut: (-inf, s1], (s1, s2], ..., (sm, +inf); within the double-sided error of kll_info; NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_count(sketch @extschema@.kll) RETURNS bigint
  AS 'MODULE_PATHNAME', 'kll_count' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_count(@extschema@.kll) IS
  'The exact number of values; 0 for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_min(sketch @extschema@.kll) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_min' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_min(@extschema@.kll) IS
  'The exact smallest value of a double precision or bigint sketch (of the others: kll_quantile_<type>(sketch, 0)); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_max(sketch @extschema@.kll) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_max' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_max(@extschema@.kll) IS
  'The exact largest value of a double precision or bigint sketch (of the others: kll_quantile_<type>(sketch, 1)); NULL for a NULL or empty sketch';

CREATE FUNCTION @extschema@.kll_rank_error(sketch @extschema@.kll) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_rank_error' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_rank_error(@extschema@.kll) IS
  'The normalized rank error of kll_rank and kll_quantile at 99% confidence, single-sided (2.296 / k^0.9723 for the sketch''s k, after any merges); 0 while the sketch is exact';

CREATE FUNCTION @extschema@.kll_rank_error(sketch @extschema@.kll, confidence double precision) RETURNS double precision
  AS 'MODULE_PATHNAME', 'kll_rank_error' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_rank_error(@extschema@.kll, double precision) IS
  'kll_rank_error at a confidence in (0, 1): the 99% bound scaled as a sub-Gaussian tail, sqrt(ln(2 / (1 - confidence)) / ln(200))';

CREATE FUNCTION @extschema@.kll_info(sketch @extschema@.kll) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'kll_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_info(@extschema@.kll) IS
  'k, value type, count, items kept, levels, whether exact, the single-sided (rank) and double-sided (pmf) rank errors at 99%, min and max (timestamps in microseconds and dates in days since 2000-01-01), and size, as jsonb';

-- Aggregates ----------------------------------------------------------------
-- One set per value type; integer, numeric and real columns cast to double
-- precision, which PostgreSQL prefers among the numeric types. The weighted
-- form takes k explicitly: kll_agg(value, 5) reads 5 as k.

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, double precision) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, double precision) IS
  'Transition function of kll_agg(double precision)';

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, double precision, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, double precision, integer) IS
  'Transition function of kll_agg(double precision, k)';

CREATE FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, double precision, bigint, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_weighted_trans_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, double precision, bigint, integer) IS
  'Transition function of kll_agg(double precision, weight, k)';

CREATE AGGREGATE @extschema@.kll_agg(value double precision) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(double precision) IS
  'KLL sketch of the non-NULL double precision values at k = 200 (ranks within 1.33% at 99%); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value double precision, k integer) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(double precision, integer) IS
  'KLL sketch of the non-NULL double precision values at k (8..65535; error about 2.3 / k^0.97); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value double precision, weight bigint, k integer) (
  SFUNC = @extschema@.kll_agg_weighted_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(double precision, bigint, integer) IS
  'KLL sketch of the non-NULL double precision values, each counted weight times (a NULL or 0 weight adds nothing), at k; NULL over no rows';

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, bigint) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, bigint) IS
  'Transition function of kll_agg(bigint)';

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, bigint, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, bigint, integer) IS
  'Transition function of kll_agg(bigint, k)';

CREATE FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, bigint, bigint, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_weighted_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, bigint, bigint, integer) IS
  'Transition function of kll_agg(bigint, weight, k)';

CREATE AGGREGATE @extschema@.kll_agg(value bigint) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(bigint) IS
  'KLL sketch of the non-NULL bigint values at k = 200 (ranks within 1.33% at 99%); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value bigint, k integer) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(bigint, integer) IS
  'KLL sketch of the non-NULL bigint values at k (8..65535; error about 2.3 / k^0.97); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value bigint, weight bigint, k integer) (
  SFUNC = @extschema@.kll_agg_weighted_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(bigint, bigint, integer) IS
  'KLL sketch of the non-NULL bigint values, each counted weight times (a NULL or 0 weight adds nothing), at k; NULL over no rows';

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, timestamp) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_timestamp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, timestamp) IS
  'Transition function of kll_agg(timestamp)';

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, timestamp, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_timestamp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, timestamp, integer) IS
  'Transition function of kll_agg(timestamp, k)';

CREATE FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, timestamp, bigint, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_weighted_trans_timestamp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, timestamp, bigint, integer) IS
  'Transition function of kll_agg(timestamp, weight, k)';

CREATE AGGREGATE @extschema@.kll_agg(value timestamp) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(timestamp) IS
  'KLL sketch of the non-NULL timestamp values at k = 200 (ranks within 1.33% at 99%); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value timestamp, k integer) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(timestamp, integer) IS
  'KLL sketch of the non-NULL timestamp values at k (8..65535; error about 2.3 / k^0.97); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value timestamp, weight bigint, k integer) (
  SFUNC = @extschema@.kll_agg_weighted_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(timestamp, bigint, integer) IS
  'KLL sketch of the non-NULL timestamp values, each counted weight times (a NULL or 0 weight adds nothing), at k; NULL over no rows';

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, timestamptz) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_timestamptz' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, timestamptz) IS
  'Transition function of kll_agg(timestamptz)';

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, timestamptz, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_timestamptz' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, timestamptz, integer) IS
  'Transition function of kll_agg(timestamptz, k)';

CREATE FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, timestamptz, bigint, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_weighted_trans_timestamptz' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, timestamptz, bigint, integer) IS
  'Transition function of kll_agg(timestamptz, weight, k)';

CREATE AGGREGATE @extschema@.kll_agg(value timestamptz) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(timestamptz) IS
  'KLL sketch of the non-NULL timestamptz values at k = 200 (ranks within 1.33% at 99%); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value timestamptz, k integer) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(timestamptz, integer) IS
  'KLL sketch of the non-NULL timestamptz values at k (8..65535; error about 2.3 / k^0.97); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value timestamptz, weight bigint, k integer) (
  SFUNC = @extschema@.kll_agg_weighted_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(timestamptz, bigint, integer) IS
  'KLL sketch of the non-NULL timestamptz values, each counted weight times (a NULL or 0 weight adds nothing), at k; NULL over no rows';

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, date) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_date' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, date) IS
  'Transition function of kll_agg(date)';

CREATE FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, date, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_trans_date' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_trans(@extschema@.kll, date, integer) IS
  'Transition function of kll_agg(date, k)';

CREATE FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, date, bigint, integer) RETURNS @extschema@.kll
  AS 'MODULE_PATHNAME', 'kll_agg_weighted_trans_date' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kll_agg_weighted_trans(@extschema@.kll, date, bigint, integer) IS
  'Transition function of kll_agg(date, weight, k)';

CREATE AGGREGATE @extschema@.kll_agg(value date) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(date) IS
  'KLL sketch of the non-NULL date values at k = 200 (ranks within 1.33% at 99%); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value date, k integer) (
  SFUNC = @extschema@.kll_agg_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(date, integer) IS
  'KLL sketch of the non-NULL date values at k (8..65535; error about 2.3 / k^0.97); NULL over no rows';

CREATE AGGREGATE @extschema@.kll_agg(value date, weight bigint, k integer) (
  SFUNC = @extschema@.kll_agg_weighted_trans, STYPE = @extschema@.kll, SSPACE = 5000,
  FINALFUNC = @extschema@.kll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.kll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.kll_agg(date, bigint, integer) IS
  'KLL sketch of the non-NULL date values, each counted weight times (a NULL or 0 weight adds nothing), at k; NULL over no rows';

COMMENT ON AGGREGATE @extschema@.kll_union(@extschema@.kll) IS
  'Union of kll sketches of one value type, at the smallest k among them; NULL over no rows (readers take it as empty)';
