-- topk: heavy hitters with deterministic bounds (docs/topk.md).
-- The type and what every type has (I/O, casts to and from bytea, = and <>,
-- the hash operator class, topk_union with topk_union_trans and topk_final)
-- come before this piece, from src/sql/templates/sketch_type.sql.in and
-- this type's line of src/sql/templates/sketch_types.txt; a COMMENT ON here
-- of one of those objects words it this family's way.

COMMENT ON TYPE @extschema@.topk IS
  'Heavy hitters (Misra-Gries): at most k items (default 1024) with counts; every item''s true count lies within [lower, lower + max_error] and max_error <= N/(k+1), deterministically, also after merges with topk_union (topk_scale may round max_error above it)';

-- Building, combining, aging ------------------------------------------------

CREATE FUNCTION @extschema@.topk_empty(k integer DEFAULT 1024) RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_empty(integer) IS
  'An empty topk keeping at most k items (1..65536, default 1024)';

CREATE FUNCTION @extschema@.topk_add(sketch @extschema@.topk, value anyelement)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_add(@extschema@.topk, anyelement) IS
  'The summary with one more occurrence of the item; a NULL item leaves it unchanged, a NULL sketch gives NULL';
CREATE FUNCTION @extschema@.topk_add(sketch @extschema@.topk, value anyelement, weight bigint)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_add(@extschema@.topk, anyelement, bigint) IS
  'The summary with weight more occurrences of the item; a NULL item or a NULL or zero weight leaves it unchanged, a negative weight is an error, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.topk_union(a @extschema@.topk, b @extschema@.topk)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_union(@extschema@.topk, @extschema@.topk) IS
  'Merge of two summaries (mergeable summaries: counts added, then purged to the smaller k; the bounds hold over the combined total); a NULL side is ignored';

CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.topk, RIGHTARG = @extschema@.topk,
  FUNCTION = @extschema@.topk_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.topk, @extschema@.topk) IS
  'Merge of two topk summaries';

