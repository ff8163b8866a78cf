-- sketch 0.2.0 -> 0.3.0, the cuckoo and counting_bloom piece (issue 32;
-- the release concatenates src/sql/upgrade--0.2.0--0.3.0.*.sql into
-- sketch--0.2.0--0.3.0.sql). No function, type or C symbol changes: the new
-- module writes cuckoo format version 2 (cuckoo_agg keeps one copy per
-- distinct value, unions add copies, deletes are safe; docs/cuckoo.md) and
-- reads version 1 values unchanged. What changes in the catalog is what the
-- comments promise. (No \echo guard here: the concatenated script has one.)

COMMENT ON TYPE @extschema@.cuckoo IS
  'Cuckoo filter for set membership with deletes: no false negatives for values added and not deleted (deleting a value never added, or more often than added, is the one call that can remove another member); false positives at a chosen rate p; f-bit fingerprints in buckets of b slots, one copy per add, sized by cuckoo_empty(n, p) or cuckoo_agg(value, n, p); grows by chained sub-filters; merge with cuckoo_union';
COMMENT ON FUNCTION @extschema@.cuckoo_add_new(@extschema@.cuckoo, anyelement) IS
  'The filter with the value added unless its fingerprint may already be present (CF.ADDNX: fingerprint set semantics, so a value skipped this way shares another value''s copy, and deleting either can make the other absent: use cuckoo_add or cuckoo_agg for filters you will delete from); a NULL value leaves it unchanged, a NULL filter gives NULL';
COMMENT ON FUNCTION @extschema@.cuckoo_delete(@extschema@.cuckoo, anyelement) IS
  'The filter with one copy of the value''s fingerprint removed; unchanged when absent, and when sub-filters of two sizes hold the fingerprint in its buckets (which holds the value''s own copy is unknown: it stays maybe-present). Deleting a value that was added (and not yet deleted as often) never makes another member absent, after cuckoo_add, cuckoo_agg, cuckoo_union or a parallel or distributed plan (format version 2). False negatives come only from deleting a value never added, or more often than added, while it tests present (a false positive), and from deleting what cuckoo_add_new skipped or what a version 1 filter''s set-semantics aggregate merged; no check inside the filter tells a false positive from a member, so delete only values you know were added. A NULL value leaves it unchanged, a NULL filter gives NULL';
COMMENT ON FUNCTION @extschema@.cuckoo_union(@extschema@.cuckoo, @extschema@.cuckoo) IS
  'Union of two filters with the same fingerprint bits and bucket size (any n): a multiset sum, every fingerprint copy of b added to a''s sub-filters of its bucket count (to an appended sub-filter when none has room), so deletes stay safe and counts add up; the result has the lower format version of the two; a NULL side is ignored';
COMMENT ON FUNCTION @extschema@.cuckoo_cardinality(@extschema@.cuckoo) IS
  'Fingerprint copies held: the adds minus the successful deletes, where cuckoo_agg adds each distinct value once and a union adds the copies of both sides (exact, also after unions and growth, unless cuckoo_add_new skipped a value or the filter is format version 1, whose aggregates merged colliding values); 0 for a NULL filter';
COMMENT ON FUNCTION @extschema@.cuckoo_info(@extschema@.cuckoo) IS
  'Buckets (of the first sub-filter), bucket size, fingerprint bits, sub-filters, capacity, count, load, size, false-positive probability, format version (2; 1 for filters built before aggregates kept a copy per distinct value), hash and element kind of a filter, as jsonb';
COMMENT ON AGGREGATE @extschema@.cuckoo_agg(anyelement, bigint, double precision) IS
  'Cuckoo filter (bucket size 4) with one fingerprint copy per distinct non-NULL value (repeats removed by the value''s 128-bit hash, not by fingerprint, so deletes of added values are safe), sized for n values at false-positive rate p (the same n and p on every row); grows past n; NULL over no rows';
COMMENT ON AGGREGATE @extschema@.cuckoo_union(@extschema@.cuckoo) IS
  'Union of cuckoo filters with the same fingerprint bits and bucket size: a multiset sum of their copies (as cuckoo_union(a, b)); NULL inputs skipped; NULL over no rows';
COMMENT ON TYPE @extschema@.counting_bloom IS
  'Counting Bloom filter: set membership with deletes; m 4-bit counters and k hashes at bloom''s positions, sized by counting_bloom_empty(n, p) or counting_bloom_agg(value, n, p); no false negatives for members added and not deleted, unless a value is deleted that was never added (or more often than added) while it tests present';
COMMENT ON FUNCTION @extschema@.counting_bloom_delete(@extschema@.counting_bloom, anyelement) IS
  'The filter with the value deleted once (its k counters decremented; saturated ones stay at 15); unchanged when a counter is 0 (the value is certainly absent). The one call that can create a false negative: deleting a value that was never added, or more often than added (each row of counting_bloom_agg and each add counts once, a union adds the counts), while it tests present (a false positive, probability counting_bloom_fpp): it decrements other members'' counters. No check inside the filter can tell that case from a member, so delete only values you know were added; deleting values added, as often as added, never makes another member absent. A NULL value leaves it unchanged, a NULL filter gives NULL';
