-- cuckoo: cuckoo filters for membership with deletes.
-- The type and what every type has (I/O, casts to and from bytea, = and <>,
-- the hash operator class, cuckoo_union with cuckoo_union_trans and cuckoo_final)
-- come before this piece, from src/sql/templates/sketch_type.sql.in and
-- this type's line of src/sql/templates/sketch_types.txt; a COMMENT ON here
-- of one of those objects words it this family's way.

COMMENT ON TYPE @extschema@.cuckoo IS
  'Cuckoo filter for set membership with deletes: no false negatives for values added and not deleted (deleting a value never added, or more often than added, is the one call that can remove another member); false positives at a chosen rate p; f-bit fingerprints in buckets of b slots, one copy per add, sized by cuckoo_empty(n, p) or cuckoo_agg(value, n, p); grows by chained sub-filters; merge with cuckoo_union';

-- cuckoo's own words for objects of the template:
COMMENT ON FUNCTION @extschema@.cuckoo_eq(@extschema@.cuckoo, @extschema@.cuckoo) IS
  'True if two filters are byte for byte identical (same parameters, same fingerprints in the same slots)';
COMMENT ON OPERATOR @extschema@.= (@extschema@.cuckoo, @extschema@.cuckoo) IS 'Identical filters (byte equality of the stored form)';

-- Sizing and building -------------------------------------------------------

