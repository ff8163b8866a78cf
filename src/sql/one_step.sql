-- One-step aggregates under the names other engines use: the answer of a
-- sketch's aggregate and accessor in one call, for the first query people
-- type. Each is the sketch's own aggregate (the same transition and combine
-- functions, so parallel and distributed plans split it the same way) with
-- a final function that reads the answer off the state. They store
-- nothing: for rollups, keep the sketch (hll_agg, topk_agg) and answer
-- from it. docs/one_step.md.
--
-- approx_percentile(v, q) and approx_percentiles(v, qs) need q in their
-- final function, which PostgreSQL gives only the state: their state is
-- the ddsketch that ddsketch_agg(v) builds followed by the fractions asked,
-- a type of its own (approx_percentile_state) that crosses parallel workers
-- and Citus nodes as any sketch state does.

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

-- approx_percentile, approx_percentiles ------------------------------------

CREATE TYPE @extschema@.approx_percentile_state;
CREATE FUNCTION @extschema@.approx_percentile_state_in(cstring)
  RETURNS @extschema@.approx_percentile_state
  AS 'MODULE_PATHNAME', 'approx_percentile_state_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.approx_percentile_state_out(@extschema@.approx_percentile_state)
  RETURNS cstring
  AS 'MODULE_PATHNAME', 'approx_percentile_state_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.approx_percentile_state_recv(internal)
  RETURNS @extschema@.approx_percentile_state
  AS 'MODULE_PATHNAME', 'approx_percentile_state_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.approx_percentile_state_send(@extschema@.approx_percentile_state)
  RETURNS bytea
  AS 'MODULE_PATHNAME', 'approx_percentile_state_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE @extschema@.approx_percentile_state (
  INPUT = @extschema@.approx_percentile_state_in,
  OUTPUT = @extschema@.approx_percentile_state_out,
  RECEIVE = @extschema@.approx_percentile_state_recv,
  SEND = @extschema@.approx_percentile_state_send,
  INTERNALLENGTH = VARIABLE,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.approx_percentile_state IS
  'State of approx_percentile and approx_percentiles: a ddsketch (relative accuracy 0.01) followed by the fractions asked';
COMMENT ON FUNCTION @extschema@.approx_percentile_state_in(cstring) IS
  'Text input of approx_percentile_state: \x followed by the hex of its stored form (a stored ddsketch, then the fractions), validated';
COMMENT ON FUNCTION @extschema@.approx_percentile_state_out(@extschema@.approx_percentile_state) IS
  'Text output of approx_percentile_state: \x followed by the hex of its stored form';
COMMENT ON FUNCTION @extschema@.approx_percentile_state_recv(internal) IS
  'Binary input of approx_percentile_state, validated';
COMMENT ON FUNCTION @extschema@.approx_percentile_state_send(@extschema@.approx_percentile_state) IS
  'Binary output of approx_percentile_state: its stored form';

CREATE FUNCTION @extschema@.ddsketch_approx_percentile_trans(
    @extschema@.approx_percentile_state, double precision, double precision)
  RETURNS @extschema@.approx_percentile_state
  AS 'MODULE_PATHNAME', 'ddsketch_approx_percentile_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_approx_percentile_trans(
    @extschema@.approx_percentile_state, double precision, double precision) IS
  'Transition function of approx_percentile: adds the value to the state''s ddsketch; q must be the same on every row';
CREATE FUNCTION @extschema@.ddsketch_approx_percentiles_trans(
    @extschema@.approx_percentile_state, double precision, double precision[])
  RETURNS @extschema@.approx_percentile_state
  AS 'MODULE_PATHNAME', 'ddsketch_approx_percentiles_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_approx_percentiles_trans(
    @extschema@.approx_percentile_state, double precision, double precision[]) IS
  'Transition function of approx_percentiles: adds the value to the state''s ddsketch; qs must be the same on every row';
CREATE FUNCTION @extschema@.ddsketch_approx_percentile_combine(
    @extschema@.approx_percentile_state, @extschema@.approx_percentile_state)
  RETURNS @extschema@.approx_percentile_state
  AS 'MODULE_PATHNAME', 'ddsketch_approx_percentile_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_approx_percentile_combine(
    @extschema@.approx_percentile_state, @extschema@.approx_percentile_state) IS
  'Combine function of approx_percentile and approx_percentiles: the union of two states asking the same fractions';
CREATE FUNCTION @extschema@.ddsketch_approx_percentile_final(@extschema@.approx_percentile_state)
  RETURNS double precision
  AS 'MODULE_PATHNAME', 'ddsketch_approx_percentile_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_approx_percentile_final(@extschema@.approx_percentile_state) IS
  'Final function of approx_percentile: the quantile of the state''s ddsketch at its fraction';
CREATE FUNCTION @extschema@.ddsketch_approx_percentiles_final(@extschema@.approx_percentile_state)
  RETURNS double precision[]
  AS 'MODULE_PATHNAME', 'ddsketch_approx_percentiles_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ddsketch_approx_percentiles_final(@extschema@.approx_percentile_state) IS
  'Final function of approx_percentiles: the quantiles of the state''s ddsketch at its fractions, in order';

CREATE AGGREGATE @extschema@.approx_percentile(value double precision, q double precision) (
  SFUNC = @extschema@.ddsketch_approx_percentile_trans,
  STYPE = @extschema@.approx_percentile_state, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_approx_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_approx_percentile_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.approx_percentile(double precision, double precision) IS
  'The q-quantile (0..1, the same on every row) of the non-NULL values as percentile_disc defines it, within 0.54% of the true value (ddsketch_quantile(ddsketch_agg(value), q)); NULL over no rows';

CREATE AGGREGATE @extschema@.approx_percentiles(value double precision, qs double precision[]) (
  SFUNC = @extschema@.ddsketch_approx_percentiles_trans,
  STYPE = @extschema@.approx_percentile_state, SSPACE = 8192,
  FINALFUNC = @extschema@.ddsketch_approx_percentiles_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.ddsketch_approx_percentile_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.approx_percentiles(double precision, double precision[]) IS
  'The quantiles at the fractions qs (the same array on every row), in order, each within 0.54% of the true value (ddsketch_quantiles(ddsketch_agg(value), qs)); NULL over no rows';
