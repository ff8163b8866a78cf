-- counting_bloom: Bloom filters with 4-bit counters, so that members can be deleted.
-- The type and what every type has (I/O, casts to and from bytea, = and <>,
-- the hash operator class, counting_bloom_union with counting_bloom_union_trans and counting_bloom_final)
-- come before this piece, from src/sql/templates/sketch_type.sql.in and
-- this type's line of src/sql/templates/sketch_types.txt; a COMMENT ON here
-- of one of those objects words it this family's way.

COMMENT ON TYPE @extschema@.counting_bloom IS
  'Counting Bloom filter: set membership with deletes; m 4-bit counters and k hashes at bloom''s positions, sized by counting_bloom_empty(n, p) or counting_bloom_agg(value, n, p); no false negatives for members added and not deleted, unless a value is deleted that was never added (or more often than added) while it tests present';

-- counting_bloom's own words for objects of the template:
COMMENT ON FUNCTION @extschema@.counting_bloom_from_bytea(bytea) IS
  'Reads a counting bloom filter from its binary format, validating it';

-- Casts ---------------------------------------------------------------------

-- Sizing and building -------------------------------------------------------

CREATE FUNCTION @extschema@.counting_bloom_sizing(
    n bigint, p double precision,
    OUT cells bigint, OUT hashes integer, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'counting_bloom_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_sizing(bigint, double precision) IS
  'The filter counting_bloom_empty(n, p) and counting_bloom_agg(value, n, p) build for n live values at false-positive probability p: bloom''s cells m = ceil(-n ln p / ln(2)^2) and hashes k = round(m/n ln 2), its size in bytes (4 bits a cell), and whether it fits one value (at most 1073610720 cells); answers for any n';

CREATE FUNCTION @extschema@.counting_bloom_empty(n bigint, p double precision)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_empty(bigint, double precision) IS
  'An empty counting filter sized for n live values (n >= 1) at false-positive probability p (0 < p < 1)';

CREATE FUNCTION @extschema@.counting_bloom_add(sketch @extschema@.counting_bloom, value anyelement)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, anyelement) IS
  'The filter with the value added once more (its k counters incremented, saturating at 15); a NULL value leaves it unchanged, a NULL filter gives NULL';

CREATE FUNCTION @extschema@.counting_bloom_delete(sketch @extschema@.counting_bloom, value anyelement)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_delete(@extschema@.counting_bloom, anyelement) IS
  'The filter with the value deleted once (its k counters decremented; saturated ones stay at 15); unchanged when a counter is 0 (the value is certainly absent). The one call that can create a false negative: deleting a value that was never added, or more often than added (each row of counting_bloom_agg and each add counts once, a union adds the counts), while it tests present (a false positive, probability counting_bloom_fpp): it decrements other members'' counters. No check inside the filter can tell that case from a member, so delete only values you know were added; deleting values added, as often as added, never makes another member absent. A NULL value leaves it unchanged, a NULL filter gives NULL';

-- Membership ----------------------------------------------------------------

CREATE FUNCTION @extschema@.counting_bloom_contains(sketch @extschema@.counting_bloom, value anyelement)
  RETURNS boolean
  AS 'MODULE_PATHNAME', 'counting_bloom_contains' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contains(@extschema@.counting_bloom, anyelement) IS
  'False if the value is certainly not a member (never added, or deleted as often as added); true if it may be one (a false positive with probability counting_bloom_fpp). A NULL filter is empty (false); a NULL value gives NULL';

CREATE FUNCTION @extschema@.counting_bloom_contained(value anyelement, sketch @extschema@.counting_bloom)
  RETURNS boolean
  AS 'MODULE_PATHNAME', 'counting_bloom_contained' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contained(anyelement, @extschema@.counting_bloom) IS
  'counting_bloom_contains with the arguments swapped: may the value be in the filter?';

