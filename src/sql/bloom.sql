-- bloom: Bloom filters for set membership ("definitely not" / "maybe").
-- The type and what every type has (I/O, casts to and from bytea, = and <>,
-- the hash operator class, bloom_union with bloom_union_trans and bloom_final)
-- come before this piece, from src/sql/templates/sketch_type.sql.in and
-- this type's line of src/sql/templates/sketch_types.txt; a COMMENT ON here
-- of one of those objects words it this family's way.

COMMENT ON TYPE @extschema@.bloom IS
  'Bloom filter for set membership: no false negatives, false positives with a chosen probability p; m bits and k hashes, sized by bloom_empty(n, p) or bloom_agg(value, n, p); merge with bloom_union';

-- Sizing and building -------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_sizing(
    n bigint, p double precision,
    OUT bits bigint, OUT hashes integer, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'bloom_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_sizing(bigint, double precision) IS
  'The filter bloom_empty(n, p) and bloom_agg(value, n, p) build for n distinct values at false-positive probability p: bits m = ceil(-n ln p / ln(2)^2), hashes k = round(m/n ln 2), its size in bytes, and whether it fits one value (at most 4294442880 bits); answers for any n';

CREATE FUNCTION @extschema@.bloom_empty(n bigint, p double precision) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_empty(bigint, double precision) IS
  'An empty filter sized for n distinct values (n >= 1) at false-positive probability p (0 < p < 1)';

CREATE FUNCTION @extschema@.bloom_empty_bits(bits bigint, hashes integer) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_empty_bits' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_empty_bits(bigint, integer) IS
  'An empty filter of the given bits (8..4294442880) and hashes (1..64)';

CREATE FUNCTION @extschema@.bloom_add(sketch @extschema@.bloom, value anyelement) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, anyelement) IS
  'The filter with one more value added; a NULL value leaves it unchanged, a NULL filter gives NULL';

-- Membership ----------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_contains(sketch @extschema@.bloom, value anyelement) RETURNS boolean
  AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anyelement) IS
  'False if the value was certainly never added; true if it may have been (a false positive with probability bloom_fpp). A NULL filter is empty (false); a NULL value gives NULL';

CREATE FUNCTION @extschema@.bloom_contained(value anyelement, sketch @extschema@.bloom) RETURNS boolean
  AS 'MODULE_PATHNAME', 'bloom_contained' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contained(anyelement, @extschema@.bloom) IS
  'bloom_contains with the arguments swapped: may the value be in the filter?';

CREATE OPERATOR @extschema@.@> (
  LEFTARG = @extschema@.bloom, RIGHTARG = anyelement,
  FUNCTION = @extschema@.bloom_contains, COMMUTATOR = OPERATOR(@extschema@.<@),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.@> (@extschema@.bloom, anyelement) IS
  'filter @> value: the filter may contain the value (bloom_contains)';

CREATE OPERATOR @extschema@.<@ (
  LEFTARG = anyelement, RIGHTARG = @extschema@.bloom,
  FUNCTION = @extschema@.bloom_contained, COMMUTATOR = OPERATOR(@extschema@.@>),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.<@ (anyelement, @extschema@.bloom) IS
  'value <@ filter: the value may be in the filter (bloom_contains)';

-- Combining -----------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_union(a @extschema@.bloom, b @extschema@.bloom) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union(@extschema@.bloom, @extschema@.bloom) IS
  'Union (bit OR) of two filters with the same bits and hashes: exactly the filter of the union of their sets; a NULL side is ignored';

CREATE FUNCTION @extschema@.bloom_intersect(a @extschema@.bloom, b @extschema@.bloom) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_intersect' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_intersect(@extschema@.bloom, @extschema@.bloom) IS
  'Intersection (bit AND) of two filters with the same bits and hashes: contains every value of both sets, with more false positives than a filter built from the intersection';

CREATE OPERATOR @extschema@.| (
  LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
  FUNCTION = @extschema@.bloom_union, COMMUTATOR = OPERATOR(@extschema@.|)
);
COMMENT ON OPERATOR @extschema@.| (@extschema@.bloom, @extschema@.bloom) IS
  'Union of two bloom filters (bloom_union)';

CREATE OPERATOR @extschema@.& (
  LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
  FUNCTION = @extschema@.bloom_intersect, COMMUTATOR = OPERATOR(@extschema@.&)
);
COMMENT ON OPERATOR @extschema@.& (@extschema@.bloom, @extschema@.bloom) IS
  'Approximate intersection of two bloom filters (bloom_intersect)';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_cardinality(sketch @extschema@.bloom) RETURNS bigint
  AS 'MODULE_PATHNAME', 'bloom_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_cardinality(@extschema@.bloom) IS
  'Estimated number of distinct values added, from the fill: -(m/k) ln(1 - X/m) for X bits set; 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.bloom_fpp(sketch @extschema@.bloom) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bloom_fpp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_fpp(@extschema@.bloom) IS
  'Current false-positive probability from the fill, (X/m)^k: above the p it was sized for once the filter is over capacity; 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.bloom_info(sketch @extschema@.bloom) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_info(@extschema@.bloom) IS
  'Bits, hashes, size, bits set, fill ratio, estimated cardinality and false-positive probability of a filter, as jsonb';

-- Aggregates ----------------------------------------------------------------
-- The state is a bloom value updated in place, so it moves between parallel
-- workers (and distributed nodes) without serial functions. bloom_agg's state
-- is a working form that sets each value's bits a few rows after prefetching
-- them; its read-only final function returns the stored form, so it also
-- works as a window aggregate. SSPACE is a filter for ~100,000 values at
-- p = 0.01 (117 KiB).

CREATE FUNCTION @extschema@.bloom_agg_trans(@extschema@.bloom, anyelement, bigint, double precision)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_trans(@extschema@.bloom, anyelement, bigint, double precision) IS
  'Transition function of bloom_agg(value, n, p)';
CREATE FUNCTION @extschema@.bloom_agg_bits_trans(@extschema@.bloom, anyelement, bigint, integer)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_agg_bits_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_bits_trans(@extschema@.bloom, anyelement, bigint, integer) IS
  'Transition function of bloom_agg_bits(value, bits, hashes)';

COMMENT ON FUNCTION @extschema@.bloom_final(@extschema@.bloom) IS
  'Final function of bloom_agg and bloom_agg_bits: the stored form of the state';

CREATE AGGREGATE @extschema@.bloom_agg(value anyelement, n bigint, p double precision) (
  SFUNC = @extschema@.bloom_agg_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  FINALFUNC = @extschema@.bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement, bigint, double precision) IS
  'Bloom filter of the non-NULL values, sized for n distinct values at false-positive probability p (the same n and p on every row); NULL over no rows';

CREATE AGGREGATE @extschema@.bloom_agg_bits(value anyelement, bits bigint, hashes integer) (
  SFUNC = @extschema@.bloom_agg_bits_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  FINALFUNC = @extschema@.bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg_bits(anyelement, bigint, integer) IS
  'Bloom filter of the non-NULL values with the given bits and hashes (the same on every row); NULL over no rows';

COMMENT ON AGGREGATE @extschema@.bloom_union(@extschema@.bloom) IS
  'Union of bloom filters with the same bits and hashes; NULL inputs skipped; NULL over no rows';
