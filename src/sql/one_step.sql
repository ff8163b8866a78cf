-- One-step aggregates under the names other engines use: the answer of a
-- sketch's aggregate and accessor in one call, for the first query people
-- type. Each is the sketch's own aggregate (the same transition and combine
-- functions, so parallel and distributed plans split it the same way) with
-- a final function that reads the answer off the state. They store
-- nothing: for rollups, keep the sketch (hll_agg, topk_agg) and answer
-- from it. docs/one_step.md.
--
-- approx_percentile(v, q) is not among them: a final function receives the
-- state alone, and ddsketch's state has no place for q (docs/one_step.md,
-- "Why not approx_percentile"); ddsketch_quantile(ddsketch_agg(v), q) is
-- the two-step form.

CREATE FUNCTION @extschema@.hll_approx_count_distinct_final(@extschema@.hll) RETURNS bigint
  AS 'MODULE_PATHNAME', 'hll_approx_count_distinct_final'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_approx_count_distinct_final(@extschema@.hll) IS
  'Final function of approx_count_distinct: the estimate of the hll state, 0 for none';

CREATE AGGREGATE @extschema@.approx_count_distinct(value anyelement) (
  SFUNC = @extschema@.hll_agg_trans, STYPE = @extschema@.hll, SSPACE = 12300,
  FINALFUNC = @extschema@.hll_approx_count_distinct_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.approx_count_distinct(anyelement) IS
  'Estimated number of distinct non-NULL values (hll_cardinality(hll_agg(value)): p = 14, RMS error 0.81%); 0 over no rows';

CREATE TYPE @extschema@.approx_top_k_item AS (
  value text, estimate bigint, lower_bound bigint, upper_bound bigint);
COMMENT ON TYPE @extschema@.approx_top_k_item IS
  'An item of approx_top_k: the value as text, its estimated count (the upper bound) and the bounds its true count lies in';

CREATE FUNCTION @extschema@.topk_approx_top_k_final(@extschema@.topk)
  RETURNS @extschema@.approx_top_k_item[]
  AS 'MODULE_PATHNAME', 'topk_approx_top_k_final'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_approx_top_k_final(@extschema@.topk) IS
  'Final function of approx_top_k: the held items of the topk state, best first';

CREATE AGGREGATE @extschema@.approx_top_k(value anyelement, k integer) (
  SFUNC = @extschema@.topk_agg_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_approx_top_k_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.approx_top_k(anyelement, integer) IS
  'The k most frequent non-NULL values with estimate and bounds, best first (topk_items(topk_agg(value, k)) as an array: every count within N/(k+1)); NULL over no rows';