CREATE OPERATOR @extschema@.@> (
  LEFTARG = @extschema@.counting_bloom, RIGHTARG = anyelement,
  FUNCTION = @extschema@.counting_bloom_contains, COMMUTATOR = OPERATOR(@extschema@.<@),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.@> (@extschema@.counting_bloom, anyelement) IS
  'filter @> value: the counting filter may contain the value (counting_bloom_contains)';

CREATE OPERATOR @extschema@.<@ (
  LEFTARG = anyelement, RIGHTARG = @extschema@.counting_bloom,
  FUNCTION = @extschema@.counting_bloom_contained, COMMUTATOR = OPERATOR(@extschema@.@>),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.<@ (anyelement, @extschema@.counting_bloom) IS
  'value <@ filter: the value may be in the counting filter (counting_bloom_contains)';

-- Combining and converting --------------------------------------------------

CREATE FUNCTION @extschema@.counting_bloom_union(a @extschema@.counting_bloom, b @extschema@.counting_bloom)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_union(@extschema@.counting_bloom, @extschema@.counting_bloom) IS
  'Union of two counting filters with the same cells and hashes: counters added, saturating at 15, so exactly the filter of the two multisets together; a NULL side is ignored';

CREATE FUNCTION @extschema@.counting_bloom_to_bloom(sketch @extschema@.counting_bloom)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_to_bloom' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_to_bloom(@extschema@.counting_bloom) IS
  'The bloom filter of the same m and k whose bits are the non-zero counters: the bloom filter of the members, answering bloom_contains as counting_bloom_contains does (a quarter of the size, no deletes)';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.counting_bloom_cardinality(sketch @extschema@.counting_bloom) RETURNS bigint
  AS 'MODULE_PATHNAME', 'counting_bloom_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_cardinality(@extschema@.counting_bloom) IS
  'Estimated number of distinct live values, from the non-zero counters by bloom''s estimator: -(m/k) ln(1 - X/m) for X counters above 0; 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.counting_bloom_fpp(sketch @extschema@.counting_bloom) RETURNS double precision
  AS 'MODULE_PATHNAME', 'counting_bloom_fpp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_fpp(@extschema@.counting_bloom) IS
  'Current false-positive probability from the non-zero counters, (X/m)^k; 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.counting_bloom_info(sketch @extschema@.counting_bloom) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'counting_bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_info(@extschema@.counting_bloom) IS
  'Cells, hashes, size, counters set and saturated, counter sum, fill ratio, estimated cardinality and false-positive probability of a counting filter, as jsonb';

-- Aggregates ----------------------------------------------------------------
-- The state is a counting_bloom value updated in place; states of 1 MiB or
-- more are a working form that counts each value a few rows after
-- prefetching its cells. The read-only final function returns the stored
-- form. SSPACE is a filter for ~100,000 values at p = 0.01 (468 KiB).

CREATE FUNCTION @extschema@.counting_bloom_agg_trans(@extschema@.counting_bloom, anyelement, bigint, double precision)
  RETURNS @extschema@.counting_bloom
  AS 'MODULE_PATHNAME', 'counting_bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_trans(@extschema@.counting_bloom, anyelement, bigint, double precision) IS
  'Transition function of counting_bloom_agg(value, n, p)';
COMMENT ON FUNCTION @extschema@.counting_bloom_final(@extschema@.counting_bloom) IS
  'Final function of counting_bloom_agg and counting_bloom_union: the stored form of the state';

CREATE AGGREGATE @extschema@.counting_bloom_agg(value anyelement, n bigint, p double precision) (
  SFUNC = @extschema@.counting_bloom_agg_trans, STYPE = @extschema@.counting_bloom, SSPACE = 480000,
  FINALFUNC = @extschema@.counting_bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.counting_bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(anyelement, bigint, double precision) IS
  'Counting Bloom filter of the non-NULL values (each row counts once, duplicates too), sized for n live values at false-positive probability p (the same n and p on every row); NULL over no rows';

COMMENT ON AGGREGATE @extschema@.counting_bloom_union(@extschema@.counting_bloom) IS
  'Union of counting filters with the same cells and hashes (counters added, saturating at 15); NULL inputs skipped; NULL over no rows';
