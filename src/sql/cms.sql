-- cms: count-min sketch frequencies with a heavy-hitter candidate list.
-- The type and what every type has (I/O, casts to and from bytea, = and <>,
-- the hash operator class, cms_union with cms_union_trans and cms_final)
-- come before this piece, from src/sql/templates/sketch_type.sql.in and
-- this type's line of src/sql/templates/sketch_types.txt; a COMMENT ON here
-- of one of those objects words it this family's way.

COMMENT ON TYPE @extschema@.cms IS
  'Count-min sketch of frequencies: estimates never below the true count and at most epsilon*N above it with probability 1-delta (defaults 0.001, 0.01: 2719 x 5 counters, 106 KiB), plus a list of the top k candidates (default 100) for cms_topk; merge with cms_union';

-- cms's own words for objects of the template:
COMMENT ON FUNCTION @extschema@.cms_out(@extschema@.cms) IS
  'Text output of cms: \x followed by the hex of the binary format';
COMMENT ON FUNCTION @extschema@.cms_recv(internal) IS
  'Binary input of cms, validated';
COMMENT ON FUNCTION @extschema@.cms_send(@extschema@.cms) IS
  'Binary output of cms: the stored format';

-- Building and combining ----------------------------------------------------

CREATE FUNCTION @extschema@.cms_empty(
    epsilon double precision DEFAULT 0.001, delta double precision DEFAULT 0.01,
    conservative boolean DEFAULT false, k integer DEFAULT 100) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_empty(double precision, double precision, boolean, integer) IS
  'An empty cms with width ceil(e/epsilon) and depth ceil(ln(1/delta)) (defaults 0.001, 0.01: 2719 x 5), conservative update or not, and a candidate list of k (0..10000, default 100)';

CREATE FUNCTION @extschema@.cms_empty_sized(
    width integer, depth integer, conservative boolean DEFAULT false, k integer DEFAULT 100)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_empty_sized' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_empty_sized(integer, integer, boolean, integer) IS
  'An empty cms of width counters per row and depth rows (1..32), conservative update or not, and a candidate list of k (default 100)';

CREATE FUNCTION @extschema@.cms_add(sketch @extschema@.cms, value anyelement) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_add(@extschema@.cms, anyelement) IS
  'The sketch with one more occurrence of the value; a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.cms_add(sketch @extschema@.cms, value anyelement, count bigint) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_add(@extschema@.cms, anyelement, bigint) IS
  'The sketch with count more occurrences of the value; a NULL value or a NULL or zero count leaves it unchanged, a negative count is an error, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.cms_union(a @extschema@.cms, b @extschema@.cms) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_union(@extschema@.cms, @extschema@.cms) IS
  'Merge of two sketches of equal width and depth: counters summed, candidate lists united and re-ranked; a NULL side is ignored';

CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.cms, RIGHTARG = @extschema@.cms,
  FUNCTION = @extschema@.cms_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.cms, @extschema@.cms) IS
  'Merge of two cms sketches (cms_union)';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.cms_frequency(sketch @extschema@.cms, value anyelement) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cms_frequency' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_frequency(@extschema@.cms, anyelement) IS
  'Estimated count of the value: never below the true count, above it by at most cms_error_bound with probability 1-delta; 0 for a NULL sketch, NULL for a NULL value';

CREATE FUNCTION @extschema@.cms_total(sketch @extschema@.cms) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cms_total' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_total(@extschema@.cms) IS
  'N, the total count added to the sketch (exact); 0 for a NULL sketch';

CREATE FUNCTION @extschema@.cms_error_bound(sketch @extschema@.cms) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cms_error_bound' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_error_bound(@extschema@.cms) IS
  'floor(epsilon*N) with epsilon = e/width: each estimate exceeds the true count by at most this, with probability 1-delta; 0 for a NULL sketch';

CREATE FUNCTION @extschema@.cms_topk(sketch @extschema@.cms, n integer)
  RETURNS TABLE (value text, frequency bigint)
  AS 'MODULE_PATHNAME', 'cms_topk' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.cms_topk(@extschema@.cms, integer) IS
  'The n candidates with the largest estimated frequencies, best first (ties by value): each value as its type''s text output; no rows for a NULL sketch';

