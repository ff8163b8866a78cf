-- theta: set operations and similarity on KMV sketches (docs/theta.md).
-- The type and what every type has (I/O, casts to and from bytea, = and <>,
-- the hash operator class, theta_union with theta_union_trans and theta_final)
-- come before this piece, from src/sql/templates/sketch_type.sql.in and
-- this type's line of src/sql/templates/sketch_types.txt; a COMMENT ON here
-- of one of those objects words it this family's way.

COMMENT ON TYPE @extschema@.theta IS
  'Theta (KMV) sketch of distinct values: the k = 2^lg_k smallest hashes (default lg_k 12, relative standard error 1.6%), exact below k; union (||), intersection (&), difference and Jaccard similarity with confidence bounds';

-- Building and set operations ----------------------------------------------

CREATE FUNCTION @extschema@.theta_empty(lg_k integer DEFAULT 12) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_empty(integer) IS
  'An empty theta sketch keeping k = 2^lg_k hashes (lg_k 4..24, default 12)';

CREATE FUNCTION @extschema@.theta_add(sketch @extschema@.theta, value anyelement)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_add(@extschema@.theta, anyelement) IS
  'The sketch with one more value; a NULL value leaves it unchanged, a NULL sketch gives NULL';

CREATE FUNCTION @extschema@.theta_union(a @extschema@.theta, b @extschema@.theta)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_union(@extschema@.theta, @extschema@.theta) IS
  'The sketch of the union of both sets (at the smaller k, exactly the sketch the union''s values would build); a NULL side is ignored';
CREATE OPERATOR @extschema@.|| (
  LEFTARG = @extschema@.theta, RIGHTARG = @extschema@.theta,
  FUNCTION = @extschema@.theta_union, COMMUTATOR = OPERATOR(@extschema@.||)
);
COMMENT ON OPERATOR @extschema@.|| (@extschema@.theta, @extschema@.theta) IS
  'Union of two theta sketches';

CREATE FUNCTION @extschema@.theta_intersect(a @extschema@.theta, b @extschema@.theta)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_intersect2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_intersect(@extschema@.theta, @extschema@.theta) IS
  'The sketch of the values in both sets: the hashes both hold below the smaller theta (error relative to the union: see docs/theta.md)';
CREATE OPERATOR @extschema@.& (
  LEFTARG = @extschema@.theta, RIGHTARG = @extschema@.theta,
  FUNCTION = @extschema@.theta_intersect, COMMUTATOR = OPERATOR(@extschema@.&)
);
COMMENT ON OPERATOR @extschema@.& (@extschema@.theta, @extschema@.theta) IS
  'Intersection of two theta sketches';

CREATE FUNCTION @extschema@.theta_diff(a @extschema@.theta, b @extschema@.theta)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_diff' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_diff(@extschema@.theta, @extschema@.theta) IS
  'The sketch of the values of a that are not in b';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.theta_count(sketch @extschema@.theta) RETURNS bigint
  AS 'MODULE_PATHNAME', 'theta_count' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_count(@extschema@.theta) IS
  'Estimated number of distinct values (exact below k), rounded; 0 for a NULL sketch';

CREATE FUNCTION @extschema@.theta_bounds(sketch @extschema@.theta,
    confidence double precision DEFAULT 0.95, OUT lower bigint, OUT upper bigint)
  AS 'MODULE_PATHNAME', 'theta_bounds' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_bounds(@extschema@.theta, double precision) IS
  'Bounds on the number of distinct values at the confidence (0..1, default 0.95), for any sketch including intersections and differences; exact sketches give the count twice; (0, 0) for a NULL sketch, NULLs for a NULL confidence';

CREATE FUNCTION @extschema@.theta_jaccard(a @extschema@.theta, b @extschema@.theta,
    confidence double precision DEFAULT 0.95,
    OUT estimate double precision, OUT lower double precision, OUT upper double precision)
  AS 'MODULE_PATHNAME', 'theta_jaccard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_jaccard(@extschema@.theta, @extschema@.theta, double precision) IS
  'Jaccard similarity |A & B| / |A | B| of the two sets from the union''s sample (MinHash), with a Wilson interval at the confidence; NULL when both are empty';

CREATE FUNCTION @extschema@.theta_info(sketch @extschema@.theta) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'theta_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_info(@extschema@.theta) IS
  'lg_k, k, hashes retained, exact, theta (the sampling rate), estimate and 95% bounds, bytes, format version, hash and element kind, as jsonb';

-- Aggregates ----------------------------------------------------------------
-- theta_agg and theta_union keep a working state (a hash table that grows
-- to 2k slots, 64 KiB at lg_k 12) updated in place, theta_union_trans
-- their combine function; theta_intersect keeps the running intersection.

COMMENT ON FUNCTION @extschema@.theta_union_trans(@extschema@.theta, @extschema@.theta) IS
  'Transition function of theta_union and combine function of theta_agg and theta_union';
CREATE FUNCTION @extschema@.theta_intersect_trans(@extschema@.theta, @extschema@.theta)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_intersect_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_intersect_trans(@extschema@.theta, @extschema@.theta) IS
  'Transition and combine function of theta_intersect';

CREATE FUNCTION @extschema@.theta_agg_trans(@extschema@.theta, anyelement) RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.theta_agg_trans(@extschema@.theta, anyelement, integer)
  RETURNS @extschema@.theta
  AS 'MODULE_PATHNAME', 'theta_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_agg_trans(@extschema@.theta, anyelement) IS
  'Transition function of theta_agg(value)';
COMMENT ON FUNCTION @extschema@.theta_agg_trans(@extschema@.theta, anyelement, integer) IS
  'Transition function of theta_agg(value, lg_k)';

CREATE AGGREGATE @extschema@.theta_agg(value anyelement) (
  SFUNC = @extschema@.theta_agg_trans, STYPE = @extschema@.theta, SSPACE = 8192,
  FINALFUNC = @extschema@.theta_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.theta_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.theta_agg(anyelement) IS
  'Theta sketch (lg_k 12) of the non-NULL values; NULL over no rows';
CREATE AGGREGATE @extschema@.theta_agg(value anyelement, lg_k integer) (
  SFUNC = @extschema@.theta_agg_trans, STYPE = @extschema@.theta, SSPACE = 8192,
  FINALFUNC = @extschema@.theta_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.theta_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.theta_agg(anyelement, integer) IS
  'Theta sketch of the non-NULL values keeping k = 2^lg_k hashes (lg_k 4..24, the same on every row); NULL over no rows';

COMMENT ON AGGREGATE @extschema@.theta_union(@extschema@.theta) IS
  'Union of theta sketches (at the smallest lg_k); NULL over no rows';

CREATE AGGREGATE @extschema@.theta_intersect(sketch @extschema@.theta) (
  SFUNC = @extschema@.theta_intersect_trans, STYPE = @extschema@.theta, SSPACE = 32800,
  COMBINEFUNC = @extschema@.theta_intersect_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.theta_intersect(@extschema@.theta) IS
  'Intersection of the non-NULL theta sketches (at the smallest lg_k); NULL over no rows';

-- Sizing --------------------------------------------------------------------

CREATE FUNCTION @extschema@.theta_sizing(lg_k integer DEFAULT 12,
    OUT k bigint, OUT standard_error double precision, OUT bytes bigint)
  AS 'MODULE_PATHNAME', 'theta_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.theta_sizing(integer) IS
  'A theta sketch of lg_k (4..24): k = 2^lg_k, the relative standard error of a count or union 1/sqrt(k-1), and the bytes of a full stored sketch';