CREATE FUNCTION @extschema@.cuckoo_sizing(
    n bigint, p double precision, bucket_size integer DEFAULT 4,
    OUT buckets bigint, OUT fingerprint_bits integer, OUT bytes bigint,
    OUT bits_per_member double precision, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'cuckoo_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_sizing(bigint, double precision, integer) IS
  'The filter cuckoo_empty(n, p, b) builds for n values at false-positive rate p: fingerprint bits f = ceil(log2(2b/p)) (4..32), buckets B = ceil(n / (b alpha)) at the design load alpha (0.80, 0.90, 0.93 for b = 2, 4, 8), its size in bytes, bits per member, and whether it fits one value; answers for any n';

CREATE FUNCTION @extschema@.cuckoo_empty(n bigint, p double precision, bucket_size integer DEFAULT 4)
  RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_empty(bigint, double precision, integer) IS
  'An empty filter sized for n values (n >= 1) at false-positive rate p (2b/2^32 <= p < 1) with buckets of bucket_size slots (2, 4 or 8)';

CREATE FUNCTION @extschema@.cuckoo_add(sketch @extschema@.cuckoo, value anyelement) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_add(@extschema@.cuckoo, anyelement) IS
  'The filter with one more copy of the value (a multiset, like CF.ADD; pairs with cuckoo_delete); grows by a sub-filter when full; a NULL value leaves it unchanged, a NULL filter gives NULL';

CREATE FUNCTION @extschema@.cuckoo_add_new(sketch @extschema@.cuckoo, value anyelement) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_add_new' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_add_new(@extschema@.cuckoo, anyelement) IS
  'The filter with the value added unless its fingerprint may already be present (CF.ADDNX: fingerprint set semantics, so a value skipped this way shares another value''s copy, and deleting either can make the other absent: use cuckoo_add or cuckoo_agg for filters you will delete from); a NULL value leaves it unchanged, a NULL filter gives NULL';

CREATE FUNCTION @extschema@.cuckoo_delete(sketch @extschema@.cuckoo, value anyelement) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_delete' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_delete(@extschema@.cuckoo, anyelement) IS
  'The filter with one copy of the value''s fingerprint removed; unchanged when absent, and when sub-filters of two sizes hold the fingerprint in its buckets (which holds the value''s own copy is unknown: it stays maybe-present). Deleting a value that was added (and not yet deleted as often) never makes another member absent, after cuckoo_add, cuckoo_agg, cuckoo_union or a parallel or distributed plan (format version 2). False negatives come only from deleting a value never added, or more often than added, while it tests present (a false positive), and from deleting what cuckoo_add_new skipped or what a version 1 filter''s set-semantics aggregate merged; no check inside the filter tells a false positive from a member, so delete only values you know were added. A NULL value leaves it unchanged, a NULL filter gives NULL';

-- Membership ----------------------------------------------------------------

CREATE FUNCTION @extschema@.cuckoo_contains(sketch @extschema@.cuckoo, value anyelement) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cuckoo_contains' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_contains(@extschema@.cuckoo, anyelement) IS
  'False if the value is certainly not in the filter; true if it may be (a false positive with probability cuckoo_fpp). A NULL filter is empty (false); a NULL value gives NULL';

CREATE FUNCTION @extschema@.cuckoo_contained(value anyelement, sketch @extschema@.cuckoo) RETURNS boolean
  AS 'MODULE_PATHNAME', 'cuckoo_contained' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_contained(anyelement, @extschema@.cuckoo) IS
  'cuckoo_contains with the arguments swapped: may the value be in the filter?';

CREATE OPERATOR @extschema@.@> (
  LEFTARG = @extschema@.cuckoo, RIGHTARG = anyelement,
  FUNCTION = @extschema@.cuckoo_contains, COMMUTATOR = OPERATOR(@extschema@.<@),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.@> (@extschema@.cuckoo, anyelement) IS
  'filter @> value: the filter may contain the value (cuckoo_contains)';

CREATE OPERATOR @extschema@.<@ (
  LEFTARG = anyelement, RIGHTARG = @extschema@.cuckoo,
  FUNCTION = @extschema@.cuckoo_contained, COMMUTATOR = OPERATOR(@extschema@.@>),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.<@ (anyelement, @extschema@.cuckoo) IS
  'value <@ filter: the value may be in the filter (cuckoo_contains)';

CREATE FUNCTION @extschema@.cuckoo_count(sketch @extschema@.cuckoo, value anyelement) RETURNS integer
  AS 'MODULE_PATHNAME', 'cuckoo_count' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_count(@extschema@.cuckoo, anyelement) IS
  'Copies of the value''s fingerprint in its candidate buckets over all sub-filters (CF.COUNT): at least the times it was added and not deleted, more on a fingerprint collision; 0 for a NULL filter, NULL for a NULL value';

-- Combining -----------------------------------------------------------------

CREATE FUNCTION @extschema@.cuckoo_union(a @extschema@.cuckoo, b @extschema@.cuckoo) RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_union2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_union(@extschema@.cuckoo, @extschema@.cuckoo) IS
  'Union of two filters with the same fingerprint bits and bucket size (any n): a multiset sum, every fingerprint copy of b added to a''s sub-filters of its bucket count (to an appended sub-filter when none has room), so deletes stay safe and counts add up; the result has the lower format version of the two; a NULL side is ignored';

-- Reading -------------------------------------------------------------------

CREATE FUNCTION @extschema@.cuckoo_cardinality(sketch @extschema@.cuckoo) RETURNS bigint
  AS 'MODULE_PATHNAME', 'cuckoo_cardinality' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_cardinality(@extschema@.cuckoo) IS
  'Fingerprint copies held: the adds minus the successful deletes, where cuckoo_agg adds each distinct value once and a union adds the copies of both sides (exact, also after unions and growth, unless cuckoo_add_new skipped a value or the filter is format version 1, whose aggregates merged colliding values); 0 for a NULL filter';

CREATE FUNCTION @extschema@.cuckoo_fpp(sketch @extschema@.cuckoo) RETURNS double precision
  AS 'MODULE_PATHNAME', 'cuckoo_fpp' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_fpp(@extschema@.cuckoo) IS
  'Current false-positive probability: 1 - prod over sub-filters of (1 - 1/(2^f - 1))^(2 b load_i); 0 for an empty or NULL filter';

CREATE FUNCTION @extschema@.cuckoo_info(sketch @extschema@.cuckoo) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'cuckoo_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_info(@extschema@.cuckoo) IS
  'Buckets (of the first sub-filter), bucket size, fingerprint bits, sub-filters, capacity, count, load, size, false-positive probability, format version (2; 1 for filters built before aggregates kept a copy per distinct value), hash and element kind of a filter, as jsonb';

-- Aggregates ----------------------------------------------------------------
-- The state is a cuckoo value updated in place (cuckoo_agg's keeps a seen
-- set of 128-bit hashes: one copy per distinct value, core/cuckoo/cuckoo.h);
-- its read-only final function returns the stored form. SSPACE is a filter for ~100,000 values at
-- p = 0.01 (139 KB).

CREATE FUNCTION @extschema@.cuckoo_agg_trans(@extschema@.cuckoo, anyelement, bigint, double precision)
  RETURNS @extschema@.cuckoo
  AS 'MODULE_PATHNAME', 'cuckoo_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cuckoo_agg_trans(@extschema@.cuckoo, anyelement, bigint, double precision) IS
  'Transition function of cuckoo_agg(value, n, p)';
COMMENT ON FUNCTION @extschema@.cuckoo_union_trans(@extschema@.cuckoo, @extschema@.cuckoo) IS
  'Transition function of cuckoo_union and combine function of both cuckoo aggregates';
COMMENT ON FUNCTION @extschema@.cuckoo_final(@extschema@.cuckoo) IS
  'Final function of cuckoo_agg and cuckoo_union: the stored form of the state';

CREATE AGGREGATE @extschema@.cuckoo_agg(value anyelement, n bigint, p double precision) (
  SFUNC = @extschema@.cuckoo_agg_trans, STYPE = @extschema@.cuckoo, SSPACE = 140000,
  FINALFUNC = @extschema@.cuckoo_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.cuckoo_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cuckoo_agg(anyelement, bigint, double precision) IS
  'Cuckoo filter (bucket size 4) with one fingerprint copy per distinct non-NULL value (repeats removed by the value''s 128-bit hash, not by fingerprint, so deletes of added values are safe), sized for n values at false-positive rate p (the same n and p on every row); grows past n; NULL over no rows';

COMMENT ON AGGREGATE @extschema@.cuckoo_union(@extschema@.cuckoo) IS
  'Union of cuckoo filters with the same fingerprint bits and bucket size: a multiset sum of their copies (as cuckoo_union(a, b)); NULL inputs skipped; NULL over no rows';