CREATE FUNCTION @extschema@.cms_topk(sketch @extschema@.cms, n integer, type_hint anyelement)
  RETURNS TABLE (value anyelement, frequency bigint)
  AS 'MODULE_PATHNAME', 'cms_topk' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.cms_topk(@extschema@.cms, integer, anyelement) IS
  'cms_topk with the values read back as the type of type_hint (pass e.g. NULL::bigint): the type the sketch was built from; no rows for a NULL sketch or n';

CREATE FUNCTION @extschema@.cms_info(sketch @extschema@.cms) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'cms_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_info(@extschema@.cms) IS
  'Width, depth, epsilon, delta, update mode, total, error bound, candidate list and size of a sketch, as jsonb';

-- Aggregates ----------------------------------------------------------------
-- Every aggregate's state is cms itself (the working encoding), updated in
-- place; cms_union_trans is every aggregate's combine function, cms_final
-- (read-only) its final function. SSPACE is the default sketch's state.

-- cms_agg(value [, epsilon, delta [, conservative [, k]]])
CREATE FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision,
    double precision) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision,
    double precision, boolean) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision,
    double precision, boolean, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement) IS
  'Transition function of cms_agg(value)';
COMMENT ON FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision, double precision) IS
  'Transition function of cms_agg(value, epsilon, delta)';
COMMENT ON FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision, double precision, boolean) IS
  'Transition function of cms_agg(value, epsilon, delta, conservative)';
COMMENT ON FUNCTION @extschema@.cms_agg_trans(@extschema@.cms, anyelement, double precision, double precision, boolean, integer) IS
  'Transition function of cms_agg(value, epsilon, delta, conservative, k)';

CREATE AGGREGATE @extschema@.cms_agg(value anyelement) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg(anyelement) IS
  'Count-min sketch (epsilon 0.001, delta 0.01, k = 100) of the non-NULL values; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg(value anyelement, epsilon double precision, delta double precision) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg(anyelement, double precision, double precision) IS
  'Count-min sketch of the non-NULL values with error epsilon*N at probability 1-delta (both in (0, 1), the same on every row); NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg(value anyelement, epsilon double precision, delta double precision,
    conservative boolean) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg(anyelement, double precision, double precision, boolean) IS
  'Count-min sketch (epsilon, delta) of the non-NULL values, with conservative update if asked; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg(value anyelement, epsilon double precision, delta double precision,
    conservative boolean, k integer) (
  SFUNC = @extschema@.cms_agg_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg(anyelement, double precision, double precision, boolean, integer) IS
  'Count-min sketch (epsilon, delta, conservative) of the non-NULL values keeping k heavy-hitter candidates (0..10000); NULL over no rows';

-- cms_agg_weighted(value, count [, epsilon, delta [, conservative [, k]]])
CREATE FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint,
    double precision, double precision) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint,
    double precision, double precision, boolean) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint,
    double precision, double precision, boolean, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint) IS
  'Transition function of cms_agg_weighted(value, count)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint, double precision, double precision) IS
  'Transition function of cms_agg_weighted(value, count, epsilon, delta)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint, double precision, double precision, boolean) IS
  'Transition function of cms_agg_weighted(value, count, epsilon, delta, conservative)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_trans(@extschema@.cms, anyelement, bigint, double precision, double precision, boolean, integer) IS
  'Transition function of cms_agg_weighted(value, count, epsilon, delta, conservative, k)';