CREATE FUNCTION @extschema@.topk_scale(sketch @extschema@.topk, factor double precision)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_scale' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_scale(@extschema@.topk, double precision) IS
  'Aging: every count and the total times factor (0 < factor <= 1), rounded down, max_error rounded up, so the bounds hold for the scaled counts; items that reach 0 are dropped';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.topk_items(sketch @extschema@.topk,
    OUT item text, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.topk_items(@extschema@.topk) IS
  'Every held item best first, as text, with its estimate (the upper bound) and the bounds its true count lies in; no rows for a NULL sketch';
CREATE FUNCTION @extschema@.topk_items(sketch @extschema@.topk, n integer,
    OUT item text, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.topk_items(@extschema@.topk, integer) IS
  'The n best items (ties by hash) as text with estimate and bounds; no rows for a NULL sketch or n, an error for a negative n';
CREATE FUNCTION @extschema@.topk_items(sketch @extschema@.topk, n integer, type_hint anyelement,
    OUT item anyelement, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_items' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.topk_items(@extschema@.topk, integer, anyelement) IS
  'topk_items with the items read back as the type of type_hint (pass e.g. NULL::bigint); no rows for a NULL sketch or n';

CREATE FUNCTION @extschema@.topk_frequent(sketch @extschema@.topk, threshold double precision,
    guarantee text,
    OUT item text, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_frequent' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.topk_frequent(@extschema@.topk, double precision, text) IS
  'The items whose count exceeds threshold*N (threshold 0..1), best first: with ''no_false_positives'' only items surely above it, with ''no_false_negatives'' every item possibly above it (an error when threshold*N < max_error); no rows for a NULL sketch';
CREATE FUNCTION @extschema@.topk_frequent(sketch @extschema@.topk, threshold double precision,
    guarantee text, type_hint anyelement,
    OUT item anyelement, OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'topk_frequent' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.topk_frequent(@extschema@.topk, double precision, text, anyelement) IS
  'topk_frequent with the items read back as the type of type_hint (pass e.g. NULL::bigint)';

CREATE FUNCTION @extschema@.topk_estimate(sketch @extschema@.topk, value anyelement,
    OUT estimate bigint, OUT lower_bound bigint, OUT upper_bound bigint)
  AS 'MODULE_PATHNAME', 'topk_estimate' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_estimate(@extschema@.topk, anyelement) IS
  'The item''s count: estimate and the bounds its true count lies in (an item not held: estimate 0, bounds 0 and max_error); NULL for a NULL item, zeros for a NULL sketch';

CREATE FUNCTION @extschema@.topk_total(sketch @extschema@.topk) RETURNS bigint
  AS 'MODULE_PATHNAME', 'topk_total' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_total(@extschema@.topk) IS
  'N, the total weight added (exact); 0 for a NULL sketch';

CREATE FUNCTION @extschema@.topk_max_error(sketch @extschema@.topk) RETURNS bigint
  AS 'MODULE_PATHNAME', 'topk_max_error' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_max_error(@extschema@.topk) IS
  'The largest error of any count (upper_bound - lower_bound), at most N/(k+1) unless topk_scale rounded it up; 0 while at most k distinct items were added; 0 for a NULL sketch';

CREATE FUNCTION @extschema@.topk_info(sketch @extschema@.topk) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'topk_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_info(@extschema@.topk) IS
  'k, items held, total, max_error and its bound floor((N - sum of counts)/(k+1)), bytes, format version, hash and element kind, as jsonb';

-- Aggregates ----------------------------------------------------------------
-- Every aggregate's state is topk itself (the working encoding), updated in
-- place; topk_union_trans is every aggregate's combine function, topk_final
-- (read-only) its final function. SSPACE: a state starts at about 1 kB and
-- grows with the distinct items seen, to about 100 kB at k = 1024.

CREATE FUNCTION @extschema@.topk_agg_trans(@extschema@.topk, anyelement) RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.topk_agg_trans(@extschema@.topk, anyelement, integer)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_agg_trans(@extschema@.topk, anyelement) IS
  'Transition function of topk_agg(value)';
COMMENT ON FUNCTION @extschema@.topk_agg_trans(@extschema@.topk, anyelement, integer) IS
  'Transition function of topk_agg(value, k)';

CREATE AGGREGATE @extschema@.topk_agg(value anyelement) (
  SFUNC = @extschema@.topk_agg_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.topk_agg(anyelement) IS
  'Heavy hitters of the non-NULL items, k = 1024: every count within N/1025; NULL over no rows';
CREATE AGGREGATE @extschema@.topk_agg(value anyelement, k integer) (
  SFUNC = @extschema@.topk_agg_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.topk_agg(anyelement, integer) IS
  'Heavy hitters of the non-NULL items keeping k items (1..65536, the same on every row): every count within N/(k+1); NULL over no rows';

CREATE FUNCTION @extschema@.topk_agg_weighted_trans(@extschema@.topk, anyelement, bigint)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.topk_agg_weighted_trans(@extschema@.topk, anyelement, bigint, integer)
  RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_agg_weighted_trans(@extschema@.topk, anyelement, bigint) IS
  'Transition function of topk_agg_weighted(value, weight)';
COMMENT ON FUNCTION @extschema@.topk_agg_weighted_trans(@extschema@.topk, anyelement, bigint, integer) IS
  'Transition function of topk_agg_weighted(value, weight, k)';

CREATE AGGREGATE @extschema@.topk_agg_weighted(value anyelement, weight bigint) (
  SFUNC = @extschema@.topk_agg_weighted_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.topk_agg_weighted(anyelement, bigint) IS
  'Heavy hitters by total weight, k = 1024 (rows with a NULL item or a NULL or zero weight are skipped; a negative weight is an error); NULL over no rows';
CREATE AGGREGATE @extschema@.topk_agg_weighted(value anyelement, weight bigint, k integer) (
  SFUNC = @extschema@.topk_agg_weighted_trans, STYPE = @extschema@.topk, SSPACE = 16384,
  FINALFUNC = @extschema@.topk_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.topk_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.topk_agg_weighted(anyelement, bigint, integer) IS
  'Heavy hitters by total weight keeping k items (the same on every row); NULL over no rows';

COMMENT ON AGGREGATE @extschema@.topk_union(@extschema@.topk) IS
  'Merge of topk summaries (at the smallest k among them); NULL over no rows (readers treat it as empty)';

-- Sizing --------------------------------------------------------------------

CREATE FUNCTION @extschema@.topk_sizing(
    epsilon double precision, item_bytes integer DEFAULT 8,
    OUT k bigint, OUT max_error_fraction double precision, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'topk_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_sizing(double precision, integer) IS
  'The topk for a largest error of epsilon*N: k = ceil(1/epsilon) - 1 (max_error <= N/(k+1)), the bytes of a full stored summary whose item texts average item_bytes, and whether k fits (at most 65536)';