CREATE AGGREGATE @extschema@.cms_agg_weighted(value anyelement, count bigint) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint) IS
  'Count-min sketch (epsilon 0.001, delta 0.01, k = 100) adding count occurrences of each value (rows with a NULL value or a NULL or zero count are skipped; a negative count is an error); NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted(value anyelement, count bigint, epsilon double precision,
    delta double precision) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint, double precision, double precision) IS
  'Weighted count-min sketch with error epsilon*N at probability 1-delta; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted(value anyelement, count bigint, epsilon double precision,
    delta double precision, conservative boolean) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint, double precision, double precision, boolean) IS
  'Weighted count-min sketch (epsilon, delta), with conservative update if asked; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted(value anyelement, count bigint, epsilon double precision,
    delta double precision, conservative boolean, k integer) (
  SFUNC = @extschema@.cms_agg_weighted_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted(anyelement, bigint, double precision, double precision, boolean, integer) IS
  'Weighted count-min sketch (epsilon, delta, conservative) keeping k heavy-hitter candidates; NULL over no rows';

-- cms_agg_sized(value, width, depth [, conservative [, k]])
CREATE FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer,
    boolean) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer,
    boolean, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer) IS
  'Transition function of cms_agg_sized(value, width, depth)';
COMMENT ON FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer, boolean) IS
  'Transition function of cms_agg_sized(value, width, depth, conservative)';
COMMENT ON FUNCTION @extschema@.cms_agg_sized_trans(@extschema@.cms, anyelement, integer, integer, boolean, integer) IS
  'Transition function of cms_agg_sized(value, width, depth, conservative, k)';

CREATE AGGREGATE @extschema@.cms_agg_sized(value anyelement, width integer, depth integer) (
  SFUNC = @extschema@.cms_agg_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_sized(anyelement, integer, integer) IS
  'Count-min sketch of width counters per row and depth rows (1..32) of the non-NULL values; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_sized(value anyelement, width integer, depth integer,
    conservative boolean) (
  SFUNC = @extschema@.cms_agg_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_sized(anyelement, integer, integer, boolean) IS
  'Count-min sketch (width, depth), with conservative update if asked; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_sized(value anyelement, width integer, depth integer,
    conservative boolean, k integer) (
  SFUNC = @extschema@.cms_agg_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_sized(anyelement, integer, integer, boolean, integer) IS
  'Count-min sketch (width, depth, conservative) keeping k heavy-hitter candidates; NULL over no rows';

-- cms_agg_weighted_sized(value, count, width, depth [, conservative [, k]])
CREATE FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint,
    integer, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint,
    integer, integer, boolean) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint,
    integer, integer, boolean, integer) RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_agg_weighted_sized_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint, integer, integer) IS
  'Transition function of cms_agg_weighted_sized(value, count, width, depth)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint, integer, integer, boolean) IS
  'Transition function of cms_agg_weighted_sized(value, count, width, depth, conservative)';
COMMENT ON FUNCTION @extschema@.cms_agg_weighted_sized_trans(@extschema@.cms, anyelement, bigint, integer, integer, boolean, integer) IS
  'Transition function of cms_agg_weighted_sized(value, count, width, depth, conservative, k)';

CREATE AGGREGATE @extschema@.cms_agg_weighted_sized(value anyelement, count bigint, width integer,
    depth integer) (
  SFUNC = @extschema@.cms_agg_weighted_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted_sized(anyelement, bigint, integer, integer) IS
  'Weighted count-min sketch of width counters per row and depth rows; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted_sized(value anyelement, count bigint, width integer,
    depth integer, conservative boolean) (
  SFUNC = @extschema@.cms_agg_weighted_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted_sized(anyelement, bigint, integer, integer, boolean) IS
  'Weighted count-min sketch (width, depth), with conservative update if asked; NULL over no rows';
CREATE AGGREGATE @extschema@.cms_agg_weighted_sized(value anyelement, count bigint, width integer,
    depth integer, conservative boolean, k integer) (
  SFUNC = @extschema@.cms_agg_weighted_sized_trans, STYPE = @extschema@.cms, SSPACE = 115000,
  FINALFUNC = @extschema@.cms_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cms_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cms_agg_weighted_sized(anyelement, bigint, integer, integer, boolean, integer) IS
  'Weighted count-min sketch (width, depth, conservative) keeping k heavy-hitter candidates; NULL over no rows';

COMMENT ON AGGREGATE @extschema@.cms_union(@extschema@.cms) IS
  'Merge of cms sketches of equal width and depth (counters summed, candidate lists united and re-ranked); NULL over no rows (readers treat it as empty)';
